// Measurement helpers shared by the benchmark groups (bench/run.ts, bench/pacer.ts, bench/frontier*.ts, bench/fleet*.ts).

import { availableParallelism, cpus } from 'node:os';
import { Bench } from 'tinybench';

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

/** A task that returns a promise, which each timed call awaits. */
export interface AwaitedTask {
  awaited: () => Promise<unknown>;
}

/** A benchmark task: a function timed as it runs, or one whose promise is awaited. */
export type Task = (() => unknown) | AwaitedTask;

/** Marks a task whose promise each timed call awaits. */
export function awaited(fn: () => Promise<unknown>): AwaitedTask {
  return { awaited: fn };
}

/** How long measureRounds times each task, and how often. */
export interface RoundOptions {
  /** Milliseconds each task is timed for, over all rounds. */
  taskMs: number;
  /** Warm-up of each task before its first round, in ms (later rounds: 50 ms). */
  warmupMs: number;
  /** Fewest timed calls of a task per round. */
  minIterations: number;
  rounds: number;
}

/**
 * Milliseconds per call of each task in each of `rounds` rounds (tinybench's median, p50).
 * Tasks compared with each other are measured in the same rounds, in alternating order, so
 * that a slow spell of this shared machine hits them alike; a ratio between two of them is
 * therefore taken within each round and then the median over rounds (RoundTimes.median).
 *
 * tinybench is told which tasks are asynchronous: left to find out, it calls a task that is
 * not an async function once and does not await it, and that stray run of a pool or worker
 * task went on beside the measurements that followed it.
 */
export async function measureRounds(tasks: Record<string, Task>, options: RoundOptions): Promise<RoundTimes> {
  const { taskMs, warmupMs, minIterations, rounds } = options;
  const names = Object.keys(tasks);
  const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      const bench = new Bench({ time: taskMs / rounds, iterations: minIterations, warmupTime: round === 0 ? warmupMs : 50, warmupIterations: 2 });
      const task = tasks[name];
      if (typeof task === 'function') bench.add(name, task, { async: false });
      else bench.add(name, task.awaited, { async: true });
      await bench.run();
      const result = bench.tasks[0].result as { latency?: { p50: number }; error?: unknown };
      if (result.latency === undefined) throw new Error(`benchmark task ${name} failed: ${String(result.error)}`);
      samples[name].push(result.latency.p50);
    }
  }
  return new RoundTimes(samples);
}

/** The per-round times of a measured group. */
export class RoundTimes {
  constructor(private readonly samples: Record<string, number[]>) {}

  /** Milliseconds per call of each task in each round, in round order. */
  perRound(): Record<string, number[]> {
    return Object.fromEntries(Object.entries(this.samples).map(([name, values]) => [name, [...values]]));
  }

  /** Median milliseconds per call of each task. */
  medians(): Record<string, number> {
    return Object.fromEntries(Object.entries(this.samples).map(([name, values]) => [name, median(values)]));
  }

  /** The median over rounds of `figure`, computed from one round's times (ms per task). */
  median(figure: (ms: Record<string, number>) => number): number {
    const rounds = Object.values(this.samples)[0].length;
    const values: number[] = [];
    for (let r = 0; r < rounds; r++) {
      values.push(figure(Object.fromEntries(Object.entries(this.samples).map(([name, times]) => [name, times[r]]))));
    }
    return median(values);
  }
}
