// Pacer against real servers on 127.0.0.1 that record when each request starts: robots.txt
// spacing, per-origin independence, concurrency, Retry-After pauses, back-off, aborts, leases,
// clamps and garbled values. Real time throughout (no fake timers), sub-second where it can be.
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStore, Pacer, PacingSkipError, RobotsCache, retryAfterMs, parseHttpDate, type PacerOptions, type PacerSlot, type SlotReply, type SlotRequest } from '../src/index.js';
import type { StoreEvent } from '../src/fetch/fleet.js';
import { msUntilOpen } from '../src/pacing/pacer.js';
import { stopSites, type Site } from './support/servers.js';
import { gaps, recordingSite, type Answer, type Recorded } from './support/paced-site.js';

/** Slack for a start recorded by the server after the pacer allowed it. */
const SLACK_MS = 20;

let started: Site[] = [];
afterEach(async () => {
  await stopSites(started);
  started = [];
});

/** A recording server (test/support/paced-site.ts), stopped after the test. */
async function site(robots: string, answer?: Answer, robotsStatus?: number, robotsHeaders?: Record<string, string>): Promise<Recorded> {
  const rec = await recordingSite(robots, answer, robotsStatus, robotsHeaders);
  started.push(rec.site);
  return rec;
}

/** One request through the pacer, released with its outcome. */
async function request(pacer: Pacer, url: string): Promise<number> {
  const slot = await pacer.acquire(url);
  try {
    const res = await fetch(url);
    await res.arrayBuffer();
    slot.release({ status: res.status, headers: res.headers });
    return res.status;
  } catch (error) {
    slot.release({ error });
    throw error;
  }
}

/** `count` requests to `rec`'s site at once. */
function crawl(pacer: Pacer, rec: Recorded, count: number): Promise<number[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => request(pacer, `${rec.site.origin}/page/${i}`)));
}

/** `count` requests one after the other. */
async function sequential(pacer: Pacer, rec: Recorded, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await request(pacer, `${rec.site.origin}/seq/${i}`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pacer = (options: Partial<PacerOptions> = {}) => new Pacer({ agent: 'ExampleBot', ...options });

describe('Pacer: spacing from robots.txt', () => {
  it('Crawl-delay: 1 spaces starts a second apart; another origin is not slowed by it', async () => {
    const slow = await site('User-agent: *\nCrawl-delay: 1\n');
    const fast = await site('User-agent: *\nCrawl-delay: 0.1\n');
    const cache = new RobotsCache({ agent: 'ExampleBot' });
    const p = pacer({ cache });
    const t0 = Date.now();
    const fastDone = crawl(p, fast, 6).then(() => Date.now() - t0);
    await crawl(p, slow, 6);
    expect(slow.starts).toHaveLength(6);
    for (const gap of gaps(slow.starts)) expect(gap).toBeGreaterThanOrEqual(1000 - SLACK_MS);
    // Six starts 100 ms apart take about half a second, not the slow origin's five.
    expect(await fastDone).toBeLessThan(1500);
    for (const gap of gaps(fast.starts)) expect(gap).toBeGreaterThanOrEqual(100 - SLACK_MS);
    // The pacer read robots.txt through the cache given: one fetch per origin.
    expect(cache.fetches).toBe(2);
    expect(p.stats().acquired).toBe(12);
  }, 20_000);

  it('serves the waiters of one origin in the order they came', async () => {
    const rec = await site('User-agent: *\nCrawl-delay: 0.05\n');
    const p = pacer();
    const order: number[] = [];
    await Promise.all(Array.from({ length: 8 }, async (_, i) => {
      const slot = await p.acquire(`${rec.site.origin}/${i}`);
      order.push(i);
      slot.release({ status: 200 });
    }));
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('Request-rate counts too: 10/1s is 100 ms', async () => {
    const rec = await site('User-agent: *\nRequest-rate: 10/1s\n');
    await crawl(pacer(), rec, 5);
    for (const gap of gaps(rec.starts)) expect(gap).toBeGreaterThanOrEqual(100 - SLACK_MS);
  });
});

describe('Pacer: concurrency and leases', () => {
  it('maxConcurrentPerOrigin: 2 never has more than 2 in flight', async () => {
    const rec = await site('User-agent: *\n', () => ({ status: 200, holdMs: 120 }));
    await crawl(pacer({ maxConcurrentPerOrigin: 2 }), rec, 8);
    expect(rec.maxInFlight).toBe(2);
    expect(rec.starts).toHaveLength(8);
  });

  it('a slot never released frees itself after leaseMs', async () => {
    const rec = await site('User-agent: *\n');
    const p = pacer({ leaseMs: 250 });
    const url = `${rec.site.origin}/a`;
    const lost = await p.acquire(url);
    const t = Date.now();
    const next = await p.acquire(url);
    expect(Date.now() - t).toBeGreaterThanOrEqual(250 - SLACK_MS);
    next.release({ status: 200 });
    // The lease released it: a late release does nothing.
    lost.release({ status: 503 });
    expect(p.stats().backoffs).toBe(0);
  });
});

describe('Pacer: responses steer it', () => {
  it('429 with Retry-After: 2 (seconds) pauses the origin two seconds', async () => {
    const rec = await site('User-agent: *\n', (n) => (n === 0 ? { status: 429, headers: { 'retry-after': '2' } } : { status: 200 }));
    const p = pacer();
    await sequential(p, rec, 3);
    expect(gaps(rec.starts)[0]).toBeGreaterThanOrEqual(2000 - SLACK_MS);
    expect(gaps(rec.starts)[1]).toBeLessThan(500);
    expect(p.stats().pauses).toBe(1);
  });

  it('503 with Retry-After as an HTTP-date pauses until that date', async () => {
    let until = 0;
    const rec = await site('User-agent: *\n', (n) => {
      if (n > 0) return { status: 200 };
      const date = new Date(Math.ceil((Date.now() + 1500) / 1000) * 1000).toUTCString();
      until = Date.parse(date);
      return { status: 503, headers: { 'retry-after': date } };
    });
    await sequential(pacer(), rec, 2);
    expect(rec.starts[1]).toBeGreaterThanOrEqual(until - SLACK_MS);
    expect(rec.starts[1] - rec.starts[0]).toBeGreaterThanOrEqual(1500 - SLACK_MS);
  });

  it('a robots.txt answered 503 with Retry-After: 2 pauses its origin two seconds (the cache keeps it disallowed until then)', async () => {
    const rec = await site('', undefined, 503, { 'retry-after': '2' });
    const p = pacer();
    const asked = Date.now();
    await request(p, `${rec.site.origin}/a`);
    expect(rec.starts[0] - asked).toBeGreaterThanOrEqual(2000 - SLACK_MS);
    expect(rec.starts[0] - asked).toBeLessThan(3000);
    expect(p.stats().pauses).toBe(1);
  });

  it('Retry-After: 999999999 is capped at maxRetryAfterMs', async () => {
    const rec = await site('User-agent: *\n', (n) => (n === 0 ? { status: 429, headers: { 'retry-after': '999999999' } } : { status: 200 }));
    await sequential(pacer({ maxRetryAfterMs: 300 }), rec, 2);
    expect(gaps(rec.starts)[0]).toBeGreaterThanOrEqual(300 - SLACK_MS);
    expect(gaps(rec.starts)[0]).toBeLessThan(1000);
  });

  it('503 without Retry-After backs off exponentially, and a 200 resets it', async () => {
    const answers = [503, 503, 503, 200, 503, 200, 200];
    const rec = await site('User-agent: *\n', (n) => ({ status: answers[n] }));
    const p = pacer({ backoffBaseMs: 200, backoffMaxMs: 600 });
    await sequential(p, rec, answers.length);
    const g = gaps(rec.starts);
    // 200, 400, then 800 capped at 600; after the 200 no wait; the next 503 starts over at 200.
    expect(g[0]).toBeGreaterThanOrEqual(200 - SLACK_MS);
    expect(g[1]).toBeGreaterThanOrEqual(400 - SLACK_MS);
    expect(g[2]).toBeGreaterThanOrEqual(600 - SLACK_MS);
    expect(g[2]).toBeLessThan(790);
    expect(g[3]).toBeLessThan(190);
    expect(g[4]).toBeGreaterThanOrEqual(200 - SLACK_MS);
    expect(g[4]).toBeLessThan(390);
    expect(g[5]).toBeLessThan(190);
    expect(p.stats().backoffs).toBe(4);
  });

  it('connection errors back off too', async () => {
    const rec = await site('User-agent: *\n');
    const p = pacer({ backoffBaseMs: 150 });
    const url = `${rec.site.origin}/x`;
    (await p.acquire(url)).release({ error: new Error('ECONNRESET') });
    const t = Date.now();
    (await p.acquire(url)).release({ status: 200 });
    expect(Date.now() - t).toBeGreaterThanOrEqual(150 - SLACK_MS);
  });

  it('garbled Retry-After values are ignored: the 429 backs off like one without the header', async () => {
    for (const value of ['-5', 'NaN', 'soon', '1.5', '1e3', 'Mon, 32 Feb 2026 00:00:00 GMT', '', ' 2 2']) {
      const rec = await site('User-agent: *\n', (n) => (n === 0 ? { status: 429, headers: { 'retry-after': value } } : { status: 200 }));
      const p = pacer({ backoffBaseMs: 60 });
      await sequential(p, rec, 2);
      expect(gaps(rec.starts)[0], value).toBeGreaterThanOrEqual(60 - SLACK_MS);
      expect(gaps(rec.starts)[0], value).toBeLessThan(400);
      expect(p.stats().pauses, value).toBe(0);
    }
  });

  it('outcomes that make no sense steer nothing and do not throw', async () => {
    const rec = await site('User-agent: *\n');
    // The 429s with unreadable headers back off (as without Retry-After): 10 ms keeps it quick.
    const p = pacer({ backoffBaseMs: 10, backoffMaxMs: 10 });
    const url = `${rec.site.origin}/x`;
    for (const outcome of [undefined, null, 42, {}, { status: 'x' }, { status: 1e9 }, { status: 429, headers: 'nope' }, { status: 503, headers: { 'retry-after': [7] } }]) {
      const slot = await p.acquire(url);
      expect(() => slot.release(outcome as never)).not.toThrow();
    }
  });
});

describe('Pacer: aborts and memory', () => {
  it('an aborted wait rejects with the reason, leaves the queue empty, and the next waiter is still served in order', async () => {
    const rec = await site('User-agent: *\nCrawl-delay: 0.3\n');
    const p = pacer();
    const url = `${rec.site.origin}/a`;
    const order: string[] = [];
    const first = await p.acquire(url);
    const controller = new AbortController();
    const aborted = p.acquire(url, { signal: controller.signal });
    const third = p.acquire(url).then((slot) => (order.push('third'), slot));
    const fourth = p.acquire(url).then((slot) => (order.push('fourth'), slot));
    await sleep(50);
    expect(p.stats().origins[rec.site.origin].waiting).toBe(3);
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(aborted).rejects.toBe(reason);
    expect(p.stats().origins[rec.site.origin].waiting).toBe(2);
    first.release({ status: 200 });
    (await third).release({ status: 200 });
    (await fourth).release({ status: 200 });
    expect(order).toEqual(['third', 'fourth']);
    // An aborted signal given up front rejects at once.
    const done = new AbortController();
    done.abort('gone');
    await expect(p.acquire(url, { signal: done.signal })).rejects.toBe('gone');
  });

  it('forgets an origin within a second once it is idle and its next start is past', async () => {
    const rec = await site('User-agent: *\nCrawl-delay: 0.1\n');
    const p = pacer();
    await crawl(p, rec, 2);
    expect(Object.keys(p.stats().origins)).toEqual([rec.site.origin]);
    await sleep(1150);
    expect(p.stats().origins).toEqual({});
    expect(p.stats().acquired).toBe(2);
  });
});

describe('Pacer: clamps, unreadable robots.txt, garbled values', () => {
  it('minDelayMs is a floor under a smaller Crawl-delay', async () => {
    const rec = await site('User-agent: *\nCrawl-delay: 0.01\n');
    await crawl(pacer({ minDelayMs: 150 }), rec, 4);
    for (const gap of gaps(rec.starts)) expect(gap).toBeGreaterThanOrEqual(150 - SLACK_MS);
  });

  it('maxDelayMs caps a larger one (tooLong: wait)', async () => {
    const rec = await site('User-agent: *\nCrawl-delay: 30\n');
    await crawl(pacer({ maxDelayMs: 150 }), rec, 4);
    for (const gap of gaps(rec.starts)) {
      expect(gap).toBeGreaterThanOrEqual(150 - SLACK_MS);
      expect(gap).toBeLessThan(600);
    }
  });

  it("tooLong: 'skip' rejects with a PacingSkipError naming the origin and the delay", async () => {
    const rec = await site('User-agent: *\nCrawl-delay: 30\n');
    const p = pacer({ maxDelayMs: 150, tooLong: 'skip' });
    const error = await p.acquire(`${rec.site.origin}/a`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PacingSkipError);
    expect(error).toMatchObject({ origin: rec.site.origin, delayMs: 30_000 });
    expect(p.stats().skips).toBe(1);
    // Nothing is left waiting or held, and the origin is forgotten at the next sweep.
    expect(p.stats().origins[rec.site.origin]).toMatchObject({ waiting: 0, held: 0, skips: 1 });
    await sleep(1100);
    expect(p.stats().origins).toEqual({});
  });

  it('an unreachable or unavailable robots.txt gives minDelayMs', async () => {
    const down = await site('User-agent: *\nCrawl-delay: 5\n', undefined, 500);
    const missing = await site('', undefined, 404);
    const p = pacer({ minDelayMs: 100 });
    await Promise.all([crawl(p, down, 3), crawl(p, missing, 3)]);
    for (const rec of [down, missing]) {
      for (const gap of gaps(rec.starts)) {
        expect(gap).toBeGreaterThanOrEqual(100 - SLACK_MS);
        expect(gap).toBeLessThan(400);
      }
    }
  });

  it('a garbled Crawl-delay reads as none', async () => {
    const rec = await site('User-agent: *\nCrawl-delay: soon\nCrawl-delay: -1\nCrawl-delay: 1e3\nRequest-rate: 0/1s\n');
    const t = Date.now();
    await crawl(pacer(), rec, 5);
    expect(Date.now() - t).toBeLessThan(500);
  });

  it('Visit-time: waits while the window is closed, starts when it is open', async () => {
    const hhmm = (minute: number) => {
      const m = ((minute % 1440) + 1440) % 1440;
      return `${String(Math.floor(m / 60)).padStart(2, '0')}${String(m % 60).padStart(2, '0')}`;
    };
    const now = new Date();
    const minute = now.getUTCHours() * 60 + now.getUTCMinutes();
    const closed = await site(`User-agent: *\nVisit-time: ${hhmm(minute + 5)}-${hhmm(minute + 6)}\n`);
    const open = await site(`User-agent: *\nVisit-time: ${hhmm(minute - 2)}-${hhmm(minute + 3)}\n`);
    const p = pacer({ respectVisitTime: true });
    (await p.acquire(`${open.site.origin}/a`)).release({ status: 200 });
    const controller = new AbortController();
    const waiting = p.acquire(`${closed.site.origin}/a`, { signal: controller.signal });
    await sleep(150);
    expect(p.stats().origins[closed.site.origin].waiting).toBe(1);
    controller.abort(new Error('closed'));
    await expect(waiting).rejects.toThrow('closed');
    // Without respectVisitTime the window is not waited for.
    (await pacer().acquire(`${closed.site.origin}/a`)).release({ status: 200 });
  });
});

/** `count` pacers, each on its own RobotsCache, all on one store: processes of a fleet, in one. */
function fleet(count: number, store: MemoryStore, options: Partial<PacerOptions> = {}, onStoreEvent?: (event: StoreEvent) => void): Pacer[] {
  return Array.from({ length: count }, () => pacer({ cache: new RobotsCache({ agent: 'ExampleBot', store, onStoreEvent }), ...options }));
}

describe('Pacer: pacers sharing a store pace each origin together', () => {
  it('starts from three pacers are spaced by the delay across all three; with fleet: false they are not', async () => {
    const rec = await site('User-agent: *\nCrawl-delay: 0.3\n');
    const store = new MemoryStore();
    await Promise.all(fleet(3, store).map((p) => sequential(p, rec, 3)));
    expect(rec.starts).toHaveLength(9);
    for (const gap of gaps(rec.starts)) expect(gap).toBeGreaterThanOrEqual(300 - SLACK_MS);
    // The same pacers pacing alone start together.
    const alone = await site('User-agent: *\nCrawl-delay: 0.3\n');
    await Promise.all(fleet(3, new MemoryStore(), { fleet: false }).map((p) => sequential(p, alone, 1)));
    expect(Math.max(...alone.starts) - Math.min(...alone.starts)).toBeLessThan(150);
  }, 20_000);

  it('maxConcurrentPerOrigin: 2 holds across pacers', async () => {
    const rec = await site('User-agent: *\n', () => ({ status: 200, holdMs: 150 }));
    await Promise.all(fleet(3, new MemoryStore(), { maxConcurrentPerOrigin: 2 }).map((p) => crawl(p, rec, 4)));
    expect(rec.starts).toHaveLength(12);
    expect(rec.maxInFlight).toBe(2);
  });

  it('a Retry-After one pacer gets pauses the origin for the others', async () => {
    const rec = await site('User-agent: *\n', (n) => (n === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 }));
    const [a, b] = fleet(2, new MemoryStore());
    expect(await request(a, `${rec.site.origin}/first`)).toBe(429);
    const paused = Date.now();
    await request(b, `${rec.site.origin}/second`);
    expect(rec.starts[1] - paused).toBeGreaterThanOrEqual(1000 - SLACK_MS);
    expect(b.stats().pauses).toBe(0);
  });

  it('a wait aborted after its start was reserved gives the slot and its spacing back', async () => {
    const rec = await site('User-agent: *\nCrawl-delay: 0.5\n');
    const [a, b, c] = fleet(3, new MemoryStore());
    const url = `${rec.site.origin}/x`;
    await request(a, url);
    const t0 = rec.starts[0];
    const controller = new AbortController();
    const aborted = b.acquire(url, { signal: controller.signal });
    await sleep(100);
    controller.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
    // Kept, b's reservation would hold the origin's one slot for its 60 s lease, and the start
    // after it would wait a second delay.
    const slot = await c.acquire(url);
    slot.release({ status: 200 });
    expect(slot.startedAt - t0).toBeGreaterThanOrEqual(500 - SLACK_MS);
    expect(slot.startedAt - t0).toBeLessThan(800);
  });

  it('a store that fails: each pacer paces alone, the outage is reported once, and unshared starts are counted', async () => {
    const rec = await site('User-agent: *\nCrawl-delay: 0.2\n');
    class FailingLedger extends MemoryStore {
      override async reserveSlot(): Promise<SlotReply> {
        throw new Error('ledger down');
      }
    }
    const events: string[] = [];
    const [p] = fleet(1, new FailingLedger(), {}, (event) => events.push(event.type));
    await sequential(p, rec, 4);
    for (const gap of gaps(rec.starts)) expect(gap).toBeGreaterThanOrEqual(200 - SLACK_MS);
    expect(events).toEqual(['unavailable']);
    expect(p.stats().unshared).toBe(4);
  });

  it('a slow ledger is no wait: only starts the spacing held back count as waits', async () => {
    const rec = await site('User-agent: *\nCrawl-delay: 0.2\n');
    class SlowLedger extends MemoryStore {
      override async reserveSlot(key: string, slot: string, request: SlotRequest): Promise<SlotReply> {
        await sleep(30);
        return super.reserveSlot(key, slot, request);
      }
    }
    const [p] = fleet(1, new SlowLedger());
    await sequential(p, rec, 3);
    // The first start waited for the ledger's answer, not for the spacing; the two after it
    // were held back by the Crawl-delay.
    expect([p.stats().acquired, p.stats().waits]).toEqual([3, 2]);
    for (const gap of gaps(rec.starts)) expect(gap).toBeGreaterThanOrEqual(200 - SLACK_MS);
  });

  it('a store asking absurd waits is held to the longest wait a pacer asks', async () => {
    const rec = await site('User-agent: *\n');
    class ForgedLedger extends MemoryStore {
      override async reserveSlot(key: string, slot: string, request: SlotRequest): Promise<SlotReply> {
        await super.reserveSlot(key, slot, request);
        return { reserved: true, waitMs: 1e12 };
      }
    }
    const [p] = fleet(1, new ForgedLedger(), { maxDelayMs: 300, maxRetryAfterMs: 300, backoffBaseMs: 100, backoffMaxMs: 300 });
    const t0 = Date.now();
    await request(p, `${rec.site.origin}/a`);
    expect(rec.starts[0] - t0).toBeGreaterThanOrEqual(300 - SLACK_MS);
    expect(rec.starts[0] - t0).toBeLessThan(800);
  });
});

describe('Pacer: usage errors', () => {
  it('an invalid URL rejects with a TypeError', async () => {
    const p = pacer();
    await expect(p.acquire('not a url')).rejects.toThrow(TypeError);
    await expect(p.acquire('ftp://example.com/x')).rejects.toThrow(/absolute http\(s\) URL/);
    await expect(p.acquire(42 as never)).rejects.toThrow(TypeError);
  });

  it('invalid options throw a RangeError', () => {
    for (const options of [
      {}, { agent: '' }, { agent: 'A', minDelayMs: -1 }, { agent: 'A', maxDelayMs: 1.5 }, { agent: 'A', minDelayMs: 100, maxDelayMs: 50 },
      { agent: 'A', tooLong: 'later' }, { agent: 'A', maxConcurrentPerOrigin: 0 }, { agent: 'A', leaseMs: 0 }, { agent: 'A', leaseMs: 2 ** 31 },
      { agent: 'A', backoffBaseMs: NaN }, { agent: 'A', backoffBaseMs: 500, backoffMaxMs: 100 }, { agent: 'A', respectVisitTime: 'yes' },
      { cache: {} }, { agent: 'A', fleet: 'yes' },
    ]) {
      expect(() => new Pacer(options as never), JSON.stringify(options)).toThrow(RangeError);
    }
    expect(() => new Pacer(undefined as never)).toThrow(RangeError);
  });
});

describe('Retry-After and Visit-time arithmetic', () => {
  const now = Date.UTC(2026, 0, 1, 12, 0, 0);
  it('reads delta-seconds and the three HTTP-date forms', () => {
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Thu, 01 Jan 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Thursday, 01-Jan-26 12:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterMs('Thu Jan  1 12:00:05 2026', now)).toBe(5000);
    // A date in the past asks no wait.
    expect(retryAfterMs('Thu, 01 Jan 2015 12:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('9'.repeat(400), now)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('reads garbage as absent', () => {
    for (const value of ['-1', '1.5', 'NaN', 'Infinity', '0x10', '1e3', 'soon', '', 'Thu, 31 Feb 2026 00:00:00 GMT', 'Thu, 01 Jan 2026 25:00:00 GMT', '2026-01-01T00:00:00Z']) {
      expect(retryAfterMs(value, now), value).toBeUndefined();
    }
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT')).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
  });

  it('msUntilOpen: 0 inside a window, the time to the nearest start outside, windows across midnight', () => {
    const at = (h: number, m: number) => Date.UTC(2026, 0, 1, h, m);
    expect(msUntilOpen(undefined, at(3, 0))).toBe(0);
    expect(msUntilOpen([{ start: 360, end: 525 }], at(7, 0))).toBe(0);
    expect(msUntilOpen([{ start: 360, end: 525 }], at(5, 0))).toBe(3_600_000);
    expect(msUntilOpen([{ start: 360, end: 525 }], at(9, 0))).toBe(21 * 3_600_000);
    expect(msUntilOpen([{ start: 1380, end: 180 }], at(1, 0))).toBe(0);
    expect(msUntilOpen([{ start: 1380, end: 180 }, { start: 600, end: 660 }], at(4, 0))).toBe(6 * 3_600_000);
    expect(msUntilOpen([{ start: 0, end: 0 }], at(4, 0))).toBe(0);
  });
});

export type { PacerSlot };
