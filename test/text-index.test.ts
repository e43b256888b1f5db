// The text index (assembly/text-index.ts) against a brute-force search: the leftmost and the
// rightmost start of a key in [lo, hi], on random texts over small alphabets and on the texts
// that stress suffix sorting (runs, repeats, Fibonacci words).
import { describe, expect, it } from 'vitest';
import { kernel } from '../dist/wasm/kernel.js';
import { rng as seeded } from './support/random.js';

/** Every start of `key` in `text` at or after `lo` and at or before `hi`, by brute force. */
function starts(text: Uint8Array, key: Uint8Array, lo: number, hi: number): number[] {
  const found: number[] = [];
  for (let i = Math.max(0, lo); i <= Math.min(hi, text.length - key.length); i++) {
    let j = 0;
    while (j < key.length && text[i + j] === key[j]) j++;
    if (j === key.length) found.push(i);
  }
  return found;
}

/** The index of `text` built in kernel memory; find(key, lo, hi, last) asks it. */
function indexOf(text: Uint8Array): { find: (key: Uint8Array, lo: number, hi: number, last: boolean) => number; done: () => void } {
  const k = kernel();
  const textAt = k.heap.alloc(text.length + 64);
  const area = k.heap.alloc(k.fn.textIndexAreaBytes(text.length));
  const keyAt = k.heap.alloc(4096);
  k.u8.set(text, textAt);
  k.fn.textIndexBuild(textAt, text.length, area);
  return {
    find: (key, lo, hi, last) => {
      k.u8.set(key, keyAt);
      return k.fn.textIndexFind(keyAt, key.length, lo, hi, last ? 1 : 0);
    },
    done: () => [textAt, area, keyAt].forEach((at) => k.heap.free(at)),
  };
}

const bytes = (s: string) => new TextEncoder().encode(s);

/** Asserts the index's answers for `queries` random (key, lo, hi): keys are substrings of the text (often present) or random. */
function agreesWithBruteForce(text: Uint8Array, next: () => number, queries: number, alphabet: string): void {
  const index = indexOf(text);
  try {
    for (let q = 0; q < queries; q++) {
      const m = 1 + Math.floor(next() * 6);
      let key: Uint8Array;
      if (next() < 0.7 && text.length >= m) {
        const at = Math.floor(next() * (text.length - m + 1));
        key = text.slice(at, at + m);
      } else {
        key = bytes(Array.from({ length: m }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''));
      }
      const lo = Math.floor(next() * (text.length + 2)) - 1;
      const hi = lo + Math.floor(next() * (text.length + 2));
      const all = starts(text, key, lo, hi);
      expect(index.find(key, lo, hi, false), `first ${new TextDecoder().decode(key)} in [${lo}, ${hi}]`).toBe(all.length > 0 ? all[0] : -1);
      expect(index.find(key, lo, hi, true), `last ${new TextDecoder().decode(key)} in [${lo}, ${hi}]`).toBe(all.length > 0 ? all[all.length - 1] : -1);
    }
  } finally {
    index.done();
  }
}

function fibonacci(n: number): string {
  let a = 'b';
  let b = 'a';
  while (b.length < n) [a, b] = [b, b + a];
  return b.slice(0, n);
}

describe('text index: leftmost and rightmost start of a key in [lo, hi]', () => {
  it('concrete positions in a small text', () => {
    const index = indexOf(bytes('abracadabra'));
    try {
      expect(index.find(bytes('abra'), 0, 100, false)).toBe(0);
      expect(index.find(bytes('abra'), 1, 100, false)).toBe(7);
      expect(index.find(bytes('abra'), 1, 6, false)).toBe(-1);
      expect(index.find(bytes('abra'), 0, 100, true)).toBe(7);
      expect(index.find(bytes('abra'), 0, 6, true)).toBe(0);
      expect(index.find(bytes('a'), 4, 6, false)).toBe(5);
      expect(index.find(bytes('a'), 4, 6, true)).toBe(5);
      expect(index.find(bytes('a'), 8, 9, true)).toBe(-1);
      expect(index.find(bytes('ra'), 0, 100, true)).toBe(9);
      expect(index.find(bytes('abracadabrax'), 0, 100, false)).toBe(-1);
      expect(index.find(bytes('c'), 0, 3, false)).toBe(-1);
      expect(index.find(bytes('c'), 0, 4, false)).toBe(4);
    } finally {
      index.done();
    }
  });

  it('a run of one byte: the keys of it start everywhere but at its end', () => {
    const index = indexOf(bytes('b'.repeat(1000)));
    try {
      expect(index.find(bytes('bbbb'), 0, 2000, true)).toBe(996);
      expect(index.find(bytes('bbbb'), 500, 2000, false)).toBe(500);
      expect(index.find(bytes('bbbb'), 997, 2000, false)).toBe(-1);
      expect(index.find(bytes('bab'), 0, 2000, false)).toBe(-1);
    } finally {
      index.done();
    }
  });

  it('texts of one to three bytes', () => {
    for (const text of ['a', 'ab', 'ba', 'aa', 'aba', 'aab', 'bba', 'abc', 'cba']) {
      agreesWithBruteForce(bytes(text), seeded(text.length * 31 + text.charCodeAt(0)), 40, 'abc');
    }
  });

  it('random texts over alphabets of 1 to 4 bytes and 256', () => {
    const next = seeded(7);
    for (let round = 0; round < 60; round++) {
      const alphabet = round % 5 === 4 ? Array.from({ length: 256 }, (_, i) => String.fromCharCode(i)).join('') : 'abcd'.slice(0, 1 + (round % 4));
      const n = 1 + Math.floor(next() * 400);
      const text = round % 5 === 4 ? Uint8Array.from({ length: n }, () => Math.floor(next() * 256)) : bytes(Array.from({ length: n }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''));
      agreesWithBruteForce(text, next, 60, round % 5 === 4 ? 'abc' : alphabet);
    }
  });

  it('adversarial texts: runs, repeats, Fibonacci words, the key-bait shape', () => {
    const next = seeded(11);
    const texts = [
      'ab'.repeat(300),
      'aab'.repeat(200) + 'a'.repeat(100),
      fibonacci(700),
      `${'xyz'.repeat(50)}a${'b'.repeat(500)}d${'xyz'.repeat(50)}`,
      'abcabcabd'.repeat(60),
      `${'a'.repeat(256)}b${'a'.repeat(255)}`,
    ];
    for (const text of texts) agreesWithBruteForce(bytes(text), next, 300, 'abdxyz');
  });

  it('area: linear in the text, about 15 bytes a byte', () => {
    const k = kernel();
    expect(k.fn.textIndexAreaBytes(1 << 20) / (1 << 20)).toBeLessThan(16);
    expect(k.fn.textIndexAreaBytes(1000)).toBeLessThan(20_000);
  });
});
