// WebAssembly memory: blocks are freed and reused, so memory stops growing.
import { describe, expect, it } from 'vitest';
import { Matcher, normalizePath, RobotsTxt, wasmMemoryStats } from '../src/index.js';
import { Heap } from '../src/wasm/memory.js';

describe('Heap', () => {
  function heap(pages = 1) {
    const memory = new WebAssembly.Memory({ initial: pages });
    let grows = 0;
    return { heap: new Heap(memory, 1024, () => grows++), grows: () => grows, memory };
  }

  it('hands out aligned, disjoint blocks and reuses freed ones', () => {
    const { heap: h } = heap();
    const a = h.alloc(10);
    const b = h.alloc(100);
    expect(a % 16).toBe(0);
    expect(b % 16).toBe(0);
    expect(b).toBeGreaterThanOrEqual(a + 16);
    h.free(a);
    expect(h.alloc(16)).toBe(a);
  });

  it('coalesces neighbours so a freed run serves a larger request', () => {
    const { heap: h } = heap();
    const blocks = [h.alloc(64), h.alloc(64), h.alloc(64)];
    const after = h.alloc(64);
    for (const block of blocks) h.free(block);
    expect(h.alloc(192)).toBe(blocks[0]);
    expect(h.stats().liveBlocks).toBe(2);
    h.free(after);
  });

  it('grows the memory when nothing fits, and reports it', () => {
    const { heap: h, grows, memory } = heap();
    const big = h.alloc(200_000);
    expect(grows()).toBe(1);
    expect(memory.buffer.byteLength).toBeGreaterThanOrEqual(big + 200_000);
  });

  it('refuses a size that is not a non-negative integer, or more than the limit, before changing anything', () => {
    const { heap: h } = heap();
    const a = h.alloc(100);
    const before = h.stats();
    for (const size of [2 ** 31, 2 ** 31 + 8, 2 ** 32 + 1, 2.16e9, Infinity, NaN, -16, 1.5]) {
      expect(() => h.alloc(size)).toThrow(RangeError);
      expect(h.stats()).toEqual(before);
    }
    h.limit = 2 ** 32;
    expect(() => h.alloc(2 ** 32 + 16)).toThrow(/4294967312 bytes asked for, more than the WebAssembly memory limit of 4294967296 bytes/);
    // The free list was left whole: the next block follows the first.
    expect(h.alloc(16)).toBe(a + 112);
  });

  it('shrink returns a tail; double free and unknown pointers throw', () => {
    const { heap: h } = heap();
    const a = h.alloc(1000);
    h.shrink(a, 100);
    expect(h.sizeOf(a)).toBe(112);
    expect(h.alloc(800)).toBe(a + 112);
    h.free(a);
    expect(() => h.free(a)).toThrow(/unknown block/);
    expect(() => h.free(12345)).toThrow(/unknown block/);
  });
});

describe('compiled tables', () => {
  it('parsing and dropping thousands of files keeps WebAssembly memory flat', () => {
    const make = (i: number) =>
      `user-agent: *\n${Array.from({ length: 20 + (i % 50) }, (_, r) => `disallow: /p${i}/${r}/*.x$`).join('\n')}\n`;
    const cycle = (from: number) => {
      for (let i = from; i < from + 1000; i++) {
        const robots = RobotsTxt.parse(make(i));
        expect(robots.isAllowed(`/p${i}/3/a.x`, 'Bot')).toBe(false);
        robots.dispose();
      }
    };
    cycle(0);
    const warm = wasmMemoryStats();
    for (let round = 1; round <= 5; round++) cycle(round * 1000);
    const after = wasmMemoryStats();
    expect(after.memoryBytes).toBe(warm.memoryBytes);
    expect(after.usedBytes).toBeLessThanOrEqual(warm.usedBytes);
  });

  it('a large file compiles in scratch memory that is given back afterwards', () => {
    const rules = Array.from({ length: 20_000 }, (_, r) => `disallow: /section-${r}/page`).join('\n');
    const before = wasmMemoryStats().usedBytes;
    const robots = RobotsTxt.parse(`user-agent: *\n${rules}\n`, { maxBytes: Infinity });
    const matcher = robots.matcher('Bot');
    expect(matcher.isAllowed('/section-19999/page')).toBe(false);
    expect(matcher.isAllowed('/section-20000/page')).toBe(true);
    robots.dispose();
    // The compiler's work area for 20,000 rules is over 12 MiB; at most 8 MiB of scratch stays.
    expect(wasmMemoryStats().usedBytes - before).toBeLessThanOrEqual(8 * 1024 * 1024);
  });

  it('single-URL checks stay right after the memory grows under them', () => {
    const matcher = RobotsTxt.parse('user-agent: *\ndisallow: /private\n').matcher('Bot');
    const check = () => [matcher.isAllowed('https://a.example/private/x'), matcher.isAllowed('https://a.example/public')];
    expect(check()).toEqual([false, true]);
    // Tables loaded from an image take new blocks and leave the scratch block where it is.
    const rules = Array.from({ length: 5000 }, (_, r) => `disallow: /section-${r}/page`).join('\n');
    const big = RobotsTxt.parse(`user-agent: *\n${rules}\n`).matcher('Bot');
    const image = big.toBytes();
    const start = wasmMemoryStats().memoryBytes;
    const copies: Matcher[] = [];
    while (wasmMemoryStats().memoryBytes === start && copies.length < 10_000) copies.push(Matcher.fromBytes(image));
    expect(wasmMemoryStats().memoryBytes).toBeGreaterThan(start);
    expect(check()).toEqual([false, true]);
    expect(normalizePath('https://a.example/%7Ea?b')).toBe('/~a?b');
    for (const copy of copies) copy.dispose();
    big.dispose();
    matcher.dispose();
  });

  it('a huge URL checked alone does not leave its scratch behind', () => {
    const matcher = RobotsTxt.parse('user-agent: *\ndisallow: /private\n').matcher('Bot');
    const before = wasmMemoryStats().usedBytes;
    // 1,000,000 bytes need 12 MB of scratch (the UTF-8 room and the normalisation room).
    const huge = `https://a.example/private/${'x'.repeat(1_000_000)}`;
    // Each call gives its block back (the whole block: a smaller one is made when next needed).
    expect(matcher.isAllowed(huge)).toBe(false);
    expect(wasmMemoryStats().usedBytes).toBeLessThanOrEqual(before);
    expect(normalizePath(huge)).toHaveLength(1_000_000 + '/private/'.length);
    expect(wasmMemoryStats().usedBytes).toBeLessThanOrEqual(before);
    matcher.dispose();
  });

  it('a disposed table frees its block', () => {
    // Counted after the parse, which sets up the reusable scratch block if a test before freed it.
    const robots = RobotsTxt.parse('user-agent: *\ndisallow: /x\n');
    const before = wasmMemoryStats().liveBlocks;
    const matcher = robots.matcher('Bot');
    expect(wasmMemoryStats().liveBlocks).toBeGreaterThanOrEqual(before + 1);
    matcher.dispose();
    expect(wasmMemoryStats().liveBlocks).toBe(before);
  });
});
