// Phase 1, patterns: every rule's pattern normalised (normalize.ts), and the rules that can
// decide numbered in input order ("input numbers"). An empty pattern never decides and is
// dropped; google mode adds the index.htm variant of an Allow as a rule of its own.

import { GROUP_IN_END, GROUP_IN_FIRST, GROUP_IN_SIZE } from '../../src/wasm/abi';
import { RULE_LINE_ALLOW, RULE_VALUE, RULE_WORDS } from '../../src/robots/layout';
import { normalizeInto } from '../normalize';
import { NORMALIZE_PATTERN_GOOGLE, NORMALIZE_PATTERN_RFC } from '../../src/wasm/abi';
import { findLastByte } from '../scan';
import { setU32, u32At } from '../words';
import { take } from './arena';

// What this phase hands on, per input number (u32 arrays in the work area).
/** Offset of the normalised pattern in `norm`. */
export let patOff: usize = 0;
export let patLen: usize = 0;
/** 1 for an Allow. */
export let ruleAllow: usize = 0;
/** The rule's line, which the table keeps for the caller. */
export let ruleLine: usize = 0;
/** 1 for google mode's index.htm variant (RULE_KIND_DERIVED_BIT). */
export let ruleDerived: usize = 0;
/** The normalised patterns, with slack past the last for 8-byte reads. */
export let norm: usize = 0;
/** Bytes of `norm` used. */
export let normUsed: u32 = 0;

// The compiler's input (src/wasm/abi.ts), set by useInput: the kept values from offset
// `inBase` at `inBody`, the rules' words at `inWords` (u32s when `inWide`, else u16s), and
// `inGroupCount` groups at `inGroups`.
let inBody: usize = 0;
let inWide = true;
let inBase: u32 = 0;
let inWords: usize = 0;
let inGroups: usize = 0;
let inGroupCount: i32 = 0;

/** Sets the input the phase reads (see the globals above). */
export function useInput(body: usize, base: u32, words: usize, wide: bool, groups: usize, groupCount: i32): void {
  inBody = body;
  inWide = wide;
  inBase = base;
  inWords = words;
  inGroups = groups;
  inGroupCount = groupCount;
}

// @ts-ignore: decorator
@inline function ruleWord(r: u32, field: u32): u32 {
  const w = <usize>r * RULE_WORDS + field;
  return inWide ? u32At(inWords + (w << 2)) : <u32>load<u16>(inWords + (w << 1));
}

// @ts-ignore: decorator
@inline function groupFirst(g: i32): u32 {
  return u32At(inGroups + <usize>g * GROUP_IN_SIZE + GROUP_IN_FIRST);
}

// @ts-ignore: decorator
@inline function groupEnd(g: i32): u32 {
  return u32At(inGroups + <usize>g * GROUP_IN_SIZE + GROUP_IN_END);
}

/** Bytes of the input's values: a group's rules' values are back to back. */
export function inputBytes(): i32 {
  let total = 0;
  for (let g = 0; g < inGroupCount; g++) {
    total += <i32>(ruleWord(groupEnd(g), RULE_VALUE) - ruleWord(groupFirst(g), RULE_VALUE));
  }
  return total;
}

/**
 * Normalises the patterns of the input's `ruleCount` rules (`totalIn` bytes of values in all);
 * returns how many rules can decide.
 */
export function normalizePatterns(ruleCount: i32, rfc: bool, totalIn: i32): i32 {
  const maxRules = ruleCount * 2; // each rule and its index.htm variant
  patOff = take(<usize>maxRules << 2);
  patLen = take(<usize>maxRules << 2);
  ruleAllow = take(<usize>maxRules << 2);
  ruleLine = take(<usize>maxRules << 2);
  ruleDerived = take(<usize>maxRules << 2);
  norm = take(<usize>(6 * totalIn + ruleCount + 16));
  normUsed = 0;
  let m = 0;
  const how = rfc ? NORMALIZE_PATTERN_RFC : NORMALIZE_PATTERN_GOOGLE;
  const body = inBody - inBase;
  for (let g = 0; g < inGroupCount; g++) {
    for (let r = groupFirst(g), end = groupEnd(g); r < end; r++) {
      const start = ruleWord(r, RULE_VALUE);
      const n = normalizeInto(body + start, <i32>(ruleWord(r + 1, RULE_VALUE) - start), norm + normUsed, how);
      if (n == 0) continue;
      const lineAllow = ruleWord(r, RULE_LINE_ALLOW);
      const allow = lineAllow & 1;
      const line = lineAllow >>> 1;
      addRule(m++, normUsed, n, allow, line, 0);
      normUsed += <u32>n;
      if (!rfc && allow != 0) {
        const variant = addIndexHtmVariant(normUsed - <u32>n, n);
        if (variant > 0) {
          addRule(m++, normUsed, variant, 1, line, 1);
          normUsed += <u32>variant;
        }
      }
    }
  }
  return m;
}

// @ts-ignore: decorator
@inline function addRule(i: i32, at: u32, len: i32, allow: u32, line: u32, derived: u32): void {
  setU32(patOff, i, at);
  setU32(patLen, i, len);
  setU32(ruleAllow, i, allow);
  setU32(ruleLine, i, line);
  setU32(ruleDerived, i, derived);
}

/**
 * Google mode's index.htm rule: the reference retries an Allow whose last segment starts with
 * "/index.htm" as "<dir>/$" (allowing the directory itself); as an extra rule it decides
 * exactly when the retry would. Writes that pattern after the `n`-byte Allow pattern at
 * norm + at and returns its length, or 0 when the Allow has no such segment.
 */
function addIndexHtmVariant(at: u32, n: i32): i32 {
  const p = norm + at;
  const slash = findLastByte(p, 0, n, 0x2f);
  if (slash < 0 || !isIndexHtm(p + slash, n - slash)) return 0;
  const variant = p + n;
  memory.copy(variant, p, slash + 1);
  store<u8>(variant + slash + 1, 0x24);
  return slash + 2;
}

/** The bytes at p (n of them) start with "/index.htm". */
function isIndexHtm(p: usize, n: i32): bool {
  if (n < 10) return false;
  const text = memory.data<u8>([0x2f, 0x69, 0x6e, 0x64, 0x65, 0x78, 0x2e, 0x68, 0x74, 0x6d]);
  return memory.compare(p, text, 10) == 0;
}
