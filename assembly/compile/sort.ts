// The compiler's one sort: a stable merge sort of u64 items, in three orders - by value (the
// strength order, the filter's key order), by bytes (literal parts, segments) and by reversed
// bytes (keys, for the backward automaton). The arrays an order reads are parameters, so that
// the sort knows nothing of the phases that call it.

import { getU32, getU64, setU64 } from '../words';

/** Byte order of a[0, aLen) and b[0, bLen), 8 bytes per step (patterns share long prefixes). */
// @ts-ignore: decorator
@inline function compareBytes(a: usize, aLen: i32, b: usize, bLen: i32): i32 {
  const n = aLen < bLen ? aLen : bLen;
  let i = 0;
  for (; i + 8 <= n; i += 8) {
    const x = load<u64>(a + i);
    const y = load<u64>(b + i);
    if (x != y) {
      // The first differing byte is the lowest one (little-endian loads).
      const shift = ctz(x ^ y) & ~7;
      return <i32>((x >> shift) & 0xff) - <i32>((y >> shift) & 0xff);
    }
  }
  for (; i < n; i++) {
    const d = <i32>load<u8>(a + i) - <i32>load<u8>(b + i);
    if (d != 0) return d;
  }
  return aLen - bLen;
}

/** compareBytes of a[0, aLen) and b[0, bLen) read from their last byte back. */
function compareReversed(a: usize, aLen: i32, b: usize, bLen: i32): i32 {
  const n = aLen < bLen ? aLen : bLen;
  for (let i = 1; i <= n; i++) {
    const d = <i32>load<u8>(a + aLen - i) - <i32>load<u8>(b + bLen - i);
    if (d != 0) return d;
  }
  return aLen - bLen;
}

/**
 * The first 8 of the `len` bytes at `p`, big-endian and zero-padded: as u64s, these prefixes
 * sort in byte order (byPrefixed). Reads 8 bytes whatever `len` (the caller leaves slack).
 */
// @ts-ignore: decorator
@inline export function bytePrefix(p: usize, len: u32): u64 {
  let x = load<u64>(p);
  if (len < 8) x &= (<u64>1 << (<u64>len << 3)) - 1;
  return bswap<u64>(x);
}

/**
 * Byte order of items a and b whose first 8 bytes are in `prefixes` (bytePrefix, u64 each),
 * lengths in `lengths` and addresses in `pointers`: the prefixes decide most comparisons;
 * patterns hold no zero byte, so zero padding sorts a shorter item before its extensions.
 */
// @ts-ignore: decorator
@inline export function byPrefixed(prefixes: usize, lengths: usize, pointers: usize, a: u32, b: u32): i32 {
  const ka = load<u64>(prefixes + (<usize>a << 3));
  const kb = load<u64>(prefixes + (<usize>b << 3));
  if (ka != kb) return ka < kb ? -1 : 1;
  const la = <i32>getU32(lengths, a);
  const lb = <i32>getU32(lengths, b);
  if (la <= 8 || lb <= 8) return la - lb;
  return compareBytes(<usize>getU32(pointers, a) + 8, la - 8, <usize>getU32(pointers, b) + 8, lb - 8);
}

/** Items a and b in the byte order of their reversed bytes: item i's bytes are those of entry index[i] of pointers and lengths. */
// @ts-ignore: decorator
@inline function byReversed(index: usize, pointers: usize, lengths: usize, a: u32, b: u32): i32 {
  const sa = getU32(index, a);
  const sb = getU32(index, b);
  return compareReversed(<usize>getU32(pointers, sa), <i32>getU32(lengths, sa), <usize>getU32(pointers, sb), <i32>getU32(lengths, sb));
}

const BY_VALUE = 0;
const BY_PREFIXED = 1;
const BY_REVERSED = 2;

// @ts-ignore: decorator
@inline function compare(order: i32, a: u64, b: u64, x: usize, y: usize, z: usize): i32 {
  if (order == BY_VALUE) return a < b ? -1 : a > b ? 1 : 0;
  return order == BY_PREFIXED ? byPrefixed(x, y, z, <u32>a, <u32>b) : byReversed(x, y, z, <u32>a, <u32>b);
}

/** Sorts `n` u64 items ascending; `tmp` holds n items. */
export function sortValues(items: usize, tmp: usize, n: i32): void {
  mergeSort(items, tmp, n, BY_VALUE, 0, 0, 0);
}

/** Sorts `n` item numbers (as u64 items) in the byte order of byPrefixed. */
export function sortPrefixed(items: usize, tmp: usize, n: i32, prefixes: usize, lengths: usize, pointers: usize): void {
  mergeSort(items, tmp, n, BY_PREFIXED, prefixes, lengths, pointers);
}

/** Sorts `n` item numbers (as u64 items) in the byte order of their reversed bytes (see byReversed). */
export function sortReversed(items: usize, tmp: usize, n: i32, index: usize, pointers: usize, lengths: usize): void {
  mergeSort(items, tmp, n, BY_REVERSED, index, pointers, lengths);
}

/**
 * Stable merge sort of u64 items (insertion sort of runs of 16, then bottom-up merges);
 * inlined into the sort* functions so that `order` is a constant there.
 */
// @ts-ignore: decorator
@inline function mergeSort(items: usize, tmp: usize, n: i32, order: i32, x: usize, y: usize, z: usize): void {
  for (let lo = 0; lo < n; lo += 16) {
    const hi = lo + 16 < n ? lo + 16 : n;
    for (let i = lo + 1; i < hi; i++) {
      const v = getU64(items, i);
      let j = i - 1;
      while (j >= lo && compare(order, getU64(items, j), v, x, y, z) > 0) {
        setU64(items, j + 1, getU64(items, j));
        j--;
      }
      setU64(items, j + 1, v);
    }
  }
  let src = items;
  let dst = tmp;
  for (let width = 16; width < n; width <<= 1) {
    for (let lo = 0; lo < n; lo += width << 1) {
      const mid = lo + width < n ? lo + width : n;
      const hi = lo + (width << 1) < n ? lo + (width << 1) : n;
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        const a = getU64(src, i);
        const b = getU64(src, j);
        if (compare(order, b, a, x, y, z) < 0) {
          setU64(dst, k++, b);
          j++;
        } else {
          setU64(dst, k++, a);
          i++;
        }
      }
      while (i < mid) setU64(dst, k++, getU64(src, i++));
      while (j < hi) setU64(dst, k++, getU64(src, j++));
    }
    const swap = src;
    src = dst;
    dst = swap;
  }
  if (src != items) memory.copy(items, src, <usize>n << 3);
}
