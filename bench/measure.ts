// Measurement helpers shared by the benchmark groups (bench/run.ts, bench/frontier*.ts).

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
