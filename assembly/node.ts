// How a trie node finds the child for a byte without a search loop: the child area at
// NODE_CHILD_AREA, shared by the writer (compile/nodes.ts), the reader (match.ts) and the validator.
//   dense (NODE_DENSE): the first byte of the first child, 3 bytes of padding, then one entry
//     per byte from it to the last child's first byte ("span" entries, 0 where no child
//     starts): the entry for c is at (c - first); chosen when it takes no more room than an
//     index, as for a run of digits
//   otherwise an index, then the entries in first-byte order:
//     1-16 children: their first bytes in 4 (1-4 children) or 16 bytes, found by one SIMD compare
//     17+ children:  a 256-bit bitmap of first bytes; the child's rank is a popcount
// An entry is a child's offset with its label length in the top byte (CHILD_LABEL_SHIFT), so
// a walk knows how far the child's label reaches before it has read the child.

import { NODE_COUNT_MASK, NODE_DENSE } from '../src/wasm/abi';

// @ts-ignore: decorator
@inline export function childIndexBytes(count: i32): i32 {
  return count == 0 ? 0 : count <= 4 ? 4 : count <= 16 ? 16 : 32;
}

/** Bytes of a dense child area of `span` entries. */
// @ts-ignore: decorator
@inline export function denseAreaBytes(span: i32): i32 {
  return 4 + 4 * span;
}

/** Bytes of an indexed child area of `count` children. */
// @ts-ignore: decorator
@inline export function indexedAreaBytes(count: i32): i32 {
  return childIndexBytes(count) + 4 * count;
}

/** Bytes of the child area of a node whose second word is `word`. */
// @ts-ignore: decorator
@inline export function childAreaBytes(word: u32): i32 {
  const count = <i32>(word & NODE_COUNT_MASK);
  return (word & NODE_DENSE) != 0 ? denseAreaBytes(count) : indexedAreaBytes(count);
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
 * The entry of the child whose first byte is `c`, or 0 when there is none, from the child
 * area at `area` of a node whose second word is `word`. Each kind of area finds the entry in
 * one branch.
 */
// @ts-ignore: decorator
@inline export function childEntry(area: usize, word: u32, c: u32): u32 {
  const count = <i32>(word & NODE_COUNT_MASK);
  if ((word & NODE_DENSE) != 0) {
    const d = c - <u32>load<u8>(area);
    return d < <u32>count ? load<u32>(area + 4 + (<usize>d << 2)) : 0;
  }
  if (count <= 16) {
    // The bytes past a 4-byte index are masked off with the ones past the count.
    const m = i8x16.bitmask(i8x16.eq(v128.load(area), i8x16.splat(<i8>c))) & ((1 << count) - 1);
    return m == 0 ? 0 : load<u32>(area + (count <= 4 ? 4 : 16) + (<usize>ctz(m) << 2));
  }
  const bits = load<u64>(area + ((c >> 6) << 3));
  const bit = c & 63;
  if (((bits >> bit) & 1) == 0) return 0;
  let rank = <i32>popcnt(bits & ((<u64>1 << bit) - 1));
  for (let w: u32 = 0; w < (c >> 6); w++) rank += <i32>popcnt(load<u64>(area + (w << 3)));
  return load<u32>(area + 32 + (<usize>rank << 2));
}
