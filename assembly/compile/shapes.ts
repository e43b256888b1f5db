// Phase 3, shapes: what each pattern is made of. Its literal part runs up to its first '*'
// (without a final '$'); after it, a wildcard rule has literal segments (the runs of bytes
// between the '*'s, before a final '$'). A rule is a prefix rule (nothing or only '*' after
// its literal part), an end rule (literal part and '$') or a wildcard rule.

import { findByte } from '../scan';
import { getU32, setU32 } from '../words';
import { take } from './arena';
import { byPrefixed, bytePrefix } from './sort';
import { litPtr, patternLength, patternOf } from './strength';

const SHAPE_PREFIX: u32 = 0;
export const SHAPE_END: u32 = 1;
export const SHAPE_WILD: u32 = 2;

// What this phase hands on: per strength number (u32 arrays in the work area, but litKey)...
/** SHAPE_*. */
export let shape: usize = 0;
/** Length of the literal part. */
export let litLen: usize = 0;
/** The literal part's first 8 bytes (bytePrefix, u64 each): most comparisons of literal parts read only these. */
export let litKey: usize = 0;
/** 1 when the last segment must end the path (a final '$' with no '*' before it). */
export let ruleAnchored: usize = 0;
/** The rule's first segment; segFirst[m] is the number of segments. */
export let segFirst: usize = 0;
// ... and per literal segment, in strength order:
/** Address of its bytes. */
export let segPtr: usize = 0;
export let segLen: usize = 0;
/** Strength number of its rule. */
export let segOwner: usize = 0;
/** Wildcard rules (SHAPE_WILD). */
export let wildRules = 0;

/** Literal parts in byte order (strength numbers; ties keep strength order). */
// @ts-ignore: decorator
@inline export function byLiteral(a: u32, b: u32): i32 {
  return byPrefixed(litKey, litLen, litPtr, a, b);
}

/**
 * The shapes of the `m` rules, and their segments, stored while they fit arrays of `capacity`
 * (which the work area has room for: two a rule); returns how many there are. When more,
 * storeSegments stores them all once the work area is known to be large enough.
 */
export function findShapes(m: i32, capacity: i32): i32 {
  litLen = take(<usize>m << 2);
  shape = take(<usize>m << 2);
  segFirst = take(<usize>(m + 1) << 2);
  ruleAnchored = take(<usize>m << 2);
  segPtr = take(<usize>capacity << 2);
  segLen = take(<usize>capacity << 2);
  segOwner = take(<usize>capacity << 2);
  let segCount = 0;
  wildRules = 0;
  for (let k = 0; k < m; k++) {
    const p = patternOf(k);
    const n = patternLength(k);
    const anchored = load<u8>(p + n - 1) == 0x24;
    const star = findByte(p, 0, n, 0x2a);
    setU32(segFirst, k, segCount);
    setU32(ruleAnchored, k, 0);
    if (star == n) {
      setU32(litLen, k, anchored ? n - 1 : n);
      setU32(shape, k, anchored ? SHAPE_END : SHAPE_PREFIX);
      continue;
    }
    setU32(litLen, k, star);
    const count = scanSegments(p, star, anchored ? n - 1 : n, k, segCount, capacity);
    if (count == 0) {
      // Nothing but '*' (and '$') after the literal part: matches every path that starts
      // with it, like a prefix rule (of its own, longer, priority).
      setU32(shape, k, SHAPE_PREFIX);
      continue;
    }
    setU32(shape, k, SHAPE_WILD);
    // A final '$' anchors the last segment unless a '*' stands between them.
    setU32(ruleAnchored, k, anchored && load<u8>(p + n - 2) != 0x2a ? 1 : 0);
    segCount += count;
    wildRules++;
  }
  setU32(segFirst, m, segCount);
  litKey = take(<usize>m << 3);
  for (let k = 0; k < m; k++) store<u64>(litKey + (<usize>k << 3), bytePrefix(patternOf(k), getU32(litLen, k)));
  return segCount;
}

/** Stores all `segCount` segments of the `m` rules, when findShapes found more than it stored. */
export function storeSegments(m: i32, segCount: i32): void {
  segPtr = take(<usize>segCount << 2);
  segLen = take(<usize>segCount << 2);
  segOwner = take(<usize>segCount << 2);
  for (let k = 0; k < m; k++) {
    if (getU32(shape, k) != SHAPE_WILD) continue;
    const p = patternOf(k);
    const n = patternLength(k);
    scanSegments(p, <i32>getU32(litLen, k), load<u8>(p + n - 1) == 0x24 ? n - 1 : n, k, <i32>getU32(segFirst, k), segCount);
  }
}

/**
 * Counts the literal segments of p[from, end) (the runs between '*'s) and records them as
 * segments at, at + 1, ... of rule `owner`, those that fit arrays of `capacity`.
 */
function scanSegments(p: usize, from: i32, end: i32, owner: u32, at: i32, capacity: i32): i32 {
  let count = 0;
  let i = from;
  while (true) {
    while (i < end && load<u8>(p + i) == 0x2a) i++;
    if (i == end) return count;
    const j = findByte(p, i, end, 0x2a);
    if (at + count < capacity) {
      setU32(segPtr, at + count, <u32>(p + <usize>i));
      setU32(segLen, at + count, j - i);
      setU32(segOwner, at + count, owner);
    }
    count++;
    i = j;
  }
}
