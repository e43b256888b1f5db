// Measurement helpers shared by the benchmark groups (bench/run.ts, bench/frontier*.ts, bench/fleet*.ts).

import { availableParallelism, cpus } from 'node:os';

/** A full garbage collection, when node runs with --expose-gc (npm run bench does). */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Milliseconds `fn` takes. */
export function timeMs(fn: () => void): number {
  const started = performance.now();
  fn();
  return performance.now() - started;
}

/** The machine and runtime a run is on, and when, as the JSON files record them. */
export function machineInfo(): { cpu: string; cores: number; node: string; date: string } {
  return { cpu: cpus()[0]?.model ?? 'unknown', cores: availableParallelism(), node: process.version, date: new Date().toISOString() };
}
