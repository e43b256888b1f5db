// Phase 2, strength: the rules in strength order (longest pattern first, allow before disallow
// at equal length, then input order). A rule's index in it is its strength number, by which
// every later phase and the table know it; the pool holds the patterns in this order.

import { getU32, getU64, setU32, setU64 } from '../words';
import { take } from './arena';
import { sortValues } from './sort';
import { norm, patLen, patOff, ruleAllow } from './patterns';

// What this phase hands on, per strength number (u32 arrays in the work area).
/** The rule's input number. */
export let strengthPat: usize = 0;
/** Address of the rule's pattern. */
export let litPtr: usize = 0;
/** Offset of the rule's pattern in the table's pool. */
export let poolOut: usize = 0;
/** Bytes of the pool. */
export let poolLength: u32 = 0;

/** Address of the pattern of the rule of strength number `k`. */
// @ts-ignore: decorator
@inline export function patternOf(k: u32): usize {
  return <usize>getU32(litPtr, k);
}

/** Length of the pattern of the rule of strength number `k`. */
// @ts-ignore: decorator
@inline export function patternLength(k: u32): i32 {
  return <i32>getU32(patLen, getU32(strengthPat, k));
}

/**
 * Strength slots (u32 each) the counting sort may take, per input rule and in all
 * (compileWorkBytes reserves them); past that, the merge sort orders the rules.
 */
export const STRENGTH_SLOTS_PER_RULE = 16;
export const STRENGTH_SLOTS_SLACK = 256;

/** Orders the `m` rules of the `ruleCount` input rules by strength (see the top of this file). */
export function orderByStrength(m: i32, ruleCount: i32): void {
  strengthPat = take(<usize>m << 2);
  litPtr = take(<usize>m << 2);
  poolOut = take(<usize>m << 2);
  let maxLen = 0;
  for (let i = 0; i < m; i++) maxLen = max(maxLen, <i32>getU32(patLen, i));
  // Both sorts order alike. The counting sort's time grows with the longest pattern, the merge
  // sort's with m log m, which is the larger for a file of many rules of ordinary lengths.
  if ((maxLen + 1) * 2 <= STRENGTH_SLOTS_PER_RULE * ruleCount + STRENGTH_SLOTS_SLACK) countingSort(m, maxLen);
  else mergeSort(m);
  poolLength = 0;
  for (let k = 0; k < m; k++) {
    const rule = getU32(strengthPat, k);
    setU32(litPtr, k, <u32>(norm + getU32(patOff, rule)));
    setU32(poolOut, k, poolLength);
    poolLength += getU32(patLen, rule);
  }
}

/** A rule's slot in the counting sort: longer patterns first, then allow first. */
// @ts-ignore: decorator
@inline function strengthSlot(maxLen: i32, len: u32, allow: u32): i32 {
  return ((maxLen - <i32>len) << 1) | (allow != 0 ? 0 : 1);
}

/** Fills strengthPat by a counting sort into slots by (length, kind), input order within a slot. */
function countingSort(m: i32, maxLen: i32): void {
  const slots = (maxLen + 1) * 2;
  const next = take(<usize>slots << 2);
  for (let j = 0; j < slots; j++) setU32(next, j, 0);
  for (let i = 0; i < m; i++) {
    const slot = strengthSlot(maxLen, getU32(patLen, i), getU32(ruleAllow, i));
    setU32(next, slot, getU32(next, slot) + 1);
  }
  let at: u32 = 0;
  for (let j = 0; j < slots; j++) {
    const count = getU32(next, j);
    setU32(next, j, at);
    at += count;
  }
  for (let i = 0; i < m; i++) {
    const slot = strengthSlot(maxLen, getU32(patLen, i), getU32(ruleAllow, i));
    const k = <i32>getU32(next, slot);
    setU32(next, slot, k + 1);
    setU32(strengthPat, k, i);
  }
}

/**
 * Fills strengthPat by a merge sort of one u64 a rule: inverted pattern length (31 bits: any
 * length a body can hold), then "not allow", then the input number; the smallest is the
 * strongest rule.
 */
function mergeSort(m: i32): void {
  const keys = take(<usize>m << 3);
  for (let i = 0; i < m; i++) {
    const notAllow: u64 = getU32(ruleAllow, i) != 0 ? 0 : 1;
    setU64(keys, i, ((<u64>(0x7fffffff - getU32(patLen, i))) << 33) | (notAllow << 32) | <u64>i);
  }
  sortValues(keys, take(<usize>m << 3), m);
  for (let k = 0; k < m; k++) setU32(strengthPat, k, <u32>(getU64(keys, k) & 0xffffffff));
}
