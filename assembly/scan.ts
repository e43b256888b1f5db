// SIMD byte scans, 16 bytes per step. A scan may load up to 15 bytes past `end`; the heap
// never hands out the last bytes of memory (src/wasm/memory.ts), so such loads stay in
// bounds, and bits for positions at or past `end` are ignored.

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
 * Index of the first '/', '?', ';' or '#' in p[from, end) - or LF, with `lf` - or end: where
 * a URL's authority ends.
 */
export function findDelimiter(p: usize, from: i32, end: i32, lf: bool): i32 {
  const slash = i8x16.splat(0x2f);
  const question = i8x16.splat(0x3f);
  const semicolon = i8x16.splat(0x3b);
  const hash = i8x16.splat(0x23);
  // Without `lf`, compare with '/' twice rather than with LF.
  const newline = i8x16.splat(lf ? 0x0a : 0x2f);
  for (let i = from; i < end; i += 16) {
    const v = v128.load(p + i);
    const hit = v128.or(
      v128.or(v128.or(i8x16.eq(v, slash), i8x16.eq(v, question)), v128.or(i8x16.eq(v, semicolon), i8x16.eq(v, hash))),
      i8x16.eq(v, newline),
    );
    const m = i8x16.bitmask(hit);
    if (m != 0) return clamp(i + ctz(m), end);
  }
  return end;
}

/** Index of the first '#' or NUL - or LF, with `lf` - in p[from, end), or end: the path end in google mode. */
export function findHashNulOrLf(p: usize, from: i32, end: i32, lf: bool): i32 {
  const hash = i8x16.splat(0x23);
  const zero = i8x16.splat(0);
  const newline = i8x16.splat(lf ? 0x0a : 0x23);
  for (let i = from; i < end; i += 16) {
    const v = v128.load(p + i);
    const m = i8x16.bitmask(v128.or(v128.or(i8x16.eq(v, hash), i8x16.eq(v, zero)), i8x16.eq(v, newline)));
    if (m != 0) return clamp(i + ctz(m), end);
  }
  return end;
}

/** Index of the first '#' or NUL in p[from, end), or end (where a line's content ends). */
export function findHashOrNul(p: usize, from: i32, end: i32): i32 {
  const hash = i8x16.splat(0x23);
  const zero = i8x16.splat(0);
  for (let i = from; i < end; i += 16) {
    const v = v128.load(p + i);
    const m = i8x16.bitmask(v128.or(i8x16.eq(v, hash), i8x16.eq(v, zero)));
    if (m != 0) return clamp(i + ctz(m), end);
  }
  return end;
}

// Membership in the set of bytes that end a path or need RFC normalisation, tested with two
// nibble lookups: a byte c is in the set when LO[c & 15] & HI[c >> 4] != 0. The set is
// '#' '%' '*' '$', bytes <= 0x20, >= 0x7f, and " < > \ ^ ` { | } (see assembly/bytes.ts).
//   bit 0: high nibble 0, 1, 8-15 (controls, non-ASCII): every low nibble
//   bit 1: high nibble 2: space " # $ % *   (low 0 2 3 4 5 A)
//   bit 2: high nibble 3 and 5: < > \ ^     (low C E)
//   bit 3: high nibble 6: `                 (low 0)
//   bit 4: high nibble 7: { | } DEL         (low B C D F)
const SPECIAL_LO = memory.data<u8>([
  0x0b, 0x01, 0x03, 0x03, 0x03, 0x03, 0x01, 0x01, 0x01, 0x01, 0x03, 0x11, 0x15, 0x11, 0x05, 0x11,
]);
const SPECIAL_HI = memory.data<u8>([
  0x01, 0x01, 0x02, 0x04, 0x00, 0x04, 0x08, 0x10, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01,
]);

/** Index of the first byte in p[from, end) that ends a path ('#') or needs RFC normalisation, or end. */
export function findRfcSpecial(p: usize, from: i32, end: i32): i32 {
  const lo = v128.load(SPECIAL_LO);
  const hi = v128.load(SPECIAL_HI);
  const nibble = i8x16.splat(0x0f);
  const zero = i8x16.splat(0);
  for (let i = from; i < end; i += 16) {
    const v = v128.load(p + i);
    const classes = v128.and(v128.swizzle(lo, v128.and(v, nibble)), v128.swizzle(hi, i8x16.shr_u(v, 4)));
    const m = i8x16.bitmask(i8x16.ne(classes, zero));
    if (m != 0) return clamp(i + ctz(m), end);
  }
  return end;
}

/**
 * Leftmost index >= from where the `segLen` bytes at `seg` occur in path[from, len), or -1.
 * Candidates are positions where both the first and the last byte of the segment line up,
 * found 16 at a time; only those are compared in full.
 */
export function indexOfSegment(path: usize, from: i32, len: i32, seg: usize, segLen: i32): i32 {
  const lastStart = len - segLen;
  if (lastStart < from) return -1;
  const first = i8x16.splat(<i8>load<u8>(seg));
  const last = i8x16.splat(<i8>load<u8>(seg + segLen - 1));
  for (let i = from; i <= lastStart; i += 16) {
    let m = i8x16.bitmask(v128.and(i8x16.eq(v128.load(path + i), first), i8x16.eq(v128.load(path + i + segLen - 1), last)));
    while (m != 0) {
      const at = i + ctz(m);
      if (at > lastStart) return -1;
      let k = 1;
      while (k < segLen - 1 && load<u8>(path + at + k) == load<u8>(seg + k)) k++;
      if (k >= segLen - 1) return at;
      m &= m - 1;
    }
  }
  return -1;
}

/** Index of the first CR or LF in p[from, end), or end. */
export function findLineEnd(p: usize, from: i32, end: i32): i32 {
  const lf = i8x16.splat(0x0a);
  const cr = i8x16.splat(0x0d);
  for (let i = from; i < end; i += 16) {
    const v = v128.load(p + i);
    const m = i8x16.bitmask(v128.or(i8x16.eq(v, lf), i8x16.eq(v, cr)));
    if (m != 0) return clamp(i + ctz(m), end);
  }
  return end;
}

/** Index of the first space or tab in p[from, end), or end. */
export function findBlank(p: usize, from: i32, end: i32): i32 {
  const space = i8x16.splat(0x20);
  const tab = i8x16.splat(0x09);
  for (let i = from; i < end; i += 16) {
    const v = v128.load(p + i);
    const m = i8x16.bitmask(v128.or(i8x16.eq(v, space), i8x16.eq(v, tab)));
    if (m != 0) return clamp(i + ctz(m), end);
  }
  return end;
}

/** Index of the first byte in p[from, end) that is not ASCII whitespace (C's isspace), or end. */
export function skipSpaces(p: usize, from: i32, end: i32): i32 {
  const space = i8x16.splat(0x20);
  const tab = i8x16.splat(0x09);
  const cr = i8x16.splat(0x0d);
  for (let i = from; i < end; i += 16) {
    const v = v128.load(p + i);
    // 0x09-0x0d: tab, LF, VT, FF, CR
    const blank = v128.or(i8x16.eq(v, space), v128.and(i8x16.ge_u(v, tab), i8x16.le_u(v, cr)));
    const m = ~i8x16.bitmask(blank) & 0xffff;
    if (m != 0) return clamp(i + ctz(m), end);
  }
  return end;
}
