// Phase 4b, key order: each key's gate (its least common byte pair, which the key pass looks
// for), the lazy keys (those the pass leaves to the rules that need them), and the filter's
// order of keys: keys of two or more bytes by the hash bucket of their gate pair, then the
// one-byte keys the pass looks for, then the lazy ones.

import { FILTER_MIN_BUCKET_BITS, GATE_HASH, MAX_LAZY_KEYS } from '../../src/wasm/abi';
import { getU32, getU64, setU32, setU64 } from '../words';
import { take } from './arena';
import { keyBytes, keyCount, keyHomes, keyLength } from './keys';
import { sortValues } from './sort';

// The filter's key order, as one u64 item per key: class (2 bits: keys of two or more bytes, the
// one-byte keys the pass looks for, lazy one-byte keys) | bucket (16 bits) | gate offset (28
// bits, capped: it only orders) | key number (18 bits).
const ORDER_CLASS_SHIFT: u64 = 62;
export const ORDER_BUCKET_SHIFT: u64 = 46;
export const ORDER_BUCKET_MASK: u64 = 0xffff;
export const ORDER_GATE_SHIFT: u64 = 18;
export const ORDER_INDEX_MASK: u64 = (1 << 18) - 1;
const GATE_SORT_MAX: u32 = (1 << 28) - 1;
const CLASS_MULTI: u64 = 0;
const CLASS_SINGLE: u64 = 1;
const CLASS_LAZY: u64 = 2;
/** No gate pair (pairs are 16 bits). */
export const NO_PAIR: u32 = 0xffffffff;

// What this phase hands on.
/** Per key: offset of its gate pair in it. */
export let gateOf: usize = 0;
/** Per key: its gate pair, or its one byte. */
export let pairOf: usize = 0;
/** The keys in the filter's order (ORDER_* items): filter index -> key number. */
export let keyOrder: usize = 0;
/** Per key: its index in the filter. */
export let rank: usize = 0;
/** Keys of two or more bytes: the filter's keys [0, multiKeys). */
export let multiKeys = 0;
/** With the one-byte keys the pass looks for: the filter's keys [0, passKeys). */
export let passKeys = 0;
export let bucketBits = 0;
/** The first two distinct gate pairs, and how many there are: at most two are compared exactly (FILTER_EXACT_GATES). */
export let pairA: u32 = NO_PAIR;
export let pairB: u32 = NO_PAIR;
export let distinctPairs = 0;
/** The most key work one candidate can cost the pass (match.ts, findKeys). */
export let bucketWork: u32 = 0;

/** Per key: 1 when the pass does not look for it (isLazy). */
let keyLazy: usize = 0;

/** Gate, laziness and filter order of the keys (see the top of this file). */
export function orderKeys(): void {
  findGates();
  chooseLazyKeys();
  multiKeys = 0;
  passKeys = 0;
  for (let i: u32 = 0; i < <u32>keyCount; i++) {
    if (isLazy(i)) continue;
    passKeys++;
    if (keyLength(i) >= 2) multiKeys++;
  }
  bucketBits = FILTER_MIN_BUCKET_BITS;
  while (bucketBits < 16 && (1 << bucketBits) < multiKeys * 4) bucketBits++;
  sortKeys();
  bucketWork = heaviestBucket();
  rank = take(<usize>keyCount << 2);
  for (let j = 0; j < keyCount; j++) setU32(rank, <i32>(getU64(keyOrder, j) & ORDER_INDEX_MASK), j);
}

/** A key the pass does not look for (see chooseLazyKeys). */
// @ts-ignore: decorator
@inline export function isLazy(key: u32): bool {
  return getU32(keyLazy, key) != 0;
}

function byteScore(c: u32): u8 {
  // How often a byte occurs in URL paths, roughly: the gate avoids frequent pairs.
  if (c == 0x2f) return 12; // '/'
  if (c == 0x2e || c == 0x2d) return 6; // . -
  if (c == 0x61 || c == 0x65 || c == 0x69 || c == 0x6f || c == 0x75) return 5; // vowels
  if (c == 0x3d || c == 0x26 || c == 0x5f) return 4; // = & _
  if (c == 0x3f) return 2; // '?': at most once in a path
  if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) return 3;
  return 1;
}

/** byteScore of every byte: a key's gate reads two per byte of the key. */
const BYTE_SCORES = memory.data(256);

/** Fills BYTE_SCORES (called once, before anything compiles). */
export function initByteScores(): void {
  for (let c: u32 = 0; c < 256; c++) store<u8>(BYTE_SCORES + c, byteScore(c));
}

/** byteScore of the pair's first byte plus its second's. */
// @ts-ignore: decorator
@inline function pairScore(first: u32, second: u32): i32 {
  return <i32>load<u8>(BYTE_SCORES + first) + <i32>load<u8>(BYTE_SCORES + second);
}

/** Offset of the least common byte pair of a key (0 for a one-byte key). */
function gateOffset(key: usize, len: i32): u32 {
  let best = 0;
  let bestScore = 0x7fffffff;
  for (let g = 0; g + 1 < len; g++) {
    const score = pairScore(load<u8>(key + g), load<u8>(key + g + 1));
    if (score < bestScore) {
      bestScore = score;
      best = g;
    }
  }
  return best;
}

/** Each key's gate offset and gate pair (its one byte for a one-byte key). */
function findGates(): void {
  gateOf = take(<usize>keyCount << 2);
  pairOf = take(<usize>keyCount << 2);
  for (let i: u32 = 0; i < <u32>keyCount; i++) {
    const key = keyBytes(i);
    const len = <i32>keyLength(i);
    const gate = gateOffset(key, len);
    setU32(gateOf, i, gate);
    setU32(pairOf, i, len >= 2 ? ((<u32>load<u8>(key + gate) << 8) | load<u8>(key + gate + 1)) : load<u8>(key));
  }
}

/**
 * Gate score (pairScore) from which a key that no rule hangs off is lazy: each of its byte
 * pairs holds a '/', so the pass would stop at most '/'s of most paths for it ("/?").
 */
const LAZY_GATE_SCORE = 12;

/**
 * Marks the lazy keys: keys no rule hangs off that most paths hold, which the pass leaves to the
 * rules that need them - one-byte keys, then keys whose gate is as common as a '/' - at most
 * MAX_LAZY_KEYS, so that a path looks for at most that many on its own.
 */
function chooseLazyKeys(): void {
  keyLazy = take(<usize>keyCount << 2);
  let lazy = 0;
  for (let round = 0; round < 2; round++) {
    for (let i: u32 = 0; i < <u32>keyCount; i++) {
      if (round == 0) setU32(keyLazy, i, 0);
      if (getU32(keyHomes, i) != 0 || lazy == MAX_LAZY_KEYS || isLazy(i)) continue;
      const pair = getU32(pairOf, i);
      const common = round == 0 ? keyLength(i) == 1 : keyLength(i) >= 2 && pairScore(pair >> 8, pair & 0xff) >= LAZY_GATE_SCORE;
      if (!common) continue;
      setU32(keyLazy, i, 1);
      lazy++;
    }
  }
}

/** keyOrder: the keys in the filter's order; and the first two distinct gate pairs. */
function sortKeys(): void {
  keyOrder = take(<usize>keyCount << 3);
  pairA = NO_PAIR;
  pairB = NO_PAIR;
  distinctPairs = 0;
  for (let i: u32 = 0; i < <u32>keyCount; i++) {
    const pair = getU32(pairOf, i);
    let bucket: u32 = 0;
    let kind = isLazy(i) ? CLASS_LAZY : CLASS_SINGLE;
    if (kind != CLASS_LAZY && keyLength(i) >= 2) {
      kind = CLASS_MULTI;
      bucket = (pair * GATE_HASH) >>> (32 - bucketBits);
      if (pair != pairA && pair != pairB) {
        distinctPairs++;
        if (pairA == NO_PAIR) pairA = pair;
        else if (pairB == NO_PAIR) pairB = pair;
      }
    }
    // Within a bucket, keys with the same gate offset (a run) stay in byte order (i is).
    const gate = getU32(gateOf, i);
    const gateBits: u64 = <u64>(gate < GATE_SORT_MAX ? gate : GATE_SORT_MAX);
    setU64(keyOrder, i, (kind << ORDER_CLASS_SHIFT) | (<u64>bucket << ORDER_BUCKET_SHIFT) | (gateBits << ORDER_GATE_SHIFT) | <u64>i);
  }
  sortValues(keyOrder, take(<usize>keyCount << 3), keyCount);
}

/** What a candidate costs findKeys in the heaviest bucket: a step per key, a step per 8 bytes compared. */
function heaviestBucket(): u32 {
  let heaviest: u32 = 0;
  let cost: u32 = 0;
  for (let j = 0; j < multiKeys; j++) {
    const sortKey = getU64(keyOrder, j);
    if (j > 0 && (sortKey >> ORDER_BUCKET_SHIFT) != (getU64(keyOrder, j - 1) >> ORDER_BUCKET_SHIFT)) cost = 0;
    cost += 1 + (keyLength(<u32>(sortKey & ORDER_INDEX_MASK)) >> 3);
    if (cost > heaviest) heaviest = cost;
  }
  return heaviest;
}
