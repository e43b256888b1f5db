// How a trie node finds the child for a byte without a search loop: the child index that
// follows a node's fixed fields, shared by the writer (compile.ts) and the reader (match.ts).
//   1-4 children:  first bytes in one u32, found by a SWAR zero-byte test
//   5-16 children: first bytes in 16 bytes, found by one SIMD compare
//   17+ children:  a 256-bit bitmap of first bytes; the child's rank is a popcount
// The child offsets (u32, in first-byte order) follow the index.

// @ts-ignore: decorator
@inline export function childIndexBytes(count: i32): i32 {
  return count == 0 ? 0 : count <= 4 ? 4 : count <= 16 ? 16 : 32;
}

/** Writes the index of `count` children whose first bytes are at `bytes` (ascending). */
export function writeChildIndex(at: usize, bytes: usize, count: i32): void {
  if (count <= 16) {
    for (let k = 0; k < count; k++) store<u8>(at + k, load<u8>(bytes + k));
    return;
  }
  for (let k = 0; k < count; k++) {
    const b = <u32>load<u8>(bytes + k);
    const word = at + ((b >> 6) << 3);
    store<u64>(word, load<u64>(word) | (<u64>1 << <u64>(b & 63)));
  }
}

/**
 * Offset of the child whose first byte is `c`, or 0 when there is none, from the child index
 * at `index` of a node with `count` children. Each kind of index finds the child's rank and
 * its offset in one branch (the offsets start childIndexBytes(count) after the index).
 */
// @ts-ignore: decorator
@inline export function childOffset(index: usize, count: i32, c: u32): u32 {
  if (count <= 4) {
    // Bytes equal to c become zero; the lowest zero byte is exact (higher ones may be false).
    const x = load<u32>(index) ^ (c * 0x01010101);
    const zero = (x - 0x01010101) & ~x & 0x80808080;
    const k = <i32>(ctz(zero) >> 3); // 4 when there is no zero byte
    return k < count ? load<u32>(index + 4 + (<usize>k << 2)) : 0;
  }
  if (count <= 16) {
    const m = i8x16.bitmask(i8x16.eq(v128.load(index), i8x16.splat(<i8>c))) & ((1 << count) - 1);
    return m == 0 ? 0 : load<u32>(index + 16 + (<usize>ctz(m) << 2));
  }
  const word = load<u64>(index + ((c >> 6) << 3));
  const bit = c & 63;
  if (((word >> bit) & 1) == 0) return 0;
  let rank = <i32>popcnt(word & ((<u64>1 << bit) - 1));
  for (let w: u32 = 0; w < (c >> 6); w++) rank += <i32>popcnt(load<u64>(index + (w << 3)));
  return load<u32>(index + 32 + (<usize>rank << 2));
}
