// UTF-16 to UTF-8, for checkMany. JS strings reach the kernel as UTF-16 code units, a whole
// batch of them written by one call (src/wasm/batch.ts): a TextEncoder call per URL cost
// more than matching it. The bytes are exactly those TextEncoder would write: a surrogate
// without its partner becomes U+FFFD.

/** 0x80 in each of 8 u16 lanes, loaded once per call: V8 rebuilds a v128 constant at each use. */
const TOP = memory.data<u16>([0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80]);

/**
 * Transcodes `count` strings stored one after another as UTF-16LE code units at `units`
 * (string k ends at unit load<u32>(ends + 4k); the first starts at unit 0) into UTF-8 at
 * `dst`, one after another, and writes a pair of u32 per string at `spans`: `offset` plus its
 * offset from dst, and its length in bytes. Returns the UTF-8 length of all the strings.
 * Reads up to 62 bytes past the last unit and writes up to 31 bytes past the last string's
 * UTF-8.
 */
// The units are read as one stream, 32 at a time, whatever string they belong to: ASCII
// encodes the same in any string, and a pass per string costs a partly used step and a loop
// exit per string. Where a string starts and
// ends in the UTF-8 follows from its unit offsets, since every unit after the last non-ASCII
// one is a byte; so spans are written when a non-ASCII unit is met (for the strings that end
// before it) and at the end.
export function utf8FromUtf16(units: usize, ends: usize, count: i32, dst: usize, spans: usize, offset: u32): u32 {
  if (count <= 0) return 0;
  const top = v128.load(TOP);
  const total = load<u32>(ends + (<usize>(count - 1) << 2));
  let out = dst;
  let i: u32 = 0;
  // Unit u of the ASCII run being read is at span offset u + shift.
  let shift = offset;
  let k = 0; // the first string whose span is not written yet
  let start = offset; // span offset where string k starts
  while (i < total) {
    // 32 units at a time: capped at 0x80, each unit narrows to one byte (narrowing reads
    // lanes as signed) whose top bit is set exactly when the unit is not ASCII. An ASCII run
    // is stored as it is, even past the last string's end.
    const p = units + (<usize>i << 1);
    const low = i8x16.narrow_i16x8_u(i16x8.min_u(v128.load(p), top), i16x8.min_u(v128.load(p, 16), top));
    const high = i8x16.narrow_i16x8_u(i16x8.min_u(v128.load(p, 32), top), i16x8.min_u(v128.load(p, 48), top));
    v128.store(out, low);
    v128.store(out, high, 16);
    const bits = i8x16.bitmask(low) | (i8x16.bitmask(high) << 16);
    if (bits == 0) {
      i += 32;
      out += 32;
      continue;
    }
    const ascii = <u32>ctz(bits);
    i += ascii;
    out += ascii;
    if (i >= total) break;
    // Unit i is not ASCII: the strings that end before it end in the ASCII run.
    let end = load<u32>(ends + (<usize>k << 2));
    while (end <= i) {
      start = writeSpan(spans, k++, start, end + shift);
      end = load<u32>(ends + (<usize>k << 2));
    }
    const c = <u32>load<u16>(units + (<usize>i << 1));
    i++;
    if (c < 0x800) {
      store<u8>(out, 0xc0 | (c >> 6));
      store<u8>(out, 0x80 | (c & 0x3f), 1);
      out += 2;
    } else {
      let point = c;
      // A pair only within one string (string k, which ends at `end`): a surrogate at a
      // string's end stands alone.
      const next = i < end ? <u32>load<u16>(units + (<usize>i << 1)) : 0;
      if ((c & 0xfc00) == 0xd800 && (next & 0xfc00) == 0xdc00) {
        point = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
        i++;
        store<u8>(out, 0xf0 | (point >> 18));
        store<u8>(out, 0x80 | ((point >> 12) & 0x3f), 1);
        store<u8>(out, 0x80 | ((point >> 6) & 0x3f), 2);
        store<u8>(out, 0x80 | (point & 0x3f), 3);
        out += 4;
      } else {
        if ((c & 0xf800) == 0xd800) point = 0xfffd;
        store<u8>(out, 0xe0 | (point >> 12));
        store<u8>(out, 0x80 | ((point >> 6) & 0x3f), 1);
        store<u8>(out, 0x80 | (point & 0x3f), 2);
        out += 3;
      }
    }
    shift = offset + <u32>(out - dst) - i;
  }
  for (; k < count; k++) start = writeSpan(spans, k, start, load<u32>(ends + (<usize>k << 2)) + shift);
  return start - offset;
}

/** Writes string k's span, which runs from span offset `start` to `stop`; returns `stop`. */
// @ts-ignore: decorator
@inline function writeSpan(spans: usize, k: i32, start: u32, stop: u32): u32 {
  const span = spans + (<usize>k << 3);
  store<u32>(span, start);
  store<u32>(span, stop - start, 4);
  return stop;
}
