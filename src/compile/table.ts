// rules -> compiled table: the flat byte image the WebAssembly kernel (assembly/match.ts)
// matches against. This comment is the one description of the format; the offsets are the
// constants of ./layout.ts, which the kernel imports too.
//
// All integers are little-endian u32; every offset is relative to the start of the table,
// so the image is position-independent (toBytes/fromBytes are plain copies).
//
//   header (HEADER_SIZE bytes)
//     magic "RWT2" | total length | flags (FLAG_RFC: normalise URLs, /robots.txt allowed)
//     rule count | rules offset | root node offset (0: no rules) | pool offset | pool length
//     filter offset (0: none) | reserved
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
//     - prefix rule: strongest rule that matches every path passing the node: its literal
//       part is the node's path and nothing or only '*' (and a final '$') follows
//     - end rule: strongest rule "this node's path + $" (matches when the path ends here)
//     - wildcard list: WILD_SIZE entries (strength number, key index), ascending strength, of
//       the rules whose literal part ends here and whose remainder has a literal segment after
//       a '*'; only rules on the walked path are ever tried
//     - children sorted by first byte
//   filter (when the table has FILTER_MIN_RULES or more wildcard rules): each wildcard rule's
//     key is the longest literal segment of its remainder, which must occur in the path for
//     the rule to match. One SIMD pass over a path finds which keys occur; a rule whose key
//     does not is skipped without being tried.
//     key count | keys offset | nibble tables (16 + 16 bytes each) for the first bytes and
//     the second bytes of keys of two or more bytes, and for one-byte keys | first byte of
//     each key (padded to 4) | keys: KEY_SIZE each (pool offset, length), sorted by first byte
//
// Cost per path: one walk down the trie (bounded by the path length, independent of the
// number of literal rules), plus, when the walk reaches wildcard rules, one filter pass and
// exact matching of the rules whose key occurs, tried in strength order and only while they
// could still beat the best match found.

import {
  FILTER_FIRST_BYTES, FILTER_FIRST_HI, FILTER_FIRST_LO, FILTER_KEY_COUNT, FILTER_KEYS_OFF, FILTER_SECOND_HI,
  FILTER_SECOND_LO, FILTER_SINGLE_HI, FILTER_SINGLE_LO, FLAG_RFC, HDR_FILTER_OFF, HDR_FLAGS, HDR_MAGIC,
  HDR_POOL_LEN, HDR_POOL_OFF, HDR_ROOT_OFF, HDR_RULE_COUNT, HDR_RULES_OFF, HDR_TOTAL_LEN, HEADER_SIZE,
  KEY_LEN, KEY_POOL_OFF, KEY_SIZE, MAX_FILTER_KEYS, NODE_CHILD_COUNT, NODE_END_RULE, NODE_FIXED_SIZE,
  NODE_LABEL_LEN, NODE_LABEL_OFF, NODE_PREFIX_RULE, NODE_WILD_COUNT, NODE_WILD_OFF, NO_KEY, NO_RULE,
  RULE_ALLOW_BIT, RULE_DERIVED_BIT, RULE_ID, RULE_LEN_SHIFT, RULE_LINE, RULE_PAT_LEN_KIND, RULE_PAT_OFF, RULE_SIZE,
  TABLE_MAGIC, WILD_KEY, WILD_SIZE, WILD_STRENGTH,
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

/** Below this many wildcard rules, trying each one directly is cheaper than a filter pass. */
const FILTER_MIN_RULES = 3;

interface TrieNode {
  depth: number;
  /** Pool offset of a pattern that starts with this node's path. */
  ref: number;
  children: TrieNode[];
  prefixRule: number;
  endRule: number;
  /** Wildcard rules: strength numbers, ascending. */
  wild: number[];
  offset: number;
}

interface KeyInfo {
  ref: number;
  prefixRule: number;
  endRule: number;
  wild: number[];
}

/** How a pattern matches: its literal part (a trie path) and what follows it. */
interface Shape {
  literal: string;
  kind: 'prefix' | 'end' | 'wild';
  /** Longest literal segment after the first '*' (wildcard rules only). */
  key: string;
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

function shapeOf(pattern: string): Shape {
  const star = pattern.indexOf('*');
  const anchored = pattern.charCodeAt(pattern.length - 1) === 0x24;
  if (star < 0) {
    return anchored ? { literal: pattern.slice(0, -1), kind: 'end', key: '' } : { literal: pattern, kind: 'prefix', key: '' };
  }
  const rest = anchored ? pattern.slice(star, -1) : pattern.slice(star);
  let key = '';
  for (const segment of rest.split('*')) if (segment.length > key.length) key = segment;
  // Nothing but '*' (and a final '$') after the literal part: it matches every path that
  // starts with the literal part, like a prefix rule (of its own, longer, priority).
  return { literal: pattern.slice(0, star), kind: key.length === 0 ? 'prefix' : 'wild', key };
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

/**
 * Two 16-byte nibble tables that test membership in a byte set with two lookups: byte c is
 * a member when lo[c & 15] & hi[c >> 4] != 0. Exact while the set's rows (one per high
 * nibble) fall into at most 8 distinct patterns; beyond that, rows are merged and the test
 * answers for a superset (fine for a filter: extra candidates are checked exactly).
 */
export function nibbleTables(bytes: Iterable<number>): { lo: Uint8Array; hi: Uint8Array } {
  const rows = new Array<number>(16).fill(0);
  for (const b of bytes) rows[b >> 4] |= 1 << (b & 15);
  let groups = [...new Set(rows.filter((row) => row !== 0))];
  while (groups.length > 8) {
    // Merge the two patterns whose union adds the fewest members.
    let best = [0, 1];
    let cost = Infinity;
    for (let a = 0; a < groups.length; a++) {
      for (let b = a + 1; b < groups.length; b++) {
        const union = groups[a] | groups[b];
        const added = popcount(union) * 2 - popcount(groups[a]) - popcount(groups[b]);
        if (added < cost) [cost, best] = [added, [a, b]];
      }
    }
    const merged = groups[best[0]] | groups[best[1]];
    groups = groups.filter((_, i) => i !== best[0] && i !== best[1]).concat(merged);
  }
  const lo = new Uint8Array(16);
  const hi = new Uint8Array(16);
  groups.forEach((pattern, bit) => {
    for (let l = 0; l < 16; l++) if (pattern & (1 << l)) lo[l] |= 1 << bit;
  });
  rows.forEach((row, h) => {
    if (row === 0) return;
    // The row's own pattern when it survived merging (exact), else the group it was merged into.
    const exact = groups.indexOf(row);
    hi[h] = 1 << (exact >= 0 ? exact : groups.findIndex((pattern) => (pattern & row) === row));
  });
  return { lo, hi };
}

function popcount(x: number): number {
  let n = 0;
  for (; x !== 0; x &= x - 1) n++;
  return n;
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

  // Literal part of each pattern -> what hangs off its trie node; wildcard keys.
  const info = new Map<string, KeyInfo>();
  const ruleKey = new Map<number, string>();
  rules.forEach((rule, strength) => {
    const shape = shapeOf(rule.pattern);
    let data = info.get(shape.literal);
    if (data === undefined) {
      data = { ref: patternOffset[strength], prefixRule: NO_RULE, endRule: NO_RULE, wild: [] };
      info.set(shape.literal, data);
    }
    // Strength order: the first rule to claim a slot is the strongest.
    if (shape.kind === 'wild') {
      data.wild.push(strength);
      ruleKey.set(strength, shape.key);
    } else if (shape.kind === 'end') {
      data.endRule = Math.min(data.endRule, strength);
    } else {
      data.prefixRule = Math.min(data.prefixRule, strength);
    }
  });

  // Filter keys, sorted by first byte; each points at its first occurrence in the pool.
  const keyIndex = new Map<string, number>();
  const keyRef = new Map<string, number>();
  if (ruleKey.size >= FILTER_MIN_RULES) {
    for (const [strength, key] of ruleKey) {
      if (!keyRef.has(key)) {
        keyRef.set(key, patternOffset[strength] + rules[strength].pattern.indexOf(key, rules[strength].pattern.indexOf('*')));
      }
    }
    const keys = [...keyRef.keys()].sort().slice(0, MAX_FILTER_KEYS);
    keys.forEach((key, i) => keyIndex.set(key, i));
  }

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
  for (const node of ordered) cursor += WILD_SIZE * node.wild.length;
  const keyCount = keyIndex.size;
  const filterOffset = keyCount > 0 ? cursor : 0;
  if (keyCount > 0) cursor += FILTER_FIRST_BYTES + ((keyCount + 3) & ~3) + KEY_SIZE * keyCount;
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
  put(HDR_FILTER_OFF, filterOffset);

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
      put(wildOffset + WILD_STRENGTH, strength);
      put(wildOffset + WILD_KEY, keyIndex.get(ruleKey.get(strength)!) ?? NO_KEY);
      wildOffset += WILD_SIZE;
    }
  }

  if (keyCount > 0) {
    const keys = [...keyIndex.keys()];
    const multi = keys.filter((key) => key.length >= 2);
    const tables: [number, number, Iterable<number>][] = [
      [FILTER_FIRST_LO, FILTER_FIRST_HI, multi.map((key) => key.charCodeAt(0))],
      [FILTER_SECOND_LO, FILTER_SECOND_HI, multi.map((key) => key.charCodeAt(1))],
      [FILTER_SINGLE_LO, FILTER_SINGLE_HI, keys.filter((key) => key.length === 1).map((key) => key.charCodeAt(0))],
    ];
    for (const [loAt, hiAt, set] of tables) {
      const { lo, hi } = nibbleTables(set);
      bytes.set(lo, filterOffset + loAt);
      bytes.set(hi, filterOffset + hiAt);
    }
    const keysOffset = filterOffset + FILTER_FIRST_BYTES + ((keyCount + 3) & ~3);
    put(filterOffset + FILTER_KEY_COUNT, keyCount);
    put(filterOffset + FILTER_KEYS_OFF, keysOffset);
    keys.forEach((key, i) => {
      bytes[filterOffset + FILTER_FIRST_BYTES + i] = key.charCodeAt(0);
      put(keysOffset + i * KEY_SIZE + KEY_POOL_OFF, poolOffset + keyRef.get(key)!);
      put(keysOffset + i * KEY_SIZE + KEY_LEN, key.length);
    });
  }
  return bytes;
}
