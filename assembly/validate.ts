// Checks a table image before Matcher.fromBytes uses it. An image may come from storage or
// another process, so a damaged one must be refused, not walked. fromBytes first checks the
// image's checksum (checksum.ts), which refuses accidental damage; anyone can recompute a
// checksum, though, so this check holds for any image whatever its checksum: every offset,
// length, rule number and key index the matcher (match.ts, automaton.ts, index.ts) follows is
// checked to stay inside the image; the nodes form a tree whose every child lies after its
// parent, so a walk always ends; a node's wildcard rules are at least as long as its depth,
// where the matcher starts on their tails; and an automaton's failure links and outputs lead
// to shallower nodes, so that its passes end and stay linear. The format is listed in
// src/wasm/abi.ts.

import {
  FILTER_BUCKET_BITS, FILTER_BUCKET_BITS_MASK, FILTER_BUCKETS_OFF, FILTER_EXACT_GATES, FILTER_KEY_COUNT, FILTER_KEYS_OFF,
  FILTER_MIN_BUCKET_BITS, FILTER_SINGLES,
  FILTER_SINGLES_SIZE, FILTER_SIZE, HDR_FILTER_OFF, HDR_KINDS_OFF, HDR_POOL_LEN, HDR_POOL_OFF, HDR_ROOT_OFF,
  HDR_RULE_COUNT, HDR_RULES_OFF, HEADER_SIZE, KEY_GATE, KEY_LEN, KEY_POOL_OFF, KEY_RULE_COUNT,
  KEY_RULE_SIZE, KEY_RULE_STRENGTH, KEY_RULES_OFF, KEY_SHARED, KEY_SIZE, MAX_FILTER_KEYS, NO_RULE, NODE_COUNT_MASK,
  FILTER_LAZY, FILTER_AUTOMATA, MAX_LAZY_KEYS, KEY_RULE_WORD, KEY_RULE_RECORD, KEY_RULE_ANCHORED, SEGMENTS_COUNT,
  SEGMENTS_KEYS, SEGMENTS_LITERAL, AUTOMATON_FIRST_CHILD, AUTOMATON_NODES, NO_KEY,
  NODE_CHILD_AREA, NODE_HAS_END, NODE_HAS_PREFIX, NODE_HAS_WILD, NODE_KEYED_BIT, NODE_LABEL_CHILDREN, NODE_LABEL_OFF,
  NODE_LABEL_SHIFT, RULE_PAT_END, RULE_SIZE, TABLE_BAD_FILTER, TABLE_BAD_HEADER, TABLE_BAD_NODES, TABLE_BAD_RULES,
  TABLE_OK, WILD_SIZE, CHILD_LABEL_LONG, CHILD_LABEL_SHIFT, CHILD_OFFSET_MASK, FLAG_WIDE_CHILDREN, HDR_FLAGS, NODE_DENSE,
  FLAG_LINEAR,
} from '../src/wasm/abi';
import { automatonSize } from './automaton';
import { childAreaBytes, childIndexBytes } from './node';
import { u32At } from './words';

/** Bytes of the work area validateTable needs for a `size`-byte image: a u32 per 4 bytes (f64: never wraps). */
export function validateWorkBytes(size: f64): f64 {
  return Math.floor(size / 4) * 4 + 8;
}

// What the work area holds for each 4-byte position of the nodes: not a node, a node no
// parent has named yet, or a node of known depth (depth + NODE_AT_DEPTH).
const NOT_A_NODE: u32 = 0;
const NODE_UNNAMED: u32 = 1;
const NODE_AT_DEPTH: u32 = 2;

let image: usize = 0;
let imageSize: u64 = 0;
let poolStart: u64 = 0;
let poolEnd: u64 = 0;
let ruleCount: u32 = 0;
// The header's offsets (validHeader).
let rulesOff: u64 = 0;
let rootOff: u64 = 0;
let filterOff: u64 = 0;
/** Where the nodes end: the filter, or the image's end. */
let nodesEnd: u64 = 0;

/** The u32 at offset `at` of the image. */
// @ts-ignore: decorator
@inline function imageU32(at: u64): u32 {
  return u32At(image + <usize>at);
}

/** [at, at + len) lies inside the image (64-bit sums: no wrap-around). */
// @ts-ignore: decorator
@inline function inImage(at: u64, len: u64): bool {
  return at + len <= imageSize;
}

// @ts-ignore: decorator
@inline function inPool(at: u64, len: u64): bool {
  return at >= poolStart && at + len <= poolEnd;
}

/** Where the pattern of rule `r` (which must be < ruleCount) ends. */
// @ts-ignore: decorator
@inline function patternEnd(r: u32): u64 {
  return <u64>imageU32(rulesOff + <u64>r * RULE_SIZE + RULE_PAT_END);
}

/** Length of the pattern of rule `r` (which must be < ruleCount; the rules were checked). */
// @ts-ignore: decorator
@inline function patternLength(r: u32): u64 {
  return patternEnd(r) - (r == 0 ? poolStart : patternEnd(r - 1));
}

/** Where the fields of the node at `at` start: after its child area. */
// @ts-ignore: decorator
@inline function fieldsStart(at: u64, labelChildren: u32): u64 {
  return at + NODE_CHILD_AREA + <u64>childAreaBytes(labelChildren);
}

/** Where the fields of the node at `at` end (and its wildcard list starts). */
// @ts-ignore: decorator
@inline function fieldsEnd(at: u64, labelChildren: u32): u64 {
  return fieldsStart(at, labelChildren) + 4 * <u64>popcnt(labelChildren & (NODE_HAS_PREFIX | NODE_HAS_END | NODE_HAS_WILD));
}

/** Length of the wildcard list of a node whose fields end at `end`. */
// @ts-ignore: decorator
@inline function wildCountOf(labelChildren: u32, end: u64): u64 {
  return (labelChildren & NODE_HAS_WILD) != 0 ? <u64>(imageU32(end - 4) >>> 1) : 0;
}

// @ts-ignore: decorator
@inline function ruleOrNone(r: u32): bool {
  return r == NO_RULE || r < ruleCount;
}

/**
 * TABLE_OK when the `size`-byte image at `table` (whose magic and length the caller checked)
 * is safe for the matcher, or the TABLE_BAD_* code of the first part found damaged. `work`
 * holds validateWorkBytes(size) bytes.
 */
export function validateTable(table: usize, size: u32, work: usize): i32 {
  image = table;
  imageSize = size;
  if (!validHeader()) return TABLE_BAD_HEADER;
  if (!validRules()) return TABLE_BAD_RULES;
  if (rootOff != 0) {
    memory.fill(work, 0, <usize>validateWorkBytes(<f64>size));
    if (!nodesTile(work) || !nodesFormTree(work)) return TABLE_BAD_NODES;
  }
  if (filterOff != 0 && !validFilter(work)) return TABLE_BAD_FILTER;
  return TABLE_OK;
}

/** Whether the header's parts lie in the image, in the format's order: rules, kinds, pool, nodes, filter. */
function validHeader(): bool {
  if (imageSize < <u64>HEADER_SIZE) return false;
  // A linear table is made in its own thread only (toBytes writes the full one): an image that
  // claims to be one did not come from toBytes.
  if ((imageU32(HDR_FLAGS) & FLAG_LINEAR) != 0) return false;
  ruleCount = imageU32(HDR_RULE_COUNT);
  rulesOff = <u64>imageU32(HDR_RULES_OFF);
  const kindsOff = <u64>imageU32(HDR_KINDS_OFF);
  poolStart = <u64>imageU32(HDR_POOL_OFF);
  poolEnd = poolStart + <u64>imageU32(HDR_POOL_LEN);
  rootOff = <u64>imageU32(HDR_ROOT_OFF);
  filterOff = <u64>imageU32(HDR_FILTER_OFF);
  nodesEnd = filterOff != 0 ? filterOff : imageSize;
  if (rulesOff < <u64>HEADER_SIZE || (rulesOff & 3) != 0 || !inImage(rulesOff, <u64>ruleCount * RULE_SIZE)) return false;
  if (kindsOff < rulesOff + <u64>ruleCount * RULE_SIZE || poolStart < kindsOff + <u64>ruleCount || poolEnd > imageSize) return false;
  if ((rootOff & 3) != 0 || (filterOff & 3) != 0 || (rootOff != 0 && rootOff < poolEnd)) return false;
  return filterOff == 0 || (filterOff >= poolEnd && inImage(filterOff, FILTER_SIZE) && (rootOff == 0 || filterOff > rootOff));
}

/** Whether each pattern starts where the previous one ends: the ends rise through the pool. */
function validRules(): bool {
  let previousEnd = poolStart;
  for (let r: u32 = 0; r < ruleCount; r++) {
    const end = patternEnd(r);
    if (end <= previousEnd || end > poolEnd) return false;
    previousEnd = end;
  }
  return true;
}

/**
 * Pass 1 over the nodes: they tile [rootOff, nodesEnd), each well formed (validNode); marks
 * where each starts in the work area.
 */
function nodesTile(work: usize): bool {
  let at = rootOff;
  while (at < nodesEnd) {
    const end = validNode(at);
    if (end == 0) return false;
    store<u32>(work + <usize>at, NODE_UNNAMED);
    at = end;
  }
  return at == nodesEnd;
}

/**
 * Whether the node at `at` is well formed: it and its fields lie before nodesEnd, its label in
 * the pool, its rules are rules, a keyed bit has a filter, and a child index gives ranks below
 * its entries; returns where it ends, or 0.
 */
function validNode(at: u64): u64 {
  if (at + NODE_CHILD_AREA > nodesEnd) return 0;
  const labelChildren = imageU32(at + NODE_LABEL_CHILDREN);
  const count = <i32>(labelChildren & NODE_COUNT_MASK);
  const list = fieldsEnd(at, labelChildren);
  if (list > nodesEnd) return 0;
  const wildCount = wildCountOf(labelChildren, list);
  const end = list + WILD_SIZE * wildCount;
  if (end > nodesEnd) return 0;
  if (!inPool(<u64>imageU32(at + NODE_LABEL_OFF), labelChildren >>> NODE_LABEL_SHIFT)) return 0;
  // The fields in their order: prefix rule, end rule, wildcard list.
  let field = fieldsStart(at, labelChildren);
  if ((labelChildren & NODE_HAS_PREFIX) != 0) {
    if (!ruleOrNone(imageU32(field))) return 0;
    field += 4;
  }
  if ((labelChildren & NODE_HAS_END) != 0 && !ruleOrNone(imageU32(field))) return 0;
  if ((labelChildren & NODE_HAS_WILD) != 0 && (imageU32(list - 4) & NODE_KEYED_BIT) != 0 && filterOff == 0) return 0;
  if ((labelChildren & NODE_DENSE) != 0) {
    if (count == 0) return 0;
  } else if (count > 16) {
    // A bitmap index: the rank it gives must stay below the number of child entries.
    let bits = 0;
    for (let w: u64 = 0; w < 32; w += 8) bits += <i32>popcnt(load<u64>(image + <usize>(at + NODE_CHILD_AREA + w)));
    if (bits != count) return 0;
  }
  for (let w: u64 = 0; w < wildCount; w++) if (imageU32(list + w * WILD_SIZE) >= ruleCount) return 0;
  return end;
}

/**
 * Pass 2 over the nodes, in layout order, so a parent comes before its children: each child is
 * a node after its parent, named by no other, and its entry gives its label's length; each
 * node's depth bounds its wildcard rules. The walk starts after the root's label, which must be
 * empty or the "/" every path starts with.
 */
function nodesFormTree(work: usize): bool {
  const rootLabel = imageU32(rootOff + NODE_LABEL_CHILDREN) >>> NODE_LABEL_SHIFT;
  if (rootLabel > 1 || (rootLabel == 1 && load<u8>(image + <usize>imageU32(rootOff + NODE_LABEL_OFF)) != 0x2f)) return false;
  store<u32>(work + <usize>rootOff, NODE_AT_DEPTH + rootLabel);
  const wide = (imageU32(HDR_FLAGS) & FLAG_WIDE_CHILDREN) != 0;
  let at = rootOff;
  while (at < nodesEnd) {
    const state = load<u32>(work + <usize>at);
    if (state < NODE_AT_DEPTH) return false; // no parent: nothing reaches it
    const depth = <u64>(state - NODE_AT_DEPTH);
    const labelChildren = imageU32(at + NODE_LABEL_CHILDREN);
    if (!nameChildren(work, at, labelChildren, depth, wide)) return false;
    const list = fieldsEnd(at, labelChildren);
    const wildCount = wildCountOf(labelChildren, list);
    for (let w: u64 = 0; w < wildCount; w++) if (patternLength(imageU32(list + w * WILD_SIZE)) < depth) return false;
    at = list + WILD_SIZE * wildCount;
  }
  return true;
}

/** Whether the children of the node at `at` (at `depth`) are sound; records their depths in the work area. */
function nameChildren(work: usize, at: u64, labelChildren: u32, depth: u64, wide: bool): bool {
  const count = <i32>(labelChildren & NODE_COUNT_MASK);
  const dense = (labelChildren & NODE_DENSE) != 0;
  // A dense area's entries follow its first byte, and may be 0 (no child for that byte).
  const entries = at + NODE_CHILD_AREA + (dense ? 4 : <u64>childIndexBytes(count));
  for (let c = 0; c < count; c++) {
    const entry = imageU32(entries + 4 * <u64>c);
    if (dense && entry == 0) continue;
    const child = <u64>(wide ? entry : entry & CHILD_OFFSET_MASK);
    if (child <= at || child >= nodesEnd || (child & 3) != 0) return false;
    if (load<u32>(work + <usize>child) != NODE_UNNAMED) return false;
    // A path to a node spells a pattern's literal part, so it is no longer than the pool;
    // a child's label is never empty (the walk compares labels of 1 to 16 bytes in one step).
    const labelLen = <u64>(imageU32(child + NODE_LABEL_CHILDREN) >>> NODE_LABEL_SHIFT);
    const childDepth = depth + labelLen;
    if (labelLen == 0 || childDepth > poolEnd - poolStart) return false;
    // The walk compares the path with as many label bytes as the entry says.
    if (!wide && <u64>(entry >>> CHILD_LABEL_SHIFT) != (labelLen < <u64>CHILD_LABEL_LONG ? labelLen : <u64>CHILD_LABEL_LONG)) return false;
    store<u32>(work + <usize>child, <u32>childDepth + NODE_AT_DEPTH);
  }
  return true;
}

/**
 * Whether the key filter is safe for the matcher: its buckets and keys lie in the image, each
 * key is sound (validKey), and so are its automata (validAutomaton).
 */
function validFilter(work: usize): bool {
  const keyCount = imageU32(filterOff + FILTER_KEY_COUNT);
  const keysOff = <u64>imageU32(filterOff + FILTER_KEYS_OFF);
  const bucketsOff = <u64>imageU32(filterOff + FILTER_BUCKETS_OFF);
  const bucketWord = imageU32(filterOff + FILTER_BUCKET_BITS);
  const bits = bucketWord & FILTER_BUCKET_BITS_MASK;
  if ((bucketWord & ~(FILTER_BUCKET_BITS_MASK | FILTER_EXACT_GATES)) != 0) return false;
  const singles = imageU32(filterOff + FILTER_SINGLES);
  const lazy = imageU32(filterOff + FILTER_LAZY);
  if (keyCount > <u32>MAX_FILTER_KEYS || singles > lazy || lazy > keyCount || keyCount - lazy > <u32>MAX_LAZY_KEYS) return false;
  if (bits < <u32>FILTER_MIN_BUCKET_BITS || bits > 16) return false;
  if (singles < lazy && !inImage(filterOff, FILTER_SIZE + FILTER_SINGLES_SIZE)) return false;
  const buckets = (<u64>1 << bits) + 1;
  if ((bucketsOff & 3) != 0 || !inImage(bucketsOff, 4 * buckets)) return false;
  if ((keysOff & 3) != 0 || !inImage(keysOff, <u64>keyCount * KEY_SIZE)) return false;
  for (let b: u64 = 0; b < buckets; b++) if (imageU32(bucketsOff + 4 * b) > keyCount) return false;
  for (let k: u32 = 0; k < keyCount; k++) if (!validKey(keysOff + <u64>k * KEY_SIZE, keyCount)) return false;
  const automata = <u64>imageU32(filterOff + FILTER_AUTOMATA);
  if (automata == 0) return true;
  if ((automata & 3) != 0 || automata < filterOff + FILTER_SIZE || !validAutomaton(automata, keysOff, keyCount, work)) return false;
  const forwardNodes = <u64>imageU32(automata + AUTOMATON_NODES);
  return validAutomaton(automata + automatonSize(forwardNodes, keyCount), keysOff, keyCount, work);
}

/** The u16 at offset `at` of the image. */
// @ts-ignore: decorator
@inline function imageU16(at: u64): u32 {
  return <u32>load<u16>(image + <usize>at);
}

/**
 * Whether the key record at `key` is sound: its bytes lie in the pool, its gate and shared
 * prefix in it, its rule list in the image, and each rule entry names a rule and a literal part
 * no longer than its pattern (validRuleWord).
 */
function validKey(key: u64, keyCount: u32): bool {
  const len = imageU16(key + KEY_LEN);
  const gate = imageU16(key + KEY_GATE);
  if (len == 0 || !inPool(<u64>imageU32(key + KEY_POOL_OFF), len)) return false;
  if ((len == 1 && gate != 0) || (len > 1 && gate > len - 2) || imageU16(key + KEY_SHARED) > len) return false;
  const rules = <u64>imageU32(key + KEY_RULES_OFF);
  const count = <u64>imageU32(key + KEY_RULE_COUNT);
  if ((rules & 3) != 0 || !inImage(rules, count * KEY_RULE_SIZE)) return false;
  for (let i: u64 = 0; i < count; i++) {
    const entry = rules + i * KEY_RULE_SIZE;
    const r = imageU32(entry + KEY_RULE_STRENGTH);
    if (r >= ruleCount || !validRuleWord(imageU32(entry + KEY_RULE_WORD), patternLength(r), keyCount)) return false;
  }
  return true;
}

/**
 * Whether a key rule entry's word is safe for a rule whose pattern has `patternLen` bytes: the
 * literal part it gives is no longer than the pattern (the matcher compares that many bytes), and
 * a segment record lies in the image with at least one segment, each a key.
 */
function validRuleWord(w: u32, patternLen: u64, keyCount: u32): bool {
  if ((w & KEY_RULE_RECORD) == 0) return <u64>(w >>> 2) <= patternLen;
  if ((w & KEY_RULE_ANCHORED) != 0) return false; // a record offset is 4-aligned
  const record = <u64>(w & ~KEY_RULE_RECORD);
  if (!inImage(record, SEGMENTS_KEYS)) return false;
  const count = <u64>imageU32(record + SEGMENTS_COUNT);
  if (count == 0 || !inImage(record + SEGMENTS_KEYS, 4 * count)) return false;
  if (<u64>(imageU32(record + SEGMENTS_LITERAL) >>> 1) > patternLen) return false;
  for (let i: u64 = 0; i < count; i++) if (imageU32(record + SEGMENTS_KEYS + 4 * i) >= keyCount) return false;
  return true;
}

/**
 * Whether the automaton at `at` is sound (the layout is in automaton.ts): it lies in the image;
 * the children of the nodes, in order, are the nodes after the root, each after its parent (so
 * every node has one parent and a depth); a failure link points to a shallower node and an
 * output to a key that ends at a node no deeper, so that every loop of a pass ends and the pass
 * stays linear; a key ends at a node as deep as the key is long, so that the start a pass
 * computes lies in the path. Depths go in the work area, a word per node.
 */
function validAutomaton(at: u64, keysOff: u64, keyCount: u32, work: usize): bool {
  if (!inImage(at, AUTOMATON_FIRST_CHILD)) return false;
  const nodes = <u64>imageU32(at + AUTOMATON_NODES);
  if (nodes == 0 || nodes > imageSize || !inImage(at, automatonSize(nodes, keyCount))) return false;
  const first = at + AUTOMATON_FIRST_CHILD;
  const fail = first + 4 * (nodes + 1);
  const out = fail + 4 * nodes;
  const keyNode = out + 4 * nodes;
  if (imageU32(first) != 1 || <u64>imageU32(first + 4 * nodes) != nodes || imageU32(fail) != 0) return false;
  if (!automatonDepths(first, nodes, work)) return false;
  for (let k: u64 = 0; k < <u64>keyCount; k++) if (<u64>imageU32(keyNode + 4 * k) >= nodes) return false;
  for (let v: u64 = 0; v < nodes; v++) {
    const depth = load<u32>(work + <usize>(v << 2));
    const link = <u64>imageU32(fail + 4 * v);
    if (link >= nodes || (v > 0 && load<u32>(work + <usize>(link << 2)) >= depth)) return false;
    const k = imageU32(out + 4 * v);
    if (k == NO_KEY) continue;
    if (k >= keyCount) return false;
    const ends = <u64>imageU32(keyNode + 4 * <u64>k);
    const endDepth = load<u32>(work + <usize>(ends << 2));
    if (endDepth > depth || endDepth != imageU16(keysOff + <u64>k * KEY_SIZE + KEY_LEN)) return false;
  }
  return true;
}

/**
 * Whether the children of the automaton's `nodes` nodes (first-child array at `first`), in
 * order, are the nodes after the root, each after its parent; writes each node's depth in the
 * work area, which holds a word per 4 image bytes: enough for a depth per node.
 */
function automatonDepths(first: u64, nodes: u64, work: usize): bool {
  store<u32>(work, 0);
  for (let v: u64 = 0; v < nodes; v++) {
    const from = <u64>imageU32(first + 4 * v);
    const to = <u64>imageU32(first + 4 * (v + 1));
    if (to < from || from <= v || to > nodes) return false;
    const depth = load<u32>(work + <usize>(v << 2));
    for (let c = from; c < to; c++) store<u32>(work + <usize>(c << 2), depth + 1);
  }
  return true;
}
