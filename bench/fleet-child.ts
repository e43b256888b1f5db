// One process of the fleet benchmark (started by bench/fleet.ts with `node --expose-gc`).
// Argument: a FleetJob as JSON. A `fleet` job runs one crawler process: RobotsCache.checkMany
// over its URLs, a chunk at a time, with or without the Redis store. A `warm` job times
// checkMany with every origin cached locally, a cache with the store against one without.
// Verdicts go to files for the parent to compare; the last stdout line is the result as JSON.

import { readFileSync, writeFileSync } from 'node:fs';
import { RobotsCache, type RobotsStore } from 'robots-wasm';
import { connectRedisStore } from 'robots-wasm/redis';
import { collectGarbage } from './measure.js';

/** Where the store is: a Redis server and the key prefix of this run. */
export interface StoreAt {
  redisUrl: string;
  prefix: string;
}

/** What the parent asks of a child. */
export type FleetJob =
  | {
      kind: 'fleet';
      agent: string;
      /** The process's URLs, one a line, in the order it checks them. */
      urlsFile: string;
      chunk: number;
      /** Without it the process caches alone. */
      store?: StoreAt;
      verdictsFile: string;
    }
  | {
      kind: 'warm';
      agent: string;
      urlsFile: string;
      chunk: number;
      store: StoreAt;
      verdictsFiles: { store: string; noStore: string };
      rounds: number;
      /** Fewest milliseconds a timed pass lasts: shorter passes are repeated within it. */
      minPassMs: number;
    };

/** What a `fleet` child reports. */
export interface FleetChildResult {
  urls: number;
  /** robots.txt requests this process sent (RobotsCache#fetches). */
  fetches: number;
  /** Store events reported (an outage makes the fleet fetch on its own). */
  storeEvents: string[];
}

/** What a `warm` child reports. */
export interface WarmResult {
  urls: number;
  /** Origins each cache holds after its warm pass. */
  cached: { store: number; noStore: number };
  /** Bytes each cache holds (RobotsCache#bytes). */
  bytes: { store: number; noStore: number };
  /** Fetches each cache made, after warming and after the timed passes (equal when nothing was fetched again). */
  fetches: { store: [number, number]; noStore: [number, number] };
  /** Passes of all URLs per timed run. */
  passes: number;
  /** Nanoseconds per URL in each round. */
  nsPerUrl: { store: number[]; noStore: number[] };
  storeEvents: string[];
}

/** `urls` in consecutive chunks of `size`. */
function chunked(urls: string[], size: number): string[][] {
  const chunks: string[][] = [];
  for (let i = 0; i < urls.length; i += size) chunks.push(urls.slice(i, i + size));
  return chunks;
}

/** The verdicts of `cache` for every chunk, in order, as one array. */
async function checkChunks(cache: RobotsCache, chunks: string[][], total: number): Promise<Uint8Array> {
  const verdicts = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    verdicts.set(await cache.checkMany(chunk), offset);
    offset += chunk.length;
  }
  return verdicts;
}

/** A RobotsCache for the job's agent, on `store` when given; store events are collected in `events`. */
function cacheOf(agent: string, store: RobotsStore | undefined, events: string[]): RobotsCache {
  return new RobotsCache({ agent, store, onStoreEvent: (event) => events.push(event.type) });
}

async function runFleet(job: Extract<FleetJob, { kind: 'fleet' }>): Promise<FleetChildResult> {
  const urls = readLines(job.urlsFile);
  const events: string[] = [];
  const store = job.store === undefined ? undefined : await connectRedisStore(job.store.redisUrl, { prefix: job.store.prefix });
  try {
    const cache = cacheOf(job.agent, store, events);
    writeFileSync(job.verdictsFile, await checkChunks(cache, chunked(urls, job.chunk), urls.length));
    return { urls: urls.length, fetches: cache.fetches, storeEvents: events };
  } finally {
    await store?.close();
  }
}

async function runWarm(job: Extract<FleetJob, { kind: 'warm' }>): Promise<WarmResult> {
  const urls = readLines(job.urlsFile);
  const chunks = chunked(urls, job.chunk);
  const events: string[] = [];
  const store = await connectRedisStore(job.store.redisUrl, { prefix: job.store.prefix });
  try {
    const caches = { store: cacheOf(job.agent, store, events), noStore: cacheOf(job.agent, undefined, events) };
    const names = ['store', 'noStore'] as const;
    for (const name of names) writeFileSync(job.verdictsFiles[name], await checkChunks(caches[name], chunks, urls.length));
    const warmed = { store: caches.store.fetches, noStore: caches.noStore.fetches };
    const pass = async (cache: RobotsCache) => {
      for (const chunk of chunks) await cache.checkMany(chunk);
    };
    // A second untimed pass of each lets V8 tier both paths up before the first timed round.
    for (const name of names) await pass(caches[name]);
    const started = performance.now();
    await pass(caches.store);
    const passes = Math.max(1, Math.ceil(job.minPassMs / Math.max(performance.now() - started, 1e-3)));
    const nsPerUrl = { store: [] as number[], noStore: [] as number[] };
    for (let round = 0; round < job.rounds; round++) {
      // Alternating order, so that a slow spell of the machine hits both alike.
      for (const name of round % 2 === 0 ? names : [...names].reverse()) {
        collectGarbage();
        const t0 = performance.now();
        for (let p = 0; p < passes; p++) await pass(caches[name]);
        nsPerUrl[name].push(((performance.now() - t0) / passes / urls.length) * 1e6);
      }
    }
    return {
      urls: urls.length,
      cached: { store: caches.store.size, noStore: caches.noStore.size },
      bytes: { store: caches.store.bytes, noStore: caches.noStore.bytes },
      fetches: { store: [warmed.store, caches.store.fetches], noStore: [warmed.noStore, caches.noStore.fetches] },
      passes,
      nsPerUrl,
      storeEvents: events,
    };
  } finally {
    await store.close();
  }
}

/** The non-empty lines of a file. */
function readLines(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').filter((line) => line.length > 0);
}

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2]) as FleetJob;
  const result = job.kind === 'fleet' ? await runFleet(job) : await runWarm(job);
  console.log(JSON.stringify(result));
}

await main();
