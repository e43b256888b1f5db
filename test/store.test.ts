// RobotsCache with a shared store, in one process: the protocol of src/fetch/fleet.ts over
// MemoryStore (the in-memory RobotsStore) and real servers on 127.0.0.1. The fleet of
// processes on a real Redis is test/redis/.
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStore, RobotsCache, type RobotsStore, type StoreEvent } from '../src/index.js';
import { decodeStoredRecord, encodeStoredRecord } from '../src/fetch/store.js';
import type { RobotsCacheRecord } from '../src/fetch/snapshot.js';
import { serve, startSites, stopSites, type Site } from './support/servers.js';

const BODY = 'User-agent: *\nDisallow: /private/\n';
let sites: Site[] = [];

afterEach(async () => {
  await stopSites(sites);
  sites = [];
});

const hits = (site: Site) => site.hits.get('/robots.txt') ?? 0;
const LIMITS = { now: Date.now() + 3_600_000, ttlMs: 86_400_000, unreachableTtlMs: 600_000 };
const MAX_BODY = 512_000;

function record(origin: string, body: string): RobotsCacheRecord {
  const now = Date.now();
  return {
    status: 'ok', origin, httpStatus: 200, finalUrl: `${origin}/robots.txt`, redirects: 0, fetchedAt: now, expiresAt: now + 60_000,
    error: undefined, body: Buffer.from(body).toString('base64'), etag: '"v1"', lastModified: undefined, unreachableSince: undefined,
  };
}

describe('stored records', () => {
  const origin = 'https://example.com';

  it('a record survives the store: same fields, same body', () => {
    const value = encodeStoredRecord(record(origin, BODY));
    const checked = decodeStoredRecord(value, origin, LIMITS, MAX_BODY)!;
    expect(checked.record.etag).toBe('"v1"');
    expect(Buffer.from(checked.body!).toString()).toBe(BODY);
  });

  it('a damaged, cut, foreign or misplaced value is refused whole', () => {
    const value = encodeStoredRecord(record(origin, BODY));
    // The body of a disallow-all file with one byte changed still decodes as base64 and parses as rules.
    const json = value.slice(value.indexOf('\n') + 1);
    const flipped = value.slice(0, value.indexOf('\n') + 1) + json.replace(/"body":"(.)/, (_match, c: string) => `"body":"${c === 'V' ? 'W' : 'V'}`);
    expect(flipped).not.toBe(value);
    for (const bad of [
      flipped,
      value.slice(0, value.length - 10),
      value.slice(0, value.indexOf('\n')),
      '',
      'garbage',
      json,
      value.replace('robots-wasm-record/1', 'robots-wasm-record/2'),
    ]) {
      expect(decodeStoredRecord(bad, origin, LIMITS, MAX_BODY)).toBeUndefined();
    }
    expect(decodeStoredRecord(value, 'https://other.example', LIMITS, MAX_BODY)).toBeUndefined();
    // A checksum over a record with a bad field: refused by the field checks.
    const future = encodeStoredRecord({ ...record(origin, BODY), fetchedAt: Date.now() + 86_400_000 * 10 });
    expect(decodeStoredRecord(future, origin, LIMITS, MAX_BODY)).toBeUndefined();
  });

  it('a value longer than a record of the largest body can be is refused unread', () => {
    const body = 'x'.repeat(3000);
    const value = encodeStoredRecord(record(origin, body));
    expect(decodeStoredRecord(value, origin, LIMITS, 3000)).toBeDefined();
    expect(decodeStoredRecord(value, origin, LIMITS, 1000)).toBeDefined();
    expect(decodeStoredRecord(value + ' '.repeat(70_000), origin, LIMITS, 1000)).toBeUndefined();
  });
});

describe('RobotsCache with a store', () => {
  it('a second cache answers from the store without fetching', async () => {
    sites = await startSites(3, serve(BODY, { 'cache-control': 'max-age=3600' }));
    const store = new MemoryStore();
    const first = new RobotsCache({ agent: 'ExampleBot', store });
    const urls = sites.flatMap((s) => [`${s.origin}/private/a`, `${s.origin}/public`]);
    expect([...(await first.checkMany(urls))]).toEqual([0, 1, 0, 1, 0, 1]);
    const second = new RobotsCache({ agent: 'ExampleBot', store });
    expect([...(await second.checkMany(urls))]).toEqual([0, 1, 0, 1, 0, 1]);
    expect(second.fetches).toBe(0);
    expect(sites.map(hits)).toEqual([1, 1, 1]);
    expect(store.size).toBe(3);
  });

  it("a Retry-After longer than unreachableTtlMs is kept by the store: the second cache waits for the time named too", async () => {
    sites = await startSites(1, serve('', { 'retry-after': '3600' }, 503));
    const origin = sites[0].origin;
    const store = new MemoryStore();
    const first = new RobotsCache({ agent: 'ExampleBot', store });
    expect(await first.isAllowed(`${origin}/page`)).toBe(false);
    const fetched = await first.get(origin);
    expect(fetched.expiresAt - fetched.fetchedAt).toBeGreaterThan(3_590_000);
    const value = (await store.get(origin))!;
    expect(decodeStoredRecord(value, origin, LIMITS, MAX_BODY)!.record).toMatchObject({ retryAt: fetched.retryAt, expiresAt: fetched.expiresAt });
    const second = new RobotsCache({ agent: 'ExampleBot', store });
    const shared = await second.get(origin);
    expect([shared.status, shared.retryAt, shared.expiresAt]).toEqual(['unreachable', fetched.retryAt, fetched.expiresAt]);
    expect(second.fetches).toBe(0);
    expect(hits(sites[0])).toBe(1);
    // A value an older member wrote, without retryAt, still reads (under unreachableTtlMs, as then).
    const { retryAt, ...older } = JSON.parse(value.slice(value.indexOf('\n') + 1)) as RobotsCacheRecord;
    void retryAt;
    const checked = decodeStoredRecord(encodeStoredRecord(older), origin, LIMITS, MAX_BODY)!;
    expect([checked.record.retryAt, checked.record.expiresAt]).toEqual([undefined, fetched.fetchedAt + 600_000]);
  });

  it('five caches asking for 50 origins at once: each robots.txt fetched once in all', async () => {
    sites = await startSites(50, (req, res, site) => setTimeout(() => serve(BODY)(req, res, site), 30));
    const store = new MemoryStore();
    const caches = Array.from({ length: 5 }, () => new RobotsCache({ agent: 'ExampleBot', store }));
    const urls = sites.map((s) => `${s.origin}/private/x`);
    const verdicts = await Promise.all(caches.map((cache) => cache.checkMany(urls)));
    for (const v of verdicts) expect([...v]).toEqual(urls.map(() => 0));
    expect(sites.map(hits)).toEqual(sites.map(() => 1));
    expect(caches.reduce((sum, cache) => sum + cache.fetches, 0)).toBe(50);
  });

  it('garbage under an origin is refetched and replaced, never read as rules', async () => {
    sites = await startSites(1, serve(BODY));
    const store = new MemoryStore();
    const origin = sites[0].origin;
    // An allow-all file, stored with a checksum that does not match.
    const forged = encodeStoredRecord(record(origin, '')).replace(/ [0-9a-f]{8}\n/, ' 00000000\n');
    await store.set(origin, forged, 60_000);
    const cache = new RobotsCache({ agent: 'ExampleBot', store });
    expect(await cache.isAllowed(`${origin}/private/x`)).toBe(false);
    expect(hits(sites[0])).toBe(1);
    const stored = decodeStoredRecord((await store.get(origin))!, origin, { ...LIMITS, now: Date.now() }, MAX_BODY);
    expect(Buffer.from(stored!.body!).toString()).toBe(BODY);
  });

  it("a record from a machine whose clock is ahead by seconds is used; one from the far future is refetched", async () => {
    sites = await startSites(2, serve(BODY));
    const store = new MemoryStore();
    const [near, far] = sites;
    const ahead = (origin: string, ms: number) => ({ ...record(origin, ''), fetchedAt: Date.now() + ms, expiresAt: Date.now() + ms + 60_000 });
    await store.set(near.origin, encodeStoredRecord(ahead(near.origin, 30_000)), 60_000);
    await store.set(far.origin, encodeStoredRecord(ahead(far.origin, 600_000)), 60_000);
    const cache = new RobotsCache({ agent: 'ExampleBot', store });
    // The stored near record is allow-all: used as it is, not fetched.
    expect([...(await cache.checkMany([`${near.origin}/private/x`, `${far.origin}/private/x`]))]).toEqual([1, 0]);
    expect([hits(near), hits(far)]).toEqual([0, 1]);
  });

  /** The methods of `store`, bound, to build a store that differs in one. */
  function bound(store: MemoryStore): RobotsStore {
    return {
      get: (key) => store.get(key), set: (key, value, ttl) => store.set(key, value, ttl), delete: (key) => store.delete(key),
      claim: (key, owner, lease) => store.claim(key, owner, lease), release: (key, owner) => store.release(key, owner),
    };
  }

  /** A lease owner name as the protocol makes them (time and random words, base 36). */
  const OWNER = `${Date.now().toString(36)}-1x2y3z4w`;

  /** A site whose lease another holds for `leaseMs`: a cache's verdict for it, how long it waited, what it reported and stored. */
  async function checkPastLease(holder: string, leaseMs: number, timeoutMs: number) {
    sites = await startSites(1, serve(BODY));
    const store = new MemoryStore();
    const origin = sites[0].origin;
    await store.claim(origin, holder, leaseMs);
    const events: StoreEvent[] = [];
    const cache = new RobotsCache({ agent: 'ExampleBot', store, timeoutMs, storeTimeoutMs: 100, onStoreEvent: (e) => events.push(e) });
    const started = Date.now();
    const allowed = await cache.isAllowed(`${origin}/private/x`);
    return { allowed, waited: Date.now() - started, events, stored: await store.get(origin) };
  }

  it('a lease held by a process that died: the origin is fetched once the lease lapses', async () => {
    const { allowed, waited, events } = await checkPastLease(OWNER, 400, 2000);
    expect(allowed).toBe(false);
    expect(waited).toBeGreaterThanOrEqual(390);
    expect(hits(sites[0])).toBe(1);
    expect(events).toEqual([]);
  });

  it('a lease never let go is waited for at most the fetch timeout plus a store call, then fetched and stored', async () => {
    const { allowed, waited, stored } = await checkPastLease(OWNER, 3_600_000, 300);
    expect(allowed).toBe(false);
    expect(waited).toBeGreaterThanOrEqual(390);
    expect(waited).toBeLessThan(3000);
    expect(hits(sites[0])).toBe(1);
    expect(stored).toMatch(/^robots-wasm-record\/1 /);
  });

  it('a lease the protocol did not write is reported and waited for one short poll, then fetched and stored', async () => {
    const { allowed, waited, events, stored } = await checkPastLease('not an owner name', 3_600_000, 2000);
    expect(allowed).toBe(false);
    expect(waited).toBeLessThan(500);
    expect(events).toEqual([{ type: 'foreign-lease', key: sites[0].origin }]);
    expect(hits(sites[0])).toBe(1);
    expect(stored).toMatch(/^robots-wasm-record\/1 /);
  });

  it('an expired stored file is revalidated by whichever cache needs it: one 304, shared', async () => {
    let conditional = 0;
    sites = await startSites(1, (req, res, site) => {
      if (req.headers['if-none-match'] === '"v1"') {
        conditional++;
        res.writeHead(304, { 'cache-control': 'max-age=1' }).end();
        return;
      }
      serve(BODY, { etag: '"v1"', 'cache-control': 'max-age=1' })(req, res, site);
    });
    const store = new MemoryStore();
    const options = { agent: 'ExampleBot', store, minTtlMs: 0 };
    const url = `${sites[0].origin}/private/x`;
    expect(await new RobotsCache(options).isAllowed(url)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const second = new RobotsCache(options);
    expect(await second.isAllowed(url)).toBe(false);
    const third = new RobotsCache(options);
    expect(await third.isAllowed(url)).toBe(false);
    expect([hits(sites[0]), conditional, second.fetches, third.fetches]).toEqual([2, 1, 1, 0]);
  });

  it('a store that fails is reported once per outage, and every verdict is still right', async () => {
    sites = await startSites(4, serve(BODY));
    const memory = new MemoryStore();
    let failing = true;
    // A real store behind a switch: the cache sees it fail and come back.
    const store: RobotsStore = {
      get: (key) => (failing ? Promise.reject(new Error('connection refused')) : memory.get(key)),
      set: (key, value, ttl) => (failing ? Promise.reject(new Error('connection refused')) : memory.set(key, value, ttl)),
      delete: (key) => memory.delete(key),
      claim: (key, owner, lease) => (failing ? Promise.reject(new Error('connection refused')) : memory.claim(key, owner, lease)),
      release: (key, owner) => memory.release(key, owner),
    };
    const events: StoreEvent['type'][] = [];
    const cache = new RobotsCache({ agent: 'ExampleBot', store, storeRetryMs: 100, onStoreEvent: (e) => events.push(e.type) });
    expect([...(await cache.checkMany(sites.slice(0, 2).map((s) => `${s.origin}/private/x`)))]).toEqual([0, 0]);
    expect(events).toEqual(['unavailable']);
    failing = false;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect([...(await cache.checkMany(sites.slice(2).map((s) => `${s.origin}/x`)))]).toEqual([1, 1]);
    expect(events).toEqual(['unavailable', 'available']);
    expect(memory.size).toBe(2);
    expect(sites.map(hits)).toEqual([1, 1, 1, 1]);
  });

  it('a store that answers what no RobotsStore may (a number for a claim, bytes for a value) is out: reported, and the cache fetches at once', async () => {
    sites = await startSites(2, serve(BODY));
    const memory = new MemoryStore();
    const odd: RobotsStore[] = [
      { ...bound(memory), claim: async () => 1 as unknown as boolean },
      { ...bound(memory), get: async () => new Uint8Array(3) as unknown as string },
    ];
    for (const [i, store] of odd.entries()) {
      const events: StoreEvent[] = [];
      const cache = new RobotsCache({ agent: 'ExampleBot', store, onStoreEvent: (e) => events.push(e) });
      const started = Date.now();
      expect(await cache.isAllowed(`${sites[i].origin}/private/x`)).toBe(false);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(events).toMatchObject([{ type: 'unavailable', error: { message: expect.stringMatching(/^the store answered (number|bytes), which a RobotsStore never does$/) } }]);
    }
    expect(sites.map(hits)).toEqual([1, 1]);
  });

  it('a store without the RobotsStore methods is a TypeError naming them', () => {
    expect(() => new RobotsCache({ agent: 'ExampleBot', store: { get: async () => undefined } as unknown as RobotsStore })).toThrow(
      /missing set, delete, claim, release/,
    );
  });
});
