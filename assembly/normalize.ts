// Percent-encoding normalisation of URL paths and queries and of rule patterns: the one
// implementation of it.
//
// RFC mode (RFC 9309 2.2.2 Figure 4, 2.2.3 Figure 6; RFC 3986 6.2.2): %xx of an unreserved
// byte is decoded, other %xx get uppercase hex, a '%' that starts no escape becomes %25,
// bytes outside printable ASCII and the ASCII characters a URI never holds are encoded.
// '*' and '$' in a URL are data, so they become %2A and %24; in a pattern '*' is the
// wildcard and a final '$' the end anchor, and any other '$' is data (%24). A query's '\''
// is %27, as a WHATWG client sends it, in a URL and after a pattern's first '?'. URL and
// pattern then compare byte for byte, so equivalent URIs match the same rules.
//
// Fetch form (google mode's URLs as a client sends them, see url.ts): only the bytes a WHATWG
// URL parser percent-encodes in a path or a query are encoded; escapes stay as written. Raw
// form (google mode's readings of clients that send bytes as written): nothing changes.
//
// Google mode patterns: %xx gets uppercase hex and every byte >= 0x80 is encoded; nothing
// else changes.

import {
  byteClass, copyBytes, hexDigit, hexValue, CLASS_ENCODE, CLASS_FETCH_PATH, CLASS_FETCH_QUERY, CLASS_HEX, CLASS_SPECIAL,
  CLASS_UNRESERVED,
} from './bytes';
import { findByte, firstOf, SET_SPECIAL } from './scan';
import { NORMALIZE_PATTERN_GOOGLE, NORMALIZE_PATTERN_RFC } from '../src/wasm/abi';

/** A URL's path and query (or a part of them; its query starts at its first '?'), RFC mode. */
export const NORMALIZE_URL_RFC: i32 = 0;
/** A URL's path and query (or a part of them), in fetch form. */
export const NORMALIZE_URL_FETCH: i32 = 3;
// A URL's path and query (or a part of them) as a client encodes it, for google mode's
// readings (src/wasm/abi.ts, READ_ENCODING_*): as written, as the current URL standard does
// ('^' encoded in a path, where NORMALIZE_URL_FETCH keeps Ada 2.9's set), as Chromium does, as
// wget does, as Python requests does (its escapes in uppercase).
export const NORMALIZE_URL_RAW: i32 = 4;
export const NORMALIZE_URL_WHATWG: i32 = 5;
export const NORMALIZE_URL_BROWSER: i32 = 6;
export const NORMALIZE_URL_WGET: i32 = 7;
export const NORMALIZE_URL_REQUESTS: i32 = 8;

// @ts-ignore: decorator
@inline function putEscape(dst: usize, o: i32, v: u32): i32 {
  store<u8>(dst + o, 0x25);
  store<u8>(dst + o + 1, hexDigit(v >> 4));
  store<u8>(dst + o + 2, hexDigit(v));
  return o + 3;
}

/** Whether src[i] lies in a query: after the first '?' of src[0, len). Asked of rare bytes only. */
// @ts-ignore: decorator
@inline function inQuery(src: usize, i: i32): bool {
  return findByte(src, 0, i, 0x3f) < i;
}

/**
 * Writes the normalised form of `len` bytes at `src` to `dst` (room for 3 * len bytes) and
 * returns its length. `how` is one of the NORMALIZE_* constants.
 */
export function normalizeInto(src: usize, len: i32, dst: usize, how: i32): i32 {
  if (how >= NORMALIZE_URL_WHATWG) return encodeAsClient(src, len, dst, how);
  if (how == NORMALIZE_URL_RAW || (how == NORMALIZE_PATTERN_RFC && isPlainPattern(src, len))) {
    memory.copy(dst, src, len);
    return len;
  }
  const fetchForm = how == NORMALIZE_URL_FETCH;
  let o = 0;
  let i = 0;
  while (i < len) {
    let c = <u32>load<u8>(src + i);
    let k = byteClass(c);
    if (how != NORMALIZE_PATTERN_GOOGLE && (k & CLASS_SPECIAL) == 0) {
      // Every mode but google patterns leaves each byte outside SET_SPECIAL as it is: a URL
      // that needs normalisation mostly holds long runs of them around an escape or two.
      const stop = firstOf(src, i, len, SET_SPECIAL);
      copyBytes(dst + o, src + i, stop - i);
      o += stop - i;
      i = stop;
      if (i == len) break;
      c = <u32>load<u8>(src + i);
      k = byteClass(c);
    }
    if (fetchForm) {
      if ((k & (inQuery(src, i) ? CLASS_FETCH_QUERY : CLASS_FETCH_PATH)) != 0) o = putEscape(dst, o, c);
      else store<u8>(dst + o++, <u8>c);
    } else if (c == 0x25) {
      if (i + 2 < len && (byteClass(load<u8>(src + i + 1)) & byteClass(load<u8>(src + i + 2)) & CLASS_HEX) != 0) {
        const v = (hexValue(load<u8>(src + i + 1)) << 4) | hexValue(load<u8>(src + i + 2));
        i += 2;
        if (how != NORMALIZE_PATTERN_GOOGLE && (byteClass(v) & CLASS_UNRESERVED) != 0) {
          store<u8>(dst + o++, <u8>v);
        } else {
          o = putEscape(dst, o, v);
        }
      } else if (how == NORMALIZE_PATTERN_GOOGLE) {
        store<u8>(dst + o++, 0x25);
      } else {
        o = putEscape(dst, o, 0x25);
      }
    } else if (how == NORMALIZE_PATTERN_GOOGLE) {
      if (c >= 0x80) o = putEscape(dst, o, c);
      else store<u8>(dst + o++, <u8>c);
    } else if ((k & CLASS_ENCODE) != 0 || c == 0x5b || c == 0x5d) {
      // '[' and ']' are reserved (RFC 9309 2.2.2 encodes them), and some clients send them encoded.
      o = putEscape(dst, o, c);
    } else if (c == 0x2a) {
      if (how == NORMALIZE_PATTERN_RFC) store<u8>(dst + o++, 0x2a);
      else o = putEscape(dst, o, c);
    } else if (c == 0x24) {
      if (how == NORMALIZE_PATTERN_RFC && i == len - 1) store<u8>(dst + o++, 0x24);
      else o = putEscape(dst, o, c);
    } else if ((c == 0x27 && inQuery(src, i)) || (c == 0x23 && how == NORMALIZE_URL_RFC)) {
      // A '#' reaches here only in a reading that sends it (READ_LAST_HASH): it is data.
      o = putEscape(dst, o, c);
    } else {
      store<u8>(dst + o++, <u8>c);
    }
    i++;
  }
  return o;
}

/**
 * True when RFC normalisation leaves a pattern as it is: nothing but bytes that need no
 * escaping, '*' wildcards and a final '$' (most patterns; checked 16 bytes at a time).
 */
function isPlainPattern(src: usize, len: i32): bool {
  let i = firstOf(src, 0, len, SET_SPECIAL);
  while (i < len) {
    const c = load<u8>(src + i);
    if (c != 0x2a && !(c == 0x24 && i == len - 1)) return false;
    i = firstOf(src, i + 1, len, SET_SPECIAL);
  }
  return true;
}

/**
 * normalizeInto for the client encodings past NORMALIZE_URL_RAW, byte by byte: they serve the
 * readings of the few URLs whose readings differ (readings.ts).
 */
function encodeAsClient(src: usize, len: i32, dst: usize, how: i32): i32 {
  let o = 0;
  for (let i = 0; i < len; i++) {
    const c = <u32>load<u8>(src + i);
    const k = byteClass(c);
    if (how == NORMALIZE_URL_WGET || how == NORMALIZE_URL_REQUESTS) {
      if (c == 0x25) {
        if (i + 2 < len && (byteClass(load<u8>(src + i + 1)) & byteClass(load<u8>(src + i + 2)) & CLASS_HEX) != 0) {
          const v = (hexValue(load<u8>(src + i + 1)) << 4) | hexValue(load<u8>(src + i + 2));
          // requests also decodes escapes of unreserved bytes, which robots.cc and so google
          // mode hold to be other bytes (Google's ID_Encoding tests): that is left to RFC mode.
          if (how == NORMALIZE_URL_WGET) copyBytes(dst + o, src + i, 3), (o += 3);
          else o = putEscape(dst, o, v);
          i += 2;
        } else {
          o = putEscape(dst, o, c);
        }
      } else if ((k & CLASS_ENCODE) != 0 || (how == NORMALIZE_URL_REQUESTS && (c == 0x5b || c == 0x5d))) {
        o = putEscape(dst, o, c);
      } else {
        store<u8>(dst + o++, <u8>c);
      }
      continue;
    }
    // The URL standard's sets, with '^' in a path; Chromium's adds '|' there.
    const query = inQuery(src, i);
    const encoded = (k & (query ? CLASS_FETCH_QUERY : CLASS_FETCH_PATH)) != 0 || (!query && (c == 0x5e || (how == NORMALIZE_URL_BROWSER && c == 0x7c)));
    if (encoded) o = putEscape(dst, o, c);
    else store<u8>(dst + o++, <u8>c);
  }
  return o;
}
