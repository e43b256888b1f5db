// Percent-encoding normalisation of URL paths and rule patterns: the one implementation of it.
//
// RFC mode (RFC 9309 2.2.2 Figure 4, 2.2.3 Figure 6; RFC 3986 6.2.2): %xx of an unreserved
// byte is decoded, other %xx get uppercase hex, a '%' that starts no escape becomes %25,
// bytes outside printable ASCII and the ASCII characters a URI never holds are encoded.
// '*' and '$' in a URL are data, so they become %2A and %24; in a pattern '*' is the
// wildcard and a final '$' the end anchor, and any other '$' is data (%24). URL and
// pattern then compare byte for byte, so equivalent URIs match the same rules.
//
// Google mode (patterns only; URLs are compared as given): %xx gets uppercase hex and every
// byte >= 0x80 is encoded; nothing else changes.

import { byteClass, copyBytes, hexDigit, hexValue, CLASS_ENCODE, CLASS_HEX, CLASS_SPECIAL, CLASS_UNRESERVED } from './bytes';
import { firstOf, SET_SPECIAL } from './scan';

export const NORMALIZE_URL_RFC: i32 = 0;
export const NORMALIZE_PATTERN_RFC: i32 = 1;
export const NORMALIZE_PATTERN_GOOGLE: i32 = 2;

// @ts-ignore: decorator
@inline function putEscape(dst: usize, o: i32, v: u32): i32 {
  store<u8>(dst + o, 0x25);
  store<u8>(dst + o + 1, hexDigit(v >> 4));
  store<u8>(dst + o + 2, hexDigit(v));
  return o + 3;
}

/**
 * Writes the normalised form of `len` bytes at `src` to `dst` (room for 3 * len bytes) and
 * returns its length. `how` is one of the NORMALIZE_* constants.
 */
export function normalizeInto(src: usize, len: i32, dst: usize, how: i32): i32 {
  if (how == NORMALIZE_PATTERN_RFC && isPlainPattern(src, len)) {
    memory.copy(dst, src, len);
    return len;
  }
  let o = 0;
  let i = 0;
  while (i < len) {
    let c = <u32>load<u8>(src + i);
    let k = byteClass(c);
    if (how != NORMALIZE_PATTERN_GOOGLE && (k & CLASS_SPECIAL) == 0) {
      // RFC modes leave every byte outside SET_SPECIAL as it is: a URL that needs
      // normalisation mostly holds long runs of them around an escape or two.
      const stop = firstOf(src, i, len, SET_SPECIAL);
      copyBytes(dst + o, src + i, stop - i);
      o += stop - i;
      i = stop;
      if (i == len) break;
      c = <u32>load<u8>(src + i);
      k = byteClass(c);
    }
    if (c == 0x25) {
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
    } else if ((k & CLASS_ENCODE) != 0) {
      o = putEscape(dst, o, c);
    } else if (c == 0x2a) {
      if (how == NORMALIZE_PATTERN_RFC) store<u8>(dst + o++, 0x2a);
      else o = putEscape(dst, o, c);
    } else if (c == 0x24) {
      if (how == NORMALIZE_PATTERN_RFC && i == len - 1) store<u8>(dst + o++, 0x24);
      else o = putEscape(dst, o, c);
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
