// The memory soak of scripts/soak.mjs (npm run soak runs 1,000,000 files of each mode), reduced:
// a crawler parsing 50,000 different files in a synchronous loop that never disposes, and
// 20,000 keeping the last 1,000 matchers. Every verdict is checked against the rules each file
// was given (soak() throws on a wrong one).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { setTableBudget } from '../dist/index.js';
import { FIXED_BYTES, soak } from '../scripts/soak.mjs';

const BUDGET = 8 << 20;

/** A full garbage collection, with --expose-gc turned on for this thread if it was not. */
function fullCollection(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc');
}

// First in this file: the memory they measure is this thread's from its start.
describe.each(['none', 'drop-matcher'])('a synchronous loop that never disposes (%s): the table budget bounds memory', (release) => {
  // The tables of the dropped matchers the loop left resident go first (a budget of 0 evicts
  // them all): the tests below count the blocks their own matchers hold.
  afterAll(() => {
    setTableBudget(0);
    setTableBudget(256 << 20);
  });

  it('50,000 files stay under the budget and the fixed areas, with every verdict right', async () => {
    const samples = await soak({ files: 50_000, every: 10_000, release, budget: BUDGET });
    expect(samples.map((s) => s.files)).toEqual([10_000, 20_000, 30_000, 40_000, 50_000]);
    for (const s of samples) {
      expect(s.tableBytes).toBeLessThanOrEqual(BUDGET);
      expect(s.usedBytes).toBeLessThanOrEqual(BUDGET + FIXED_BYTES);
      expect(s.wasmBytes).toBeLessThanOrEqual(BUDGET + FIXED_BYTES);
    }
    // Each file's one check was answered from a linear table in the linear area, or, for the
    // few whose check is too large to be linear, from a full table within the budget.
    const last = samples.at(-1)!;
    expect(last.tableBytes).toBeLessThanOrEqual(BUDGET);
    expect(last.wasmBytes).toBe(samples[1].wasmBytes);
  });
});

describe('memory over a crawler lifetime, keeping the last 1,000 matchers', () => {
  it('released matchers disposed: WebAssembly memory and RSS stop growing once warm', async () => {
    const samples = await soak({ files: 20_000, keep: 1000, every: 5000, release: 'dispose', collect: fullCollection() });
    expect(samples.map((s) => s.files)).toEqual([5000, 10_000, 15_000, 20_000]);
    const [, warm, , last] = samples;
    // At most the 1,000 kept matchers' tables (none while they are linear) and the scratch,
    // batch and linear areas; the bytes they hold stay put.
    for (const s of samples) expect(s.liveBlocks).toBeLessThanOrEqual(1010);
    expect(Math.abs(last.usedBytes - warm.usedBytes)).toBeLessThan(warm.usedBytes * 0.1);
    // The memory holds that working set with room for fragmentation, besides the kernel's own
    // data (its fixed state, about 3 MiB), and at most one growth step (by half, rounded up to
    // whole 64 KiB pages) follows warm-up; npm run soak shows it flat over 1,000,000 files.
    expect(last.wasmBytes).toBeLessThanOrEqual(warm.wasmBytes * 1.5 + 65536);
    expect(last.wasmBytes).toBeLessThan(3 * last.usedBytes + (8 << 20));
    // What the JS heap still holds after a full collection (the kept matchers) stays put: a
    // leaked object of a few hundred bytes per file would add megabytes here.
    expect(Math.abs(last.liveHeapBytes! - warm.liveHeapBytes!)).toBeLessThan(2 * 2 ** 20);
    // RSS also carries V8's young generation, which V8 sizes as it likes (up to four times
    // larger from Node 24 on): beside it, RSS stops growing too.
    const outsideYoung = (s: (typeof samples)[number]) => s.rssBytes - s.youngBytes;
    expect(outsideYoung(last) - outsideYoung(warm)).toBeLessThan(32 * 2 ** 20);
  });

  it('released matchers only dropped: the FinalizationRegistry frees their tables', async () => {
    const samples = await soak({ files: 20_000, keep: 1000, every: 5000, release: 'gc' });
    // Every file compiled a table; most of the 19,000 released ones are already freed.
    expect(Math.max(...samples.map((s) => s.liveBlocks))).toBeLessThan(12_000);
    expect(samples.at(-1)!.wasmBytes).toBeLessThan(256 * 2 ** 20);
  });
});
