// Pacing a fleet through a real Redis (npm run test:redis): child processes, each with its own
// Pacer on a RobotsCache on robots-wasm/redis, requesting pages of servers on 127.0.0.1 that
// record when each request arrives. One Redis script per reserve keeps the fleet to one
// spacing and one concurrency per origin; Redis frozen or killed leaves each process pacing
// alone, with one report per outage.
import { describe, expect, it } from 'vitest';
import { MemoryStore, Pacer, RobotsCache, type PacerOptions, type PacerStats, type SlotEnd } from '../../src/index.js';
import { RedisStore } from '../../src/redis/index.js';
import { gaps, recordingSite, type Answer, type Recorded } from '../support/paced-site.js';
import { FleetChild, fleetTests, type FleetOptions } from './support.js';

const { state, fleetOptions } = fleetTests('pace');

/** Slack for a start recorded by the server after the pacer allowed it. */
const SLACK_MS = 20;
/**
 * Slack between starts of two processes: the ledger spaces them from each start as its release
 * reports it, on the ledger's clock, so only the way the release took to reach it is unknown.
 */
const FLEET_SLACK_MS = 20;

interface Result {
  status: number;
  waitedMs: number;
  startedAt: number;
}
type CrawlReply = { results: Result[]; stats: PacerStats };

interface PacerProcessOptions extends FleetOptions {
  pacer?: Partial<PacerOptions>;
}

/** A recording site, stopped after the test. */
async function site(robots: string, answer?: Answer): Promise<Recorded> {
  const rec = await recordingSite(robots, answer);
  state.sites.push(rec.site);
  return rec;
}

/** `count` pacing processes on one prefix, each with fetch warmed up against `warm`'s site. */
async function pacers(count: number, warm: Recorded, options: Partial<PacerProcessOptions> = {}): Promise<FleetChild<CrawlReply>[]> {
  const shared = { ...fleetOptions(), ...options };
  const children = Array.from({ length: count }, () => new FleetChild<CrawlReply>('./pacer-process.mjs', shared));
  state.processes.push(...children);
  await Promise.all(children.map((c) => c.ask({ op: 'warm', url: `${warm.site.origin}/robots.txt` })));
  return children;
}

const pages = (rec: Recorded, from: number, count: number) => Array.from({ length: count }, (_, i) => `${rec.site.origin}/page/${from + i}`);
const crawl = (child: FleetChild<CrawlReply>, urls: string[], parallel = false) => child.ask({ op: 'crawl', urls, parallel });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a fleet paced through Redis', () => {
  it('4 processes, one origin with Crawl-delay: 0.25: the server sees starts at least 250 ms apart across all four', async () => {
    const rec = await site('User-agent: *\nCrawl-delay: 0.25\n');
    const children = await pacers(4, rec);
    const replies = await Promise.all(children.map((c, i) => crawl(c, pages(rec, i * 5, 5))));
    expect(rec.starts).toHaveLength(20);
    const sorted = [...rec.starts].sort((a, b) => a - b);
    for (const gap of gaps(sorted)) expect(gap).toBeGreaterThanOrEqual(250 - FLEET_SLACK_MS);
    // Shared: the whole crawl took about 20 delays, not the 5 each process alone would take.
    expect(sorted[19] - sorted[0]).toBeGreaterThanOrEqual(19 * 250 - FLEET_SLACK_MS);
    expect(replies.every((r) => r.stats.unshared === 0 && r.results.every((x) => x.status === 200))).toBe(true);
  }, 30_000);

  it('maxConcurrentPerOrigin: 2 is a fleet-wide count: never more than 2 in flight from 4 processes', async () => {
    const rec = await site('User-agent: *\n', () => ({ status: 200, holdMs: 150 }));
    const children = await pacers(4, rec, { pacer: { maxConcurrentPerOrigin: 2 } });
    await Promise.all(children.map((c, i) => crawl(c, pages(rec, i * 5, 5), true)));
    expect(rec.starts).toHaveLength(20);
    expect(rec.maxInFlight).toBe(2);
  }, 30_000);

  it('a process SIGKILLed while holding a slot holds it no longer than its lease', async () => {
    const rec = await site('User-agent: *\n');
    const [holder, other] = await pacers(2, rec, { pacer: { leaseMs: 1500 } });
    await holder.ask({ op: 'hold', url: `${rec.site.origin}/held` });
    const heldAt = Date.now();
    await holder.kill();
    const { results } = await crawl(other, pages(rec, 0, 1));
    // The dead holder's slot lapses with its lease; the other process polls for it.
    expect(results[0].startedAt - heldAt).toBeGreaterThanOrEqual(1500 - 100);
    expect(results[0].startedAt - heldAt).toBeLessThan(1500 + 800);
  }, 30_000);

  it('429 with Retry-After: 3, an HTTP-date 3 s ahead, or 999999999 (capped): no process starts a request to the origin before then', async () => {
    // An HTTP-date has whole seconds: the date is the first whole second at least 3 s ahead.
    let resumeAt = 0;
    const inThreeSeconds = () => new Date((resumeAt = Math.ceil((Date.now() + 3000) / 1000) * 1000)).toUTCString();
    const tooLong: Answer = (n) => (n === 0 ? { status: 429, headers: { 'retry-after': '999999999' } } : { status: 200 });
    const seconds = await site('User-agent: *\n', (n) => (n === 0 ? { status: 429, headers: { 'retry-after': '3' } } : { status: 200 }));
    const date = await site('User-agent: *\n', (n) => (n === 0 ? { status: 503, headers: { 'retry-after': inThreeSeconds() } } : { status: 200 }));
    const capped = await site('User-agent: *\n', tooLong);
    const children = await pacers(4, seconds, { pacer: { maxRetryAfterMs: 4000 } });
    await Promise.all(children.map((c) => c.ask({ op: 'warm', url: `${date.site.origin}/robots.txt` })));
    const sites = [seconds, date, capped];
    const first = await Promise.all(sites.map((rec, i) => crawl(children[i], pages(rec, 0, 1))));
    expect(first.map((r) => r.results[0].status)).toEqual([429, 503, 429]);
    await Promise.all(children.map((c, i) => crawl(c, sites.flatMap((rec) => pages(rec, 1 + i * 2, 2)), true)));
    for (const [rec, pause] of [[seconds, 3000], [date, resumeAt - date.starts[0]], [capped, 4000]] as const) {
      expect(rec.starts).toHaveLength(9);
      const [refused, ...later] = rec.starts;
      expect(pause).toBeGreaterThanOrEqual(3000);
      expect(Math.min(...later) - refused).toBeGreaterThanOrEqual(pause - SLACK_MS);
      expect(Math.min(...later) - refused).toBeLessThan(pause + 500);
    }
  }, 30_000);

  it('Redis frozen, then killed, mid-crawl: acquires wait at most the store timeout more, each process paces alone, one report per outage', async () => {
    const rec = await site('User-agent: *\nCrawl-delay: 0.2\n');
    const children = await pacers(2, rec, { storeTimeoutMs: 300, storeRetryMs: 1000 });
    const delay = 200;
    // Two processes share the origin: an acquire may wait out the other's start as well as its own.
    const bound = 300 + children.length * delay + 150;
    // robots.txt is read first: fetching it is not pacing.
    await Promise.all(children.map((c, i) => crawl(c, pages(rec, 5000 + i, 1))));
    const outage = async (cut: () => Promise<void> | void, restore: () => Promise<void> | void) => {
      const crawls = children.map((c, i) => crawl(c, pages(rec, 1000 * i + rec.starts.length, 18)));
      await sleep(600);
      await cut();
      await sleep(1500);
      await restore();
      return Promise.all(crawls);
    };
    const frozen = await outage(() => state.redis.freeze(), () => state.redis.thaw());
    const killed = await outage(() => state.redis.stop(), () => state.redis.resume());
    for (const reply of [...frozen, ...killed]) {
      for (const result of reply.results) expect(result.waitedMs).toBeLessThanOrEqual(bound);
      // Each process keeps its own spacing throughout, the outage included.
      for (const gap of gaps(reply.results.map((r) => r.startedAt))) expect(gap).toBeGreaterThanOrEqual(delay - SLACK_MS);
      expect(reply.stats.unshared).toBeGreaterThan(0);
    }
    // Once the client has reconnected (it retries at most 2 s apart) and storeRetryMs has passed, the fleet shares again.
    await sleep(3000);
    const after = await Promise.all(children.map((c, i) => crawl(c, pages(rec, 8000 + 10 * i, 3))));
    expect(after.map((r) => r.stats.unshared)).toEqual(killed.map((r) => r.stats.unshared));
    // One report of each outage and of each return, per process, whatever the calls that failed.
    for (const child of children) expect(child.events).toEqual(['unavailable', 'available', 'unavailable', 'available']);
  }, 60_000);
});

describe('a ledger in Redis written by something else', () => {
  it('a key of another type, a forged pause, or a flood of fields: the pacer waits no longer than its own caps', async () => {
    const rec = await site('User-agent: *\n');
    const client = await state.redis.client();
    const prefix = fleetOptions().prefix;
    const key = `${prefix}pace:${rec.site.origin}`;
    const store = new RedisStore(client as never, { prefix });
    const pacer = new Pacer({ cache: new RobotsCache({ agent: 'ExampleBot', store }), maxDelayMs: 400, maxRetryAfterMs: 400, backoffBaseMs: 100, backoffMaxMs: 400 });
    const waits: number[] = [];
    const forgeries: (() => Promise<unknown>)[] = [
      () => client.set(key, 'not a ledger'),
      () => client.hSet(key, { paused: String(1e15), next: 'garbage', failures: 'x' }),
      () => client.hSet(key, Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`s:${i}`, String(1e15)]))),
    ];
    for (const forge of forgeries) {
      await client.del(key);
      await forge();
      const asked = Date.now();
      const slot = await pacer.acquire(`${rec.site.origin}/x`);
      waits.push(Date.now() - asked);
      slot.release({ status: 200 });
      await sleep(50);
    }
    expect(waits[0]).toBeLessThan(200);
    expect(waits[1]).toBeGreaterThanOrEqual(400 - SLACK_MS);
    expect(waits[1]).toBeLessThan(900);
    expect(waits[2]).toBeLessThan(200);
    expect(pacer.stats().unshared).toBe(0);
    await client.close();
  });

  it('MemoryStore and RedisStore keep the same ledger: the same answers to the same calls', async () => {
    const client = await state.redis.client();
    const redis = new RedisStore(client as never, { prefix: fleetOptions().prefix });
    const memory = new MemoryStore();
    const request = { delayMs: 500, maxConcurrent: 2, leaseMs: 10_000, maxWaitMs: 60_000 };
    const script = async (store: MemoryStore | RedisStore) => {
      const answers: unknown[] = [];
      const reserve = async (slot: string) => answers.push(await store.reserveSlot('https://a.example', slot, request));
      const release = async (slot: string, end: SlotEnd) => answers.push(await store.releaseSlot('https://a.example', slot, end));
      const failure: SlotEnd = { kind: 'failure', backoffBaseMs: 1000, backoffMaxMs: 5000 };
      await reserve('s1');
      await reserve('s2');
      await reserve('s3'); // both slots held: s3 waits in line
      await release('s1', failure);
      await release('s2', failure);
      await reserve('s4'); // a slot is free, but s3 came first
      await reserve('s3');
      await reserve('s4');
      await release('s4', { kind: 'success' });
      await release('s5', { kind: 'pause', pauseMs: 3000 });
      // s3 started (reserved for 2000 ms from the start) only now: the next start is a delay after it, not at 2500.
      await release('s3', { kind: 'success', started: { agoMs: 0, delayMs: 3300 } });
      await reserve('s6');
      // Times are rounded to 100 ms: the two clocks tick apart.
      return JSON.stringify(answers, (k, v) => (k === 'now' ? undefined : k === 'waitMs' || k === 'pauseMs' ? Math.round(v / 100) * 100 : v));
    };
    const expected = JSON.stringify([
      { reserved: true, waitMs: 0 }, { reserved: true, waitMs: 500 }, { reserved: false, waitMs: 1000 },
      // s4 is told its turn: the next start, plus a delay for s3 ahead of it.
      { failures: 1, pauseMs: 1000 }, { failures: 2, pauseMs: 2000 }, { reserved: false, waitMs: 2500 },
      { reserved: true, waitMs: 2000 }, { reserved: true, waitMs: 2500 }, { failures: 0, pauseMs: 0 }, { failures: 0, pauseMs: 3000 },
      { failures: 0, pauseMs: 0 }, { reserved: true, waitMs: 3300 },
    ]);
    expect(await script(memory)).toBe(expected);
    expect(await script(redis)).toBe(expected);
    await client.close();
  });
});
