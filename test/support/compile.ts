// Compiling pattern strings straight into a matcher's full table, for tests that compare the
// kernel with brute force on exact pattern bytes (google mode leaves ASCII patterns as they are).
import { compiledRules } from '../../src/compile/table.js';
import { matcherOf, type Matcher } from '../../src/matcher.js';
import type { Mode } from '../../src/robots/options.js';
import { GROUP_WORDS, HEADER_WORDS, RULE_WORDS } from '../../src/robots/layout.js';
import type { RobotsStructure } from '../../src/robots/structure.js';
import { kernel } from '../../src/wasm/kernel.js';

export interface PatternRule {
  line: number;
  allow: boolean;
  pattern: string;
}

export function compilePatterns(rules: readonly PatternRule[], mode: Mode = 'google'): Matcher {
  // One group (line 0, no agents) holding the rules, their values back to back.
  const values = Buffer.from(rules.map((r) => r.pattern).join('')).toString('latin1');
  const words = new Int32Array(HEADER_WORDS + RULE_WORDS * rules.length + 1 + GROUP_WORDS);
  words.set([rules.length, 1, 0, 0, 0]);
  let at = 0;
  rules.forEach((r, i) => {
    words[HEADER_WORDS + RULE_WORDS * i] = at;
    words[HEADER_WORDS + RULE_WORDS * i + 1] = 2 * r.line + (r.allow ? 1 : 0);
    at += new TextEncoder().encode(r.pattern).length;
  });
  const groupAt = HEADER_WORDS + RULE_WORDS * rules.length;
  words[groupAt] = at;
  words.set([0, 0, 0, -1, -1], groupAt + 1);
  const units = new Uint16Array(2 * words.length);
  words.forEach((w, i) => units.set([w & 0xffff, w >>> 16], 2 * i));
  const structure: RobotsStructure = { values, words: String.fromCharCode(...units), wide: true, tokens: '' };
  // The full table from the first check: these tests hold the trie and the key filter to brute force.
  const source = compiledRules(structure, [0], mode);
  source.upgrade?.();
  return matcherOf(source);
}

/** The kernel's two-way search: leftmost index >= from of `needle` in `haystack`, or -1. */
export function kernelTwoWay(haystack: Uint8Array, from: number, needle: Uint8Array): number {
  const k = kernel();
  const at = k.scratch(haystack.length + needle.length + 64);
  k.u8.set(haystack, at);
  k.u8.set(needle, at + haystack.length);
  return k.fn.twoWaySearch(at, from, haystack.length, at + haystack.length, needle.length);
}

/**
 * The kernel's backward searches: the rightmost index >= from of `needle` in `haystack`, or -1,
 * by the two-way algorithm run backwards (`twoWay`) or by lastIndexOfSegment.
 */
export function kernelLastIndexOf(haystack: Uint8Array, from: number, needle: Uint8Array, twoWay: boolean): number {
  const k = kernel();
  const at = k.scratch(haystack.length + needle.length + 64) + 16;
  k.u8.set(haystack, at);
  k.u8.set(needle, at + haystack.length);
  const search = twoWay ? k.fn.twoWaySearchBackward : k.fn.lastIndexOfSegment;
  return search(at, from, haystack.length, at + haystack.length, needle.length);
}

/**
 * The kernel's key filter counts so far: paths whose key pass gave up, keyed rules placed,
 * segments searched for again after their first occurrence, text indexes built.
 */
export function keyFilterCounts(): { passesGivenUp: number; rulesPlaced: number; searches: number; indexesBuilt: number } {
  const k = kernel();
  return { passesGivenUp: k.fn.keyFilterCount(0), rulesPlaced: k.fn.keyFilterCount(1), searches: k.fn.keyFilterCount(2), indexesBuilt: k.fn.keyFilterCount(3) };
}

/** The kernel's nibble tables for a byte set: [lo, hi]. */
export function kernelNibbleTables(set: Iterable<number>): { lo: Uint8Array; hi: Uint8Array } {
  const k = kernel();
  const at = k.scratch(256 + 32);
  k.u8.fill(0, at, at + 256);
  for (const b of set) k.u8[at + b] = 1;
  k.fn.nibbleTables(at, at + 256, at + 272);
  return { lo: k.u8.slice(at + 256, at + 272), hi: k.u8.slice(at + 272, at + 288) };
}
