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

/** Orders the `m` rules by strength (see the top of this file). */
export function orderByStrength(m: i32): void {
  strengthPat = take(<usize>m << 2);
  litPtr = take(<usize>m << 2);
  poolOut = take(<usize>m << 2);
  // One u64 a rule: inverted pattern length (31 bits: any length a body can hold), then "not
  // allow", then the input number; the smallest is the strongest rule.
  const keys = take(<usize>m << 3);
  for (let i = 0; i < m; i++) {
    const notAllow: u64 = getU32(ruleAllow, i) != 0 ? 0 : 1;
    setU64(keys, i, ((<u64>(0x7fffffff - getU32(patLen, i))) << 33) | (notAllow << 32) | <u64>i);
  }
  sortValues(keys, take(<usize>m << 3), m);
  poolLength = 0;
  for (let k = 0; k < m; k++) {
    const rule = <u32>(getU64(keys, k) & 0xffffffff);
    setU32(strengthPat, k, rule);
    setU32(litPtr, k, <u32>(norm + getU32(patOff, rule)));
    setU32(poolOut, k, poolLength);
    poolLength += getU32(patLen, rule);
  }
}
