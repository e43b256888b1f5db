// Where each key of a filter occurs in the path being checked: whether it does, and its first
// and last start. Written by the key pass (match.ts, findKeys), or past its budget by the
// automata (automaton.ts) or one search per key; read when rules are placed (match.ts). Sized
// for MAX_FILTER_KEYS keys; only the occurrence bits are cleared per path, and a key's
// positions are read only when its bit is set.

import { MAX_FILTER_KEYS } from '../src/wasm/abi';

const OCCURRED = memory.data(MAX_FILTER_KEYS / 8);
// Per key: first start (i32), last start (i32).
const POSITIONS = memory.data(MAX_FILTER_KEYS * 8);

// @ts-ignore: decorator
@inline function bitWord(k: u32): usize {
  return OCCURRED + (<usize>(k >>> 5) << 2);
}

/** Whether any key was marked since the last clearOccurrences. */
let anyMarked = false;

/** Clears the occurrence bits of keys [0, keyCount). */
// @ts-ignore: decorator
@inline export function clearOccurrences(keyCount: i32): void {
  // A store per 64 keys: memory.fill is a call out of the module, and most filters have few keys.
  for (let w = 0; w < keyCount; w += 64) store<u64>(OCCURRED + (<usize>w >>> 3), 0);
  anyMarked = false;
}

/** Whether any key was marked since the last clearOccurrences. */
// @ts-ignore: decorator
@inline export function anyOccurred(): bool {
  return anyMarked;
}

/** Whether key `k` was marked since the last clearOccurrences. */
// @ts-ignore: decorator
@inline export function hasOccurred(k: u32): bool {
  return (load<u32>(bitWord(k)) & (<u32>1 << (k & 31))) != 0;
}

/** The bits of keys [w, w + 32) (w a multiple of 32). */
// @ts-ignore: decorator
@inline export function occurredWord(w: i32): u32 {
  return load<u32>(OCCURRED + (<usize>w >>> 3));
}

// @ts-ignore: decorator
@inline export function firstAt(k: u32): i32 {
  return load<i32>(POSITIONS + (<usize>k << 3));
}

// @ts-ignore: decorator
@inline export function lastAt(k: u32): i32 {
  return load<i32>(POSITIONS + (<usize>k << 3) + 4);
}

/** Key `k` occurs at `start`, found in order of position: the first such call sets its first start. */
// @ts-ignore: decorator
@inline export function markOccurrence(k: u32, start: i32): void {
  const word = bitWord(k);
  const bit = <u32>1 << (k & 31);
  const bits = load<u32>(word);
  if ((bits & bit) == 0) {
    store<u32>(word, bits | bit);
    store<i32>(POSITIONS + (<usize>k << 3), start);
    anyMarked = true;
  }
  store<i32>(POSITIONS + (<usize>k << 3) + 4, start);
}

/** Key `k` occurs first at `first`; its last start is set later (setLast), -1 until then. */
// @ts-ignore: decorator
@inline export function markFirst(k: u32, first: i32): void {
  store<u32>(bitWord(k), load<u32>(bitWord(k)) | (<u32>1 << (k & 31)));
  store<i32>(POSITIONS + (<usize>k << 3), first);
  store<i32>(POSITIONS + (<usize>k << 3) + 4, -1);
  anyMarked = true;
}

// @ts-ignore: decorator
@inline export function setLast(k: u32, last: i32): void {
  store<i32>(POSITIONS + (<usize>k << 3) + 4, last);
}
