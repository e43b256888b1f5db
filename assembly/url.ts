// URL -> the path and query a client requests for it, in any of the readings of
// src/wasm/abi.ts (READ_*): the URL standard's (what a WHATWG URL parser gives, which fetch()
// and browsers request) by default, or another client's. path.ts reads the common URL, whose
// readings agree, without coming here. In the order the parser works:
// - tab, LF and CR are removed wherever they are; C0 controls and spaces around the URL go;
// - "http:", "https:", "ws:", "wss:" and "ftp:" (any case) are followed by any number of '/'
//   or '\\', then the host; a URL of another scheme names its host after "scheme://"; with no
//   scheme, "//host" (or '\\' for either slash) names a host, a '/' starts a path, and anything
//   else is read as a host, as the reference reads "example.com/a"; input that starts with '/'
//   or '\\' is a path, "//x" included (a caller passing a path means a path);
// - for the http(s)-like schemes (and input without one, as against an http base) '\\' is a
//   '/': the authority ends at '/', '\\', '?' or '#'; the path at '?' or '#', the query at '#';
// - an empty query ("/a?" or "/a?#f") is dropped, as new URL(...).search and fetch() drop it
//   (READ_EMPTY_QUERY: kept);
// - dot segments (".", "..", and with READ_ENCODED_DOTS "%2e" for any dot, any case) are
//   removed with READ_DOTS (RFC 3986 5.2.4, as the parser does it: ".." above the root stays at
//   the root, and a dot segment at the end leaves the path ending in '/'); "//" runs stay;
// - READ_BACKSLASH reads '\\' as '/' in the path; READ_TABS keeps tabs and newlines (then
//   percent-encoded) where the parser removes them;
// - then each segment and the query are normalised (normalize.ts): RFC 9309's normalisation in
//   RFC mode, or in fetch form only the percent-encoding the reading's client does
//   (READ_ENCODING_*; the parser's own by default).

import {
  normalizeInto, NORMALIZE_URL_BROWSER, NORMALIZE_URL_FETCH, NORMALIZE_URL_RAW, NORMALIZE_URL_REQUESTS, NORMALIZE_URL_RFC, NORMALIZE_URL_WGET,
  NORMALIZE_URL_WHATWG,
} from './normalize';
import {
  READ_BACKSLASH, READ_DOTS, READ_EMPTY_QUERY, READ_ENCODED_DOTS, READ_ENCODING_ADA2, READ_ENCODING_BROWSER, READ_ENCODING_MASK, READ_ENCODING_RAW,
  READ_ENCODING_REQUESTS, READ_ENCODING_WGET, READ_LAST_HASH, READ_TABS, READ_TRAILING_BLANKS, READING_NODE20,
} from '../src/wasm/abi';
import { copyBytes } from './bytes';
import { DOTS, findByte, findLastByte, firstOf, SET_AUTHORITY_END, SET_OTHER_AUTHORITY_END, SET_PATH_END, SET_TAB_NEWLINE, SLASHES } from './scan';

/** Where the URL stripUrl read ends up, and its bounds after trimming. */
let urlBytes: usize = 0;
let urlFrom: i32 = 0;
let urlTo: i32 = 0;

/**
 * Bytes of `dst` the resolve functions need for a `len`-byte URL: the output (at most 3 * len
 * + 1) and, above it, the URL with tabs and newlines removed.
 */
// @ts-ignore: decorator
@inline function strippedCopyAt(dst: usize, len: i32): usize {
  return dst + 3 * <usize>len + 4;
}

/**
 * Sets urlBytes[urlFrom, urlTo) to src[0, len) without tab, LF and CR (a copy in `dst`'s upper
 * part when it has any), and without leading and trailing C0 controls and spaces (`leading`:
 * the start is the URL's, not its path's; `trailing`: the trailing ones are kept).
 */
function stripUrl(src: usize, len: i32, dst: usize, leading: bool, tabs: bool, trailing: bool = false): void {
  let at = tabs ? len : firstOf(src, 0, len, SET_TAB_NEWLINE);
  let n = len;
  let bytes = src;
  if (at < len) {
    bytes = strippedCopyAt(dst, len);
    n = 0;
    let from = 0;
    while (from < len) {
      copyBytes(bytes + n, src + from, at - from);
      n += at - from;
      from = at + 1;
      at = from < len ? firstOf(src, from, len, SET_TAB_NEWLINE) : len;
    }
  }
  let a = 0;
  if (leading) while (a < n && load<u8>(bytes + a) <= 0x20) a++;
  if (!trailing) while (n > a && load<u8>(bytes + n - 1) <= 0x20) n--;
  urlBytes = bytes;
  urlFrom = a;
  urlTo = n;
}

// @ts-ignore: decorator
@inline function isSlash(c: u32, special: bool): bool {
  return c == 0x2f || (special && c == 0x5c);
}

/** End of the scheme at s[from, to): the ':' after [A-Za-z][A-Za-z0-9+.-]*, or -1. */
function schemeColon(s: usize, from: i32, to: i32): i32 {
  let i = from;
  while (i < to) {
    const c = <u32>load<u8>(s + i);
    const letter = ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a);
    if (c == 0x3a) return i > from ? i : -1;
    if (!letter && (i == from || !((c >= 0x30 && c <= 0x39) || c == 0x2b || c == 0x2d || c == 0x2e))) return -1;
    i++;
  }
  return -1;
}

/** The scheme s[0, n) is one of the parser's special ones whose '\\' is a '/' (not "file"). */
function isSpecialScheme(s: usize, n: i32): bool {
  // Lowercased into one u64, zero-padded: the names are at most 5 letters.
  if (n > 5) return false;
  let word: u64 = 0;
  for (let i = 0; i < n; i++) word |= <u64>(load<u8>(s + i) | 0x20) << (<u64>i << 3);
  return word == 0x70747468 || word == 0x7370747468 || word == 0x7377 || word == 0x737377 || word == 0x707466; // http https ws wss ftp
}

/** The first index at or after `from` that is not '/' or '\\'. */
function skipSlashes(s: usize, from: i32, to: i32): i32 {
  while (from < to && isSlash(load<u8>(s + from), true)) from++;
  return from;
}

/**
 * 1 when the `n` bytes at p are a single-dot segment, 2 for a double-dot one, else 0; a dot
 * may be written "%2e" when `encoded`.
 */
function dotSegment(p: usize, n: i32, encoded: bool): i32 {
  let dots = 0;
  let i = 0;
  while (i < n) {
    if (load<u8>(p + i) == 0x2e) {
      i++;
    } else if (encoded && i + 3 <= n && load<u8>(p + i) == 0x25 && load<u8>(p + i + 1) == 0x32 && (load<u8>(p + i + 2) | 0x20) == 0x65) {
      i += 3;
    } else {
      return 0;
    }
    if (++dots > 2) return 0;
  }
  return dots;
}

/**
 * Ends the segment written at dst[segStart, o), which is a dot segment of `dots` dots or none
 * (0) (`last`: the path ends after it), and returns where the next one starts: a dot segment
 * is taken out, and ".." takes the segment before it too; any other segment gets its '/'
 * unless it is the last.
 */
function endSegment(dst: usize, segStart: i32, o: i32, last: bool, dots: i32): i32 {
  if (dots == 0) {
    if (!last) store<u8>(dst + o++, 0x2f);
    return o;
  }
  if (dots == 2 && segStart > 1) {
    let p = segStart - 2;
    while (load<u8>(dst + p) != 0x2f) p--;
    return p + 1;
  }
  return segStart;
}

/** '%' and '\\' in every lane, loaded once per scan (see scan.ts on v128 constants). */
const PERCENTS = memory.data<u8>([37, 37, 37, 37, 37, 37, 37, 37, 37, 37, 37, 37, 37, 37, 37, 37], 16);
const BACKSLASHES = memory.data<u8>([92, 92, 92, 92, 92, 92, 92, 92, 92, 92, 92, 92, 92, 92, 92, 92], 16);

/**
 * Whether the path s[from, end) may hold a dot segment or, when `special`, a '\\': a '.' or '%'
 * right after a '/', or a '\\'. Most paths that come here only need normalising, in one piece.
 */
function mayHoldSegmentWork(s: usize, from: i32, end: i32, special: bool): bool {
  const slashes = v128.load(SLASHES);
  const dots = v128.load(DOTS);
  const percents = v128.load(PERCENTS);
  const backslashes = special ? v128.load(BACKSLASHES) : v128.load(SLASHES);
  for (let i = from; i < end; i += 16) {
    const v = v128.load(s + i);
    const afterSlash = v128.and(i8x16.eq(v128.load(s + i - 1), slashes), v128.or(i8x16.eq(v, dots), i8x16.eq(v, percents)));
    let bits = i8x16.bitmask(v128.or(afterSlash, i8x16.eq(v, backslashes)));
    if (end - i < 16) bits &= (1 << (end - i)) - 1;
    if (bits != 0) return true;
  }
  return false;
}

/**
 * Writes the path s[from, end), which starts where the authority ended (at '/', or '\\' when
 * `special`), segment by segment to `dst`, without its dot segments as `reading` reads them
 * (READ_DOTS, READ_ENCODED_DOTS; with neither, '\\' is all there is to rewrite); returns its
 * length.
 */
function writeSegments(s: usize, from: i32, end: i32, dst: usize, how: i32, special: bool, reading: i32): i32 {
  const ends = special ? SET_AUTHORITY_END : SET_OTHER_AUTHORITY_END;
  const dotted = (reading & READ_DOTS) != 0;
  const encoded = (reading & READ_ENCODED_DOTS) != 0;
  store<u8>(dst, 0x2f);
  let o = 1;
  let i = from < end && isSlash(load<u8>(s + from), special) ? from + 1 : from;
  while (true) {
    const segmentEnd = firstOf(s, i, end, ends);
    const segStart = o;
    o += normalizeInto(s + i, segmentEnd - i, dst + o, how);
    const last = segmentEnd == end;
    // Read from the segment as written: RFC normalisation decodes "%2e" to '.'.
    o = endSegment(dst, segStart, o, last, dotted ? dotSegment(s + i, segmentEnd - i, encoded) : 0);
    if (last) return o;
    i = segmentEnd + 1;
  }
}

/**
 * Writes the path and query of s[from, to), which starts where the authority ended (at '/',
 * '\\', '?', '#' or the end), to `dst` as `reading` reads them (`special`: the URL's scheme
 * is one whose '\\' the standard reads as '/'), and returns their length.
 */
function writePathAndQuery(s: usize, from: i32, to: i32, dst: usize, rfc: bool, special: bool, reading: i32): i32 {
  const how = rfc ? NORMALIZE_URL_RFC : encodingOf(reading);
  const backslash = special && (reading & READ_BACKSLASH) != 0;
  let pathEnd: i32;
  let end: i32;
  if ((reading & READ_LAST_HASH) != 0) {
    // The path and query run to the last '#', and a '#' before it is theirs.
    const hash = findLastByte(s, from, to, 0x23);
    if (hash >= 0) to = hash;
    pathEnd = findByte(s, from, to, 0x3f);
    end = to;
  } else {
    pathEnd = firstOf(s, from, to, SET_PATH_END);
    end = pathEnd < to && load<u8>(s + pathEnd) == 0x3f ? findByte(s, pathEnd + 1, to, 0x23) : pathEnd;
  }
  // An empty query is no query: new URL(...).search is "", and fetch() requests no '?'.
  if (end == pathEnd + 1 && (reading & READ_EMPTY_QUERY) == 0) end = pathEnd;
  if ((reading & (READ_DOTS | READ_BACKSLASH)) != 0 && mayHoldSegmentWork(s, from, pathEnd, backslash)) {
    const o = writeSegments(s, from, pathEnd, dst, how, backslash, reading);
    return o + normalizeInto(s + pathEnd, end - pathEnd, dst + o, how);
  }
  // The path is "/" when it is empty; else it starts with its '/' (one is put before a '\\').
  let o = 0;
  if (pathEnd == from || load<u8>(s + from) != 0x2f) store<u8>(dst, 0x2f), (o = 1);
  return o + normalizeInto(s + from, end - from, dst + o, how);
}

/** The normalizeInto mode (NORMALIZE_URL_*) of a reading's encoding, in fetch form. */
function encodingOf(reading: i32): i32 {
  const encoding = reading & READ_ENCODING_MASK;
  if (encoding == READ_ENCODING_ADA2) return NORMALIZE_URL_FETCH;
  if (encoding == READ_ENCODING_BROWSER) return NORMALIZE_URL_BROWSER;
  if (encoding == READ_ENCODING_RAW) return NORMALIZE_URL_RAW;
  if (encoding == READ_ENCODING_WGET) return NORMALIZE_URL_WGET;
  if (encoding == READ_ENCODING_REQUESTS) return NORMALIZE_URL_REQUESTS;
  return NORMALIZE_URL_WHATWG;
}

/**
 * The request path of the `len`-byte URL at `src` (see the top of this file) as `reading`
 * reads it, normalised for RFC mode (`rfc`) or in fetch form, written to `dst` (4 * len + 8
 * bytes); returns its length.
 */
export function resolveUrl(src: usize, len: i32, dst: usize, rfc: bool, reading: i32 = READING_NODE20): i32 {
  stripUrl(src, len, dst, true, (reading & READ_TABS) != 0, (reading & READ_TRAILING_BLANKS) != 0);
  const s = urlBytes;
  const to = urlTo;
  let at = urlFrom;
  let special = true;
  const colon = schemeColon(s, at, to);
  const first = at < to ? <u32>load<u8>(s + at) : 0;
  if (colon >= 0 && isSpecialScheme(s + at, colon - at)) {
    at = firstOf(s, skipSlashes(s, colon + 1, to), to, SET_AUTHORITY_END);
  } else if (colon >= 0 && colon + 2 < to && load<u16>(s + colon + 1) == 0x2f2f) {
    special = false;
    at = firstOf(s, colon + 3, to, SET_OTHER_AUTHORITY_END);
  } else if (!isSlash(first, true) && first != 0x3f && first != 0x23) {
    at = firstOf(s, at, to, SET_AUTHORITY_END);
  }
  return writePathAndQuery(s, at, to, dst, rfc, special, reading);
}

/**
 * The request path of the `len` bytes at `src`: the path and query of an http(s) URL or a
 * path, from its first '/' or '?' on (path.ts read what came before); as resolveUrl.
 */
export function resolvePath(src: usize, len: i32, dst: usize, rfc: bool): i32 {
  stripUrl(src, len, dst, false, false);
  return writePathAndQuery(urlBytes, urlFrom, urlTo, dst, rfc, true, READING_NODE20);
}
