// Byte classes for URL and pattern normalisation, as one 256-entry lookup table; and the
// comparisons and copies of byte runs the scans and the compiler share.

export const CLASS_UNRESERVED: u8 = 1; // RFC 3986 unreserved: A-Z a-z 0-9 - . _ ~
export const CLASS_ENCODE: u8 = 2; // must be percent-encoded before comparison (RFC 9309 2.2.2)
export const CLASS_HEX: u8 = 4;
/** RFC normalisation may change it, or it ends a path: scan.ts's SET_SPECIAL as a class. */
export const CLASS_SPECIAL: u8 = 8;
/** A WHATWG URL parser percent-encodes it in a path (the path percent-encode set). */
export const CLASS_FETCH_PATH: u8 = 16;
/** A WHATWG URL parser percent-encodes it in the query of an http(s) URL (special-query set). */
export const CLASS_FETCH_QUERY: u8 = 32;
/** A fetch drops it where a URL's path ends: '?' (of an empty query), spaces and controls (path.ts). */
export const CLASS_DROPPED_AT_END: u8 = 64;
/** A fetch rewrites it in a path: tab, LF and CR (removed), '\\' (a '/'). */
export const CLASS_REWRITTEN: u8 = 128;
/** Clients may send it differently (percent-encoded, removed, rewritten): google mode's readings differ where a URL holds one. */
export const CLASS_READINGS_DIFFER: u8 = CLASS_FETCH_PATH | CLASS_FETCH_QUERY | CLASS_REWRITTEN;

const CLASSES = memory.data(256);
const HEX_VALUES = memory.data(256);
const HEX_DIGITS = memory.data<u8>([48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 65, 66, 67, 68, 69, 70], 16);

let initialised = false;

/** Fills the lookup tables once; cheap, and keeps the data section free of a 512-byte literal. */
export function initClasses(): void {
  if (initialised) return;
  initialised = true;
  for (let c = 0; c < 256; c++) {
    let k: u8 = 0;
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c == 45 || c == 46 || c == 95 || c == 126) {
      k |= CLASS_UNRESERVED;
    }
    // Controls, space, bytes >= 0x80 and the ASCII characters RFC 3986 never allows in a URI.
    if (c <= 0x20 || c >= 0x7f || c == 34 || c == 60 || c == 62 || c == 92 || c == 94 || c == 96 || c == 123 || c == 124 || c == 125) {
      k |= CLASS_ENCODE;
    }
    let hv: u8 = 0xff;
    if (c >= 48 && c <= 57) hv = <u8>(c - 48);
    else if (c >= 65 && c <= 70) hv = <u8>(c - 55);
    else if (c >= 97 && c <= 102) hv = <u8>(c - 87);
    if (hv != 0xff) k |= CLASS_HEX;
    // Both encode controls, space, '"', '<', '>' and bytes >= 0x7f (UTF-8 of non-ASCII), like
    // RFC mode; the path set adds '`', '{', '}' and the query set '\''. ('^' joined the
    // standard's path set later than the parsers in use: left as is, the safe side for a
    // google-mode rule naming it.)
    const fetchBoth = c <= 0x20 || c >= 0x7f || c == 34 || c == 60 || c == 62;
    if (fetchBoth || c == 96 || c == 123 || c == 125) k |= CLASS_FETCH_PATH;
    if (fetchBoth || c == 39) k |= CLASS_FETCH_QUERY;
    if (c <= 0x20 || c == 0x3f) k |= CLASS_DROPPED_AT_END;
    if (c == 0x09 || c == 0x0a || c == 0x0d || c == 0x5c) k |= CLASS_REWRITTEN;
    // '\'' is special too: a query sends it as %27 (CLASS_FETCH_QUERY).
    // '[' and ']' are special too: one client encodes them (google mode's readings).
    if ((k & CLASS_ENCODE) != 0 || c == 0x23 || c == 0x25 || c == 0x2a || c == 0x24 || c == 0x27 || c == 0x5b || c == 0x5d) k |= CLASS_SPECIAL;
    store<u8>(CLASSES + c, k);
    store<u8>(HEX_VALUES + c, hv);
  }
}

// @ts-ignore: decorator
@inline export function byteClass(c: u32): u8 {
  return load<u8>(CLASSES + c);
}

// @ts-ignore: decorator
@inline export function hexValue(c: u32): u32 {
  return <u32>load<u8>(HEX_VALUES + c);
}

// @ts-ignore: decorator
@inline export function hexDigit(v: u32): u8 {
  return load<u8>(HEX_DIGITS + (v & 15));
}

/**
 * Length of the common prefix of the `n` bytes at a and b (n may be 0), 8 bytes at a time
 * (patterns and filter keys share long prefixes). Reads up to 7 bytes past both ends,
 * which stay in bounds (see assembly/index.ts) and are masked out.
 */
// @ts-ignore: decorator
@inline export function commonPrefix(a: usize, b: usize, n: i32): i32 {
  let j = 0;
  for (; j + 8 <= n; j += 8) {
    const x = load<u64>(a + j) ^ load<u64>(b + j);
    if (x != 0) return j + <i32>(ctz(x) >> 3);
  }
  if (j < n) {
    const x = (load<u64>(a + j) ^ load<u64>(b + j)) & ((<u64>1 << (<u64>(n - j) << 3)) - 1);
    return x != 0 ? j + <i32>(ctz(x) >> 3) : n;
  }
  return n;
}

/**
 * Whether the `n` bytes at a and b are equal (n >= 1). Most trie labels are under 17 bytes:
 * one SIMD compare, with no loop, rather than 64-bit compares, which would need a loop past 8
 * bytes. Reads up to 15 bytes past both ends, which stay in bounds (see assembly/index.ts).
 */
// @ts-ignore: decorator
@inline export function bytesEqual(a: usize, b: usize, n: i32): bool {
  if (n <= 16) {
    const mask = (1 << n) - 1;
    return (i8x16.bitmask(i8x16.eq(v128.load(a), v128.load(b))) & mask) == mask;
  }
  return commonPrefix(a, b, n) == n;
}

/**
 * Copies n bytes from src to dst (which do not overlap), 16 at a time; reads up to 15 bytes
 * past src's end, like the scans, but writes none past dst's.
 */
// @ts-ignore: decorator
@inline export function copyBytes(dst: usize, src: usize, n: i32): void {
  let j = 0;
  for (; j + 16 <= n; j += 16) v128.store(dst + j, v128.load(src + j));
  for (; j < n; j++) store<u8>(dst + j, load<u8>(src + j));
}
