// One process of the fleet pacing benchmark (started by bench/pacer-fleet.ts). Argument: a
// PacerFleetJob as JSON. The process reads every origin's robots.txt through a RobotsCache on
// the Redis store, says `ready` on stdout, and on a line on stdin acquires all its slots at once
// through one Pacer, releasing each as soon as it starts (the benchmark times the pacing, not
// the pages). Its last stdout line is a PacerFleetChildResult as JSON.

import { createInterface } from 'node:readline';
import { Pacer, RobotsCache, type PacerCounts, type SlotEnd, type SlotEndReply, type SlotReply, type SlotRequest } from 'robots-wasm';
import { createClient } from 'redis';
import { RedisStore, type RedisCommandClient } from 'robots-wasm/redis';

/** What the parent asks of a child. */
export interface PacerFleetJob {
  agent: string;
  redisUrl: string;
  prefix: string;
  /** The origins this process requests, in its order; each `perOrigin` times. */
  origins: string[];
  perOrigin: number;
  /** The Pacer's maxConcurrentPerOrigin. */
  maxConcurrent: number;
}

/** What a child reports. */
export interface PacerFleetChildResult {
  /** For each origin of the job, the start of each of its slots (ms since the epoch). */
  starts: number[][];
  /** Ledger calls made while pacing. */
  reserves: number;
  releases: number;
  counts: PacerCounts;
  storeEvents: string[];
}

/** A RedisStore that counts its ledger calls. */
class CountingStore extends RedisStore {
  reserves = 0;
  releases = 0;

  constructor(client: RedisCommandClient, prefix: string) {
    super(client, { prefix });
  }

  override reserveSlot(key: string, slot: string, request: SlotRequest): Promise<SlotReply> {
    this.reserves++;
    return super.reserveSlot(key, slot, request);
  }

  override releaseSlot(key: string, slot: string, end: SlotEnd): Promise<SlotEndReply> {
    this.releases++;
    return super.releaseSlot(key, slot, end);
  }
}

const job = JSON.parse(process.argv[2]) as PacerFleetJob;
const client = createClient({ url: job.redisUrl });
await client.connect();
const store = new CountingStore(client as unknown as RedisCommandClient, job.prefix);
const storeEvents: string[] = [];
// Four processes and Redis share two cores here, and each sends thousands of scripts at once at
// the start: a store call may wait that long for a core without the store being out.
const cache = new RobotsCache({ agent: job.agent, store, concurrency: 64, storeTimeoutMs: 5000, onStoreEvent: (event) => storeEvents.push(event.type) });
await cache.checkMany(job.origins.map((origin) => `${origin}/`));
process.stdout.write('ready\n');
await new Promise((resolve) => createInterface({ input: process.stdin }).once('line', resolve));

const pacer = new Pacer({ cache, maxDelayMs: 10_000, maxConcurrentPerOrigin: job.maxConcurrent });
const before = { reserves: store.reserves, releases: store.releases };
const starts = await Promise.all(job.origins.map((origin) => Promise.all(Array.from({ length: job.perOrigin }, async (_, i) => {
  const slot = await pacer.acquire(`${origin}/page/${i}`);
  slot.release({ status: 200 });
  return slot.startedAt;
}))));
// Releases are sent as the slots end: wait until the last has been answered.
await new Promise((resolve) => setTimeout(resolve, 200));
const result: PacerFleetChildResult = {
  starts,
  reserves: store.reserves - before.reserves,
  releases: store.releases - before.releases,
  counts: pacer.stats(),
  storeEvents,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
await client.close();
