// The pacer group (`npm run bench -- pacer [--quick]`, and a group of `npm run bench`): what
// Pacer.acquire and PacerSlot.release cost when no wait is due, in one process with no store,
// then the fleet runs of bench/pacer-fleet.ts (4 processes pacing 2,000 origins through Redis).
// The RobotsCache is loaded from a snapshot whose origins all allow everything with no
// Crawl-delay, so nothing is fetched while timing, and the calls rotate over ORIGINS origins
// with minDelayMs 0. The peer is the pacer a crawler writes for itself: the URL parser's
// origin and a Map of per-origin next-allowed times spaced by a Map of delays, with the same
// async shape. RobotsCache.get alone, awaited per call, is timed beside them: the read of
// robots.txt every acquire makes. Prints the tables and targets, writes bench/pacer.json.

import { writeFileSync } from 'node:fs';
import { Pacer, RobotsCache, type RobotsCacheSnapshot } from 'robots-wasm';
import { awaited, collectGarbage, machineInfo, measureRounds } from './measure.js';
import { formatRatio, printTable } from './report.js';
import { runPacerFleet } from './pacer-fleet.js';

const AGENT = 'ExampleBot';
/** Origins the calls rotate over, as a crawler's frontier does. */
const ORIGINS = 1000;
/** acquire + release pairs per timed call: enough that tinybench's own cost per call is noise. */
const CALLS = 1000;
const WANTED_US = 2;
const WANTED_RATIO = 2;

/** What to run: the sizes of --quick or the full ones. */
export interface PacerGroupOptions {
  quick: boolean;
}

/** What a pacer's slot offers the bench: release, with how the request went. */
interface Slot {
  release(outcome?: { status: number }): void;
}

/**
 * The peer: the pacer a crawler writes for itself. Per origin (as the WHATWG URL parser gives
 * it) a next-allowed time in a Map, spaced by the origin's delay from a Map the crawler filled
 * from each robots.txt; acquire resolves at once when the origin is due.
 */
class MapPacer {
  readonly #next = new Map<string, number>();
  constructor(private readonly delays: Map<string, number>) {}

  /** Resolves when `url`'s origin may start: at once when due, else after the spacing. */
  acquire(url: string): Promise<Slot> {
    const origin = new URL(url).origin;
    const now = Date.now();
    const at = this.#next.get(origin) ?? 0;
    if (at <= now) {
      this.#next.set(origin, now + (this.delays.get(origin) ?? 0));
      return Promise.resolve({ release: () => undefined });
    }
    return new Promise((resolve) => setTimeout(() => resolve(this.acquire(url)), at - now));
  }
}

/** The group's figures, as bench/pacer.json records them. */
export interface PacerGroupResult {
  /** Median µs per acquire + release pair of each pacer. */
  usPerCall: Record<string, number>;
  /** The same, each round. */
  usPerCallByRound: Record<string, number[]>;
  /** RobotsCache.get's per-call cost over the Map pacer's, within each round (median over rounds). */
  cacheGetOverMap: number;
  /** Pacer's per-call cost over the Map pacer's, within each round (median over rounds). */
  pacerOverMap: number;
  /** robots.txt fetches while timed: must be 0. */
  fetches: number;
  /** Slots the Pacer counted as waited for: with no delay due, only a pause of the process (a collection) of a millisecond or more between reading robots.txt and the start makes one. */
  waits: number;
  acquired: number;
}

/** A RobotsCache holding `origins`, each allowing everything with no delay, fresh for a day. */
function warmCache(origins: string[]): RobotsCache {
  const now = Date.now();
  const body = Buffer.from('User-agent: *\nAllow: /\n').toString('base64');
  const snapshot: RobotsCacheSnapshot = {
    version: 1,
    entries: origins.map((origin) => ({
      status: 'ok', origin, httpStatus: 200, finalUrl: `${origin}/robots.txt`, redirects: 0, fetchedAt: now, expiresAt: now + 86_400_000,
      error: undefined, body, etag: undefined, lastModified: undefined, unreachableSince: undefined,
    })),
  };
  return RobotsCache.import(snapshot, { agent: AGENT });
}

/** A timed task: CALLS acquire + release pairs in turn, rotating over `urls`. */
function rotation(pacer: { acquire(url: string): Promise<Slot> }, urls: string[]): () => Promise<void> {
  let next = 0;
  return async () => {
    for (let i = 0; i < CALLS; i++) {
      const slot = await pacer.acquire(urls[next]);
      slot.release({ status: 200 });
      next = next + 1 === urls.length ? 0 : next + 1;
    }
  };
}

/** Runs the measurements, prints the table and the targets, and writes bench/pacer.json. */
export async function runPacerGroup(options: PacerGroupOptions): Promise<PacerGroupResult> {
  const rounds = options.quick ? 3 : 9;
  const taskMs = options.quick ? 300 : 2700;
  const origins = Array.from({ length: ORIGINS }, (_, i) => `http://site-${i}.example`);
  const urls = origins.map((origin, i) => `${origin}/page/${i}?q=${i % 7}`);
  const cache = warmCache(origins);
  const pacer = new Pacer({ cache, minDelayMs: 0 });
  const peer = new MapPacer(new Map(origins.map((origin) => [origin, 0])));
  const names = { pacer: 'robots-wasm Pacer', map: 'Map of timestamps (peer)', cacheGet: 'RobotsCache.get alone' };
  // The same rotation with the cache read alone: a slot that releases nothing.
  const reader = { acquire: (url: string) => cache.get(url).then(() => ({ release: () => undefined })) };
  collectGarbage();
  const times = await measureRounds(
    { [names.pacer]: awaited(rotation(pacer, urls)), [names.map]: awaited(rotation(peer, urls)), [names.cacheGet]: awaited(rotation(reader, urls)) },
    { taskMs, warmupMs: options.quick ? 100 : 400, minIterations: 5, rounds },
  );
  const us = (ms: number) => (ms * 1000) / CALLS;
  const medians = times.medians();
  const stats = pacer.stats();
  const result: PacerGroupResult = {
    usPerCall: { pacer: us(medians[names.pacer]), map: us(medians[names.map]), cacheGet: us(medians[names.cacheGet]) },
    usPerCallByRound: { pacer: times.perRound()[names.pacer].map(us), map: times.perRound()[names.map].map(us), cacheGet: times.perRound()[names.cacheGet].map(us) },
    cacheGetOverMap: times.median((ms) => ms[names.cacheGet] / ms[names.map]),
    pacerOverMap: times.median((ms) => ms[names.pacer] / ms[names.map]),
    fetches: cache.fetches,
    waits: stats.waits,
    acquired: stats.acquired,
  };
  printTable(`Pacer: acquire + release, no delay due, no store (${ORIGINS.toLocaleString('en')} origins in turn, ${CALLS.toLocaleString('en')} pairs per timed call, medians of ${rounds} rounds)`,
    ['pacer', 'per call', 'vs Map of timestamps'],
    [
      [names.pacer, `${result.usPerCall.pacer.toFixed(3)} µs`, formatRatio(result.pacerOverMap)],
      [names.map, `${result.usPerCall.map.toFixed(3)} µs`, '1.00x'],
      [`${names.cacheGet} (the read every acquire makes)`, `${result.usPerCall.cacheGet.toFixed(3)} µs`, formatRatio(result.cacheGetOverMap)],
    ]);
  console.log(`\nPacer / Map within each round (median): ${formatRatio(result.pacerOverMap)}; per round: ${times.perRound()[names.pacer].map((ms, r) => (ms / times.perRound()[names.map][r]).toFixed(2)).join(', ')}. While timed the Pacer gave ${result.acquired.toLocaleString('en')} slots, counted ${result.waits} as waited for (a pause of the process, no delay is due) and the cache fetched ${result.fetches} robots.txt.`);
  const targets = [
    { name: 'Pacer acquire + release, no delay due (µs)', measured: result.usPerCall.pacer.toFixed(3), wanted: `< ${WANTED_US} µs`, met: result.usPerCall.pacer < WANTED_US },
    { name: 'Pacer / Map of timestamps, per call', measured: result.pacerOverMap.toFixed(2), wanted: `<= ${WANTED_RATIO}x`, met: result.pacerOverMap <= WANTED_RATIO },
  ];
  printTable('Pacer targets', ['target', 'measured', 'wanted', ''], targets.map((t) => [t.name, t.measured, t.wanted, t.met ? 'met' : 'NOT MET']));
  const problems = result.fetches === 0 ? [] : [`the cache fetched ${result.fetches} robots.txt while timed`];
  pacer.cache.clear();
  const fleet = await runPacerFleet(options);
  for (const run of fleet === undefined ? [] : [fleet.oneSlot, fleet.spacingOnly]) if (run.unshared > 0) problems.push(`the fleet's store was out: ${run.storeEvents.join(', ')}`);
  const out = { machine: machineInfo(), quick: options.quick, parameters: { origins: ORIGINS, callsPerTimedCall: CALLS, rounds, taskMs, agent: AGENT }, ...result, fleet, problems, targets };
  writeFileSync(new URL('../../bench/pacer.json', import.meta.url), `${JSON.stringify(out, null, 2)}\n`);
  console.log('\nbench/pacer.json written');
  if (problems.length > 0) throw new Error(`pacer: ${problems.join('; ')}`);
  return result;
}
