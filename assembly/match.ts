// The matching kernel: one walk of the compiled radix trie per path (literal rules), plus the
// wildcard rules hanging off the trie nodes the walk passes or off the key filter's keys.
// Rules are numbered by strength (longest pattern first, allow before disallow, then file
// order), so "the best match" is simply the smallest number seen. The table layout is
// listed in src/wasm/abi.ts.
//
// The work of one check of an n-byte path, whatever the rules (README, Limits, "time per
// check"; the counts keyFilterCount reports are what test/differential.test.ts holds it to):
//   - the walk: O(n);
//   - the key pass (findKeys): at most FILTER_WORK_PER_BYTE steps per byte plus
//     FILTER_WORK_SLACK, then a forward and a backward automaton pass, O(n) each, or, in a
//     filter of at most AUTOMATA_MIN_KEYS keys, a linear search for each key from either end;
//     and at most MAX_LAZY_KEYS lazy keys searched for, from either end, when a rule needs one;
//   - per keyed rule hanging off a key the path holds, in strength order while it could beat
//     the best match: O(its segments) to find that one is absent (it is then not placed), its
//     literal part does not start the path, an anchored last segment does not end it, or a
//     segment cannot start late enough for the ones after it; none of this grows with the
//     number of rules that share a key;
//   - per rule placed: O(1) per segment, but for a segment needed again after its first
//     occurrence, a search from the previous segment's end to the latest start the later
//     segments leave room for - O(n) at worst, nothing when an earlier search of the same
//     segment covered it;
//   - the searches of one path (those of placed rules, of the per-key searches past the key
//     pass's budget and of lazy keys) scan at most INDEX_SEARCH_WORK_PER_BYTE x n +
//     INDEX_SEARCH_WORK_SLACK bytes: past that, a text index of the path is built once
//     (text-index.ts, O(n)) and each later search costs O(m log n) for an m-byte segment, so
//     that rules placed x n, every placed rule searching a long stretch of the path that lacks
//     its segment, becomes rules placed x log n;
//   - per unkeyed wildcard rule whose literal part the walk reaches (a table with one
//     wildcard rule, or a segment longer than MAX_KEY_LEN): one greedy match, O(n + pattern).
// A linear table (FLAG_LINEAR) has no trie and no filter: firstMatching tries each rule, one
// greedy match each, and counts what that costs: past the work its caller allows, or one
// rule's tries and a match begun of each rule and LINEAR_CHECK_SLACK more, it gives up, and
// the full table answers (src/matcher.ts).

import {
  FILTER_BUCKET_BITS, FILTER_BUCKETS_OFF, FILTER_GATE1_HI, FILTER_GATE1_LO, FILTER_KEY_COUNT, FILTER_KEYS_OFF,
  FILTER_BUCKET_BITS_MASK, FILTER_EXACT_GATES, FILTER_GATE2_HI, FILTER_SINGLES, GATE_HASH, KEY_GATE_PAIR,
  FILTER_GATE2_LO, FILTER_SINGLE_HI, FILTER_SINGLE_LO, HDR_FILTER_OFF, HDR_KINDS_OFF, HDR_POOL_OFF, HDR_ROOT_OFF,
  HDR_RULES_OFF, KEY_GATE, KEY_LEN, KEY_RULE_COUNT, KEY_RULE_SIZE, KEY_RULE_STRENGTH, KEY_RULES_OFF,
  KEY_SHARED, RULE_KIND_ALLOW_BIT, NODE_KEYED_BIT, KEY_POOL_OFF, KEY_SIZE, NO_RULE, CHILD_LABEL_LONG,
  CHILD_LABEL_SHIFT, CHILD_OFFSET_MASK, FLAG_WIDE_CHILDREN, HDR_FLAGS, NODE_CHILD_AREA, NODE_HAS_END, NODE_HAS_PREFIX,
  NODE_HAS_WILD, NODE_LABEL_CHILDREN, NODE_LABEL_OFF, NODE_LABEL_SHIFT, RULE_PAT_END, RULE_SIZE, WILD_SIZE, WILD_STRENGTH,
  FILTER_LAZY, FILTER_AUTOMATA, FILTER_WORK_PER_BYTE, FILTER_WORK_SLACK, KEY_RULE_WORD, KEY_RULE_RECORD, KEY_RULE_ANCHORED,
  MAX_LAZY_KEYS, SEGMENTS_COUNT, SEGMENTS_KEYS, SEGMENTS_LITERAL, FLAG_LINEAR, HDR_RULE_COUNT, LINEAR_HEAD_BYTES, LINEAR_HEAD_MASK, LINEAR_HEAD_SIZE,
  LINEAR_CHECK_SLACK, LINEAR_FREE_RULES, LINEAR_MATCH_WORK, LINEAR_OVER_LIMIT, LINEAR_SEARCH_BYTES,
  INDEX_SEARCH_WORK_PER_BYTE, INDEX_SEARCH_WORK_SLACK,
} from '../src/wasm/abi';
import { countSearch, findByte, findLastByte, indexOfSegment, lastIndexOfSegment, NIBBLE, nextMarked, outsideSet, setBits, takeSearchWork } from './scan';
import { buildTextIndex, textIndexBytes, textIndexFirst, textIndexLast } from './text-index';
import { childAreaBytes, childEntry } from './node';
import { findByAutomata } from './automaton';
import { anyOccurred, clearOccurrences, firstAt, hasOccurred, lastAt, markFirst, markOccurrence, occurredWord, setLast } from './occurrences';
import { bytesEqual, commonPrefix } from './bytes';
import { u32At } from './words';

/**
 * Does the pattern tail pat[from, patLen) - which starts with '*' - match path[pos, len)?
 * Greedy leftmost placement of each '*'-separated segment is exact (each placement leaves the
 * most room for the rest) and never backtracks; with a final '$' the last segment must be a
 * suffix of the path at or after the point the others reached.
 */
function wildcardTailMatches(pat: usize, from: i32, patLen: i32, path: usize, pos: i32, len: i32): bool {
  const anchored = load<u8>(pat + patLen - 1) == 0x24;
  const end = anchored ? patLen - 1 : patLen;
  let i = from;
  let p = pos;
  while (true) {
    while (i < end && load<u8>(pat + i) == 0x2a) i++;
    if (i == end) return true; // trailing '*' (and '$') absorbs the rest of the path
    const j = findByte(pat, i, end, 0x2a);
    const segLen = j - i;
    if (j == end) {
      if (anchored) {
        return len - segLen >= p && memory.compare(path + len - segLen, pat + i, segLen) == 0;
      }
      return indexOfSegment(path, p, len, pat + i, segLen) >= 0;
    }
    const found = indexOfSegment(path, p, len, pat + i, segLen);
    if (found < 0) return false;
    p = found + segLen;
    i = j;
  }
}

const RUN_UNKNOWN = -1;
const RUN_PAST = -2;

/**
 * Bit i set when byte i of `v` is in the first gate set and byte i of `next` (the bytes of `v`
 * shifted by one) in the second: where a gate pair may start.
 */
// @ts-ignore: decorator
@inline function gatePairBits(v: v128, next: v128, gate1Lo: v128, gate1Hi: v128, gate2Lo: v128, gate2Hi: v128, nibble: v128): u32 {
  return <u32>(i8x16.bitmask(v128.or(outsideSet(v, gate1Lo, gate1Hi, nibble), outsideSet(next, gate2Lo, gate2Hi, nibble))) ^ 0xffff);
}

/**
 * Bit i set when bytes i and i + 1 (byte i of `v` and of `next`) are the gate pair `first`,
 * `second` or the pair `first2`, `second2` (each byte in every lane): FILTER_EXACT_GATES.
 */
// @ts-ignore: decorator
@inline function exactPairBits(v: v128, next: v128, first: v128, second: v128, first2: v128, second2: v128): u32 {
  return <u32>i8x16.bitmask(v128.or(v128.and(i8x16.eq(v, first), i8x16.eq(next, second)), v128.and(i8x16.eq(v, first2), i8x16.eq(next, second2))));
}

/** Bit i set where a gate pair may start: exactPairBits or gatePairBits, by the filter's mode. */
// @ts-ignore: decorator
@inline function gateCandidates(exact: bool, v: v128, next: v128, gate1Lo: v128, gate1Hi: v128, gate2Lo: v128, gate2Hi: v128, nibble: v128): u32 {
  // In exact mode the four gate vectors are two pairs' bytes (see src/wasm/abi.ts).
  return exact ? exactPairBits(v, next, gate1Lo, gate1Hi, gate2Lo, gate2Hi) : gatePairBits(v, next, gate1Lo, gate1Hi, gate2Lo, gate2Hi, nibble);
}

/** The bitmap the last mapKeyGates call wrote, or 0 when it mapped nothing. */
let keyGateMap: usize = 0;

/**
 * Marks where a filter key's gate may start in buf[0, len), in a bitmap at `map`
 * (mapBytes(len) bytes): bit i set when byte i and i + 1 may be a gate pair, or byte i a
 * one-byte key - the candidates findKeys would visit at that byte. A check on that buffer
 * whose path lies in it as it is (not normalised) and holds no marked byte skips bestKeyed,
 * whose set-up before its loop costs more than the few bits the map reads. Only the tables
 * where the map saves more than it costs are mapped (keyGateMap 0: none):
 * - those whose root has keyed rules: there every path is searched for keys, while below the
 *   root only the paths that reach the keyed node are, too few to pay for mapping every path;
 * - with exact gates (at most two gate pairs, FILTER_EXACT_GATES): rare pairs, cheap to mark.
 *   With set gates (many keys) candidates are common, so few paths are skipped, and a set
 *   test costs twice an exact one: the map would cost more than it saves.
 */
export function mapKeyGates(table: usize, buf: usize, len: i32, map: usize): void {
  keyGateMap = 0;
  if (!rootIsKeyed(table)) return;
  const filter = table + <usize>u32At(table + HDR_FILTER_OFF);
  if ((u32At(filter + FILTER_BUCKET_BITS) & FILTER_EXACT_GATES) == 0) return;
  keyGateMap = map;
  // The one-byte key tables are there only when the filter has one-byte keys; a loop for
  // each case (the constant folds away in each).
  if (u32At(filter + FILTER_SINGLES) < u32At(filter + FILTER_LAZY)) markGates(filter, buf, len, map, true);
  else markGates(filter, buf, len, map, false);
}

/** Whether the root node has wildcard rules reached through the filter (see walk). */
function rootIsKeyed(table: usize): bool {
  const rootOff = u32At(table + HDR_ROOT_OFF);
  if (rootOff == 0) return false;
  const node = table + <usize>rootOff;
  const word = u32At(node + NODE_LABEL_CHILDREN);
  if ((word & NODE_HAS_WILD) == 0) return false;
  // The wildcard field follows the child area and the prefix and end fields the node has.
  const wild = node + NODE_CHILD_AREA + <usize>childAreaBytes(word) + 4 * <usize>popcnt(word & (NODE_HAS_PREFIX | NODE_HAS_END));
  return (u32At(wild) & NODE_KEYED_BIT) != 0;
}

// @ts-ignore: decorator
@inline function markGates(filter: usize, buf: usize, len: i32, map: usize, singles: bool): void {
  // In exact mode the four gate vectors are two pairs' bytes (see src/wasm/abi.ts).
  const first = v128.load(filter + FILTER_GATE1_LO);
  const second = v128.load(filter + FILTER_GATE1_HI);
  const first2 = v128.load(filter + FILTER_GATE2_LO);
  const second2 = v128.load(filter + FILTER_GATE2_HI);
  const singleLo = singles ? v128.load(filter + FILTER_SINGLE_LO) : i8x16.splat(0);
  const singleHi = singles ? v128.load(filter + FILTER_SINGLE_HI) : i8x16.splat(0);
  const nibble = v128.load(NIBBLE);
  // 32 bytes a step, as findKeys reads them: the loop's own work is a good part of a step's.
  for (let i = 0; i < len; i += 32) {
    const v = v128.load(buf + i);
    const w = v128.load(buf + i + 16);
    let bits = exactPairBits(v, v128.load(buf + i + 1), first, second, first2, second2) |
      (exactPairBits(w, v128.load(buf + i + 17), first, second, first2, second2) << 16);
    if (singles) bits |= <u32>setBits(v, singleLo, singleHi, nibble) | (<u32>setBits(w, singleLo, singleHi, nibble) << 16);
    store<u32>(map + (<usize>i >>> 3), bits);
  }
}

/**
 * Marks every filter key the pass looks for (all but the lazy ones) that occurs in
 * path[from, len), with its first and last start (occurrences.ts). Candidates are the
 * positions where a key's gate (its least common byte pair, or a one-byte key) may occur,
 * found 32 bytes at a time; a candidate's pair picks a hash bucket of keys, and only those are
 * compared, from the gate's offset back. A key's occurrences are found in order of position.
 * Returns whether it marked any key.
 *
 * The work is bounded: a step per key of a bucket visited and per 8 bytes compared, at most
 * FILTER_WORK_PER_BYTE per byte of the path plus FILTER_WORK_SLACK. Keys whose gate pair is
 * everywhere in a long path ("aaaa…" for a key "aa…e…aa"), or many keys with one gate pair,
 * could cost more; past the budget the pass starts over by the filter's automata, or by a search
 * for each key (findKeysPastBudget): linear in the path, the searches once per key.
 */
// Inlined into its one caller, bestKeyed: a call costs a short path more than its work.
// @ts-ignore: decorator
@inline function findKeys(table: usize, filter: usize, path: usize, from: i32, len: i32): bool {
  clearOccurrences(<i32>u32At(filter + FILTER_KEY_COUNT));
  const keys = table + <usize>u32At(filter + FILTER_KEYS_OFF);
  const buckets = table + <usize>u32At(filter + FILTER_BUCKETS_OFF);
  const bucketWord = u32At(filter + FILTER_BUCKET_BITS);
  const shift = 32 - (bucketWord & FILTER_BUCKET_BITS_MASK);
  const exact = (bucketWord & FILTER_EXACT_GATES) != 0;
  const singles = <i32>u32At(filter + FILTER_SINGLES);
  const lazy = <i32>u32At(filter + FILTER_LAZY);
  const budget = (len - from) * FILTER_WORK_PER_BYTE + FILTER_WORK_SLACK;
  let work = 0;
  const gate1Lo = v128.load(filter + FILTER_GATE1_LO);
  const gate1Hi = v128.load(filter + FILTER_GATE1_HI);
  const gate2Lo = v128.load(filter + FILTER_GATE2_LO);
  const gate2Hi = v128.load(filter + FILTER_GATE2_HI);
  // The one-byte key tables are there only when the pass looks for one-byte keys.
  const hasSingles = singles < lazy;
  const singleLo = hasSingles ? v128.load(filter + FILTER_SINGLE_LO) : i8x16.splat(0);
  const singleHi = hasSingles ? v128.load(filter + FILTER_SINGLE_HI) : i8x16.splat(0);
  const nibble = v128.load(NIBBLE);
  // 32 bytes a step rather than 16: the loop's own work counted for much of a short path.
  for (let i = from; i < len; i += 32) {
    const v = v128.load(path + i);
    const w = v128.load(path + i + 16);
    const valid: u32 = len - i < 32 ? (<u32>1 << <u32>(len - i)) - 1 : 0xffffffff;
    const pairsLow = gateCandidates(exact, v, v128.load(path + i + 1), gate1Lo, gate1Hi, gate2Lo, gate2Hi, nibble);
    const pairsHigh = gateCandidates(exact, w, v128.load(path + i + 17), gate1Lo, gate1Hi, gate2Lo, gate2Hi, nibble);
    let pairs = (pairsLow | (pairsHigh << 16)) & valid;
    while (pairs != 0) {
      const at = i + ctz(pairs);
      pairs &= pairs - 1;
      work += findInBucket(table, keys, buckets, shift, path, from, len, at);
      if (work > budget) return findKeysPastBudget(table, filter, path, from, len);
    }
    if (hasSingles) {
      let ones = (<u32>setBits(v, singleLo, singleHi, nibble) | (<u32>setBits(w, singleLo, singleHi, nibble) << 16)) & valid;
      while (ones != 0) {
        const at = i + ctz(ones);
        ones &= ones - 1;
        findOneByteKey(keys, singles, lazy, path, at);
      }
    }
  }
  return anyOccurred();
}

/**
 * Marks the keys of the bucket of the gate pair at path[at] that occur there (each from its
 * gate's offset back); returns the work it cost: a step per key, a step per 8 bytes compared.
 */
// @ts-ignore: decorator
@inline function findInBucket(table: usize, keys: usize, buckets: usize, shift: u32, path: usize, from: i32, len: i32, at: i32): i32 {
  const pair = (<u32>load<u8>(path + at) << 8) | load<u8>(path + at + 1);
  const b = <usize>((pair * GATE_HASH) >>> shift);
  const bucketStart = <i32>u32At(buckets + (b << 2));
  const end = <i32>u32At(buckets + ((b + 1) << 2));
  let work = end - bucketStart;
  // Keys of a run (same gate offset, byte order) are all compared with the path from the
  // same start. `agreed`: how many bytes the path and the previous key of the run have in
  // common (they differ next, or one of them ends there); RUN_UNKNOWN before any
  // comparison, RUN_PAST when no later key of the run can occur here.
  let runGate = -1;
  let agreed = RUN_UNKNOWN;
  for (let k = bucketStart; k < end; k++) {
    const key = keys + <usize>k * KEY_SIZE;
    const gate = <i32>load<u16>(key + KEY_GATE);
    if (gate != runGate) {
      runGate = gate;
      agreed = RUN_UNKNOWN;
    } else if (agreed == RUN_PAST) {
      continue;
    } else if (agreed >= 0) {
      const shared = <i32>load<u16>(key + KEY_SHARED);
      // It differs from the path where the previous key did (or is longer than the path).
      if (shared > agreed) continue;
      // It sorts after the previous key at a byte the path has in common with that key:
      // so does every later key of the run.
      if (shared < agreed) {
        agreed = RUN_PAST;
        continue;
      }
    }
    const start = at - gate;
    if (start < from) {
      agreed = RUN_PAST;
      continue;
    }
    if (agreed == RUN_UNKNOWN && <u32>load<u16>(key + KEY_GATE_PAIR) != pair) continue;
    const keyLen = <i32>load<u16>(key + KEY_LEN);
    const room = len - start;
    const known = agreed >= 0 ? agreed : 0; // bytes before `known` are already equal
    agreed = known + commonPrefix(path + start + known, table + <usize>u32At(key + KEY_POOL_OFF) + known, (keyLen < room ? keyLen : room) - known);
    work += (agreed - known) >> 3;
    if (agreed == keyLen) markOccurrence(k, start);
  }
  return work;
}

/**
 * Marks the one-byte key path[at], if the pass looks for it: those keys are the filter's keys
 * [singles, lazy), distinct bytes in ascending order, so a binary search finds it and a path
 * full of them costs a few steps per byte, not one per key.
 */
// @ts-ignore: decorator
@inline function findOneByteKey(keys: usize, singles: i32, lazy: i32, path: usize, at: i32): void {
  const c = <u32>load<u8>(path + at);
  let lo = singles;
  let hi = lazy;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (<u32>load<u16>(keys + <usize>mid * KEY_SIZE + KEY_GATE_PAIR) < c) lo = mid + 1;
    else hi = mid;
  }
  if (lo < lazy && <u32>load<u16>(keys + <usize>lo * KEY_SIZE + KEY_GATE_PAIR) == c) markOccurrence(lo, at);
}

/** Address just past rule `r`'s pattern. */
// @ts-ignore: decorator
@inline function patternEnd(table: usize, rules: usize, r: u32): usize {
  return table + <usize>u32At(rules + <usize>r * RULE_SIZE + RULE_PAT_END);
}

/** Address of rule `r`'s pattern: where the previous rule's ends (rule 0's: the pool). */
// @ts-ignore: decorator
@inline function patternStart(table: usize, rules: usize, r: u32): usize {
  return r == 0 ? table + <usize>u32At(table + HDR_POOL_OFF) : patternEnd(table, rules, r - 1);
}

/**
 * findKeys past its budget: every key the pass looks for, with its first and last start, by the
 * filter's automata (a pass each way), or, in a filter of at most AUTOMATA_MIN_KEYS keys, by a
 * linear search for each key from both ends of the path.
 */
function findKeysPastBudget(table: usize, filter: usize, path: usize, from: i32, len: i32): bool {
  passesGivenUp++;
  const keyCount = <i32>u32At(filter + FILTER_KEY_COUNT);
  const keys = table + <usize>u32At(filter + FILTER_KEYS_OFF);
  clearOccurrences(keyCount);
  const automata = u32At(filter + FILTER_AUTOMATA);
  if (automata != 0) return findByAutomata(table + <usize>automata, keys, keyCount, path, from, len);
  const passKeys = <i32>u32At(filter + FILTER_LAZY);
  let found = false;
  for (let k = 0; k < passKeys && indexWanted == 0; k++) {
    const key = keys + <usize>k * KEY_SIZE;
    found = markFirstAndLast(k, table + <usize>u32At(key + KEY_POOL_OFF), <i32>load<u16>(key + KEY_LEN), path, from, len) || found;
  }
  return found;
}

/**
 * Marks key `k` (`keyLen` bytes at `at`) with its first and last start in path[from, len), if
 * it occurs there; returns whether it does. From the text index once the path's searches have
 * passed their budget (indexReady).
 */
function markFirstAndLast(k: u32, at: usize, keyLen: i32, path: usize, from: i32, len: i32): bool {
  let first: i32;
  if (indexReady(path, len)) {
    first = textIndexFirst(at, keyLen, from, len - keyLen);
    if (first < 0) return false;
    markFirst(k, first);
    setLast(k, textIndexLast(at, keyLen, first, len - keyLen));
    return true;
  }
  if (indexWanted != 0) return false;
  if (keyLen == 1) {
    const b = load<u8>(at);
    first = findByte(path, from, len, b);
    countSearch(first - from);
    if (first == len) return false;
    markFirst(k, first);
    const last = findLastByte(path, first, len, b);
    countSearch(len - last);
    setLast(k, last);
    return true;
  }
  first = indexOfSegment(path, from, len, at, keyLen);
  if (first < 0) return false;
  markFirst(k, first);
  setLast(k, lastIndexOfSegment(path, first, len, at, keyLen));
  return true;
}

/** Paths whose key pass gave up, since the module started (for tests of the bound). */
let passesGivenUp = 0;
/** Keyed rules placed (every segment occurred), since the module started (the same). */
let rulesPlaced = 0;
/** Searches for a segment needed again after its first occurrence, since then (the same). */
let segmentSearches = 0;

/**
 * How many paths' key passes gave up (`which` 0), keyed rules were placed (1), segments were
 * searched for again (2) or text indexes were built (3), so far.
 */
export function keyFilterCount(which: i32): i32 {
  return which == 0 ? passesGivenUp : which == 1 ? rulesPlaced : which == 2 ? segmentSearches : indexesBuilt;
}

// Lazy keys looked for in the current path: bit i stands for key FILTER_LAZY + i.
const LAZY_DONE = memory.data(MAX_LAZY_KEYS / 8);

/**
 * Whether key `j` occurs in path[from, len) (see occurrences.ts). A lazy key (one no rule hangs
 * off that most paths hold, such as '/') is looked for on its first use in a path, from both
 * ends: at most MAX_LAZY_KEYS such searches per path.
 */
// @ts-ignore: decorator
@inline function keyOccurs(table: usize, keys: usize, lazy: u32, j: u32, path: usize, from: i32, len: i32): bool {
  if (j >= lazy) findLazyKey(table, keys, j, j - lazy, path, from, len);
  return hasOccurred(j);
}

function findLazyKey(table: usize, keys: usize, j: u32, lazyIndex: u32, path: usize, from: i32, len: i32): void {
  const done = LAZY_DONE + (<usize>(lazyIndex >>> 6) << 3);
  const bit = <u64>1 << <u64>(lazyIndex & 63);
  if ((load<u64>(done) & bit) != 0) return;
  store<u64>(done, load<u64>(done) | bit);
  const key = keys + <usize>j * KEY_SIZE;
  markFirstAndLast(j, table + <usize>u32At(key + KEY_POOL_OFF), <i32>load<u16>(key + KEY_LEN), path, from, len);
}

// Searches of the current path, remembered by key (a slot per key index modulo MEMO_SLOTS):
// check serial (u64), key, lo, hi, found. found >= 0: the key's leftmost start at or after lo
// is found; found < 0: no start of the key lies in [lo, hi).
const MEMO_SLOTS = 1024;
const MEMO_SIZE = 24;
const MEMO = memory.data(MEMO_SLOTS * MEMO_SIZE);
/** Numbers the paths bestKeyed places rules in, so that a memo of another path never answers. */
let checkSerial: u64 = 0;

// @ts-ignore: decorator
@inline function remember(slot: usize, j: u32, lo: i32, hi: i32, found: i32): i32 {
  store<u64>(slot, checkSerial);
  store<u32>(slot + 8, j);
  store<i32>(slot + 12, lo);
  store<i32>(slot + 16, hi);
  store<i32>(slot + 20, found);
  return found;
}

/**
 * The leftmost start in [p, latest] of key `j` (`keyLen` bytes at `at`) in the path, or -1: a
 * search of those bytes alone (latest is at most the key's last start). Searches are
 * remembered, so that placing the key again from a position an earlier search covered costs
 * nothing, and a search from before one covers only the bytes up to it.
 */
function nextOccurrence(j: u32, at: usize, keyLen: i32, path: usize, p: i32, latest: i32): i32 {
  const slot = MEMO + <usize>(j & (MEMO_SLOTS - 1)) * MEMO_SIZE;
  if (load<u64>(slot) == checkSerial && load<u32>(slot + 8) == j) {
    const lo = load<i32>(slot + 12);
    const found = load<i32>(slot + 20);
    if (p >= lo) {
      if (found >= 0 && p <= found) return found <= latest ? found : -1;
      if (found < 0 && latest < load<i32>(slot + 16)) return -1;
    } else if (found >= 0) {
      // Only starts before lo are new: past them, the leftmost is the one remembered.
      segmentSearches++;
      const before = searchSegment(at, keyLen, path, p, min(lo - 1, latest));
      if (before >= 0) return remember(slot, j, p, 0, before);
      if (latest >= lo) return remember(slot, j, p, 0, found) <= latest ? found : -1;
      return remember(slot, j, p, latest + 1, -1);
    }
  }
  segmentSearches++;
  const found = searchSegment(at, keyLen, path, p, latest);
  return remember(slot, j, p, found >= 0 ? 0 : latest + 1, found);
}

/**
 * The leftmost start in [p, latest] of the `keyLen` bytes at `at` in the path, or -1: by a
 * search of path[p, latest + keyLen), or from the text index once the path's searches have
 * passed their budget. -1 too when the index is wanted and there is no room for it.
 */
function searchSegment(at: usize, keyLen: i32, path: usize, p: i32, latest: i32): i32 {
  if (indexReady(path, pathLen)) return textIndexFirst(at, keyLen, p, latest);
  if (indexWanted != 0) return -1;
  return indexOfSegment(path, p, latest + keyLen, at, keyLen);
}

// The text index of the path being placed (text-index.ts): built once its searches pass
// INDEX_SEARCH_WORK_PER_BYTE per byte and INDEX_SEARCH_WORK_SLACK, in the area the caller gave
// (setTextIndexArea). Without room, the check gives up (LINEAR_OVER_LIMIT) and says how much
// it wanted (indexWanted): the caller makes the room and asks again.
let indexArea: usize = 0;
let indexAreaBytes: u64 = 0;
/** Bytes of index area the current call wanted and did not have; 0 when it lacked none. */
export let indexWanted: u64 = 0;
/** Whether the index holds the current path. */
let pathIndexed = false;
/** Search work of the current path so far. */
let pathSearchWork: i64 = 0;
/** The current path's length (the index covers path[0, pathLen)). */
let pathLen: i32 = 0;
/** Text indexes built, since the module started (for tests of the bound). */
let indexesBuilt = 0;

/** Gives the matcher `bytes` bytes at `area` for text indexes (textIndexBytes of the path). */
export function setTextIndexArea(area: usize, bytes: u64): void {
  indexArea = area;
  indexAreaBytes = bytes;
}

/** Starts the searches of a path of `len` bytes: no index yet, no work counted. */
// @ts-ignore: decorator
@inline function beginPathSearches(len: i32): void {
  pathIndexed = false;
  pathSearchWork = 0;
  pathLen = len;
  takeSearchWork();
}

/**
 * Whether the text index holds path[0, len): it does once built; it is built when the path's
 * searches so far have passed their budget and the area has room (else indexWanted says how
 * much was missing).
 */
function indexReady(path: usize, len: i32): bool {
  if (pathIndexed) return true;
  pathSearchWork += takeSearchWork();
  if (pathSearchWork <= <i64>len * INDEX_SEARCH_WORK_PER_BYTE + INDEX_SEARCH_WORK_SLACK) return false;
  const need = textIndexBytes(<u64>len);
  if (need > indexAreaBytes) {
    indexWanted = need;
    return false;
  }
  buildTextIndex(path, len, indexArea);
  indexesBuilt++;
  pathIndexed = true;
  return true;
}

/** Segments whose latest starts keyedRuleMatches keeps (LATEST); a longer rule looks one ahead. */
const MAX_BOUNDED_SEGMENTS = 256;
const LATEST = memory.data(4 * MAX_BOUNDED_SEGMENTS);

/**
 * Whether keyed rule `r`, which hangs off key `k` with entry word `w` (see the format), matches
 * the path. Every check before the placement costs O(1) per segment: its key occurs (else the
 * rule is not tried at all), the literal part starts the path, an anchored last segment ends it
 * (its key's last start is len - its length), and each segment can start late enough for the
 * ones after it: its latest start - the smaller of its last start and the latest start of the
 * next one less its length - is not before its first start. Greedy leftmost placement then puts
 * a segment whose first start lies at or after the current position there, in O(1); fails
 * when that lies past its latest start, or the latest start before the current position; and
 * otherwise searches from the current position to the latest start (nextOccurrence). An
 * unanchored last segment only needs a last start at or after the current position.
 */
function keyedRuleMatches(table: usize, keys: usize, lazy: u32, k: u32, r: u32, w: u32, path: usize, from: i32, len: i32): bool {
  const pat = patternStart(table, table + <usize>u32At(table + HDR_RULES_OFF), r);
  if ((w & KEY_RULE_RECORD) == 0) {
    // The rule's one segment is key k, which occurs.
    const literal = <i32>(w >>> 2);
    if (literal > len || memory.compare(pat, path, literal) != 0) return false;
    rulesPlaced++;
    if ((w & KEY_RULE_ANCHORED) == 0) return lastAt(k) >= literal;
    const keyLen = <i32>load<u16>(keys + <usize>k * KEY_SIZE + KEY_LEN);
    return lastAt(k) == len - keyLen && len - keyLen >= literal;
  }
  const record = table + <usize>(w & ~(KEY_RULE_RECORD | KEY_RULE_ANCHORED));
  const literalWord = u32At(record + SEGMENTS_LITERAL);
  const literal = <i32>(literalWord >>> 1);
  const count = <i32>u32At(record + SEGMENTS_COUNT);
  const segments = record + SEGMENTS_KEYS;
  if (literal > len) return false;
  for (let i = 0; i < count; i++) if (!keyOccurs(table, keys, lazy, u32At(segments + (<usize>i << 2)), path, from, len)) return false;
  const lastKey = u32At(segments + (<usize>(count - 1) << 2));
  const lastLen = <i32>load<u16>(keys + <usize>lastKey * KEY_SIZE + KEY_LEN);
  const anchored = (literalWord & 1) != 0;
  if (anchored && lastAt(lastKey) != len - lastLen) return false;
  if (memory.compare(pat, path, literal) != 0) return false;
  rulesPlaced++;
  // Latest starts, from the last segment back.
  const bounded = count <= MAX_BOUNDED_SEGMENTS;
  let latest = lastAt(lastKey);
  for (let i = count - 2; i >= 0 && bounded; i--) {
    const j = u32At(segments + (<usize>i << 2));
    latest = min(lastAt(j), latest - <i32>load<u16>(keys + <usize>j * KEY_SIZE + KEY_LEN));
    if (latest < firstAt(j) || latest < literal) return false;
    store<i32>(LATEST + (<usize>i << 2), latest);
  }
  let p = literal;
  for (let i = 0; i < count - 1; i++) {
    const j = u32At(segments + (<usize>i << 2));
    const key = keys + <usize>j * KEY_SIZE;
    const keyLen = <i32>load<u16>(key + KEY_LEN);
    const next = u32At(segments + (<usize>(i + 1) << 2));
    const bound = bounded ? load<i32>(LATEST + (<usize>i << 2)) : min(lastAt(j), lastAt(next) - keyLen);
    let at = firstAt(j);
    if (at < p) {
      if (bound < p) return false;
      at = nextOccurrence(j, table + <usize>u32At(key + KEY_POOL_OFF), keyLen, path, p, bound);
      if (at < 0) return false;
    } else if (at > bound) {
      return false;
    }
    p = at + keyLen;
  }
  return anchored ? len - lastLen >= p : lastAt(lastKey) >= p;
}

/**
 * The best of `best` and the keyed wildcard rules that match the path. Only the rules hanging off
 * a key that occurs in path[from, len) are visited, in strength order while they could still beat
 * the best match, and a visited rule is tried only when every one of its segments occurs
 * (keyedRuleMatches). A rule is matched in full, literal part included, since it may hang off a
 * key whose rules' literal parts the walk never reached.
 */
function bestKeyed(table: usize, filter: usize, path: usize, from: i32, len: i32, best: u32): u32 {
  beginPathSearches(len);
  // Most paths hold no key: nothing to try.
  if (!findKeys(table, filter, path, from, len)) return indexWanted != 0 ? LINEAR_OVER_LIMIT : best;
  checkSerial++;
  store<u64>(LAZY_DONE, 0);
  store<u64>(LAZY_DONE + 8, 0);
  const keys = table + <usize>u32At(filter + FILTER_KEYS_OFF);
  // Lazy keys have no rules: only the keys before them are visited.
  const lazy = u32At(filter + FILTER_LAZY);
  for (let w = 0; w < <i32>lazy; w += 32) {
    let bits = occurredWord(w);
    if (<u32>w + 32 > lazy) bits &= (<u32>1 << (lazy - <u32>w)) - 1;
    while (bits != 0) {
      const k = <u32>w + ctz(bits);
      bits &= bits - 1;
      const key = keys + <usize>k * KEY_SIZE;
      const list = table + <usize>u32At(key + KEY_RULES_OFF);
      const count = <i32>u32At(key + KEY_RULE_COUNT);
      for (let i = 0; i < count; i++) {
        const entry = list + <usize>i * KEY_RULE_SIZE;
        const r = u32At(entry + KEY_RULE_STRENGTH);
        if (r >= best) break;
        const matches = keyedRuleMatches(table, keys, lazy, k, r, u32At(entry + KEY_RULE_WORD), path, from, len);
        // Out of index room: the caller makes it and asks again.
        if (indexWanted != 0) return LINEAR_OVER_LIMIT;
        if (matches) {
          best = r;
          break;
        }
      }
    }
  }
  return best;
}

/**
 * The best of `best` and the `wildCount` wildcard rules of the list at `list` (ascending
 * strength) whose remainder matches path[pos, len). The walk calls it only at a node that has
 * such rules, so that the walk past the many nodes without them carries none of its set-up.
 */
function bestWild(table: usize, list: usize, wildCount: i32, path: usize, pos: i32, len: i32, best: u32): u32 {
  const rules = table + <usize>u32At(table + HDR_RULES_OFF);
  for (let k = 0; k < wildCount; k++) {
    const r = u32At(list + <usize>k * WILD_SIZE + WILD_STRENGTH);
    if (r >= best) break; // lists are sorted by strength
    const pat = patternStart(table, rules, r);
    const patLen = <i32>(patternEnd(table, rules, r) - pat);
    if (wildcardTailMatches(pat, pos, patLen, path, pos, len)) return r;
  }
  return best;
}

/**
 * Strength number of the best rule matching the `len`-byte path at `path`, or NO_RULE.
 * `gatesAt`: where the path lies, as it is, in the buffer the last mapKeyGates call mapped
 * for this table; -1 when it does not.
 */
// @ts-ignore: decorator
@inline export function bestRule(table: usize, path: usize, len: i32, gatesAt: i32): u32 {
  // A walk for each kind of child entry (the constant folds away in each): reading the kind
  // in the loop would cost it a mask and a select per node. One test sends both rarer kinds
  // of table off the common path, so an ordinary table pays no more than it did.
  const flags = u32At(table + HDR_FLAGS);
  if ((flags & (FLAG_WIDE_CHILDREN | FLAG_LINEAR)) == 0) return walk(table, path, len, gatesAt, false);
  return (flags & FLAG_LINEAR) != 0 ? firstMatching(table, path, len) : walk(table, path, len, gatesAt, true);
}

/**
 * bestRule for a linear table (FLAG_LINEAR): the rules in strength order, the first that
 * matches deciding, since it has the smallest number of all that match. Counts its work in
 * linearSpent (see linearCheckWork) and gives up with LINEAR_OVER_LIMIT once the work passes
 * what the caller allowed (linearLimit) or a check of this table should ever cost
 * (linearCheckCap): the full table then answers in time linear in the path.
 */
function firstMatching(table: usize, path: usize, len: i32): u32 {
  const rules = table + <usize>u32At(table + HDR_RULES_OFF);
  const heads = table + <usize>u32At(table + HDR_FILTER_OFF);
  const count = u32At(table + HDR_RULE_COUNT);
  const cap = linearCheckCap(count);
  takeSearchWork();
  let matched: u32 = 0;
  // Past a short path the load reads other bytes (in bounds: heap guard); a rule whose literal
  // head is longer than the path cannot match it, whatever they are.
  const first = load<u64>(path);
  for (let r: u32 = 0; r < count; r++) {
    const head = heads + <usize>r * LINEAR_HEAD_SIZE;
    const mask = load<u64>(head + LINEAR_HEAD_MASK);
    if ((first & mask) != load<u64>(head + LINEAR_HEAD_BYTES)) continue;
    const pat = patternStart(table, rules, r);
    const patLen = <i32>(patternEnd(table, rules, r) - pat);
    // A head that is the whole pattern, all literal, matched it if the path is that long.
    if (<i32>popcnt(mask) == patLen << 3) {
      if (patLen <= len) return spendLinear(r + 1, matched, r);
      continue;
    }
    const star = findByte(pat, 0, patLen, 0x2a);
    if (star == patLen) {
      if (literalMatches(pat, patLen, path, len)) return spendLinear(r + 1, matched, r);
      continue;
    }
    matched++;
    if (star <= len && memory.compare(pat, path, star) == 0 && wildcardTailMatches(pat, star, patLen, path, star, len)) return spendLinear(r + 1, matched, r);
    const work = linearCheckWork(r + 1, matched);
    if (work > cap || linearSpent + work > linearLimit) return LINEAR_OVER_LIMIT;
  }
  return spendLinear(count, matched, NO_RULE);
}

/**
 * Work a linear check did that a full check would not, in units of a rule tried (what
 * src/matcher.ts budgets): each rule tried, each match begun past a rule's literal head
 * (LINEAR_MATCH_WORK more), and its searches (LINEAR_SEARCH_BYTES of searchWork a unit), less
 * LINEAR_FREE_RULES, which a full check's trie walk costs too.
 */
// @ts-ignore: decorator
@inline function linearCheckWork(tried: u32, matched: u32): i32 {
  searchedSoFar += takeSearchWork();
  const work = <i32>tried + <i32>matched * LINEAR_MATCH_WORK + searchedSoFar / LINEAR_SEARCH_BYTES - LINEAR_FREE_RULES;
  return work > 0 ? work : 0;
}

/** searchWork of the current linear check so far. */
let searchedSoFar: i32 = 0;

/** The most work one linear check of a table of `rules` rules may do: each rule tried and matched once, and some searching. */
// @ts-ignore: decorator
@inline function linearCheckCap(rules: u32): i32 {
  return <i32>min(rules, <u32>0x1000000) * (1 + LINEAR_MATCH_WORK) + LINEAR_CHECK_SLACK;
}

/** Adds the work of the linear check that ends with `result` to linearSpent; returns `result`. */
// @ts-ignore: decorator
@inline function spendLinear(tried: u32, matched: u32, result: u32): u32 {
  linearSpent += linearCheckWork(tried, matched);
  searchedSoFar = 0;
  return result;
}

/** Linear work the linear checks of the current call did (src/matcher.ts charges it). */
export let linearSpent: i32 = 0;
/** Linear work the current call may do; past it a linear check gives up with LINEAR_OVER_LIMIT. */
let linearLimit: i32 = 0;

/** Starts a call that may do `limit` linear work. */
export function beginLinear(limit: i32): void {
  indexWanted = 0;
  linearSpent = 0;
  searchedSoFar = 0;
  linearLimit = limit;
}

/** Whether the pattern pat[0, patLen), which has no '*', matches the path: its literal part starts it, and ends it with a final '$'. */
function literalMatches(pat: usize, patLen: i32, path: usize, len: i32): bool {
  const anchored = load<u8>(pat + patLen - 1) == 0x24;
  const literal = anchored ? patLen - 1 : patLen;
  if (anchored ? literal != len : literal > len) return false;
  return memory.compare(pat, path, literal) == 0;
}

/** bestRule for a table whose child entries are plain offsets (`wide`) or hold label lengths. */
// @ts-ignore: decorator
@inline function walk(table: usize, path: usize, len: i32, gatesAt: i32, wide: bool): u32 {
  let best: u32 = NO_RULE;
  const rootOff = u32At(table + HDR_ROOT_OFF);
  if (rootOff == 0) return best;
  let keyedFrom = -1;
  let node = table + <usize>rootOff;
  // The root's label is empty or "/", which every path starts with.
  const start = <i32>(u32At(node + NODE_LABEL_CHILDREN) >>> NODE_LABEL_SHIFT);
  let pos = start;
  while (true) {
    const word = u32At(node + NODE_LABEL_CHILDREN);
    // The next child first: its lookup needs only the path byte and the child area, which
    // starts at a fixed offset, not the fields after it. At the path's end the byte looked
    // up is past it (in bounds: heap guard), and any child it finds has a label too long for
    // what is left.
    const area = node + NODE_CHILD_AREA;
    const entry = childEntry(area, word, load<u8>(path + pos));
    let field = area + <usize>childAreaBytes(word);
    if ((word & NODE_HAS_PREFIX) != 0) {
      const prefixRule = u32At(field);
      if (prefixRule < best) best = prefixRule;
      field += 4;
    }
    if ((word & NODE_HAS_END) != 0) {
      const endRule = u32At(field);
      if (pos == len && endRule < best) best = endRule;
      field += 4;
    }
    if ((word & NODE_HAS_WILD) != 0) {
      const wild = u32At(field);
      field += 4;
      // The first node with keyed wildcard rules: every reachable keyed rule's key lies at or
      // after this depth. They are tried after the walk, when `best` prunes the most.
      if (keyedFrom < 0 && (wild & NODE_KEYED_BIT) != 0) keyedFrom = pos;
      const wildCount = <i32>(wild >>> 1);
      // The list follows the fields.
      if (wildCount > 0) best = bestWild(table, field, wildCount, path, pos, len, best);
    }
    if (entry == 0) break;
    // A wide table's child entries hold no label length (see src/wasm/abi.ts): every child is read.
    const child = table + <usize>(wide ? entry : entry & CHILD_OFFSET_MASK);
    let labelLen = wide ? CHILD_LABEL_LONG : <i32>(entry >>> CHILD_LABEL_SHIFT);
    if (labelLen == CHILD_LABEL_LONG) labelLen = <i32>(u32At(child + NODE_LABEL_CHILDREN) >>> NODE_LABEL_SHIFT);
    if (pos + labelLen > len) break;
    // Reads past the path end stay in bounds (heap guard); a child's label is never empty.
    if (!bytesEqual(path + pos, table + <usize>u32At(child + NODE_LABEL_OFF), labelLen)) break;
    pos += labelLen;
    node = child;
  }
  // A "/" root's keyed rules may be the empty literal's, whose keys may start the path. With
  // no gate mapped in the path, findKeys would find no candidate.
  if (keyedFrom >= 0 && (gatesAt < 0 || keyGateMap == 0 || nextMarked(keyGateMap, gatesAt, gatesAt + len) < gatesAt + len)) best = bestKeyed(table, table + <usize>u32At(table + HDR_FILTER_OFF), path, keyedFrom == start ? 0 : keyedFrom, len, best);
  return best;
}

/** 1 when rule number `r` (or no rule) allows, 0 when it disallows. */
export function verdictOf(table: usize, r: u32): u8 {
  if (r == NO_RULE) return 1;
  return <u8>(load<u8>(table + <usize>u32At(table + HDR_KINDS_OFF) + <usize>r) & RULE_KIND_ALLOW_BIT);
}
