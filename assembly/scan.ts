// SIMD byte scans, 16 bytes per step. A scan may load up to 15 bytes past `end`; the heap
// never hands out the last bytes of memory (src/wasm/memory.ts), so such loads stay in
// bounds, and bits for positions at or past `end` are ignored.
//
// Byte sets are tested with two nibble lookups (nibbleTables below): a byte c is in a set when
// lo[c & 15] & hi[c >> 4] != 0. The fixed sets of this file are built once, at start-up.

import { byteClass, CLASS_ENCODE, CLASS_READINGS_DIFFER, CLASS_SPECIAL } from './bytes';

// @ts-ignore: decorator
@inline function clamp(found: i32, end: i32): i32 {
  return found < end ? found : end;
}

/** Index of the first `b` in p[from, end), or end. */
export function findByte(p: usize, from: i32, end: i32, b: u8): i32 {
  const needle = i8x16.splat(<i8>b);
  for (let i = from; i < end; i += 16) {
    const m = i8x16.bitmask(i8x16.eq(v128.load(p + i), needle));
    if (m != 0) return clamp(i + ctz(m), end);
  }
  return end;
}

/**
 * The bits of block p[i, i + 16) that stand for positions at or after `from`: a backward scan
 * reads its last block from before `from` (up to 15 bytes before it, which stay in bounds: the
 * heap starts after the kernel's static data).
 */
// @ts-ignore: decorator
@inline function fromOn(m: i32, i: i32, from: i32): i32 {
  return i < from ? m & ~((1 << (from - i)) - 1) : m;
}

/** Index of the last `b` in p[from, end), or -1. */
export function findLastByte(p: usize, from: i32, end: i32, b: u8): i32 {
  if (end <= from) return -1;
  const needle = i8x16.splat(<i8>b);
  let i = end;
  do {
    i -= 16;
    const m = fromOn(i8x16.bitmask(i8x16.eq(v128.load(p + i), needle)), i, from);
    if (m != 0) return i + 31 - <i32>clz(m);
  } while (i > from);
  return -1;
}

// How V8 (Node 20) compiles a set test, and why it is written this way: a v128 constant is
// rebuilt at every use, even inside a loop, while a value loaded from memory before the loop
// stays in a register, so scans load NIBBLE once and pass it in; i8x16.shr_u has no x64
// instruction (a 16-bit shift and a mask do it); and "not equal" has none either ("equal" and
// an inversion), so the test yields the lanes outside the set and callers invert the bitmask,
// a scalar operation.

/** 0x0f in every lane: the low-nibble mask, loaded once per scan (see above). */
export const NIBBLE = memory.data<u8>([15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15], 16);
/** '.' in every lane, loaded once per scan (see above). */
export const DOTS = memory.data<u8>([46, 46, 46, 46, 46, 46, 46, 46, 46, 46, 46, 46, 46, 46, 46, 46], 16);
/** '/' in every lane, loaded once per scan (see above). */
export const SLASHES = memory.data<u8>([47, 47, 47, 47, 47, 47, 47, 47, 47, 47, 47, 47, 47, 47, 47, 47], 16);

/**
 * 0xff in each lane whose byte is outside the set the two nibble tables describe, 0 in each
 * lane whose byte is in it; `nibble` is v128.load(NIBBLE).
 */
// @ts-ignore: decorator
@inline export function outsideSet(v: v128, lo: v128, hi: v128, nibble: v128): v128 {
  const classes = v128.and(v128.swizzle(lo, v128.and(v, nibble)), v128.swizzle(hi, v128.and(i16x8.shr_u(v, 4), nibble)));
  return i8x16.eq(classes, i8x16.splat(0));
}

/** Bit i set when byte i of `v` is in the set (see outsideSet). */
// @ts-ignore: decorator
@inline export function setBits(v: v128, lo: v128, hi: v128, nibble: v128): i32 {
  return i8x16.bitmask(outsideSet(v, lo, hi, nibble)) ^ 0xffff;
}

/** Index of the first byte of p[from, end) in `set` (32 bytes: lo, hi), or end. */
export function firstOf(p: usize, from: i32, end: i32, set: usize): i32 {
  const lo = v128.load(set);
  const hi = v128.load(set + 16);
  const nibble = v128.load(NIBBLE);
  for (let i = from; i < end; i += 16) {
    const m = setBits(v128.load(p + i), lo, hi, nibble);
    if (m != 0) return clamp(i + ctz(m), end);
  }
  return end;
}

/** Index of the first byte of p[from, end) not in `set`, or end. */
export function firstNotOf(p: usize, from: i32, end: i32, set: usize): i32 {
  const lo = v128.load(set);
  const hi = v128.load(set + 16);
  const nibble = v128.load(NIBBLE);
  for (let i = from; i < end; i += 16) {
    const m = i8x16.bitmask(outsideSet(v128.load(p + i), lo, hi, nibble));
    if (m != 0) return clamp(i + ctz(m), end);
  }
  return end;
}

// Bitmaps over a buffer of lines (bit i set: byte i is in some set), for scans that would
// otherwise end on a branch per line: markBlock writes 16 bits per 16 bytes, branch-free, and
// marksFrom reads the next 57 to 64 positions with one unaligned load.

/** Bytes of a bitmap over `len` bytes, with the slack a u64 load at its last byte needs. */
// @ts-ignore: decorator
@inline export function mapBytes(len: i32): i32 {
  return (((len + 15) >> 4) << 1) + 16;
}

/** Stores `bits` (16 of them) as bits i, ..., i + 15 of `map` (i a multiple of 16). */
// @ts-ignore: decorator
@inline export function markBlock(map: usize, i: i32, bits: i32): void {
  store<u16>(map + (<usize>i >>> 3), <u16>bits);
}

/** Bits at, at + 1, ... of `map` in the low bits; marksWidth(at) of them are valid, the rest 0. */
// @ts-ignore: decorator
@inline function marksFrom(map: usize, at: i32): u64 {
  return load<u64>(map + (<usize>at >>> 3)) >>> <u64>(at & 7);
}

// @ts-ignore: decorator
@inline function marksWidth(at: i32): i32 {
  return 64 - (at & 7);
}

/** The first position in [from, limit) whose bit is set in `map`, or limit. */
// @ts-ignore: decorator
@inline export function nextMarked(map: usize, from: i32, limit: i32): i32 {
  for (let at = from; at < limit; at += marksWidth(at)) {
    const bits = marksFrom(map, at);
    if (bits != 0) {
      const found = at + <i32>ctz(bits);
      return found < limit ? found : limit;
    }
  }
  return limit;
}

/** '#' and NUL: where a line's content ends (comment, or the reference's C-string end). */
export const SET_HASH_NUL = memory.data(32);
/** '#', NUL and LF: where a path ends in google mode, in a buffer of lines. */
export const SET_HASH_NUL_LF = memory.data(32);
/** '/', '?', ';' and '#': where a URL's authority ends. */
export const SET_DELIMITER = memory.data(32);
/** The same and LF, in a buffer of lines. */
export const SET_DELIMITER_LF = memory.data(32);
/**
 * Where a request path's authority ends ('/', '?', '#', and '\\' for http(s)), and the bytes a
 * WHATWG parser removes (tab, LF, CR): the bytes that end an http(s) authority or a segment.
 */
export const SET_AUTHORITY_END = memory.data(32);
/** '/', '?' and '#': where the authority or a segment of a URL of another scheme ends. */
export const SET_OTHER_AUTHORITY_END = memory.data(32);
/** '?' and '#': where a URL's path ends. */
export const SET_PATH_END = memory.data(32);
/** Tab, LF and CR: the bytes a WHATWG URL parser removes wherever they are. */
export const SET_TAB_NEWLINE = memory.data(32);
/** Space and tab. */
export const SET_BLANK = memory.data(32);
/** ASCII whitespace as C's isspace() sees it: space and 0x09-0x0d. */
export const SET_SPACE = memory.data(32);
/**
 * Bytes that end a path or need RFC normalisation: '#', '%', '*', '$', "'", '[', ']' and the bytes RFC 3986
 * never allows in a URI (controls, CR and LF included, space, non-ASCII, " < > \\ ^ ` { | }).
 */
export const SET_SPECIAL = memory.data(32);

/**
 * Google mode's path stops: '#', NUL, and the bytes where a URL's request-targets may differ
 * from the reference's reading of it (path.ts): those some client percent-encodes, removes,
 * rewrites or decodes (controls, LF included, space, " < > ` { } | ^ [ ] ' \\ %, non-ASCII).
 */
export const SET_GOOGLE_STOPS = memory.data(32);

const ROWS = memory.data(64);

// The members of the fixed sets.
const HASH_NUL = memory.data<u8>([0x23, 0x00]);
const HASH_NUL_LF = memory.data<u8>([0x23, 0x00, 0x0a]);
const DELIMITER = memory.data<u8>([0x2f, 0x3f, 0x3b, 0x23]);
const DELIMITER_LF = memory.data<u8>([0x2f, 0x3f, 0x3b, 0x23, 0x0a]);
const AUTHORITY_END = memory.data<u8>([0x2f, 0x3f, 0x23, 0x5c, 0x09, 0x0a, 0x0d]);
const OTHER_AUTHORITY_END = memory.data<u8>([0x2f, 0x3f, 0x23]);
const PATH_END = memory.data<u8>([0x3f, 0x23]);
const TAB_NEWLINE = memory.data<u8>([0x09, 0x0a, 0x0d]);
const BLANK = memory.data<u8>([0x20, 0x09]);
const SPACE = memory.data<u8>([0x20, 0x09, 0x0a, 0x0b, 0x0c, 0x0d]);

function setOf(set: usize, members: usize, count: i32): void {
  memory.fill(ROWS, 0, 64);
  for (let i = 0; i < count; i++) addToRows(ROWS, load<u8>(members + i));
  nibbleTablesOfRows(ROWS, set, set + 16);
}

/** Builds the fixed sets (called once, before anything scans). */
export function initScanSets(): void {
  setOf(SET_HASH_NUL, HASH_NUL, 2);
  setOf(SET_HASH_NUL_LF, HASH_NUL_LF, 3);
  setOf(SET_DELIMITER, DELIMITER, 4);
  setOf(SET_DELIMITER_LF, DELIMITER_LF, 5);
  setOf(SET_AUTHORITY_END, AUTHORITY_END, 7);
  setOf(SET_OTHER_AUTHORITY_END, OTHER_AUTHORITY_END, 3);
  setOf(SET_PATH_END, PATH_END, 2);
  setOf(SET_TAB_NEWLINE, TAB_NEWLINE, 3);
  setOf(SET_BLANK, BLANK, 2);
  setOf(SET_SPACE, SPACE, 6);
  memory.fill(ROWS, 0, 64);
  for (let c: u32 = 0; c < 256; c++) if ((byteClass(c) & CLASS_SPECIAL) != 0) addToRows(ROWS, c);
  nibbleTablesOfRows(ROWS, SET_SPECIAL, SET_SPECIAL + 16);
  memory.fill(ROWS, 0, 64);
  for (let c: u32 = 0; c < 256; c++) if (c == 0x23 || c == 0x25 || c == 0x5b || c == 0x5d || (byteClass(c) & (CLASS_READINGS_DIFFER | CLASS_ENCODE)) != 0) addToRows(ROWS, c);
  nibbleTablesOfRows(ROWS, SET_GOOGLE_STOPS, SET_GOOGLE_STOPS + 16);
}

// @ts-ignore: decorator
@inline export function addToRows(rows: usize, b: u32): void {
  const at = rows + ((b >> 4) << 2);
  store<u32>(at, load<u32>(at) | (<u32>1 << (b & 15)));
}

/**
 * Writes lo (16 bytes) and hi (16 bytes) so that byte c is in the set of the 256-entry
 * 0/1 table `members` when lo[c & 15] & hi[c >> 4] != 0. Exact while the set's rows (one per
 * high nibble) have at most 8 distinct patterns; beyond that, the two patterns whose union
 * adds the fewest members are merged until 8 remain, and the test answers for a superset.
 */
export function nibbleTables(members: usize, lo: usize, hi: usize): void {
  const rows = memory.data(64);
  for (let h = 0; h < 16; h++) {
    let row: u32 = 0;
    for (let l = 0; l < 16; l++) if (load<u8>(members + (h << 4) + l) != 0) row |= 1 << l;
    store<u32>(rows + (h << 2), row);
  }
  nibbleTablesOfRows(rows, lo, hi);
}

/** nibbleTables for a set given as 16 rows (u32 each: bit l of row h = byte h * 16 + l). */
export function nibbleTablesOfRows(rows: usize, lo: usize, hi: usize): void {
  const groups = memory.data(64);
  let groupCount = 0;
  for (let h = 0; h < 16; h++) {
    const row = load<u32>(rows + (h << 2));
    if (row == 0) continue;
    let seen = false;
    for (let g = 0; g < groupCount; g++) if (load<u32>(groups + (g << 2)) == row) seen = true;
    if (!seen) store<u32>(groups + (groupCount++ << 2), row);
  }
  while (groupCount > 8) {
    let bestA = 0;
    let bestB = 1;
    let bestCost = 0x7fffffff;
    for (let a = 0; a < groupCount; a++) {
      for (let b = a + 1; b < groupCount; b++) {
        const ga = load<u32>(groups + (a << 2));
        const gb = load<u32>(groups + (b << 2));
        const cost = <i32>(popcnt(ga | gb) * 2 - popcnt(ga) - popcnt(gb));
        if (cost < bestCost) {
          bestCost = cost;
          bestA = a;
          bestB = b;
        }
      }
    }
    store<u32>(groups + (bestA << 2), load<u32>(groups + (bestA << 2)) | load<u32>(groups + (bestB << 2)));
    store<u32>(groups + (bestB << 2), load<u32>(groups + (--groupCount << 2)));
  }
  memory.fill(lo, 0, 16);
  memory.fill(hi, 0, 16);
  for (let g = 0; g < groupCount; g++) {
    const pattern = load<u32>(groups + (g << 2));
    const bit = <u32>1 << <u32>g;
    for (let l = 0; l < 16; l++) if ((pattern & (<u32>1 << <u32>l)) != 0) store<u8>(lo + l, <u8>(<u32>load<u8>(lo + l) | bit));
  }
  for (let h = 0; h < 16; h++) {
    const row = load<u32>(rows + (h << 2));
    if (row == 0) continue;
    // The row's own pattern when it survived merging (exact), else the group it went into.
    let bit = -1;
    for (let g = 0; g < groupCount && bit < 0; g++) if (load<u32>(groups + (g << 2)) == row) bit = g;
    for (let g = 0; g < groupCount && bit < 0; g++) if ((load<u32>(groups + (g << 2)) & row) == row) bit = g;
    store<u8>(hi + h, <u8>(<u32>1 << <u32>bit));
  }
}

/**
 * Bytes of candidate checks indexOfSegment spends, beyond four per byte scanned, before it
 * hands the search to twoWaySearch.
 */
const VERIFY_SLACK = 1024;

/**
 * Bytes 1, 2, ... of a candidate at `at` that agree with the segment (whose first and last bytes
 * agree already): segLen - 1 or more when it occurs there.
 */
// @ts-ignore: decorator
@inline function candidateAgrees(at: usize, seg: usize, segLen: i32): i32 {
  let k = 1;
  while (k < segLen - 1 && load<u8>(at + k) == load<u8>(seg + k)) k++;
  return k;
}

/**
 * Leftmost index >= from where the `segLen` bytes at `seg` occur in path[from, len), or -1.
 * Candidates are positions where both the first and the last byte of the segment line up,
 * found 16 at a time; only those are compared in full. A long segment that nearly occurs at
 * many places ("aa…e…aa" in "aaaa…") would make that quadratic, so once the comparisons have
 * cost more than a few passes over the path, the rest of the search is the two-way
 * algorithm's, linear in the path and the segment.
 */
export function indexOfSegment(path: usize, from: i32, len: i32, seg: usize, segLen: i32): i32 {
  const lastStart = len - segLen;
  if (lastStart < from) return -1;
  const first = i8x16.splat(<i8>load<u8>(seg));
  const last = i8x16.splat(<i8>load<u8>(seg + segLen - 1));
  let compared = 0;
  for (let i = from; i <= lastStart; i += 16) {
    let m = i8x16.bitmask(v128.and(i8x16.eq(v128.load(path + i), first), i8x16.eq(v128.load(path + i + segLen - 1), last)));
    while (m != 0) {
      const at = i + ctz(m);
      if (at > lastStart) return searched(from, lastStart, compared, -1);
      const k = candidateAgrees(path + at, seg, segLen);
      if (k >= segLen - 1) return searched(from, at, compared + k, at);
      compared += k;
      if (compared > ((at - from) << 2) + VERIFY_SLACK) {
        // The two-way search reads each byte at most twice.
        searched(from, len + len - at, compared, 0);
        return twoWaySearch(path, at + 1, len, seg, segLen);
      }
      m &= m - 1;
    }
  }
  return searched(from, lastStart, compared, -1);
}

/**
 * Work of the searches since the last resetSearchWork: bytes scanned, plus
 * COMPARED_BYTE_WORK for each byte a candidate compared one at a time. A linear check counts it
 * (match.ts), since its cost grows with it and not with the number of rules tried.
 */
let searchWork: i32 = 0;

/** The weight of a byte compared at a candidate, against a byte scanned 16 at a time. */
const COMPARED_BYTE_WORK = 8;

/** Counts a search of path[from, reached) that compared `compared` bytes at candidates, and returns `result`. */
// @ts-ignore: decorator
@inline function searched(from: i32, reached: i32, compared: i32, result: i32): i32 {
  searchWork += (reached - from) + compared * COMPARED_BYTE_WORK;
  return result;
}

/** Counts `bytes` bytes scanned by a search of another kind (a byte search). */
export function countSearch(bytes: i32): void {
  searchWork += bytes;
}

/** searchWork since the last call, which starts the count again. */
export function takeSearchWork(): i32 {
  const work = searchWork;
  searchWork = 0;
  return work;
}

/**
 * Rightmost index >= from where the `segLen` bytes at `seg` occur in path[from, len), or -1:
 * indexOfSegment from the end, with the same move to the two-way algorithm (run backwards),
 * its work counted as indexOfSegment's is.
 */
export function lastIndexOfSegment(path: usize, from: i32, len: i32, seg: usize, segLen: i32): i32 {
  const lastStart = len - segLen;
  if (lastStart < from) return -1;
  const first = i8x16.splat(<i8>load<u8>(seg));
  const last = i8x16.splat(<i8>load<u8>(seg + segLen - 1));
  let compared = 0;
  let i = lastStart + 1;
  do {
    i -= 16;
    let m = fromOn(i8x16.bitmask(v128.and(i8x16.eq(v128.load(path + i), first), i8x16.eq(v128.load(path + i + segLen - 1), last))), i, from);
    while (m != 0) {
      const bit = 31 - <i32>clz(m);
      const at = i + bit;
      const k = candidateAgrees(path + at, seg, segLen);
      if (k >= segLen - 1) return searched(at, lastStart, compared + k, at);
      compared += k;
      if (compared > ((lastStart - at) << 2) + VERIFY_SLACK) {
        // The two-way search reads each byte before `at` at most twice.
        searched(2 * from - at, lastStart, compared, 0);
        return twoWaySearchBackward(path, from, at + segLen - 1, seg, segLen);
      }
      m &= ~(1 << bit);
    }
  } while (i > from);
  return searched(from, lastStart, compared, -1);
}

let suffixPeriod = 0;

/** Byte i of the `m` bytes at x, read from the end when `backward`. */
// @ts-ignore: decorator
@inline function byteOf(x: usize, i: i32, m: i32, backward: bool): u32 {
  return load<u8>(x + <usize>(backward ? m - 1 - i : i));
}

/**
 * Start - 1 of the maximal suffix of x[0, m) in byte order (or in reverse byte order), leaving
 * its period in suffixPeriod: half of the two-way algorithm's critical factorisation. x is read
 * from its end when `backward`.
 */
// @ts-ignore: decorator
@inline function maximalSuffix(x: usize, m: i32, reversed: bool, backward: bool): i32 {
  let suffix = -1;
  let j = 0;
  let k = 1;
  let period = 1;
  while (j + k < m) {
    const a = byteOf(x, j + k, m, backward);
    const b = byteOf(x, suffix + k, m, backward);
    if (reversed ? a > b : a < b) {
      j += k;
      k = 1;
      period = j - suffix;
    } else if (a == b) {
      if (k != period) {
        k++;
      } else {
        j += period;
        k = 1;
      }
    } else {
      suffix = j;
      j = suffix + 1;
      k = 1;
      period = 1;
    }
  }
  suffixPeriod = period;
  return suffix;
}

/**
 * Leftmost index >= from where x[0, m) occurs in y[from, n), or -1, in time linear in n and m
 * and constant space (Crochemore and Perrin's two-way string matching): the segment is split
 * at a critical factorisation; the right part is compared forwards, the left part backwards,
 * and a mismatch shifts by the distance compared or by the period.
 */
export function twoWaySearch(y: usize, from: i32, n: i32, x: usize, m: i32): i32 {
  const found = twoWay(y + <usize>from, n - from, x, m, false);
  return found < 0 ? -1 : from + found;
}

/** Rightmost index >= from where x[0, m) occurs in y[from, n), or -1: twoWaySearch backwards. */
export function twoWaySearchBackward(y: usize, from: i32, n: i32, x: usize, m: i32): i32 {
  const found = twoWay(y + <usize>from, n - from, x, m, true);
  return found < 0 ? -1 : n - found - m;
}

/**
 * Leftmost index where x[0, m) occurs in y[0, n), or -1; with `backward`, both are read from
 * their ends (and the index counts from y's end).
 */
// @ts-ignore: decorator
@inline function twoWay(y: usize, n: i32, x: usize, m: i32, backward: bool): i32 {
  const forward = maximalSuffix(x, m, false, backward);
  const forwardPeriod = suffixPeriod;
  const reverse = maximalSuffix(x, m, true, backward);
  const reversePeriod = suffixPeriod;
  const split = forward > reverse ? forward : reverse;
  let period = forward > reverse ? forwardPeriod : reversePeriod;
  let j = 0;
  let periodic = true;
  for (let i = 0; i <= split && periodic; i++) periodic = byteOf(x, i, m, backward) == byteOf(x, i + period, m, backward);
  if (periodic) {
    // Periodic segment: after a shift by the period, the prefix compared before is known to match.
    let known = -1;
    while (j <= n - m) {
      let i = (split > known ? split : known) + 1;
      while (i < m && byteOf(x, i, m, backward) == byteOf(y, i + j, n, backward)) i++;
      if (i >= m) {
        i = split;
        while (i > known && byteOf(x, i, m, backward) == byteOf(y, i + j, n, backward)) i--;
        if (i <= known) return j;
        j += period;
        known = m - period - 1;
      } else {
        j += i - split;
        known = -1;
      }
    }
  } else {
    period = (split + 1 > m - split - 1 ? split + 1 : m - split - 1) + 1;
    while (j <= n - m) {
      let i = split + 1;
      while (i < m && byteOf(x, i, m, backward) == byteOf(y, i + j, n, backward)) i++;
      if (i >= m) {
        i = split;
        while (i >= 0 && byteOf(x, i, m, backward) == byteOf(y, i + j, n, backward)) i--;
        if (i < 0) return j;
        j += period;
      } else {
        j += i - split;
      }
    }
  }
  return -1;
}
