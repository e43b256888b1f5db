// The memory soak of scripts/soak.mjs (npm run soak runs 1,000,000 files), reduced: a crawler
// parsing 20,000 different files and keeping the last 1,000 matchers.
import { describe, expect, it } from 'vitest';
import { soak } from '../scripts/soak.mjs';

describe('memory over a crawler lifetime', () => {
  it('released matchers disposed: WebAssembly memory and RSS stop growing once warm', async () => {
    const samples = await soak({ files: 20_000, keep: 1000, every: 5000, release: 'dispose' });
    expect(samples.map((s) => s.files)).toEqual([5000, 10_000, 15_000, 20_000]);
    const [, warm, , last] = samples;
    // The 1,000 kept tables and the scratch blocks, nothing more; the bytes they hold stay put.
    for (const s of samples) expect(s.liveBlocks).toBeLessThanOrEqual(1010);
    expect(Math.abs(last.usedBytes - warm.usedBytes)).toBeLessThan(warm.usedBytes * 0.1);
    // The memory holds that working set with room for fragmentation, and at most one growth
    // step (by half, rounded up to whole 64 KiB pages) follows warm-up; npm run soak shows it
    // flat over 1,000,000 files.
    expect(last.wasmBytes).toBeLessThanOrEqual(warm.wasmBytes * 1.5 + 65536);
    expect(last.wasmBytes).toBeLessThan(3 * last.usedBytes + (4 << 20));
    expect(last.rssBytes - warm.rssBytes).toBeLessThan(32 * 2 ** 20);
  });

  it('released matchers only dropped: the FinalizationRegistry frees their tables', async () => {
    const samples = await soak({ files: 20_000, keep: 1000, every: 5000, release: 'gc' });
    // Every file compiled a table; most of the 19,000 released ones are already freed.
    expect(Math.max(...samples.map((s) => s.liveBlocks))).toBeLessThan(12_000);
    expect(samples.at(-1)!.wasmBytes).toBeLessThan(256 * 2 ** 20);
  });
});
