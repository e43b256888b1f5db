// WebAssembly memory: blocks are freed and reused, so memory stops growing; compiled tables
// are a cache with a byte budget, evicted and made again without changing an answer.
import { afterEach, describe, expect, it } from 'vitest';
import { lintRobotsTxt, Matcher, normalizePath, RobotsTxt, setTableBudget, wasmMemoryStats, type Explanation, type Mode } from '../src/index.js';
import { kernel } from '../src/wasm/kernel.js';
import { reportLinesTo } from '../src/matcher.js';
import { Heap } from '../src/wasm/memory.js';
import { DEFAULT_TABLE_BUDGET, linearArea } from '../src/wasm/tables.js';
import { agentsFor, random, urlsForPattern } from '../scripts/corpus-check.mjs';
import { corpusFiles } from './support/fixtures.js';

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

  it('grows by half its size, but by no more than 16 MiB past what an allocation needs', () => {
    const { heap: h, memory } = heap();
    h.alloc(64 << 20);
    const before = memory.buffer.byteLength;
    h.alloc(1 << 20);
    expect(memory.buffer.byteLength - before).toBe(17 << 20);
    h.alloc(17 << 20);
    expect(memory.buffer.byteLength - before).toBe(34 << 20);
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
    // The last files first: their patterns are the longest, so the linear area has grown to
    // what every cycle needs.
    cycle(5000);
    const warm = wasmMemoryStats();
    for (let round = 0; round < 5; round++) cycle(round * 1000);
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

  it("a large file's linear table keeps only its own size in the linear area, and the next smaller table gives that back", () => {
    const rules = Array.from({ length: 20_000 }, (_, r) => `disallow: /section-${r}/page`).join('\n');
    const areaBytes = () => kernel().heap.sizeOf(linearArea.ptr);
    const robots = RobotsTxt.parse(`user-agent: *\n${rules}\n`, { maxBytes: Infinity });
    const matcher = robots.matcher('Bot');
    expect(matcher.isAllowed('/section-19999/page')).toBe(false);
    // The compile took room for about 13 MB of table; the linear table is under 1 MB.
    const linearBytes = matcher.byteLength;
    expect(linearBytes).toBeLessThan(1 << 20);
    expect(areaBytes()).toBeLessThan(linearBytes + 64);
    robots.dispose();
    expect(RobotsTxt.parse('User-agent: *\nDisallow: /x\n').matcher('Bot').isAllowed('/x/y')).toBe(false);
    expect(areaBytes()).toBeLessThanOrEqual(64 * 1024);
  });

  it('parsing or linting a huge string body gives its scratch memory back', () => {
    const body = `User-agent: *\nDisallow: /x\n${'#'.repeat(20_000_000)}`;
    const before = wasmMemoryStats().usedBytes;
    // The body takes 60 MB or more of scratch while it is read; at most 8 MiB stays for the
    // next call, whether or not a check follows (a check gives back what a parse left).
    const robots = RobotsTxt.parse(body);
    expect(wasmMemoryStats().usedBytes - before).toBeLessThanOrEqual(8 * 1024 * 1024);
    expect(robots.truncated).toBe(true);
    expect(robots.isAllowed('/x/y', 'Bot')).toBe(false);
    expect(lintRobotsTxt(body).map((d) => d.code)).toContain('past-parse-limit');
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
    // toBytes makes the full table, which has a block of its own.
    matcher.toBytes();
    expect(wasmMemoryStats().liveBlocks).toBe(before + 1);
    matcher.dispose();
    expect(wasmMemoryStats().liveBlocks).toBe(before);
  });

  it('matchers that have checked few URLs hold no table: theirs is made in the one linear area', () => {
    const files = Array.from({ length: 50 }, (_, i) => RobotsTxt.parse(`user-agent: *\ndisallow: /x${i}\n`));
    files[0].isAllowed('/y', 'Bot');
    const before = wasmMemoryStats();
    // Each file in turn, then the first again: each makes its linear table where the last was.
    for (const [i, robots] of files.entries()) expect(robots.isAllowed(`/x${i}`, 'Bot')).toBe(false);
    expect(files[0].isAllowed('/x1', 'Bot')).toBe(true);
    expect(wasmMemoryStats()).toMatchObject({ liveBlocks: before.liveBlocks, usedBytes: before.usedBytes, residentTables: before.residentTables });
    for (const robots of files) robots.dispose();
  });
});

describe('compiled tables are a cache with a byte budget', () => {
  afterEach(() => setTableBudget(DEFAULT_TABLE_BUDGET));

  /** Every corpus file in both modes, with its agents' matchers and URLs made from its rules. */
  function corpusCases() {
    const cases: { robots: RobotsTxt; agent: string; urls: string[] }[] = [];
    for (const { bytes } of corpusFiles()) {
      for (const mode of ['rfc', 'google'] as Mode[]) {
        const robots = RobotsTxt.parse(bytes, { mode });
        const next = random(7);
        const urls = ['/', '/robots.txt', 'https://example.com/a?b'];
        for (const group of robots.groups) for (const rule of group.rules.slice(0, 40)) urls.push(...urlsForPattern(rule.pattern, next));
        for (const agent of agentsFor(robots, 2)) cases.push({ robots, agent, urls });
      }
    }
    return cases;
  }

  function answers(robots: RobotsTxt, agent: string, urls: string[]) {
    const matcher = robots.matcher(agent);
    return {
      many: Array.from(matcher.checkMany(urls)),
      lines: Array.from(matcher.checkLines(new TextEncoder().encode(urls.filter((u) => !/[\r\n]/.test(u)).join('\n')))),
      explained: urls.map((url): Explanation => robots.explain(url, agent)),
      compiled: urls.map((url): Explanation => matcher.explain(url)),
      image: matcher.toBytes(),
    };
  }

  it('evicted tables are compiled again on their next use, with the same verdicts and explanations', () => {
    const cases = corpusCases();
    const first = cases.map(({ robots, agent, urls }) => answers(robots, agent, urls));
    const before = wasmMemoryStats();
    expect(before.residentTables).toBeGreaterThanOrEqual(cases.length / 2);
    // No room at all: each table evicts every other one when it is made again.
    setTableBudget(0);
    expect(wasmMemoryStats()).toMatchObject({ tableBytes: 0, residentTables: 0, tableBudget: 0 });
    expect(wasmMemoryStats().evictions).toBeGreaterThanOrEqual(before.evictions + before.residentTables);
    const again = cases.map(({ robots, agent, urls }) => answers(robots, agent, urls));
    expect(again).toEqual(first);
    // A table larger than the whole budget is still made, alone.
    expect(wasmMemoryStats().residentTables).toBe(1);
    expect(cases.every(({ robots, agent }) => !robots.matcher(agent).disposed)).toBe(true);
  });

  it('a loaded table is made again from its own copy of the image, whatever the caller does with its array', () => {
    const robots = RobotsTxt.parse('User-agent: *\nDisallow: /private\nAllow: /private/ok\nDisallow: /*.pdf$\n');
    const urls = ['/private/x', '/private/ok/1', '/a.pdf', '/a.pdf?x', '/'];
    // A Uint8Array, and a Node Buffer (whose slice() is a view, not a copy).
    for (const image of [robots.matcher('Bot').toBytes(), Buffer.from(robots.matcher('Bot').toBytes())]) {
      const loaded = Matcher.fromBytes(image);
      image.fill(0);
      setTableBudget(0);
      robots.matcher('Bot').isAllowed('/'); // evicts the loaded table
      expect(wasmMemoryStats().residentTables).toBe(1);
      expect(Array.from(loaded.checkMany(urls))).toEqual([0, 1, 0, 1, 1]);
      expect(loaded.explain('/a.pdf')).toEqual({ allowed: false, rule: { kind: 'disallow', pattern: '/*.pdf$', line: 4 } });
      expect(Array.from(robots.matcher('Bot').checkMany(urls))).toEqual([0, 1, 0, 1, 1]);
      loaded.dispose();
      expect(() => loaded.isAllowed('/')).toThrow(/disposed/);
      setTableBudget(DEFAULT_TABLE_BUDGET);
    }
  });

  it('a table evicted between the chunks of a checkLines call (by what its sink does) is made again before the next chunk', () => {
    const matcher = RobotsTxt.parse('User-agent: *\nDisallow: /a\n').matcher('Bot');
    // Several chunks of checkLines input; between them the sink makes a table with no room to
    // spare, which evicts this one, and then overwrites all free memory, as a later allocation
    // could: the next chunk must not read the table where it was.
    const lines = Array.from({ length: 120_000 }, (_, i) => (i % 3 === 0 ? `/a/${i}` : `/b/${i}`)).join('\n');
    setTableBudget(0);
    const heap = kernel().heap as unknown as { starts: number[]; sizes: number[] };
    let made = 0;
    let disallowed = 0;
    const n = reportLinesTo(matcher, new TextEncoder().encode(lines), false, (output) => {
      disallowed += new TextDecoder().decode(output).split('\n').filter((line) => line.startsWith('disallow')).length;
      made++;
      expect(RobotsTxt.parse('User-agent: *\nDisallow: /b\n').isAllowed('/b', 'Bot')).toBe(false);
      for (let i = 0; i < heap.starts.length; i++) kernel().u8.fill(0xff, heap.starts[i], heap.starts[i] + heap.sizes[i]);
    });
    expect(made).toBeGreaterThan(2);
    expect([n, disallowed]).toEqual([40_000, 40_000]);
  });

  it('setTableBudget takes an integer from 0 to 4 GiB; wasmMemoryStats reports the tables', () => {
    for (const bad of [-1, 1.5, NaN, Infinity, 2 ** 32 + 1, '1000' as never]) expect(() => setTableBudget(bad)).toThrow(TypeError);
    expect(wasmMemoryStats().tableBudget).toBe(DEFAULT_TABLE_BUDGET);
    setTableBudget(2 ** 32);
    const before = wasmMemoryStats();
    const matcher = RobotsTxt.parse('User-agent: *\nDisallow: /x\n').matcher('Bot');
    // toBytes makes the full table: linear ones are not resident (they live in the linear area).
    matcher.toBytes();
    const after = wasmMemoryStats();
    expect(after).toMatchObject({ tableBudget: 2 ** 32, residentTables: before.residentTables + 1, tableBytes: before.tableBytes + 16 * Math.ceil(matcher.byteLength / 16) });
    matcher.dispose();
    expect(wasmMemoryStats()).toMatchObject({ residentTables: before.residentTables, tableBytes: before.tableBytes });
  });
});
