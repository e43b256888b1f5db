// URL -> path+params+query, the way the reference implementation does it (no URL parser):
// a leading "//" is skipped; "://" is the scheme separator only when it comes before the
// first '/', '?' or ';'; the path runs from the first '/', '?' or ';' after the authority to
// the first '#'. The same scans tell whether the path needs RFC normalisation and, for a
// buffer of lines, where the line ends.
//
// Each short scan ends on an unpredictable branch, which costs more than the bytes it reads,
// so the common URL gets two: "http://" and "https://" are recognised by one 8-byte compare,
// one scan finds the end of the host, and one finds the first byte in the path that ends it
// or needs normalisation - in RFC mode an LF is such a byte, so that scan finds the line end
// too. The results are left in globals because a function returns one value.
//
// In a buffer of many URLs (lines, or a batch stored one after another) the path scan, whose
// length varies most, would still end on a branch per URL, so mapPathStops first marks the
// bytes it stops at in one branch-free pass over the whole buffer (one bit per byte); findPath
// then finds the stop with a shift and a count of trailing zeros. (The host scan stays a scan:
// it is short, and marking the host bytes of every URL costs more than it saves.)

import { findByte, firstOf, markBlock, NIBBLE, setBits, nextMarked, SET_DELIMITER, SET_DELIMITER_LF, SET_HASH_NUL, SET_HASH_NUL_LF, SET_SPECIAL } from './scan';

/** Offset of the first path byte within the buffer. */
export let pathStart: i32 = 0;
/** Offset just past the last path byte. */
export let pathEnd: i32 = 0;
/** The path is "/" followed by [pathStart, pathEnd): true when it starts with '?' or ';', or is empty. */
export let pathNeedsSlash: bool = false;
/** RFC mode: the path holds bytes that normalisation changes ('%', '*', '$', non-ASCII, ...). */
export let pathNeedsNormalization: bool = false;
/** Where the URL ends: the LF that ends its line, or the limit. */
export let urlEnd: i32 = 0;

const HTTPS: u64 = 0x2f2f3a7370747468; // "https://" little-endian
const HTTP: u64 = 0x002f2f3a70747468; // "http://"
const SEVEN_BYTES: u64 = 0x00ffffffffffffff;

/** Bit i set when byte i of the mapped buffer stops the path scan (see mapPathStops). */
let pathStopMap: usize = 0;

/**
 * Marks the bytes of buf[0, len) that end a path or, in RFC mode, need normalisation
 * (SET_SPECIAL; in google mode SET_HASH_NUL, with LF for a buffer of `lines`), in a bitmap at
 * `map` (mapBytes(len) bytes), for the `mapped` findPath calls on that buffer that follow.
 */
export function mapPathStops(buf: usize, len: i32, rfc: bool, lines: bool, map: usize): void {
  pathStopMap = map;
  const stops = rfc ? SET_SPECIAL : lines ? SET_HASH_NUL_LF : SET_HASH_NUL;
  const lo = v128.load(stops);
  const hi = v128.load(stops + 16);
  const nibble = v128.load(NIBBLE);
  for (let i = 0; i < len; i += 16) markBlock(map, i, setBits(v128.load(buf + i), lo, hi, nibble));
}

/** The URL starting at `start` has no path: it is "/". */
function setNoPath(start: i32): void {
  pathStart = start;
  pathEnd = start;
  pathNeedsSlash = true;
  pathNeedsNormalization = false;
}

/** The first '/', '?', ';' or '#' at or after `from` (or LF, with `lines`), or the limit. */
// @ts-ignore: decorator
@inline function delimiter(buf: usize, from: i32, limit: i32, lines: bool): i32 {
  return firstOf(buf, from, limit, lines ? SET_DELIMITER_LF : SET_DELIMITER);
}

/** The first byte at or after `from` that ends the path or, in RFC mode, needs normalisation. */
// @ts-ignore: decorator
@inline function pathStop(buf: usize, from: i32, limit: i32, rfc: bool, mapped: bool): i32 {
  if (mapped) return nextMarked(pathStopMap, from, limit);
  return firstOf(buf, from, limit, rfc ? SET_SPECIAL : SET_HASH_NUL);
}

/** Position of the LF that ends the line at or after `from` (or the limit). */
// @ts-ignore: decorator
@inline function lineEnd(buf: usize, from: i32, limit: i32, lines: bool): i32 {
  return lines ? findByte(buf, from, limit, 0x0a) : limit;
}

/**
 * Locates the path of the URL at buf[start, ...). With `lines`, the URL ends at the next LF
 * (or the limit) and a CR before that LF belongs to the line end; otherwise it ends at the
 * limit and an LF is an ordinary byte. Google mode (`rfc` false) ends the path at a NUL byte
 * too, as the reference's C strings do. `mapped`: positions are offsets in the buffer the last
 * mapPathStops call mapped (always so with `lines`).
 */
// @ts-ignore: decorator
@inline export function findPath(buf: usize, start: i32, limit: i32, rfc: bool, lines: bool, mapped: bool): void {
  // The authority ends at the first '/', '?', ';' or '#' after it (or the line end).
  let pathAt: i32;
  const head = load<u64>(buf + start); // in bounds: the heap keeps a guard after every input
  if (start + 8 <= limit && head == HTTPS) {
    pathAt = delimiter(buf, start + 8, limit, lines);
  } else if (start + 7 <= limit && (head & SEVEN_BYTES) == HTTP) {
    pathAt = delimiter(buf, start + 7, limit, lines);
  } else {
    let searchStart = start;
    if (start + 2 <= limit && load<u16>(buf + start) == 0x2f2f) searchStart = start + 2;
    const early = delimiter(buf, searchStart, limit, lines);
    pathAt = early;
    // The first "://" can only precede the first '/', '?' or ';' if its own '/' is that byte.
    if (
      early < limit && load<u8>(buf + early) == 0x2f && early - 1 >= searchStart && load<u8>(buf + early - 1) == 0x3a &&
      early + 1 < limit && load<u8>(buf + early + 1) == 0x2f
    ) {
      pathAt = delimiter(buf, early + 2, limit, lines);
    }
  }
  const c = pathAt < limit ? load<u8>(buf + pathAt) : 0x0a;
  if (c == 0x23 || (c == 0x0a && (lines || pathAt == limit))) {
    // No path (a '#' before it starts means none either).
    setNoPath(start);
    urlEnd = c == 0x0a ? pathAt : lineEnd(buf, pathAt, limit, lines);
    return;
  }
  pathStart = pathAt;
  pathNeedsSlash = c != 0x2f;
  pathNeedsNormalization = false;
  if (!rfc) {
    const stop = pathStop(buf, pathAt, limit, false, mapped);
    const s = stop < limit ? load<u8>(buf + stop) : 0x0a;
    if (s == 0x0a) {
      // Google mode does not stop at CR: drop one that ends the line.
      pathEnd = lines && stop > pathAt && load<u8>(buf + stop - 1) == 0x0d ? stop - 1 : stop;
      urlEnd = stop;
    } else {
      pathEnd = stop;
      urlEnd = lineEnd(buf, stop, limit, lines);
    }
    return;
  }
  // RFC: the first byte that ends the path or needs normalisation (LF and CR are such bytes).
  const stop = pathStop(buf, pathAt, limit, true, mapped);
  const s = stop < limit ? load<u8>(buf + stop) : 0x0a;
  if (lines && (s == 0x0a || (s == 0x0d && (stop + 1 == limit || load<u8>(buf + stop + 1) == 0x0a)))) {
    pathEnd = stop;
    urlEnd = s == 0x0a ? stop : stop + 1;
    return;
  }
  if (stop == limit || s == 0x23) {
    pathEnd = stop;
    urlEnd = lineEnd(buf, stop, limit, lines);
    return;
  }
  // Normalisation needed; the path ends at '#' or the line end (without a CR before its LF).
  // Search for '#' within the line only: a buffer of lines may be long.
  pathNeedsNormalization = true;
  const last = lineEnd(buf, stop, limit, lines);
  let end = findByte(buf, stop, last, 0x23);
  if (lines && end == last && end > stop && load<u8>(buf + end - 1) == 0x0d) end--;
  pathEnd = end;
  urlEnd = last;
}
