// rules -> compiled table: the flat byte image the WebAssembly kernel (assembly/match.ts)
// matches against. This comment is the one description of the format; the offsets are the
// constants of ./layout.ts, which the kernel imports too.
//
// All integers are little-endian u32; every offset is relative to the start of the table,
// so the image is position-independent (toBytes/fromBytes are plain copies).
//
//   header (HEADER_SIZE bytes)
//     magic "RWT1" | total length | flags (FLAG_RFC: normalise URLs, /robots.txt allowed)
//     rule count | rules offset | root node offset (0: no rules) | pool offset | pool length
//   rules: RULE_SIZE bytes each, ordered by strength: longest pattern first, allow before
//     disallow at equal length, then file order. A rule's index in this order is its
//     "strength number": of all rules matching a path, the smallest number decides.
//     id (the caller's rule index) | line | pattern offset | pattern length << RULE_LEN_SHIFT with
//     the RULE_ALLOW_BIT and RULE_DERIVED_BIT flags (derived: made by google mode's index.htm rule)
//   pool: the normalised patterns, concatenated (ASCII: normalisation escapes every other byte)
//   nodes: a radix trie over the literal part of each pattern (up to its first '*', and
//     without a final '$'). A node's label is the run of pattern bytes leading to it from its
//     parent, stored as an offset into the pool (labels are substrings of patterns).
//     label offset | label length | prefix rule | end rule | wildcard list offset |
//     wildcard count | child count | child first bytes (padded to 4) | child offsets
//     - prefix rule: strongest rule whose whole pattern is this node's path (matches every
//       path that passes the node), or NO_RULE
//     - end rule: strongest rule "this node's path + $" (matches when the path ends here)
//     - wildcard list: strength numbers, ascending, of the rules whose literal part ends here
//       and whose remainder starts with '*'; only rules on the walked path are ever tried
//     - children sorted by first byte
//
// Cost per path: one walk down the trie (bounded by the path length, independent of the
// number of literal rules) plus the wildcard rules hanging off the nodes passed, tried in
// strength order and only while they could still beat the best match found.

import {
  FLAG_RFC, HDR_FLAGS, HDR_MAGIC, HDR_POOL_LEN, HDR_POOL_OFF, HDR_ROOT_OFF, HDR_RULE_COUNT, HDR_RULES_OFF,
  HDR_TOTAL_LEN, HEADER_SIZE, NODE_CHILD_COUNT, NODE_END_RULE, NODE_FIXED_SIZE, NODE_LABEL_LEN, NODE_LABEL_OFF,
  NODE_PREFIX_RULE, NODE_WILD_COUNT, NODE_WILD_OFF, NO_RULE, RULE_ID, RULE_LINE, RULE_PAT_LEN_KIND, RULE_PAT_OFF,
  RULE_ALLOW_BIT, RULE_DERIVED_BIT, RULE_LEN_SHIFT, RULE_SIZE, TABLE_MAGIC,
} from './layout.js';
import type { Mode } from '../robots/options.js';

/** A rule ready for compilation: its pattern already normalised for the mode. */
export interface TableRule {
  /** Caller's index for the rule, reported back by explain. */
  id: number;
  line: number;
  allow: boolean;
  /** Made by the google-mode index.htm rule from the rule `id`. */
  derived: boolean;
  /** Normalised pattern (ASCII). */
  pattern: string;
}

interface TrieNode {
  depth: number;
  /** Pool offset of a pattern that starts with this node's path. */
  ref: number;
  children: TrieNode[];
  prefixRule: number;
  endRule: number;
  wild: number[];
  offset: number;
}

interface KeyInfo {
  ref: number;
  prefixRule: number;
  endRule: number;
  wild: number[];
}

function newNode(depth: number, ref: number): TrieNode {
  return { depth, ref, children: [], prefixRule: NO_RULE, endRule: NO_RULE, wild: [], offset: 0 };
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Strength order: longer pattern first, allow first at equal length, then caller order. */
function byStrength(a: TableRule, b: TableRule): number {
  return b.pattern.length - a.pattern.length || Number(b.allow) - Number(a.allow) || a.id - b.id;
}

/** Sorted distinct keys -> radix trie (one pass, keeping the rightmost path on a stack). */
function buildTrie(keys: string[], info: Map<string, KeyInfo>): TrieNode {
  const root = newNode(0, 0);
  const stack: TrieNode[] = [root];
  let previous = '';
  for (const key of keys) {
    const data = info.get(key)!;
    if (key.length === 0) {
      Object.assign(root, { prefixRule: data.prefixRule, endRule: data.endRule, wild: data.wild });
      continue;
    }
    const shared = commonPrefix(previous, key);
    let popped: TrieNode | undefined;
    while (stack[stack.length - 1].depth > shared) popped = stack.pop();
    let top = stack[stack.length - 1];
    if (top.depth < shared) {
      // `popped` hangs below depth `shared`: split its edge there.
      const middle = newNode(shared, popped!.ref);
      top.children[top.children.length - 1] = middle;
      middle.children.push(popped!);
      stack.push(middle);
      top = middle;
    }
    const leaf = newNode(key.length, data.ref);
    leaf.prefixRule = data.prefixRule;
    leaf.endRule = data.endRule;
    leaf.wild = data.wild;
    top.children.push(leaf);
    stack.push(leaf);
    previous = key;
  }
  return root;
}

function nodeSize(node: TrieNode): number {
  const count = node.children.length;
  return NODE_FIXED_SIZE + ((count + 3) & ~3) + 4 * count;
}

/** Compiles rules into a table image. Rules with an empty pattern never decide and are left out. */
export function buildTable(input: readonly TableRule[], mode: Mode): Uint8Array {
  const rules = input.filter((r) => r.pattern.length > 0).sort(byStrength);

  // Pool: patterns in strength order.
  let poolLength = 0;
  const patternOffset: number[] = [];
  for (const r of rules) {
    patternOffset.push(poolLength);
    poolLength += r.pattern.length;
  }

  // Literal part of each pattern -> what hangs off its trie node.
  const info = new Map<string, KeyInfo>();
  rules.forEach((rule, strength) => {
    const pattern = rule.pattern;
    const star = pattern.indexOf('*');
    const endAnchored = star < 0 && pattern.charCodeAt(pattern.length - 1) === 0x24;
    const key = star >= 0 ? pattern.slice(0, star) : endAnchored ? pattern.slice(0, -1) : pattern;
    let data = info.get(key);
    if (data === undefined) {
      data = { ref: patternOffset[strength], prefixRule: NO_RULE, endRule: NO_RULE, wild: [] };
      info.set(key, data);
    }
    // Strength order: the first rule to claim a slot is the strongest.
    if (star >= 0) data.wild.push(strength);
    else if (endAnchored) data.endRule = Math.min(data.endRule, strength);
    else data.prefixRule = Math.min(data.prefixRule, strength);
  });

  const rulesOffset = HEADER_SIZE;
  const poolOffset = rulesOffset + rules.length * RULE_SIZE;
  let cursor = (poolOffset + poolLength + 3) & ~3;

  let root: TrieNode | undefined;
  const ordered: TrieNode[] = [];
  if (rules.length > 0) {
    root = buildTrie([...info.keys()].sort(), info);
    const pending = [root];
    while (pending.length > 0) {
      const node = pending.pop()!;
      node.offset = cursor;
      cursor += nodeSize(node);
      ordered.push(node);
      for (let i = node.children.length - 1; i >= 0; i--) pending.push(node.children[i]);
    }
  }
  let wildOffset = cursor;
  for (const node of ordered) cursor += 4 * node.wild.length;
  const total = cursor;

  const bytes = new Uint8Array(total);
  const view = new DataView(bytes.buffer);
  const put = (at: number, value: number): void => view.setUint32(at, value, true);

  put(HDR_MAGIC, TABLE_MAGIC);
  put(HDR_TOTAL_LEN, total);
  put(HDR_FLAGS, mode === 'rfc' ? FLAG_RFC : 0);
  put(HDR_RULE_COUNT, rules.length);
  put(HDR_RULES_OFF, rulesOffset);
  put(HDR_ROOT_OFF, root === undefined ? 0 : root.offset);
  put(HDR_POOL_OFF, poolOffset);
  put(HDR_POOL_LEN, poolLength);

  rules.forEach((rule, strength) => {
    const at = rulesOffset + strength * RULE_SIZE;
    put(at + RULE_ID, rule.id);
    put(at + RULE_LINE, rule.line);
    put(at + RULE_PAT_OFF, poolOffset + patternOffset[strength]);
    put(at + RULE_PAT_LEN_KIND, ((rule.pattern.length << RULE_LEN_SHIFT) | (rule.derived ? RULE_DERIVED_BIT : 0) | (rule.allow ? RULE_ALLOW_BIT : 0)) >>> 0);
    const base = poolOffset + patternOffset[strength];
    const pattern = rule.pattern;
    for (let i = 0; i < pattern.length; i++) bytes[base + i] = pattern.charCodeAt(i);
  });

  const parentDepth = new Map<TrieNode, number>();
  for (const node of ordered) for (const child of node.children) parentDepth.set(child, node.depth);
  for (const node of ordered) {
    const at = node.offset;
    const from = parentDepth.get(node) ?? 0;
    put(at + NODE_LABEL_OFF, poolOffset + node.ref + from);
    put(at + NODE_LABEL_LEN, node.depth - from);
    put(at + NODE_PREFIX_RULE, node.prefixRule);
    put(at + NODE_END_RULE, node.endRule);
    put(at + NODE_WILD_OFF, node.wild.length > 0 ? wildOffset : 0);
    put(at + NODE_WILD_COUNT, node.wild.length);
    put(at + NODE_CHILD_COUNT, node.children.length);
    const count = node.children.length;
    const firstBytes = at + NODE_FIXED_SIZE;
    const offsets = firstBytes + ((count + 3) & ~3);
    node.children.forEach((child, k) => {
      bytes[firstBytes + k] = bytes[poolOffset + child.ref + node.depth];
      put(offsets + 4 * k, child.offset);
    });
    for (const strength of node.wild) {
      put(wildOffset, strength);
      wildOffset += 4;
    }
  }
  return bytes;
}
