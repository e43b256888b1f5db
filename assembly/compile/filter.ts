// Phases 6 and 7 for the key filter: its size, with the automata it carries when its pass can
// give up, and writing it: header, gate tables, buckets, keys, each key's rules and the
// segment records, automata (see the format).

import {
  AUTOMATA_MIN_KEYS, FILTER_AUTOMATA, FILTER_BUCKET_BITS, FILTER_BUCKETS_OFF, FILTER_EXACT_GATES, FILTER_GATE1_HI,
  FILTER_GATE1_LO, FILTER_GATE2_HI, FILTER_GATE2_LO, FILTER_KEY_COUNT, FILTER_KEYS_OFF, FILTER_LAZY, FILTER_SINGLE_HI,
  FILTER_SINGLE_LO, FILTER_SINGLES, FILTER_SINGLES_SIZE, FILTER_SIZE, FILTER_WORK_PER_BYTE, KEY_GATE, KEY_GATE_PAIR, KEY_LEN,
  KEY_POOL_OFF, KEY_RULE_ANCHORED, KEY_RULE_COUNT, KEY_RULE_RECORD, KEY_RULE_SIZE, KEY_RULE_STRENGTH, KEY_RULE_WORD,
  KEY_RULES_OFF, KEY_SHARED, KEY_SIZE, NO_KEY, SEGMENTS_COUNT, SEGMENTS_KEYS, SEGMENTS_LITERAL,
} from '../../src/wasm/abi';
import { AUTOMATON_INPUT_SIZE, automatonBytes, automatonNodes, setAutomatonInput, writeAutomaton } from '../automaton';
import { commonPrefix } from '../bytes';
import { addToRows, nibbleTablesOfRows } from '../scan';
import { getU32, getU64, setU32, setU64, u32At } from '../words';
import { take } from './arena';
import {
  bucketBits, bucketWork, distinctPairs, gateOf, isLazy, keyOrder, multiKeys, NO_PAIR, ORDER_BUCKET_MASK,
  ORDER_BUCKET_SHIFT, ORDER_GATE_SHIFT, ORDER_INDEX_MASK, pairA, pairB, pairOf, passKeys, rank,
} from './key-order';
import { keyBytes, keyCount, keyedRules, keyLength, keySeg, recordBytes, ruleHome, segKey } from './keys';
import { litLen, ruleAnchored, segFirst, segLen, segOwner, segPtr } from './shapes';
import { sortReversed } from './sort';
import { patternOf, poolOut } from './strength';

let forwardNodes = 0; // automaton sizes, 0 when the filter has none
let backwardNodes = 0;
let forwardInput: usize = 0; // AUTOMATON_INPUT_SIZE per key the pass looks for, in byte order
let backwardInput: usize = 0; // the same in the byte order of their reversed bytes

/** Bytes of the one-byte key tables: there only when the pass looks for one-byte keys. */
// @ts-ignore: decorator
@inline function singlesSize(): i32 {
  return passKeys > multiKeys ? FILTER_SINGLES_SIZE : 0;
}

/**
 * Bytes of the filter, with its automata: a filter has them when its pass can give up (a
 * bucket can cost more than FILTER_WORK_PER_BYTE at a candidate) and it has too many keys to
 * search for each instead.
 */
export function filterBytes(): i32 {
  const bytes = FILTER_SIZE + singlesSize() + 4 * ((1 << bucketBits) + 1) + KEY_SIZE * keyCount + KEY_RULE_SIZE * keyedRules + recordBytes;
  forwardNodes = 0;
  backwardNodes = 0;
  if (passKeys <= AUTOMATA_MIN_KEYS || bucketWork <= <u32>FILTER_WORK_PER_BYTE) return bytes;
  const keys = take(<usize>passKeys << 3);
  let n = 0;
  for (let i: u32 = 0; i < <u32>keyCount; i++) if (!isLazy(i)) setU64(keys, n++, i);
  forwardInput = automatonInput(keys, n);
  sortReversed(keys, take(<usize>passKeys << 3), n, keySeg, segPtr, segLen);
  backwardInput = automatonInput(keys, n);
  forwardNodes = automatonNodes(forwardInput, n, false);
  backwardNodes = automatonNodes(backwardInput, n, true);
  return bytes + automatonBytes(forwardNodes, keyCount) + automatonBytes(backwardNodes, keyCount);
}

/** The automaton module's view of the keys listed (as u64 items) in `order`. */
function automatonInput(order: usize, n: i32): usize {
  const input = take(<usize>n * AUTOMATON_INPUT_SIZE);
  for (let j = 0; j < n; j++) {
    const i = <u32>getU64(order, j);
    setAutomatonInput(input, j, keyBytes(i), keyLength(i), getU32(rank, i));
  }
  return input;
}

/** Writes the filter at `filterOffset` of the table at `out`, whose pool is at `poolOffset` (see the format). */
export function writeFilter(out: usize, filterOffset: i32, poolOffset: i32, m: i32): void {
  const filter = out + filterOffset;
  const bucketsOffset = filterOffset + FILTER_SIZE + singlesSize();
  const keysOffset = bucketsOffset + 4 * ((1 << bucketBits) + 1);
  store<u32>(filter + FILTER_KEY_COUNT, keyCount);
  store<u32>(filter + FILTER_KEYS_OFF, keysOffset);
  store<u32>(filter + FILTER_BUCKET_BITS, bucketBits);
  store<u32>(filter + FILTER_BUCKETS_OFF, bucketsOffset);
  store<u32>(filter + FILTER_SINGLES, multiKeys);
  store<u32>(filter + FILTER_LAZY, passKeys);
  writeKeys(out, filter, bucketsOffset, keysOffset, poolOffset);
  const recordsOffset = writeKeyRules(out, keysOffset + keyCount * KEY_SIZE, keysOffset, m);
  if (forwardNodes == 0) return;
  const forward = recordsOffset + recordBytes;
  store<u32>(filter + FILTER_AUTOMATA, forward);
  writeAutomaton(out + forward, forwardInput, passKeys, forwardNodes, keyCount, false);
  writeAutomaton(out + forward + automatonBytes(forwardNodes, keyCount), backwardInput, passKeys, backwardNodes, keyCount, true);
}

/** Writes the buckets, the key records and the gate tables of the filter at `filter`. */
function writeKeys(out: usize, filter: usize, bucketsOffset: i32, keysOffset: i32, poolOffset: i32): void {
  // The three byte sets, as 16 rows of 16 bits each.
  const gate1 = take(64);
  const gate2 = take(64);
  const single = take(64);
  memory.fill(gate1, 0, 64);
  memory.fill(gate2, 0, 64);
  memory.fill(single, 0, 64);
  let bucket = 0;
  for (let j = 0; j < keyCount; j++) {
    const sortKey = getU64(keyOrder, j);
    const i = <u32>(sortKey & ORDER_INDEX_MASK);
    if (j < multiKeys) {
      // Bucket starts: every bucket up to this key's begins at j or before.
      const b = <i32>((sortKey >> ORDER_BUCKET_SHIFT) & ORDER_BUCKET_MASK);
      while (bucket <= b) store<u32>(out + bucketsOffset + (<usize>(bucket++) << 2), j);
    }
    const s = getU32(keySeg, i);
    const owner = getU32(segOwner, s);
    const pair = getU32(pairOf, i);
    const key = out + keysOffset + <usize>j * KEY_SIZE;
    store<u32>(key + KEY_POOL_OFF, poolOffset + getU32(poolOut, owner) + <u32>(<usize>getU32(segPtr, s) - patternOf(owner)));
    store<u16>(key + KEY_LEN, keyLength(i));
    store<u16>(key + KEY_GATE, getU32(gateOf, i));
    store<u16>(key + KEY_GATE_PAIR, pair);
    store<u16>(key + KEY_SHARED, j > 0 && j < multiKeys ? sharedWithPrevious(j, sortKey) : 0);
    if (j < multiKeys) {
      addToRows(gate1, pair >> 8);
      addToRows(gate2, pair & 0xff);
    } else if (j < passKeys) {
      addToRows(single, pair);
    }
  }
  while (bucket <= (1 << bucketBits)) store<u32>(out + bucketsOffset + (<usize>(bucket++) << 2), multiKeys);
  writeGateTables(filter, gate1, gate2);
  if (singlesSize() != 0) nibbleTablesOfRows(single, filter + FILTER_SINGLE_LO, filter + FILTER_SINGLE_HI);
}

/**
 * Bytes the filter's key j (0 < j < multiKeys, order item `sortKey`) shares with key j - 1
 * when both are of one run (same bucket and gate offset), else 0.
 */
function sharedWithPrevious(j: i32, sortKey: u64): u32 {
  const previous = getU64(keyOrder, j - 1);
  const before = <u32>(previous & ORDER_INDEX_MASK);
  const i = <u32>(sortKey & ORDER_INDEX_MASK);
  if (previous >> ORDER_GATE_SHIFT != sortKey >> ORDER_GATE_SHIFT || getU32(gateOf, before) != getU32(gateOf, i)) return 0;
  return <u32>commonPrefix(keyBytes(before), keyBytes(i), min(<i32>keyLength(before), <i32>keyLength(i)));
}

/**
 * The gate tables: the pairs themselves (FILTER_EXACT_GATES) when the keys of two or more bytes
 * have one or two gate pairs, else nibble tables of the first and second gate bytes (rows).
 */
function writeGateTables(filter: usize, gate1: usize, gate2: usize): void {
  if (distinctPairs >= 1 && distinctPairs <= 2) {
    const second = pairB == NO_PAIR ? pairA : pairB;
    store<u32>(filter + FILTER_BUCKET_BITS, bucketBits | FILTER_EXACT_GATES);
    memory.fill(filter + FILTER_GATE1_LO, <u8>(pairA >> 8), 16);
    memory.fill(filter + FILTER_GATE1_HI, <u8>pairA, 16);
    memory.fill(filter + FILTER_GATE2_LO, <u8>(second >> 8), 16);
    memory.fill(filter + FILTER_GATE2_HI, <u8>second, 16);
  } else {
    nibbleTablesOfRows(gate1, filter + FILTER_GATE1_LO, filter + FILTER_GATE1_HI);
    nibbleTablesOfRows(gate2, filter + FILTER_GATE2_LO, filter + FILTER_GATE2_HI);
  }
}

/**
 * Writes the rules that hang off each key, in strength order, from `at` on, then the segment
 * records of those with more than one segment; returns where the records start.
 */
function writeKeyRules(out: usize, at: i32, keysOffset: i32, m: i32): i32 {
  // Count, then place.
  const counts = take(<usize>keyCount << 2);
  memory.fill(counts, 0, <usize>keyCount << 2);
  for (let k = 0; k < m; k++) {
    const home = getU32(ruleHome, k);
    if (home != NO_KEY) setU32(counts, getU32(rank, home), getU32(counts, getU32(rank, home)) + 1);
  }
  let ruleAt = at;
  for (let j = 0; j < keyCount; j++) {
    const key = out + keysOffset + <usize>j * KEY_SIZE;
    store<u32>(key + KEY_RULES_OFF, ruleAt);
    store<u32>(key + KEY_RULE_COUNT, 0);
    ruleAt += getU32(counts, j) * KEY_RULE_SIZE;
  }
  const recordsOffset = ruleAt;
  let recordAt = recordsOffset;
  for (let k = 0; k < m; k++) {
    const home = getU32(ruleHome, k);
    if (home == NO_KEY) continue;
    const key = out + keysOffset + <usize>getU32(rank, home) * KEY_SIZE;
    const n = u32At(key + KEY_RULE_COUNT);
    const entry = out + u32At(key + KEY_RULES_OFF) + n * KEY_RULE_SIZE;
    store<u32>(key + KEY_RULE_COUNT, n + 1);
    store<u32>(entry + KEY_RULE_STRENGTH, k);
    recordAt = writeRuleWord(out, entry, k, recordAt);
  }
  return recordsOffset;
}

/**
 * Writes the word of keyed rule `k`'s entry at `entry`: its literal length and anchor when its
 * one segment is its key, else the offset of its segment record, written at `recordAt`;
 * returns where the next record goes.
 */
function writeRuleWord(out: usize, entry: usize, k: i32, recordAt: i32): i32 {
  const first = getU32(segFirst, k);
  const count = getU32(segFirst, k + 1) - first;
  const anchored = getU32(ruleAnchored, k);
  if (count == 1) {
    store<u32>(entry + KEY_RULE_WORD, (getU32(litLen, k) << 2) | (anchored != 0 ? KEY_RULE_ANCHORED : 0));
    return recordAt;
  }
  store<u32>(entry + KEY_RULE_WORD, <u32>recordAt | KEY_RULE_RECORD);
  const record = out + recordAt;
  store<u32>(record + SEGMENTS_LITERAL, (getU32(litLen, k) << 1) | anchored);
  store<u32>(record + SEGMENTS_COUNT, count);
  for (let s: u32 = 0; s < count; s++) store<u32>(record + SEGMENTS_KEYS + (<usize>s << 2), getU32(rank, getU32(segKey, first + s)));
  return recordAt + SEGMENTS_KEYS + 4 * <i32>count;
}
