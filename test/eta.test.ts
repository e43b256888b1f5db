// The progress line's ETA (src/cli/eta.ts) on concrete sample sequences: a steady rate, the
// start-up wait, a stall and bursts, sampled every 250 ms as the CLI draws.
import { describe, expect, it } from 'vitest';
import { etaSeconds, nextRate, startRate, type RateState } from '../src/cli/eta.js';

/** The ETAs after each sample of `done(ms)` bytes, every 250 ms from 250 to `untilMs`, for a run of `total` bytes. */
function etas(done: (ms: number) => number, untilMs: number, total: number): { ms: number; eta: number | undefined }[] {
  let state: RateState = startRate();
  const out: { ms: number; eta: number | undefined }[] = [];
  for (let ms = 250; ms <= untilMs; ms += 250) {
    state = nextRate(state, done(ms), ms);
    out.push({ ms, eta: etaSeconds(state, total, ms) });
  }
  return out;
}

describe('progress ETA', () => {
  it('a steady 1000 bytes a second gives the exact remaining seconds once a second is measured', () => {
    const seen = etas((ms) => ms, 20_000, 30_000);
    expect(seen.find((s) => s.ms === 1000)?.eta).toBeUndefined();
    expect(seen.find((s) => s.ms === 1250)?.eta).toBe(29);
    expect(seen.find((s) => s.ms === 10_000)?.eta).toBe(20);
    for (const { ms, eta } of seen.filter((s) => s.ms > 1000)) expect(eta).toBe(Math.ceil((30_000 - ms) / 1000));
  });

  it('the wait for the first robots.txt is not counted as a slow rate', () => {
    // Nothing for 3 s, then 1000 bytes a second: the ETA waits for a second of measurement.
    const seen = etas((ms) => Math.max(ms - 3000, 0), 10_000, 30_000);
    expect(seen.filter((s) => s.ms < 4250).map((s) => s.eta)).toEqual(Array(16).fill(undefined));
    expect(seen.find((s) => s.ms === 4250)?.eta).toBe(29);
    expect(seen.find((s) => s.ms === 10_000)?.eta).toBe(23);
  });

  it('a burst of 1000 bytes each second gives the average rate\'s ETA, within a second, at every sample', () => {
    const seen = etas((ms) => 1000 * Math.floor(ms / 1000), 40_000, 60_000).filter((s) => s.ms >= 2000);
    for (const { ms, eta } of seen) expect(Math.abs(eta! - (60_000 - 1000 * Math.floor(ms / 1000)) / 1000), `at ${ms} ms`).toBeLessThanOrEqual(1);
  });

  it('a 2 s stall after 10 s at 1000 bytes a second moves the ETA by less than 40%, and it comes back', () => {
    const done = (ms: number) => (ms <= 10_000 ? ms : ms <= 12_000 ? 10_000 : ms - 2000);
    const seen = etas(done, 20_000, 40_000);
    const before = seen.find((s) => s.ms === 10_000)!.eta!;
    expect(before).toBe(30);
    for (const { eta } of seen.filter((s) => s.ms > 10_000 && s.ms <= 12_000)) expect(eta! / before).toBeLessThan(1.4);
    expect(seen.find((s) => s.ms === 20_000)?.eta).toBeLessThanOrEqual(Math.ceil((40_000 - 18_000) / 1000) * 1.15);
  });

  it('no ETA without a second of progress, and a repeated sample time changes nothing', () => {
    let state = nextRate(startRate(), 500, 100);
    state = nextRate(state, 500, 2000);
    expect(etaSeconds(state, 1000, 2000)).toBeUndefined();
    state = nextRate(state, 1500, 1100);
    expect(etaSeconds(state, 2000, 1100)).toBe(1);
    expect(nextRate(state, 1900, 1100)).toBe(state);
  });
});
