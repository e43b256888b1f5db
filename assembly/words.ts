// The kernel's u32 and u64 loads and stores, one name for each use: u32At reads a word at an
// address (a field of a table image, a filter, a node); getU32/setU32 and getU64/setU64 read
// and write element i of an array of them (the compiler's work arrays, an automaton's arrays).

/** The u32 at address `p`. */
// @ts-ignore: decorator
@inline export function u32At(p: usize): u32 {
  return load<u32>(p);
}

/** Element `i` of the u32 array at `array`. */
// @ts-ignore: decorator
@inline export function getU32(array: usize, i: i32): u32 {
  return load<u32>(array + (<usize>i << 2));
}

// @ts-ignore: decorator
@inline export function setU32(array: usize, i: i32, value: u32): void {
  store<u32>(array + (<usize>i << 2), value);
}

/** Element `i` of the u64 array at `array`. */
// @ts-ignore: decorator
@inline export function getU64(array: usize, i: i32): u64 {
  return load<u64>(array + (<usize>i << 3));
}

// @ts-ignore: decorator
@inline export function setU64(array: usize, i: i32, value: u64): void {
  store<u64>(array + (<usize>i << 3), value);
}
