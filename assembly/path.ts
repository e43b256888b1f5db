// URL -> the path (with params and query) that rules are matched against, in two readings.
//
// The reference's (google mode, findPath): no URL parser. A leading "//" is skipped; "://" is
// the scheme separator only when it comes before the first '/', '?' or ';'; the path runs
// from the first '/', '?' or ';' after the authority to the first '#'.
//
// The request path (RFC mode, and any mode's URLs a crawler is about to fetch:
// findRequestPath): the path and query a WHATWG URL parser gives, which is what fetch() and
// browsers request. Tabs and newlines are removed, '\\' is a '/', dot segments go, a query's
// '\'' is sent as %27. A URL that needs none of that is read here by the scans alone; any
// other is left to url.ts, which parses it in full.
//
// Each short scan ends on an unpredictable branch, which costs more than the bytes it reads,
// so the common URL gets two: "http://" and "https://" are recognised by one 8-byte compare,
// one scan finds the end of the host, and one finds the first byte in the path that ends it
// or needs more than the scan (RFC mode: normalisation or resolving; an LF is such a byte, so
// that scan finds the line end too). The results are left in globals because a function
// returns one value.
//
// In a buffer of many URLs (lines, or a batch stored one after another) the path scan, whose
// length varies most, would still end on a branch per URL, so mapPathStops first marks the
// bytes it stops at in one branch-free pass over the whole buffer (one bit per byte); the
// path scans then find the stop with a shift and a count of trailing zeros. (The host scan
// stays a scan: it is short, and marking the host bytes of every URL costs more than it saves.)

import { byteClass, CLASS_DROPPED_AT_END, CLASS_REWRITTEN } from './bytes';
import {
  DOTS, findByte, firstOf, markBlock, NIBBLE, SLASHES, outsideSet, setBits, nextMarked, SET_AUTHORITY_END, SET_DELIMITER, SET_DELIMITER_LF, SET_GOOGLE_STOPS,
  SET_HASH_NUL, SET_HASH_NUL_LF, SET_SPECIAL,
} from './scan';

/** Offset of the first path byte within the buffer. */
export let pathStart: i32 = 0;
/** Offset just past the last path byte. */
export let pathEnd: i32 = 0;
/** Google mode (findPath): the path is "/" followed by [pathStart, pathEnd): it starts with '?' or ';', or is empty. */
export let pathNeedsSlash: bool = false;
/** Where the URL ends: the LF that ends its line, or the limit. */
export let urlEnd: i32 = 0;
/** Sets urlEnd back to `end`, after a findPath of a URL on its own inside a check of a buffer (readings.ts). */
export function restoreUrlEnd(end: i32): void {
  urlEnd = end;
}

/**
 * findPath: the URL (not a path) may have request-targets other than the reference's reading
 * of it (readings.ts): a byte clients send otherwise, a dot segment, an empty query, or a
 * start the scans do not read as the reference does.
 */
export let referenceAmbiguous: bool = false;

// What findRequestPath says must be done with [pathStart, pathEnd) before it is matched.
/** Nothing: it is the request path. */
export const FORM_AS_IS = 0;
/** It is the query: the path is "/" and it. */
export const FORM_SLASH = 1;
/** Percent-normalising (normalizeInto). */
export const FORM_NORMALIZE = 2;
/** Percent-normalising, after a "/" (FORM_SLASH's case). */
export const FORM_NORMALIZE_SLASH = 3;
/** It is the path and query of a URL whose start was read here: resolvePath (url.ts). */
export const FORM_RESOLVE_PATH = 4;
/** It is the whole URL: resolveUrl (url.ts). */
export const FORM_RESOLVE_URL = 5;

const HTTPS: u64 = 0x2f2f3a7370747468; // "https://" little-endian
const HTTP: u64 = 0x002f2f3a70747468; // "http://"
const SEVEN_BYTES: u64 = 0x00ffffffffffffff;

/** Bit i set when byte i of the mapped buffer stops the path scan (see mapPathStops). */
let pathStopMap: usize = 0;

/**
 * Bit i set when byte i of `v` is '.' and the byte before it (byte i of `before`, the same
 * bytes one position earlier) is '/': where a dot segment may start, which the request path
 * scan must stop at ("/page.html" stops nowhere). `dots`, `slashes`: v128.load(DOTS), (SLASHES).
 */
// @ts-ignore: decorator
@inline function dotAfterSlash(v: v128, before: v128, dots: v128, slashes: v128): i32 {
  return i8x16.bitmask(dotPairs(v, before, dots, slashes));
}

/** 0xff in each lane of `v` that is a '.' after a '/' (see dotAfterSlash). */
// @ts-ignore: decorator
@inline function dotPairs(v: v128, before: v128, dots: v128, slashes: v128): v128 {
  return v128.and(i8x16.eq(v, dots), i8x16.eq(before, slashes));
}

/**
 * Marks the bytes of buf[0, len) where a path scan stops, in a bitmap at `map` (mapBytes(len)
 * bytes), for the `mapped` scans on that buffer that follow: for request paths (`request`)
 * the bytes that end a path or need normalisation (SET_SPECIAL) and the dots after a '/'; for
 * google mode SET_HASH_NUL, with LF for a buffer of `lines`.
 */
export function mapPathStops(buf: usize, len: i32, request: bool, lines: bool, map: usize): void {
  pathStopMap = map;
  const stops = request ? SET_SPECIAL : SET_GOOGLE_STOPS;
  const lo = v128.load(stops);
  const hi = v128.load(stops + 16);
  const nibble = v128.load(NIBBLE);
  const dots = v128.load(DOTS);
  const slashes = v128.load(SLASHES);
  // The loop for each reading (the constant folds away in each). The byte before the buffer
  // is read too (in bounds: the heap hands out no address below its base); a mark it makes
  // stops no scan, since no path starts at a buffer's first byte's predecessor.
  if (request) {
    // 32 bytes a step: the loop's own work is a good part of a step's (mapBytes leaves room).
    for (let i = 0; i < len; i += 32) {
      const v = v128.load(buf + i);
      const w = v128.load(buf + i + 16);
      // Lanes neither in the set nor a dot after a slash: one mask for both.
      const low = i8x16.bitmask(v128.andnot(outsideSet(v, lo, hi, nibble), dotPairs(v, v128.load(buf + i - 1), dots, slashes)));
      const high = i8x16.bitmask(v128.andnot(outsideSet(w, lo, hi, nibble), dotPairs(w, v128.load(buf + i + 15), dots, slashes)));
      store<u32>(map + (<usize>i >>> 3), ~(<u32>low | (<u32>high << 16)));
    }
  } else {
    // Google mode: its stops, and where a dot segment may start ('.' or '%' after a '/').
    const percents = v128.load(PERCENTS);
    for (let i = 0; i < len; i += 16) {
      const v = v128.load(buf + i);
      const afterSlash = i8x16.bitmask(v128.and(i8x16.eq(v128.load(buf + i - 1), slashes), v128.or(i8x16.eq(v, dots), i8x16.eq(v, percents))));
      markBlock(map, i, setBits(v, lo, hi, nibble) | afterSlash);
    }
  }
}

/** '%' in every lane (see scan.ts on v128 constants). */
const PERCENTS = memory.data<u8>([37, 37, 37, 37, 37, 37, 37, 37, 37, 37, 37, 37, 37, 37, 37, 37], 16);

/**
 * Whether the fragment p[from, end) holds another '#': a client that cuts the fragment at the
 * last '#' sends the first (readings.ts), so the URL has more than one reading.
 */
// @ts-ignore: decorator
@inline function holdsHash(p: usize, from: i32, end: i32): bool {
  return findByte(p, from, end, 0x23) < end;
}

/** Whether p[from, end) holds a '.' or '%' right after a '/': where a dot segment may start. */
function mayHoldDotSegment(p: usize, from: i32, end: i32): bool {
  const dots = v128.load(DOTS);
  const slashes = v128.load(SLASHES);
  const percents = v128.load(PERCENTS);
  for (let i = from; i < end; i += 16) {
    const v = v128.load(p + i);
    let bits = i8x16.bitmask(v128.and(i8x16.eq(v128.load(p + i - 1), slashes), v128.or(i8x16.eq(v, dots), i8x16.eq(v, percents))));
    if (end - i < 16) bits &= (1 << (end - i)) - 1;
    if (bits != 0) return true;
  }
  return false;
}

/** Index of the first byte of p[from, end) that stops a request path scan (see mapPathStops), or end. */
// @ts-ignore: decorator
@inline function requestPathStop(p: usize, from: i32, end: i32): i32 {
  const lo = v128.load(SET_SPECIAL);
  const hi = v128.load(SET_SPECIAL + 16);
  const nibble = v128.load(NIBBLE);
  const dots = v128.load(DOTS);
  const slashes = v128.load(SLASHES);
  for (let i = from; i < end; i += 16) {
    const v = v128.load(p + i);
    const m = setBits(v, lo, hi, nibble) | dotAfterSlash(v, v128.load(p + i - 1), dots, slashes);
    if (m != 0) {
      const found = i + ctz(m);
      return found < end ? found : end;
    }
  }
  return end;
}

/** The URL starting at `start` has no path: it is "/". */
function setNoPath(start: i32): void {
  pathStart = start;
  pathEnd = start;
  pathNeedsSlash = true;
}

/** The first '/', '?', ';' or '#' at or after `from` (or LF, with `lines`), or the limit. */
// @ts-ignore: decorator
@inline function delimiter(buf: usize, from: i32, limit: i32, lines: bool): i32 {
  return firstOf(buf, from, limit, lines ? SET_DELIMITER_LF : SET_DELIMITER);
}

/** Position of the LF that ends the line at or after `from` (or the limit). */
// @ts-ignore: decorator
@inline function lineEnd(buf: usize, from: i32, limit: i32, lines: bool): i32 {
  return lines ? findByte(buf, from, limit, 0x0a) : limit;
}

/**
 * Whether a URL parser ends or rewrites the authority buf[from, to) where the reference does
 * not: at a '\\' (a '/' to it) or a tab, LF or CR (removed), so that the paths differ.
 */
// @ts-ignore: decorator
@inline function rewritesAuthority(buf: usize, from: i32, to: i32): bool {
  return firstOf(buf, from, to, SET_AUTHORITY_END) < to;
}

/**
 * Locates the path of the URL at buf[start, ...) as the reference does (google mode). With
 * `lines`, the URL ends at the next LF (or the limit) and a CR before that LF belongs to the
 * line end; otherwise it ends at the limit and an LF is an ordinary byte. The path ends at a
 * NUL byte too, as the reference's C strings do. `mapped`: positions are offsets in the buffer
 * the last mapPathStops call mapped (always so with `lines`).
 */
// @ts-ignore: decorator
@inline export function findPath(buf: usize, start: i32, limit: i32, lines: bool, mapped: bool): void {
  // The authority ends at the first '/', '?', ';' or '#' after it (or the line end).
  let pathAt: i32;
  // hostStart's test, written out: through hostStart's -1 the scan of every line of a buffer
  // takes a branch more, which checkLines measurably pays for.
  const head = load<u64>(buf + start); // in bounds: the heap keeps a guard after every input
  if (start + 8 <= limit && head == HTTPS) {
    pathAt = delimiter(buf, start + 8, limit, lines);
    referenceAmbiguous = rewritesAuthority(buf, start + 8, pathAt);
  } else if (start + 7 <= limit && (head & SEVEN_BYTES) == HTTP) {
    pathAt = delimiter(buf, start + 7, limit, lines);
    referenceAmbiguous = rewritesAuthority(buf, start + 7, pathAt);
  } else {
    // Any start but a path's may be read otherwise by a URL parser (and a path's is not looked at again below).
    referenceAmbiguous = start >= limit || load<u8>(buf + start) != 0x2f;
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
    if (c == 0x23 && holdsHash(buf, pathAt + 1, urlEnd)) referenceAmbiguous = true;
    return;
  }
  pathStart = pathAt;
  pathNeedsSlash = c != 0x2f;
  // A URL parser reads a ';' as part of the authority, the reference as the path's start.
  if (c == 0x3b) referenceAmbiguous = true;
  let stop = mapped ? nextMarked(pathStopMap, pathAt, limit) : firstOf(buf, pathAt, limit, SET_GOOGLE_STOPS);
  let s = stop < limit ? load<u8>(buf + stop) : 0x0a;
  // A CR that ends a line ends the path (it is dropped below).
  if (lines && s == 0x0d && (stop + 1 == limit || load<u8>(buf + stop + 1) == 0x0a)) {
    stop++;
    s = 0x0a;
  }
  if (s != 0x23 && s != 0 && (s != 0x0a || !(lines || stop == limit))) {
    // A byte where the readings may differ, before the path's end: found past it.
    referenceAmbiguous = true;
    stop = firstOf(buf, stop, limit, lines ? SET_HASH_NUL_LF : SET_HASH_NUL);
    s = stop < limit ? load<u8>(buf + stop) : 0x0a;
  } else if (!mapped && !referenceAmbiguous) {
    referenceAmbiguous = mayHoldDotSegment(buf, pathAt, stop);
  }
  if (s == 0x0a) {
    // Google mode does not stop at CR: drop one that ends the line.
    pathEnd = lines && stop > pathAt && load<u8>(buf + stop - 1) == 0x0d ? stop - 1 : stop;
    urlEnd = stop;
  } else {
    pathEnd = stop;
    urlEnd = lineEnd(buf, stop, limit, lines);
    if (s == 0x23 && holdsHash(buf, stop + 1, urlEnd)) referenceAmbiguous = true;
  }
  // An empty query's '?' (conservatively: any '?' that ends the path).
  if (pathEnd > pathAt && load<u8>(buf + pathEnd - 1) == 0x3f) referenceAmbiguous = true;
  // A path is matched as robots.cc matches it, whatever it holds.
  if (start < limit && load<u8>(buf + start) == 0x2f) referenceAmbiguous = false;
}

/**
 * The URL part from `from` on, to the end of the line that holds `at`, is left to url.ts:
 * returns `form` (FORM_RESOLVE_URL: the whole URL; FORM_RESOLVE_PATH: its path and query).
 */
// @ts-ignore: decorator
@inline function leaveToUrlParser(buf: usize, from: i32, at: i32, limit: i32, lines: bool, form: i32): i32 {
  const end = lineEnd(buf, at, limit, lines);
  pathStart = from;
  pathEnd = end;
  urlEnd = end;
  return form;
}

/** Where an http(s) URL's host starts, when it starts with lowercase "http://" or "https://"; else -1. */
// @ts-ignore: decorator
@inline function hostStart(buf: usize, start: i32, limit: i32): i32 {
  const head = load<u64>(buf + start); // in bounds: the heap keeps a guard after every input
  if (start + 8 <= limit && head == HTTPS) return start + 8;
  if (start + 7 <= limit && (head & SEVEN_BYTES) == HTTP) return start + 7;
  return -1;
}

/**
 * Locates the request path of the URL at buf[start, ...) (see the top of this file) in
 * [pathStart, pathEnd) and returns what must be done with it (FORM_*). Read here: "http://" or
 * "https://" and a host of no tab, newline or '\\', or a path of one leading '/'; then a path
 * whose stops (mapPathStops) need no more than percent-normalising. `lines` and `mapped` as
 * for findPath.
 */
// @ts-ignore: decorator
@inline export function findRequestPath(buf: usize, start: i32, limit: i32, lines: bool, mapped: bool): i32 {
  let pathAt = start;
  let slash = false;
  const host = hostStart(buf, start, limit);
  if (host >= 0) {
    pathAt = firstOf(buf, host, limit, SET_AUTHORITY_END);
    const c = pathAt < limit ? load<u8>(buf + pathAt) : 0x0a;
    if (c == 0x2f) {
      // The common case: the path starts here.
    } else if (c == 0x3f) {
      slash = true;
    } else if (c == 0x23 || (c == 0x0a && (lines || pathAt == limit))) {
      setNoPath(start);
      urlEnd = c == 0x0a ? pathAt : lineEnd(buf, pathAt, limit, lines);
      if (c == 0x23 && holdsHash(buf, pathAt + 1, urlEnd)) return leaveToUrlParser(buf, start, start, limit, lines, FORM_RESOLVE_URL);
      return FORM_SLASH;
    } else {
      // '\\', a tab or a newline in the authority.
      return leaveToUrlParser(buf, start, start, limit, lines, FORM_RESOLVE_URL);
    }
    // No host ("http:///x"): the parser skips the slashes and takes the next name.
    if (pathAt == host) return leaveToUrlParser(buf, start, start, limit, lines, FORM_RESOLVE_URL);
  } else if (!isPlainPathStart(buf, start, limit)) {
    return leaveToUrlParser(buf, start, start, limit, lines, FORM_RESOLVE_URL);
  }
  pathStart = pathAt;
  // The first byte the scan stops at: the line end, '#', or one to look at (walkStops).
  const stop = mapped ? nextMarked(pathStopMap, pathAt, limit) : requestPathStop(buf, pathAt, limit);
  const s = stop < limit ? load<u8>(buf + stop) : 0x0a;
  let next = stop;
  if (s == 0x0a && (lines || stop == limit)) {
    next = stop;
  } else if (lines && s == 0x0d && (stop + 1 == limit || load<u8>(buf + stop + 1) == 0x0a)) {
    next = stop + 1;
  } else if (s == 0x23) {
    next = lineEnd(buf, stop, limit, lines);
    if (holdsHash(buf, stop + 1, next)) return leaveToUrlParser(buf, start, start, limit, lines, FORM_RESOLVE_URL);
  } else {
    return walkStops(buf, pathAt, stop, limit, lines, mapped, slash);
  }
  return endPath(buf, pathAt, stop, next, limit, lines, slash ? FORM_SLASH : FORM_AS_IS);
}

/** Whether a path starts at `start`: a '/' ("//x" is a path too: a caller passing a path means a path). */
// @ts-ignore: decorator
@inline function isPlainPathStart(buf: usize, start: i32, limit: i32): bool {
  return start < limit && load<u8>(buf + start) == 0x2f;
}

/**
 * Sets the path's end (`end`, the URL's `next`) and returns `form`, unless the byte before
 * `end` is one a fetch drops there: the '?' of an empty query, which some clients send and
 * others drop (readings.ts), or a space or control that ends the URL, for url.ts (the path
 * holds its first byte at least: '/' or '?', which stop no scan).
 */
// @ts-ignore: decorator
@inline function endPath(buf: usize, pathAt: i32, end: i32, next: i32, limit: i32, lines: bool, form: i32): i32 {
  const last = load<u8>(buf + end - 1);
  if ((byteClass(last) & CLASS_DROPPED_AT_END) != 0) {
    if (last == 0x3f) {
      // Only a query's first '?' starts it: "/a?b?" has the query "b?".
      if (findByte(buf, pathAt, end - 1, 0x3f) == end - 1) return leaveToUrlParser(buf, pathAt, end, limit, lines, FORM_RESOLVE_PATH);
    } else if (end == limit || load<u8>(buf + end) != 0x23) {
      return leaveToUrlParser(buf, pathAt, end, limit, lines, FORM_RESOLVE_PATH);
    }
  }
  pathEnd = end;
  urlEnd = next;
  return form;
}

/**
 * findRequestPath past its first stop, a byte that is not the path's end: walks the stops to
 * the path's end ('#' or the line end). Bytes that only need percent-normalising are left to
 * normalizeInto (FORM_NORMALIZE), a '.' that starts no dot segment to nothing; a byte a fetch
 * rewrites sends the rest to url.ts.
 */
function walkStops(buf: usize, pathAt: i32, stop: i32, limit: i32, lines: bool, mapped: bool, slash: bool): i32 {
  let end = limit;
  let next = limit;
  let normalize = false;
  while (stop < limit) {
    const s = load<u8>(buf + stop);
    if (s == 0x23) {
      end = stop;
      next = lineEnd(buf, stop, limit, lines);
      if (holdsHash(buf, stop + 1, next)) return leaveToUrlParser(buf, pathAt, stop, limit, lines, FORM_RESOLVE_PATH);
      break;
    }
    if (lines && (s == 0x0a || (s == 0x0d && (stop + 1 == limit || load<u8>(buf + stop + 1) == 0x0a)))) {
      end = stop;
      next = s == 0x0a ? stop : stop + 1;
      break;
    }
    if (fetchRewrites(buf, stop, limit, s)) return leaveToUrlParser(buf, pathAt, stop, limit, lines, FORM_RESOLVE_PATH);
    // A '.' after a '/' that starts no dot segment ("/.well-known") needs nothing.
    if (s != 0x2e) normalize = true;
    stop = mapped ? nextMarked(pathStopMap, stop + 1, limit) : requestPathStop(buf, stop + 1, limit);
  }
  const form = normalize ? (slash ? FORM_NORMALIZE_SLASH : FORM_NORMALIZE) : slash ? FORM_SLASH : FORM_AS_IS;
  return endPath(buf, pathAt, end, next, limit, lines, form);
}

/**
 * Whether the byte `c` at `at`, where the request path scan stopped, is one a fetch rewrites
 * rather than percent-encodes: a tab or newline (removed), '\\' (a '/'), or the start of a
 * dot segment: a '.' (marked only after a '/') or "%2e" after a '/'.
 */
// @ts-ignore: decorator
@inline function fetchRewrites(buf: usize, at: i32, limit: i32, c: u32): bool {
  if (c == 0x2e) return startsDotSegment(buf, at, limit);
  if ((byteClass(c) & CLASS_REWRITTEN) != 0) return true;
  return c == 0x25 && at + 2 < limit && load<u8>(buf + at - 1) == 0x2f && load<u8>(buf + at + 1) == 0x32 && (load<u8>(buf + at + 2) | 0x20) == 0x65;
}

/**
 * Whether the '.' at `at`, after a '/', may start a dot segment: "." or ".." then the
 * segment's end ('/', '\\', '?', '#', the URL's end), or a byte that may make one once a fetch
 * reads it (a space or control, such as a tab it removes; a '%' of "%2e").
 */
function startsDotSegment(buf: usize, at: i32, limit: i32): bool {
  let i = at + 1;
  if (i < limit && load<u8>(buf + i) == 0x2e) i++;
  if (i >= limit) return true;
  const c = load<u8>(buf + i);
  return c <= 0x20 || c == 0x2f || c == 0x5c || c == 0x3f || c == 0x23 || c == 0x25;
}
