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
 * Reads up to 30 bytes past the last unit and writes up to 15 bytes past the last string's
 * UTF-8 (an ASCII block stored past a string's end is the next string's, or slack).
 */
export function utf8FromUtf16(units: usize, ends: usize, count: i32, dst: usize, spans: usize, offset: u32): u32 {
  const top = v128.load(TOP);
  let out = dst;
  let i: u32 = 0;
  let start = dst;
  for (let k = 0; k < count; k++) {
    const end = load<u32>(ends + (<usize>k << 2));
    while (i < end) {
      // 16 units at a time: capped at 0x80, each unit narrows to one byte (narrowing reads
      // lanes as signed) whose top bit is set exactly when the unit is not ASCII. An ASCII run
      // is stored as it is, even past the string's end: ASCII encodes the same in any string.
      const p = units + (<usize>i << 1);
      const bytes = i8x16.narrow_i16x8_u(i16x8.min_u(v128.load(p), top), i16x8.min_u(v128.load(p, 16), top));
      v128.store(out, bytes);
      const bits = i8x16.bitmask(bytes);
      if (bits == 0) {
        i += 16;
        out += 16;
        continue;
      }
      const ascii = <u32>ctz(bits);
      i += ascii;
      out += ascii;
      if (i >= end) break;
      const c = <u32>load<u16>(units + (<usize>i << 1));
      i++;
      if (c < 0x800) {
        store<u8>(out, 0xc0 | (c >> 6));
        store<u8>(out, 0x80 | (c & 0x3f), 1);
        out += 2;
        continue;
      }
      let point = c;
      if ((c & 0xf800) == 0xd800) {
        // A pair only within one string: a surrogate at a string's end stands alone.
        const next = i < end ? <u32>load<u16>(units + (<usize>i << 1)) : 0;
        if (c < 0xdc00 && (next & 0xfc00) == 0xdc00) {
          point = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
          i++;
          store<u8>(out, 0xf0 | (point >> 18));
          store<u8>(out, 0x80 | ((point >> 12) & 0x3f), 1);
          store<u8>(out, 0x80 | ((point >> 6) & 0x3f), 2);
          store<u8>(out, 0x80 | (point & 0x3f), 3);
          out += 4;
          continue;
        }
        point = 0xfffd;
      }
      store<u8>(out, 0xe0 | (point >> 12));
      store<u8>(out, 0x80 | ((point >> 6) & 0x3f), 1);
      store<u8>(out, 0x80 | (point & 0x3f), 2);
      out += 3;
    }
    // The string ends inside the ASCII run last stored (or exactly at i): a byte per unit.
    const stop = out - <usize>(i - end);
    const span = spans + (<usize>k << 3);
    store<u32>(span, offset + <u32>(start - dst));
    store<u32>(span, <u32>(stop - start), 4);
    start = stop;
  }
  return <u32>(start - dst);
}
