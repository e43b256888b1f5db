// rules -> compiled table: writes the flat byte image the matcher (match.ts) walks. The
// format - every structure, field by field - is the listing in src/wasm/abi.ts; a change to it
// needs the matching change in match.ts and in validate.ts, which checks a loaded image.
//
// The compiler works in an arena the caller provides (compileWorkBytes() bytes, or more when
// it asks) and writes the table at `out` (compileTableBytes() bytes, or more when it asks); it
// allocates nothing itself.

import {
  AUTOMATA_MIN_KEYS, COMPILE_SHORT_OF_TABLE, COMPILE_SHORT_OF_WORK, FILTER_AUTOMATA, FILTER_BUCKET_BITS, FILTER_BUCKETS_OFF,
  FILTER_EXACT_GATES, FILTER_GATE1_HI, FILTER_GATE1_LO, FILTER_GATE2_HI, FILTER_GATE2_LO, FILTER_KEY_COUNT, FILTER_KEYS_OFF,
  FILTER_LAZY, FILTER_MIN_BUCKET_BITS, FILTER_SINGLE_HI, FILTER_SINGLE_LO, FILTER_SINGLES, FILTER_SINGLES_SIZE, FILTER_SIZE,
  FILTER_WORK_PER_BYTE, FLAG_RFC, FLAG_WIDE_CHILDREN, GATE_HASH, CHILD_LABEL_LONG, CHILD_LABEL_SHIFT, CHILD_OFFSET_MASK,
  HDR_FILTER_OFF, HDR_FLAGS, HDR_KINDS_OFF, HDR_MAGIC, HDR_POOL_LEN, HDR_POOL_OFF, HDR_ROOT_OFF, HDR_RULE_COUNT,
  HDR_RULES_OFF, HDR_TOTAL_LEN, HEADER_SIZE, KEY_GATE, KEY_GATE_PAIR, KEY_LEN, KEY_POOL_OFF, KEY_RULE_ANCHORED,
  KEY_RULE_COUNT, KEY_RULE_RECORD, KEY_RULE_SIZE, KEY_RULE_STRENGTH, KEY_RULE_WORD, KEY_RULES_OFF, KEY_SHARED, KEY_SIZE,
  RULE_KIND_ALLOW_BIT as KIND_ALLOW_BIT, RULE_KIND_DERIVED_BIT as KIND_DERIVED_BIT, MAX_FILTER_KEYS, MAX_KEY_LEN, MAX_LAZY_KEYS, NO_KEY, NO_RULE, NODE_CHILD_AREA, NODE_DENSE,
  NODE_HAS_END, NODE_HAS_PREFIX, NODE_HAS_WILD, NODE_KEYED_BIT, NODE_LABEL_CHILDREN, NODE_LABEL_OFF, NODE_LABEL_SHIFT,
  RULE_IN_ALLOW, RULE_IN_END, RULE_IN_LINE, RULE_IN_SIZE, RULE_IN_START, RULE_LINE, RULE_PAT_END, RULE_SIZE,
  SEGMENTS_COUNT, SEGMENTS_KEYS, SEGMENTS_LITERAL, TABLE_MAGIC, WILD_SIZE, WILD_STRENGTH,
} from '../src/wasm/abi';
import { AUTOMATON_INPUT_SIZE, automatonBytes, automatonNodes, setAutomatonInput, writeAutomaton } from './automaton';
import { normalizeInto, NORMALIZE_PATTERN_GOOGLE, NORMALIZE_PATTERN_RFC } from './normalize';
import { addToRows, findByte, nibbleTablesOfRows } from './scan';
import { childAreaBytes, childIndexBytes, denseAreaBytes, indexedAreaBytes, writeChildIndex } from './node';
import { commonPrefix } from './bytes';

// The filter's key order, as one u64 per key: class (2 bits: keys of two or more bytes, the
// one-byte keys the pass looks for, lazy one-byte keys) | bucket (16 bits) | gate offset (28
// bits, capped: it only orders) | key index (18 bits).
const ORDER_CLASS_SHIFT: u64 = 62;
const ORDER_BUCKET_SHIFT: u64 = 46;
const ORDER_BUCKET_MASK: u64 = 0xffff;
const ORDER_GATE_SHIFT: u64 = 18;
const ORDER_INDEX_MASK: u64 = (1 << 18) - 1;
const GATE_SORT_MAX: u32 = (1 << 28) - 1;
const CLASS_MULTI: u64 = 0;
const CLASS_SINGLE: u64 = 1;
const CLASS_LAZY: u64 = 2;
/** No gate pair (pairs are 16 bits). */
const NO_PAIR: u32 = 0xffffffff;

/** Below this many wildcard rules, trying each one directly is cheaper than a filter pass. */
const FILTER_MIN_RULES = 2;

/** Longest label a node holds (NODE_LABEL_CHILDREN keeps 20 bits of length). */
const MAX_LABEL = (1 << (32 - NODE_LABEL_SHIFT)) - 1;

const SHAPE_PREFIX: u32 = 0;
const SHAPE_END: u32 = 1;
const SHAPE_WILD: u32 = 2;

// ---------------------------------------------------------------------------------------
// Arena and u32 arrays

let arena: usize = 0;
let arenaEnd: usize = 0;

/**
 * Bytes a take() of `bytes` uses. compileTable checks its work area against the sum of what it
 * will take before taking it, and take() traps past the end, so that a wrong sum is found out
 * rather than writing past the area.
 */
// @ts-ignore: decorator
@inline function taken(bytes: usize): usize {
  return (bytes + 7) & ~7;
}

// @ts-ignore: decorator
@inline function take(bytes: usize): usize {
  const at = arena;
  arena += taken(bytes);
  if (arena > arenaEnd) unreachable();
  return at;
}

// @ts-ignore: decorator
@inline function get(array: usize, i: i32): u32 {
  return load<u32>(array + (<usize>i << 2));
}

// @ts-ignore: decorator
@inline function set(array: usize, i: i32, value: u32): void {
  store<u32>(array + (<usize>i << 2), value);
}

/** Strength slots (u32 each) the counting sort may use, per input rule and in all. */
const STRENGTH_SLOTS_PER_RULE = 16;
const STRENGTH_SLOTS_SLACK = 256;

/** A rule's slot in the counting sort of phase 2: longer patterns first, then allow first. */
// @ts-ignore: decorator
@inline function strengthSlot(maxLen: i32, len: u32, allow: u32): i32 {
  return ((maxLen - <i32>len) << 1) | (allow != 0 ? 0 : 1);
}

// The sizes below are f64: for a large enough input an i32 would wrap, and the caller would
// hand the compiler too small an area instead of refusing the input.

/**
 * Work area the compiler needs for `rules` rules whose values hold `bytes` bytes in all, when
 * their wildcard rules have a literal segment or two each; compileTable asks for more
 * (COMPILE_SHORT_OF_WORK) when they have more.
 */
export function compileWorkBytes(rules: f64, bytes: f64): f64 {
  return baseWorkBytes(rules, bytes) + 2 * <f64>WORK_PER_SEGMENT * rules;
}

/** The work area but for what each literal segment needs (WORK_PER_SEGMENT). */
function baseWorkBytes(rules: f64, bytes: f64): f64 {
  return 8 * bytes + <f64>(640 + 4 * STRENGTH_SLOTS_PER_RULE) * rules + <f64>(4096 + 4 * STRENGTH_SLOTS_SLACK);
}

/**
 * Table size that is enough for `rules` rules whose values hold `bytes` bytes in all, unless
 * their wildcard rules have many literal segments or need automata: compileTable asks for more
 * (COMPILE_SHORT_OF_TABLE) then.
 */
export function compileTableBytes(rules: f64, bytes: f64): f64 {
  return 6 * bytes + 512 * rules + 1024;
}

/** What compileTable needed when it answered COMPILE_SHORT_OF_WORK or COMPILE_SHORT_OF_TABLE. */
let needed: f64 = 0;

/** Bytes of work area or table the last compileTable call found too few (see its answer). */
export function compileNeed(): f64 {
  return needed;
}

// ---------------------------------------------------------------------------------------
// Sorting (stable merge sort of u64 items; the orders read the globals below)

let patOff: usize = 0; // per rule: pattern offset in `norm`
let patLen: usize = 0;
let ruleAllow: usize = 0;
let norm: usize = 0;
let litLen: usize = 0; // per strength number: length of the literal part
let strengthPat: usize = 0; // per strength number: the rule (index into the arrays above)
let segPtr: usize = 0; // per literal segment: address of its bytes
let segLen: usize = 0;
let keySeg: usize = 0; // per key (byte order): a segment with its bytes
let keyLens: usize = 0; // per key: its length
let segPrefix: usize = 0; // per segment: its first 8 bytes, big-endian, zero-padded (u64)

/** Byte order of a[0, aLen) and b[0, bLen), 8 bytes per step (patterns share long prefixes). */
// @ts-ignore: decorator
@inline function compareBytes(a: usize, aLen: i32, b: usize, bLen: i32): i32 {
  const n = aLen < bLen ? aLen : bLen;
  let i = 0;
  for (; i + 8 <= n; i += 8) {
    const x = load<u64>(a + i);
    const y = load<u64>(b + i);
    if (x != y) {
      // The first differing byte is the lowest one (little-endian loads).
      const shift = ctz(x ^ y) & ~7;
      return <i32>((x >> shift) & 0xff) - <i32>((y >> shift) & 0xff);
    }
  }
  for (; i < n; i++) {
    const d = <i32>load<u8>(a + i) - <i32>load<u8>(b + i);
    if (d != 0) return d;
  }
  return aLen - bLen;
}

/** compareBytes of a[0, aLen) and b[0, bLen) read from their last byte back. */
function compareReversed(a: usize, aLen: i32, b: usize, bLen: i32): i32 {
  const n = aLen < bLen ? aLen : bLen;
  for (let i = 1; i <= n; i++) {
    const d = <i32>load<u8>(a + aLen - i) - <i32>load<u8>(b + bLen - i);
    if (d != 0) return d;
  }
  return aLen - bLen;
}

let litPtr: usize = 0; // per strength number: address of the pattern
let litKey: usize = 0; // per strength number: first 8 literal bytes, big-endian, zero-padded (u64)

// @ts-ignore: decorator
@inline function patternOf(k: u32): usize {
  return <usize>get(litPtr, k);
}

/**
 * Byte order of items a and b whose first 8 bytes, big-endian and zero-padded, are in `prefixes`
 * (u64 each), lengths in `lengths` and addresses in `pointers`: the prefixes decide most
 * comparisons; patterns hold no zero byte, so zero padding sorts a shorter item before its
 * extensions.
 */
// @ts-ignore: decorator
@inline function byPrefixed(prefixes: usize, lengths: usize, pointers: usize, a: u32, b: u32): i32 {
  const ka = load<u64>(prefixes + (<usize>a << 3));
  const kb = load<u64>(prefixes + (<usize>b << 3));
  if (ka != kb) return ka < kb ? -1 : 1;
  const la = <i32>get(lengths, a);
  const lb = <i32>get(lengths, b);
  if (la <= 8 || lb <= 8) return la - lb;
  return compareBytes(<usize>get(pointers, a) + 8, la - 8, <usize>get(pointers, b) + 8, lb - 8);
}

/** Literal parts in byte order (strength numbers; ties keep strength order). */
// @ts-ignore: decorator
@inline function byLiteral(a: u32, b: u32): i32 {
  return byPrefixed(litKey, litLen, litPtr, a, b);
}

/** Literal segments in byte order. */
// @ts-ignore: decorator
@inline function bySegment(a: u32, b: u32): i32 {
  return byPrefixed(segPrefix, segLen, segPtr, a, b);
}

/** Keys in the byte order of their reversed bytes (the backward automaton's order). */
// @ts-ignore: decorator
@inline function byReversedKey(a: u32, b: u32): i32 {
  const sa = get(keySeg, a);
  const sb = get(keySeg, b);
  return compareReversed(<usize>get(segPtr, sa), <i32>get(segLen, sa), <usize>get(segPtr, sb), <i32>get(segLen, sb));
}

const BY_VALUE = 0;
const BY_LITERAL = 1;
const BY_SEGMENT = 2;
const BY_REVERSED_KEY = 3;

// @ts-ignore: decorator
@inline function compare(order: i32, a: u64, b: u64): i32 {
  if (order == BY_VALUE) return a < b ? -1 : a > b ? 1 : 0;
  if (order == BY_LITERAL) return byLiteral(<u32>a, <u32>b);
  return order == BY_SEGMENT ? bySegment(<u32>a, <u32>b) : byReversedKey(<u32>a, <u32>b);
}

/**
 * Sorts `n` u64 keys ascending. The strength order is one key per rule: inverted pattern
 * length, then "not allow", then the rule's index (indices follow file order), so the
 * smallest key is the strongest rule.
 */
function sortValues(items: usize, tmp: usize, n: i32): void {
  mergeSort(items, tmp, n, BY_VALUE);
}

/** Sorts strength numbers (as u64 items) by literal part. */
function sortByLiteral(items: usize, tmp: usize, n: i32): void {
  mergeSort(items, tmp, n, BY_LITERAL);
}

/** Sorts segment numbers (as u64 items) by their bytes. */
function sortBySegment(items: usize, tmp: usize, n: i32): void {
  mergeSort(items, tmp, n, BY_SEGMENT);
}

/** Sorts key numbers (as u64 items) by their reversed bytes. */
function sortByReversedKey(items: usize, tmp: usize, n: i32): void {
  mergeSort(items, tmp, n, BY_REVERSED_KEY);
}

// @ts-ignore: decorator
@inline function item(items: usize, i: i32): u64 {
  return load<u64>(items + (<usize>i << 3));
}

// @ts-ignore: decorator
@inline function setItem(items: usize, i: i32, value: u64): void {
  store<u64>(items + (<usize>i << 3), value);
}

/**
 * Stable merge sort of u64 items (insertion sort of runs of 16, then bottom-up merges);
 * inlined into the sort* functions so that `order` is a constant there.
 */
// @ts-ignore: decorator
@inline function mergeSort(items: usize, tmp: usize, n: i32, order: i32): void {
  for (let lo = 0; lo < n; lo += 16) {
    const hi = lo + 16 < n ? lo + 16 : n;
    for (let i = lo + 1; i < hi; i++) {
      const x = item(items, i);
      let j = i - 1;
      while (j >= lo && compare(order, item(items, j), x) > 0) {
        setItem(items, j + 1, item(items, j));
        j--;
      }
      setItem(items, j + 1, x);
    }
  }
  let src = items;
  let dst = tmp;
  for (let width = 16; width < n; width <<= 1) {
    for (let lo = 0; lo < n; lo += width << 1) {
      const mid = lo + width < n ? lo + width : n;
      const hi = lo + (width << 1) < n ? lo + (width << 1) : n;
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        const a = item(src, i);
        const b = item(src, j);
        if (compare(order, b, a) < 0) {
          setItem(dst, k++, b);
          j++;
        } else {
          setItem(dst, k++, a);
          i++;
        }
      }
      while (i < mid) setItem(dst, k++, item(src, i++));
      while (j < hi) setItem(dst, k++, item(src, j++));
    }
    const swap = src;
    src = dst;
    dst = swap;
  }
  if (src != items) memory.copy(items, src, <usize>n << 3);
}

// ---------------------------------------------------------------------------------------
// Trie nodes (in the arena, structure of arrays)

let nodeDepth: usize = 0;
let nodeRef: usize = 0; // pool offset of a pattern that starts with the node's path
let nodeLit: usize = 0; // where that pattern's normalised bytes are (the pool is written last)
let nodePrefix: usize = 0;
let nodeEnd: usize = 0;
let nodeWildStart: usize = 0; // into wildList
let nodeWildCount: usize = 0;
let nodeKeyed: usize = 0; // wildcard rules reached through the filter's keys
let nodeFirstChild: usize = 0;
let nodeLastChild: usize = 0;
let nodeNext: usize = 0;
let nodePrev: usize = 0;
let nodeParent: usize = 0;
let nodeCount = 0;
const NONE: u32 = 0xffffffff;

function newNode(depth: u32, ref: u32, lit: usize): i32 {
  const n = nodeCount++;
  set(nodeDepth, n, depth);
  set(nodeRef, n, ref);
  set(nodeLit, n, <u32>lit);
  set(nodePrefix, n, NO_RULE);
  set(nodeEnd, n, NO_RULE);
  set(nodeWildStart, n, 0);
  set(nodeWildCount, n, 0);
  set(nodeKeyed, n, 0);
  set(nodeFirstChild, n, NONE);
  set(nodeLastChild, n, NONE);
  set(nodeNext, n, NONE);
  set(nodePrev, n, NONE);
  set(nodeParent, n, NONE);
  return n;
}

function appendChild(parent: i32, child: i32): void {
  set(nodeParent, child, parent);
  const last = get(nodeLastChild, parent);
  set(nodePrev, child, last);
  set(nodeNext, child, NONE);
  if (last == NONE) set(nodeFirstChild, parent, child);
  else set(nodeNext, last, child);
  set(nodeLastChild, parent, child);
}

/** Puts `middle` where the last child of `parent` was, and that child under `middle`. */
function splitLastChild(parent: i32, middle: i32): void {
  const child = <i32>get(nodeLastChild, parent);
  const prev = get(nodePrev, child);
  set(nodeParent, middle, parent);
  set(nodePrev, middle, prev);
  set(nodeNext, middle, NONE);
  if (prev == NONE) set(nodeFirstChild, parent, middle);
  else set(nodeNext, prev, middle);
  set(nodeLastChild, parent, middle);
  set(nodeFirstChild, middle, NONE);
  set(nodeLastChild, middle, NONE);
  appendChild(middle, child);
}

/** The NODE_HAS_* fields a node needs. */
function nodeFields(node: i32): u32 {
  return (get(nodePrefix, node) != NO_RULE ? NODE_HAS_PREFIX : 0)
    | (get(nodeEnd, node) != NO_RULE ? NODE_HAS_END : 0)
    | (get(nodeWildCount, node) != 0 || get(nodeKeyed, node) != 0 ? NODE_HAS_WILD : 0);
}

/** First byte of `child`'s label, below a parent at `parentDepth`. */
function firstByteOf(child: u32, parentDepth: u32): u32 {
  return load<u8>(<usize>get(nodeLit, child) + parentDepth);
}

/** A child's entry in its parent (see the format): its offset, and its label length unless `wide`. */
function childEntry(child: u32, parentDepth: u32, nodeOffset: usize, wide: bool): u32 {
  if (wide) return get(nodeOffset, child);
  const labelLen = get(nodeDepth, child) - parentDepth;
  return get(nodeOffset, child) | ((labelLen < <u32>CHILD_LABEL_LONG ? labelLen : <u32>CHILD_LABEL_LONG) << CHILD_LABEL_SHIFT);
}

/**
 * The child fields of `node`'s word (see the format): NODE_DENSE | the span of its children's
 * first bytes when a dense area takes no more room than an index (node.ts), else its child
 * count.
 */
function childrenField(node: i32): u32 {
  const count = childCount(node);
  if (count == 0) return 0;
  const depth = get(nodeDepth, node);
  const span = <i32>(firstByteOf(get(nodeLastChild, node), depth) - firstByteOf(get(nodeFirstChild, node), depth)) + 1;
  return denseAreaBytes(span) <= indexedAreaBytes(count) ? NODE_DENSE | span : count;
}

function childCount(node: i32): i32 {
  let count = 0;
  for (let c = get(nodeFirstChild, node); c != NONE; c = get(nodeNext, c)) count++;
  return count;
}

// ---------------------------------------------------------------------------------------
// Literal segments and the key filter (see the format)

/**
 * Work bytes per literal segment of a wildcard rule: its address, length, rule and key, the sort
 * of segments by their bytes, and what a key made of it takes (order, gate, rules, bucket work,
 * automaton input).
 */
const WORK_PER_SEGMENT = 160;

let segOwner: usize = 0; // per segment: strength number of its rule
let segFirst: usize = 0; // per strength number: its first segment; segFirst[m] is their count
let segKey: usize = 0; // per segment: its key (byte order), or NO_KEY
let ruleHome: usize = 0; // per strength number: the key its rule hangs off (byte order), or NO_KEY
let ruleAnchored: usize = 0; // per strength number: 1 when its last segment must end the path
let keyRules: usize = 0; // per key: rules that hold it
let keyHomes: usize = 0; // per key: rules that hang off it
let keyCount = 0;
let keyedRules = 0; // rules that hang off a key
let recordBytes = 0; // the segment records of those with more than one segment
let sortScratch: usize = 0; // merge sort buffer for sorts of segments and keys

/**
 * Counts the literal segments of p[from, end) (the runs between '*'s) and records them as
 * segments at, at + 1, ... of rule `owner`, those that fit the arrays' `capacity`.
 */
function scanSegments(p: usize, from: i32, end: i32, owner: u32, at: i32, capacity: i32): i32 {
  let count = 0;
  let i = from;
  while (true) {
    while (i < end && load<u8>(p + i) == 0x2a) i++;
    if (i == end) return count;
    const j = findByte(p, i, end, 0x2a);
    if (at + count < capacity) {
      set(segPtr, at + count, <u32>(p + <usize>i));
      set(segLen, at + count, j - i);
      set(segOwner, at + count, owner);
    }
    count++;
    i = j;
  }
}

// @ts-ignore: decorator
@inline function keyBytes(key: u32): usize {
  return <usize>get(segPtr, get(keySeg, key));
}

// @ts-ignore: decorator
@inline function keyLength(key: u32): u32 {
  return get(keyLens, key);
}

/** Whether every literal segment of rule `k` fits a key (the key record keeps u16 lengths). */
function segmentsFitKeys(k: i32): bool {
  for (let s = get(segFirst, k); s < get(segFirst, k + 1); s++) if (get(segLen, s) > <u32>MAX_KEY_LEN) return false;
  return true;
}

/**
 * Whether key `a` is a better key for a rule to hang off than key `b`: one the pass looks for
 * (two or more bytes) rather than a one-byte key most paths hold; then one fewer rules hold, so
 * that the rules visited when a key occurs are few whatever else they share; then the longer.
 */
function betterHome(a: u32, b: u32): bool {
  const lenA = keyLength(a);
  const lenB = keyLength(b);
  if ((lenA >= 2) != (lenB >= 2)) return lenA >= 2;
  const rulesA = get(keyRules, a);
  const rulesB = get(keyRules, b);
  if (rulesA != rulesB) return rulesA < rulesB;
  return lenA > lenB;
}

/** A rule whose segments all fit keys, before chooseKeys picks its key. */
const HOME_PENDING: u32 = 0xfffffffe;

/**
 * The keys - the distinct literal segments of the wildcard rules whose segments all fit a key,
 * in byte order - and the key each of those rules hangs off (ruleHome). `shape`: the rules'
 * shapes, or 0 when too few are wildcard rules for a filter.
 */
function chooseKeys(m: i32, shape: usize): void {
  const segCount = <i32>get(segFirst, m);
  ruleHome = take(<usize>m << 2);
  for (let k = 0; k < m; k++) set(ruleHome, k, NO_KEY);
  keyCount = 0;
  keyedRules = 0;
  recordBytes = 0;
  if (shape == 0) return;
  segKey = take(<usize>segCount << 2);
  segPrefix = take(<usize>segCount << 3);
  const items = take(<usize>segCount << 3);
  sortScratch = take(<usize>segCount << 3);
  let n = 0;
  for (let k = 0; k < m; k++) {
    if (get(shape, k) != SHAPE_WILD || !segmentsFitKeys(k)) continue;
    set(ruleHome, k, HOME_PENDING);
    for (let s = get(segFirst, k); s < get(segFirst, k + 1); s++) {
      const len = get(segLen, s);
      let x = load<u64>(<usize>get(segPtr, s)); // `norm` has slack past its last pattern
      if (len < 8) x &= (<u64>1 << (<u64>len << 3)) - 1;
      store<u64>(segPrefix + (<usize>s << 3), bswap<u64>(x));
      setItem(items, n++, s);
    }
  }
  sortBySegment(items, sortScratch, n);
  keySeg = take(<usize>n << 2);
  keyLens = take(<usize>n << 2);
  keyRules = take(<usize>n << 2);
  keyHomes = take(<usize>n << 2);
  let owner = NONE;
  for (let i = 0; i < n; i++) {
    const s = <u32>item(items, i);
    if (i == 0 || bySegment(<u32>item(items, i - 1), s) != 0) {
      if (keyCount == MAX_FILTER_KEYS) {
        // The rules of the segments left are not keyed.
        for (; i < n; i++) set(segKey, <u32>item(items, i), NO_KEY);
        break;
      }
      set(keySeg, keyCount, s);
      set(keyLens, keyCount, get(segLen, s));
      set(keyRules, keyCount, 0);
      set(keyHomes, keyCount, 0);
      keyCount++;
      owner = NONE;
    }
    set(segKey, s, keyCount - 1);
    // The stable sort keeps a key's segments in rule order: each rule counts once.
    if (get(segOwner, s) != owner) {
      owner = get(segOwner, s);
      set(keyRules, keyCount - 1, get(keyRules, keyCount - 1) + 1);
    }
  }
  for (let k = 0; k < m; k++) {
    if (get(ruleHome, k) != HOME_PENDING) continue;
    const first = get(segFirst, k);
    const end = get(segFirst, k + 1);
    let home = NO_KEY;
    for (let s = first; s < end; s++) {
      const key = get(segKey, s);
      if (key == NO_KEY) {
        home = NO_KEY;
        break;
      }
      if (home == NO_KEY || betterHome(key, home)) home = key;
    }
    set(ruleHome, k, home);
    if (home == NO_KEY) continue;
    set(keyHomes, home, get(keyHomes, home) + 1);
    keyedRules++;
    if (end - first > 1) recordBytes += SEGMENTS_KEYS + 4 * <i32>(end - first);
  }
}

let gateOf: usize = 0; // per key (byte order): offset of its gate pair
let pairOf: usize = 0; // per key: its gate pair, or its one byte
let keyOrder: usize = 0; // the keys in the filter's order (ORDER_* items)
let rank: usize = 0; // per key: its index in the filter
let multiKeys = 0; // keys of two or more bytes: keys[0, multiKeys) of the filter
let passKeys = 0; // with the one-byte keys the pass looks for: keys[0, passKeys)
let bucketBits = 0;
let pairA: u32 = NO_PAIR; // the first two distinct gate pairs, and how many there are: at most
let pairB: u32 = NO_PAIR; // two are compared exactly (FILTER_EXACT_GATES)
let distinctPairs = 0;
let bucketWork: u32 = 0; // the most key work one candidate can cost the pass (match.ts, findKeys)

let keyLazy: usize = 0; // per key: 1 when the pass does not look for it

/** A key the pass does not look for (see chooseLazyKeys). */
// @ts-ignore: decorator
@inline function isLazy(key: u32): bool {
  return get(keyLazy, key) != 0;
}

/**
 * Gate score (two byteScores) from which a key that no rule hangs off is lazy: each of its byte
 * pairs holds a '/', so the pass would stop at most '/'s of most paths for it ("/?").
 */
const LAZY_GATE_SCORE = 12;

/**
 * Marks the lazy keys: keys no rule hangs off that most paths hold, which the pass leaves to the
 * rules that need them - one-byte keys, then keys whose gate is as common as a '/' - at most
 * MAX_LAZY_KEYS, so that a path looks for at most that many on its own.
 */
function chooseLazyKeys(): void {
  keyLazy = take(<usize>keyCount << 2);
  let lazy = 0;
  for (let round = 0; round < 2; round++) {
    for (let i: u32 = 0; i < <u32>keyCount; i++) {
      if (round == 0) set(keyLazy, i, 0);
      if (get(keyHomes, i) != 0 || lazy == MAX_LAZY_KEYS || isLazy(i)) continue;
      const pair = get(pairOf, i);
      const common = round == 0
        ? keyLength(i) == 1
        : keyLength(i) >= 2 && <i32>load<u8>(BYTE_SCORES + (pair >> 8)) + <i32>load<u8>(BYTE_SCORES + (pair & 0xff)) >= LAZY_GATE_SCORE;
      if (!common) continue;
      set(keyLazy, i, 1);
      lazy++;
    }
  }
}

/**
 * The filter's order of keys: keys of two or more bytes the pass looks for, by the bucket of
 * their gate pair, then the one-byte keys it looks for, then the lazy ones; each key's gate, and
 * the work the heaviest bucket can cost the pass at one candidate.
 */
function orderKeys(): void {
  gateOf = take(<usize>keyCount << 2);
  pairOf = take(<usize>keyCount << 2);
  keyOrder = take(<usize>keyCount << 3);
  rank = take(<usize>keyCount << 2);
  for (let i: u32 = 0; i < <u32>keyCount; i++) {
    const key = keyBytes(i);
    const len = <i32>keyLength(i);
    const gate = gateOffset(key, len);
    set(gateOf, i, gate);
    set(pairOf, i, len >= 2 ? ((<u32>load<u8>(key + gate) << 8) | load<u8>(key + gate + 1)) : load<u8>(key));
  }
  chooseLazyKeys();
  multiKeys = 0;
  passKeys = 0;
  for (let i: u32 = 0; i < <u32>keyCount; i++) {
    if (isLazy(i)) continue;
    passKeys++;
    if (keyLength(i) >= 2) multiKeys++;
  }
  bucketBits = FILTER_MIN_BUCKET_BITS;
  while (bucketBits < 16 && (1 << bucketBits) < multiKeys * 4) bucketBits++;
  pairA = NO_PAIR;
  pairB = NO_PAIR;
  distinctPairs = 0;
  for (let i: u32 = 0; i < <u32>keyCount; i++) {
    const pair = get(pairOf, i);
    let bucket: u32 = 0;
    let kind = isLazy(i) ? CLASS_LAZY : CLASS_SINGLE;
    if (kind != CLASS_LAZY && keyLength(i) >= 2) {
      kind = CLASS_MULTI;
      bucket = (pair * GATE_HASH) >>> (32 - bucketBits);
      if (pair != pairA && pair != pairB) {
        distinctPairs++;
        if (pairA == NO_PAIR) pairA = pair;
        else if (pairB == NO_PAIR) pairB = pair;
      }
    }
    // Within a bucket, keys with the same gate offset (a run) stay in byte order (i is).
    const gate = get(gateOf, i);
    const gateBits: u64 = <u64>(gate < GATE_SORT_MAX ? gate : GATE_SORT_MAX);
    setItem(keyOrder, i, (kind << ORDER_CLASS_SHIFT) | (<u64>bucket << ORDER_BUCKET_SHIFT) | (gateBits << ORDER_GATE_SHIFT) | <u64>i);
  }
  sortValues(keyOrder, sortScratch, keyCount);
  // What a candidate costs findKeys in each bucket: a step per key, a step per 8 bytes compared.
  bucketWork = 0;
  let cost: u32 = 0;
  for (let j = 0; j < multiKeys; j++) {
    const sortKey = item(keyOrder, j);
    if (j > 0 && (sortKey >> ORDER_BUCKET_SHIFT) != (item(keyOrder, j - 1) >> ORDER_BUCKET_SHIFT)) cost = 0;
    cost += 1 + (keyLength(<u32>(sortKey & ORDER_INDEX_MASK)) >> 3);
    if (cost > bucketWork) bucketWork = cost;
  }
  for (let j = 0; j < keyCount; j++) set(rank, <i32>(item(keyOrder, j) & ORDER_INDEX_MASK), j);
}

let forwardNodes = 0; // automaton sizes, 0 when the filter has none
let backwardNodes = 0;
let forwardInput: usize = 0; // AUTOMATON_INPUT_SIZE per key the pass looks for, in byte order
let backwardInput: usize = 0; // the same in the byte order of their reversed bytes

/**
 * Bytes of the filter, and the automata's sizes. A filter has automata when its pass can give
 * up (a bucket can cost more than FILTER_WORK_PER_BYTE at a candidate) and it has too many keys
 * to search for each instead.
 */
function filterBytes(): i32 {
  const singlesSize = passKeys > multiKeys ? FILTER_SINGLES_SIZE : 0;
  let bytes = FILTER_SIZE + singlesSize + 4 * ((1 << bucketBits) + 1) + KEY_SIZE * keyCount + KEY_RULE_SIZE * keyedRules + recordBytes;
  forwardNodes = 0;
  backwardNodes = 0;
  if (passKeys <= AUTOMATA_MIN_KEYS || bucketWork <= <u32>FILTER_WORK_PER_BYTE) return bytes;
  const reversed = take(<usize>passKeys << 3);
  let n = 0;
  for (let i: u32 = 0; i < <u32>keyCount; i++) if (!isLazy(i)) setItem(reversed, n++, i);
  forwardInput = automatonInput(reversed, n);
  sortByReversedKey(reversed, sortScratch, n);
  backwardInput = automatonInput(reversed, n);
  forwardNodes = automatonNodes(forwardInput, n, false);
  backwardNodes = automatonNodes(backwardInput, n, true);
  return bytes + automatonBytes(forwardNodes, keyCount) + automatonBytes(backwardNodes, keyCount);
}

/** The automaton module's view of the keys listed (as u64 items) in `order`. */
function automatonInput(order: usize, n: i32): usize {
  const input = take(<usize>n * AUTOMATON_INPUT_SIZE);
  for (let j = 0; j < n; j++) {
    const i = <u32>item(order, j);
    setAutomatonInput(input, j, keyBytes(i), keyLength(i), get(rank, i));
  }
  return input;
}

/** Writes the filter at `filterOffset` of the table at `out` (see the format). */
function writeFilter(out: usize, filterOffset: i32, poolOffset: i32, poolOut: usize, m: i32): void {
  const filter = out + filterOffset;
  const singlesSize = passKeys > multiKeys ? FILTER_SINGLES_SIZE : 0;
  const bucketsOffset = filterOffset + FILTER_SIZE + singlesSize;
  const bucketCount = 1 << bucketBits;
  const keysOffset = bucketsOffset + 4 * (bucketCount + 1);
  store<u32>(filter + FILTER_KEY_COUNT, keyCount);
  store<u32>(filter + FILTER_KEYS_OFF, keysOffset);
  store<u32>(filter + FILTER_BUCKET_BITS, bucketBits);
  store<u32>(filter + FILTER_BUCKETS_OFF, bucketsOffset);
  store<u32>(filter + FILTER_SINGLES, multiKeys);
  store<u32>(filter + FILTER_LAZY, passKeys);
  // The three byte sets, as 16 rows of 16 bits each.
  const gate1 = take(64);
  const gate2 = take(64);
  const single = take(64);
  memory.fill(gate1, 0, 64);
  memory.fill(gate2, 0, 64);
  memory.fill(single, 0, 64);
  let bucket = 0;
  for (let j = 0; j < keyCount; j++) {
    const sortKey = item(keyOrder, j);
    const i = <u32>(sortKey & ORDER_INDEX_MASK);
    if (j < multiKeys) {
      // Bucket starts: every bucket up to this key's begins at j or before.
      const b = <i32>((sortKey >> ORDER_BUCKET_SHIFT) & ORDER_BUCKET_MASK);
      while (bucket <= b) store<u32>(out + bucketsOffset + (<usize>(bucket++) << 2), j);
    }
    const s = get(keySeg, i);
    const owner = get(segOwner, s);
    const len = keyLength(i);
    const gate = get(gateOf, i);
    const pair = get(pairOf, i);
    const key = out + keysOffset + <usize>j * KEY_SIZE;
    store<u32>(key + KEY_POOL_OFF, poolOffset + get(poolOut, owner) + <u32>(<usize>get(segPtr, s) - patternOf(owner)));
    store<u16>(key + KEY_LEN, len);
    store<u16>(key + KEY_GATE, gate);
    store<u16>(key + KEY_GATE_PAIR, pair);
    let shared: u32 = 0;
    const previous = j > 0 ? item(keyOrder, j - 1) : 0;
    const before = <u32>(previous & ORDER_INDEX_MASK);
    if (j > 0 && j < multiKeys && previous >> ORDER_GATE_SHIFT == sortKey >> ORDER_GATE_SHIFT && get(gateOf, before) == gate) {
      shared = <u32>commonPrefix(keyBytes(before), keyBytes(i), min(<i32>keyLength(before), <i32>len));
    }
    store<u16>(key + KEY_SHARED, shared);
    if (j < multiKeys) {
      addToRows(gate1, pair >> 8);
      addToRows(gate2, pair & 0xff);
    } else if (j < passKeys) {
      addToRows(single, pair);
    }
  }
  while (bucket <= bucketCount) store<u32>(out + bucketsOffset + (<usize>(bucket++) << 2), multiKeys);
  if (distinctPairs >= 1 && distinctPairs <= 2) {
    if (pairB == NO_PAIR) pairB = pairA;
    store<u32>(filter + FILTER_BUCKET_BITS, bucketBits | FILTER_EXACT_GATES);
    memory.fill(filter + FILTER_GATE1_LO, <u8>(pairA >> 8), 16);
    memory.fill(filter + FILTER_GATE1_HI, <u8>pairA, 16);
    memory.fill(filter + FILTER_GATE2_LO, <u8>(pairB >> 8), 16);
    memory.fill(filter + FILTER_GATE2_HI, <u8>pairB, 16);
  } else {
    nibbleTablesOfRows(gate1, filter + FILTER_GATE1_LO, filter + FILTER_GATE1_HI);
    nibbleTablesOfRows(gate2, filter + FILTER_GATE2_LO, filter + FILTER_GATE2_HI);
  }
  if (singlesSize != 0) nibbleTablesOfRows(single, filter + FILTER_SINGLE_LO, filter + FILTER_SINGLE_HI);
  const recordsOffset = writeKeyRules(out, keysOffset + keyCount * KEY_SIZE, keysOffset, m);
  if (forwardNodes == 0) return;
  const forward = recordsOffset + recordBytes;
  store<u32>(filter + FILTER_AUTOMATA, forward);
  writeAutomaton(out + forward, forwardInput, passKeys, forwardNodes, keyCount, false);
  writeAutomaton(out + forward + automatonBytes(forwardNodes, keyCount), backwardInput, passKeys, backwardNodes, keyCount, true);
}

/**
 * Writes the rules that hang off each key, in strength order, from `at` on, then the segment
 * records of those with more than one segment; returns where the records start.
 */
function writeKeyRules(out: usize, at: i32, keysOffset: i32, m: i32): i32 {
  // Count, then place.
  const counts = take(<usize>keyCount << 2);
  memory.fill(counts, 0, <usize>keyCount << 2);
  for (let k = 0; k < m; k++) {
    const home = get(ruleHome, k);
    if (home != NO_KEY) set(counts, get(rank, home), get(counts, get(rank, home)) + 1);
  }
  let ruleAt = at;
  for (let j = 0; j < keyCount; j++) {
    const key = out + keysOffset + <usize>j * KEY_SIZE;
    store<u32>(key + KEY_RULES_OFF, ruleAt);
    store<u32>(key + KEY_RULE_COUNT, 0);
    ruleAt += get(counts, j) * KEY_RULE_SIZE;
  }
  const recordsOffset = ruleAt;
  let recordAt = recordsOffset;
  for (let k = 0; k < m; k++) {
    const home = get(ruleHome, k);
    if (home == NO_KEY) continue;
    const key = out + keysOffset + <usize>get(rank, home) * KEY_SIZE;
    const n = load<u32>(key + KEY_RULE_COUNT);
    const entry = out + load<u32>(key + KEY_RULES_OFF) + n * KEY_RULE_SIZE;
    store<u32>(key + KEY_RULE_COUNT, n + 1);
    store<u32>(entry + KEY_RULE_STRENGTH, k);
    const first = get(segFirst, k);
    const count = get(segFirst, k + 1) - first;
    const anchored = get(ruleAnchored, k);
    if (count == 1) {
      // Its one segment is this key.
      store<u32>(entry + KEY_RULE_WORD, (get(litLen, k) << 2) | (anchored != 0 ? KEY_RULE_ANCHORED : 0));
      continue;
    }
    store<u32>(entry + KEY_RULE_WORD, <u32>recordAt | KEY_RULE_RECORD);
    const record = out + recordAt;
    store<u32>(record + SEGMENTS_LITERAL, (get(litLen, k) << 1) | anchored);
    store<u32>(record + SEGMENTS_COUNT, count);
    for (let s: u32 = 0; s < count; s++) store<u32>(record + SEGMENTS_KEYS + (<usize>s << 2), get(rank, get(segKey, first + s)));
    recordAt += SEGMENTS_KEYS + 4 * <i32>count;
  }
  return recordsOffset;
}

// ---------------------------------------------------------------------------------------

/**
 * Compiles `ruleCount` rules (RULE_IN_SIZE records at `rulesIn`, values in body[0, bodyLen))
 * into a table at `out` (`outBytes` bytes); returns its size. `work` holds `workBytes` bytes,
 * at least compileWorkBytes(). When either is too small for these rules, it writes nothing and
 * answers COMPILE_SHORT_OF_WORK or COMPILE_SHORT_OF_TABLE, with compileNeed() bytes needed.
 */
export function compileTable(body: usize, rulesIn: usize, ruleCount: i32, rfc: bool, work: usize, workBytes: usize, out: usize, outBytes: usize): i32 {
  let totalIn = 0;
  for (let i = 0; i < ruleCount; i++) {
    const r = rulesIn + <usize>i * RULE_IN_SIZE;
    totalIn += <i32>(load<u32>(r + RULE_IN_END) - load<u32>(r + RULE_IN_START));
  }
  if (compileWorkBytes(ruleCount, totalIn) > <f64>workBytes) {
    needed = compileWorkBytes(ruleCount, totalIn);
    return COMPILE_SHORT_OF_WORK;
  }
  arena = work;
  arenaEnd = work + <usize>workBytes;
  const maxRules = ruleCount * 2;
  patOff = take(<usize>maxRules << 2);
  patLen = take(<usize>maxRules << 2);
  ruleAllow = take(<usize>maxRules << 2);
  const ruleLine = take(<usize>maxRules << 2);
  const ruleDerived = take(<usize>maxRules << 2);
  norm = take(<usize>(6 * totalIn + ruleCount + 16));

  // 1. Normalise every pattern; google mode adds the index.htm variant of an Allow.
  let m = 0;
  let normUsed: u32 = 0;
  const how = rfc ? NORMALIZE_PATTERN_RFC : NORMALIZE_PATTERN_GOOGLE;
  for (let i = 0; i < ruleCount; i++) {
    const r = rulesIn + <usize>i * RULE_IN_SIZE;
    const start = load<u32>(r + RULE_IN_START);
    const len = <i32>(load<u32>(r + RULE_IN_END) - start);
    const n = normalizeInto(body + start, len, norm + normUsed, how);
    if (n == 0) continue; // an empty pattern never decides
    const allow = load<u32>(r + RULE_IN_ALLOW);
    set(patOff, m, normUsed);
    set(patLen, m, n);
    set(ruleAllow, m, allow);
    set(ruleLine, m, load<u32>(r + RULE_IN_LINE));
    set(ruleDerived, m, 0);
    m++;
    if (!rfc && allow != 0) {
      // The reference retries an Allow ending in "/index.htm..." as "<dir>/$" (allowing the
      // directory itself); as an extra rule it decides exactly when the retry would.
      const p = norm + normUsed;
      let slash = n - 1;
      while (slash >= 0 && load<u8>(p + slash) != 0x2f) slash--;
      if (slash >= 0 && isIndexHtm(p + slash, n - slash)) {
        const at = normUsed + n;
        memory.copy(norm + at, p, slash + 1);
        store<u8>(norm + at + slash + 1, 0x24);
        set(patOff, m, at);
        set(patLen, m, slash + 2);
        set(ruleAllow, m, 1);
        set(ruleLine, m, load<u32>(r + RULE_IN_LINE));
        set(ruleDerived, m, 1);
        m++;
        normUsed += <u32>(slash + 2);
      }
    }
    normUsed += <u32>n;
  }

  // 2. Strength order: longest pattern first, allow before disallow, then file order.
  const sortTmp = take(<usize>m << 3);
  strengthPat = take(<usize>m << 2);
  litPtr = take(<usize>m << 2);
  let maxLen = 0;
  for (let i = 0; i < m; i++) maxLen = max(maxLen, <i32>get(patLen, i));
  const slots = (maxLen + 1) * 2;
  if (slots <= STRENGTH_SLOTS_PER_RULE * ruleCount + STRENGTH_SLOTS_SLACK) {
    // A counting sort into slots by (length, kind), rules in file order within a slot: the
    // merge sort of keys below was a good part of a small file's compile.
    const next = take(<usize>slots << 2);
    for (let j = 0; j < slots; j++) set(next, j, 0);
    for (let i = 0; i < m; i++) {
      const slot = strengthSlot(maxLen, get(patLen, i), get(ruleAllow, i));
      set(next, slot, get(next, slot) + 1);
    }
    let at: u32 = 0;
    for (let j = 0; j < slots; j++) {
      const count = get(next, j);
      set(next, j, at);
      at += count;
    }
    for (let i = 0; i < m; i++) {
      const slot = strengthSlot(maxLen, get(patLen, i), get(ruleAllow, i));
      const k = <i32>get(next, slot);
      set(next, slot, k + 1);
      set(strengthPat, k, i);
    }
  } else {
    // Patterns far longer than the rules are many: a merge sort of one key per rule.
    const strengthKeys = take(<usize>m << 3);
    for (let i = 0; i < m; i++) {
      const notAllow: u64 = get(ruleAllow, i) != 0 ? 0 : 1;
      // 31 bits of inverted length: patterns of any length a body can hold sort by length.
      setItem(strengthKeys, i, ((<u64>(0x7fffffff - get(patLen, i))) << 33) | (notAllow << 32) | <u64>i);
    }
    sortValues(strengthKeys, sortTmp, m);
    for (let k = 0; k < m; k++) set(strengthPat, k, <u32>(item(strengthKeys, k) & 0xffffffff));
  }
  for (let k = 0; k < m; k++) set(litPtr, k, <u32>(norm + get(patOff, get(strengthPat, k))));

  // 3. Shapes: the literal part, and each wildcard rule's literal segments. The segments go in
  // arrays sized for two a rule, which the work area has room for; more are counted, and then
  // stored by a second pass into arrays of their number.
  litLen = take(<usize>m << 2);
  const shape = take(<usize>m << 2);
  segFirst = take(<usize>(m + 1) << 2);
  ruleAnchored = take(<usize>m << 2);
  let capacity = 2 * ruleCount;
  segPtr = take(<usize>capacity << 2);
  segLen = take(<usize>capacity << 2);
  segOwner = take(<usize>capacity << 2);
  let segCount = 0;
  let wildRules = 0;
  for (let k = 0; k < m; k++) {
    const p = patternOf(k);
    const n = <i32>get(patLen, get(strengthPat, k));
    const anchored = load<u8>(p + n - 1) == 0x24;
    const star = findByte(p, 0, n, 0x2a);
    set(segFirst, k, segCount);
    set(ruleAnchored, k, 0);
    if (star == n) {
      set(litLen, k, anchored ? n - 1 : n);
      set(shape, k, anchored ? SHAPE_END : SHAPE_PREFIX);
      continue;
    }
    set(litLen, k, star);
    const count = scanSegments(p, star, anchored ? n - 1 : n, k, segCount, capacity);
    if (count == 0) {
      // Nothing but '*' (and '$') after the literal part: matches every path that starts
      // with it, like a prefix rule (of its own, longer, priority).
      set(shape, k, SHAPE_PREFIX);
      continue;
    }
    set(shape, k, SHAPE_WILD);
    // A final '$' anchors the last segment unless a '*' stands between them.
    set(ruleAnchored, k, anchored && load<u8>(p + n - 2) != 0x2a ? 1 : 0);
    segCount += count;
    wildRules++;
  }
  set(segFirst, m, segCount);
  if (segCount > capacity) {
    const workNeeded = baseWorkBytes(ruleCount, totalIn) + <f64>WORK_PER_SEGMENT * segCount + 12 * <f64>capacity;
    if (workNeeded > <f64>workBytes) {
      needed = workNeeded;
      return COMPILE_SHORT_OF_WORK;
    }
    capacity = segCount;
    segPtr = take(<usize>capacity << 2);
    segLen = take(<usize>capacity << 2);
    segOwner = take(<usize>capacity << 2);
    for (let k = 0; k < m; k++) {
      if (get(shape, k) != SHAPE_WILD) continue;
      const p = patternOf(k);
      const n = <i32>get(patLen, get(strengthPat, k));
      scanSegments(p, <i32>get(litLen, k), load<u8>(p + n - 1) == 0x24 ? n - 1 : n, k, <i32>get(segFirst, k), capacity);
    }
  }

  litKey = take(<usize>m << 3);
  for (let k = 0; k < m; k++) {
    const len = <i32>get(litLen, k);
    let x = load<u64>(patternOf(k)); // `norm` has slack past its last pattern
    if (len < 8) x &= (<u64>1 << (<u64>len << 3)) - 1;
    store<u64>(litKey + (<usize>k << 3), bswap<u64>(x));
  }

  // 4. Filter keys: the distinct segments, the key each rule hangs off, the filter's order.
  chooseKeys(m, wildRules >= FILTER_MIN_RULES ? shape : 0);
  orderKeys();

  // 5. Radix trie over the literal parts, built from them in byte order.
  const litOrder = take(<usize>m << 3);
  for (let k = 0; k < m; k++) setItem(litOrder, k, k);
  sortByLiteral(litOrder, sortTmp, m);
  const maxNodes = 2 * m + 1 + <i32>(normUsed / <u32>MAX_LABEL);
  nodeDepth = take(<usize>maxNodes << 2);
  nodeRef = take(<usize>maxNodes << 2);
  nodeLit = take(<usize>maxNodes << 2);
  nodePrefix = take(<usize>maxNodes << 2);
  nodeEnd = take(<usize>maxNodes << 2);
  nodeWildStart = take(<usize>maxNodes << 2);
  nodeWildCount = take(<usize>maxNodes << 2);
  nodeKeyed = take(<usize>maxNodes << 2);
  nodeFirstChild = take(<usize>maxNodes << 2);
  nodeLastChild = take(<usize>maxNodes << 2);
  nodeNext = take(<usize>maxNodes << 2);
  nodePrev = take(<usize>maxNodes << 2);
  nodeParent = take(<usize>maxNodes << 2);
  const stack = take(<usize>maxNodes << 2);
  const wildList = take(<usize>m << 2);
  const poolOut = take(<usize>m << 2); // per strength number: offset in the table's pool
  nodeCount = 0;

  let poolLength = 0;
  for (let k = 0; k < m; k++) {
    set(poolOut, k, poolLength);
    poolLength += get(patLen, get(strengthPat, k));
  }

  let wildUsed = 0;
  let stackSize = 0;
  let firstByte = -1; // of the first non-empty literal part: all start with it when the root has one child
  if (m > 0) {
    set(stack, stackSize++, newNode(0, 0, 0));
    let prevPattern: usize = 0;
    let prevLen = 0;
    let i = 0;
    while (i < m) {
      // A run of rules with the same literal part: one node.
      const first = <u32>item(litOrder, i);
      const lit = patternOf(first);
      const len = <i32>get(litLen, first);
      let node: i32;
      if (len == 0) {
        node = 0;
      } else {
        if (firstByte < 0) firstByte = load<u8>(lit);
        const shared = prevLen == 0 ? 0 : commonPrefix(prevPattern, lit, min(prevLen, len));
        let popped: i32 = -1;
        while (<i32>get(nodeDepth, get(stack, stackSize - 1)) > shared) popped = <i32>get(stack, --stackSize);
        let top = <i32>get(stack, stackSize - 1);
        if (<i32>get(nodeDepth, top) < shared) {
          // `popped` hangs below depth `shared`: split its edge there.
          const middle = newNode(shared, get(nodeRef, popped), get(nodeLit, popped));
          splitLastChild(top, middle);
          set(stack, stackSize++, middle);
          top = middle;
        }
        // A node's label length has 32 - NODE_LABEL_SHIFT bits: an enormous literal gets a chain of nodes.
        while (len - <i32>get(nodeDepth, top) > MAX_LABEL) {
          const link = newNode(get(nodeDepth, top) + MAX_LABEL, get(poolOut, first), lit);
          appendChild(top, link);
          set(stack, stackSize++, link);
          top = link;
        }
        node = newNode(len, get(poolOut, first), lit);
        appendChild(top, node);
        set(stack, stackSize++, node);
        prevPattern = lit;
        prevLen = len;
      }
      set(nodeWildStart, node, wildUsed);
      while (i < m) {
        const k = <u32>item(litOrder, i);
        if (k != first && byLiteral(first, k) != 0) break;
        const s = get(shape, k);
        if (s == SHAPE_WILD) {
          if (get(ruleHome, k) != NO_KEY) set(nodeKeyed, node, get(nodeKeyed, node) + 1);
          else set(wildList, wildUsed++, k);
        }
        else if (s == SHAPE_END) set(nodeEnd, node, min(get(nodeEnd, node), k));
        else set(nodePrefix, node, min(get(nodePrefix, node), k));
        i++;
      }
      set(nodeWildCount, node, wildUsed - get(nodeWildStart, node));
    }
  }

  // 6. Layout.
  const rulesOffset = HEADER_SIZE;
  const kindsOffset = rulesOffset + m * RULE_SIZE;
  const poolOffset = kindsOffset + m;
  let cursor = (poolOffset + poolLength + 3) & ~3;
  const order = take(<usize>(nodeCount + 1) << 2); // nodes in depth-first order
  const nodeOffset = take(<usize>(nodeCount + 1) << 2);
  const nodeChildren = take(<usize>(nodeCount + 1) << 2); // childrenField of each node
  let ordered = 0;
  // A root whose only child is "/" is left out: that child is the root (see the format).
  let root = 0;
  if (nodeCount > 0 && get(nodeWildCount, 0) == 0 && firstByte == 0x2f) {
    const only = <i32>get(nodeFirstChild, 0);
    if (only != NONE && get(nodeNext, only) == NONE && get(nodeDepth, only) == 1) {
      root = only;
      set(nodePrefix, root, min(get(nodePrefix, root), get(nodePrefix, 0)));
      set(nodeKeyed, root, get(nodeKeyed, root) + get(nodeKeyed, 0));
    }
  }
  if (nodeCount > 0) {
    stackSize = 0;
    set(stack, stackSize++, root);
    while (stackSize > 0) {
      const node = <i32>get(stack, --stackSize);
      set(order, ordered++, node);
      set(nodeOffset, node, cursor);
      const children = childrenField(node);
      set(nodeChildren, node, children);
      cursor += NODE_CHILD_AREA + childAreaBytes(children) + 4 * <i32>popcnt(nodeFields(node)) + WILD_SIZE * get(nodeWildCount, node);
      // Children in reverse onto the stack so the first child comes out first.
      for (let child = get(nodeLastChild, node); child != NONE; child = get(nodePrev, child)) set(stack, stackSize++, child);
    }
  }
  const filterOffset = keyCount > 0 ? cursor : 0;
  if (keyCount > 0) cursor += filterBytes();
  const total = cursor;
  if (<u32>total > <u32>outBytes) {
    needed = <f64><u32>total;
    return COMPILE_SHORT_OF_TABLE;
  }

  // 7. Write.
  memory.fill(out, 0, <usize>total);
  store<u32>(out + HDR_MAGIC, TABLE_MAGIC);
  store<u32>(out + HDR_TOTAL_LEN, total);
  // Offsets past CHILD_OFFSET_MASK leave no room for a label length in a child entry.
  const wide = total > CHILD_OFFSET_MASK;
  store<u32>(out + HDR_FLAGS, (rfc ? FLAG_RFC : 0) | (wide ? FLAG_WIDE_CHILDREN : 0));
  store<u32>(out + HDR_RULE_COUNT, m);
  store<u32>(out + HDR_RULES_OFF, rulesOffset);
  store<u32>(out + HDR_ROOT_OFF, nodeCount > 0 ? get(nodeOffset, root) : 0);
  store<u32>(out + HDR_POOL_OFF, poolOffset);
  store<u32>(out + HDR_POOL_LEN, poolLength);
  store<u32>(out + HDR_FILTER_OFF, filterOffset);
  store<u32>(out + HDR_KINDS_OFF, kindsOffset);

  for (let k = 0; k < m; k++) {
    const rule = get(strengthPat, k);
    const at = out + rulesOffset + <usize>k * RULE_SIZE;
    const len = get(patLen, rule);
    store<u32>(at + RULE_PAT_END, poolOffset + get(poolOut, k) + len);
    store<u32>(at + RULE_LINE, get(ruleLine, rule));
    store<u8>(out + kindsOffset + k, (get(ruleDerived, rule) != 0 ? KIND_DERIVED_BIT : 0) | (get(ruleAllow, rule) != 0 ? KIND_ALLOW_BIT : 0));
    memory.copy(out + poolOffset + get(poolOut, k), norm + get(patOff, rule), len);
  }

  for (let o = 0; o < ordered; o++) {
    const node = <i32>get(order, o);
    const at = out + get(nodeOffset, node);
    const parent = get(nodeParent, node);
    const from = parent == NONE ? 0 : get(nodeDepth, parent);
    const depth = get(nodeDepth, node);
    store<u32>(at + NODE_LABEL_OFF, poolOffset + get(nodeRef, node) + from);
    const children = get(nodeChildren, node);
    const fields = nodeFields(node);
    store<u32>(at + NODE_LABEL_CHILDREN, ((depth - from) << NODE_LABEL_SHIFT) | fields | children);
    const area = at + NODE_CHILD_AREA;
    if ((children & NODE_DENSE) != 0) {
      const lo = firstByteOf(get(nodeFirstChild, node), depth);
      store<u8>(area, <u8>lo);
      for (let child = get(nodeFirstChild, node); child != NONE; child = get(nodeNext, child)) {
        store<u32>(area + 4 + (<usize>(firstByteOf(child, depth) - lo) << 2), childEntry(child, depth, nodeOffset, wide));
      }
    } else {
      const c = <i32>children;
      const offsets = area + childIndexBytes(c);
      const firstBytes = memory.data(256); // staging: at most 256 children
      let index = 0;
      for (let child = get(nodeFirstChild, node); child != NONE; child = get(nodeNext, child)) {
        store<u8>(firstBytes + index, <u8>firstByteOf(child, depth));
        store<u32>(offsets + (<usize>index << 2), childEntry(child, depth, nodeOffset, wide));
        index++;
      }
      writeChildIndex(area, firstBytes, c);
    }
    let field = area + <usize>childAreaBytes(children);
    if ((fields & NODE_HAS_PREFIX) != 0) store<u32>(field, get(nodePrefix, node)), (field += 4);
    if ((fields & NODE_HAS_END) != 0) store<u32>(field, get(nodeEnd, node)), (field += 4);
    const wildCount = get(nodeWildCount, node);
    if ((fields & NODE_HAS_WILD) != 0) store<u32>(field, (wildCount << 1) | (get(nodeKeyed, node) != 0 ? NODE_KEYED_BIT : 0)), (field += 4);
    // The wildcard list follows the fields.
    const wildStart = <i32>get(nodeWildStart, node);
    for (let w = 0; w < <i32>wildCount; w++) store<u32>(field + (<usize>w << 2) + WILD_STRENGTH, get(wildList, wildStart + w));
  }

  if (keyCount > 0) writeFilter(out, filterOffset, poolOffset, poolOut, m);
  return total;
}

function byteScore(c: u32): u8 {
  if (c == 0x2f) return 12; // '/'
  if (c == 0x2e || c == 0x2d) return 6; // . -
  if (c == 0x61 || c == 0x65 || c == 0x69 || c == 0x6f || c == 0x75) return 5; // vowels
  if (c == 0x3d || c == 0x26 || c == 0x5f) return 4; // = & _
  if (c == 0x3f) return 2; // '?': at most once in a path
  if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) return 3;
  return 1;
}

/** byteScore of every byte: a key's gate reads two per byte of the key. */
const BYTE_SCORES = memory.data(256);

/** Fills BYTE_SCORES (called once, before anything compiles). */
export function initByteScores(): void {
  for (let c: u32 = 0; c < 256; c++) store<u8>(BYTE_SCORES + c, byteScore(c));
}

/** Offset of the least common byte pair of a key (0 for a one-byte key). */
function gateOffset(key: usize, len: i32): u32 {
  let best = 0;
  let bestScore = 0x7fffffff;
  for (let g = 0; g + 1 < len; g++) {
    const score = <i32>load<u8>(BYTE_SCORES + load<u8>(key + g)) + <i32>load<u8>(BYTE_SCORES + load<u8>(key + g + 1));
    if (score < bestScore) {
      bestScore = score;
      best = g;
    }
  }
  return best;
}

/** The bytes at p (n of them) start with "/index.htm". */
function isIndexHtm(p: usize, n: i32): bool {
  if (n < 10) return false;
  const text = memory.data<u8>([0x2f, 0x69, 0x6e, 0x64, 0x65, 0x78, 0x2e, 0x68, 0x74, 0x6d]);
  for (let i = 0; i < 10; i++) if (load<u8>(p + i) != load<u8>(text + i)) return false;
  return true;
}
