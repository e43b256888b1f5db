// What a fleet process does with what it did not write under the prefix (npm run test:redis):
// a huge value is not read, a forged record is not trusted when the fleet has a key, and a
// lease or reply the protocol does not make stalls nobody. Child processes on a real
// redis-server, against servers on 127.0.0.1 that count the requests they receive.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValueSigner } from '../../src/fetch/signing.js';
import { encodeStoredRecord } from '../../src/fetch/store.js';
import { startSites, type Site } from '../support/servers.js';
import { fleetTests, RedisServer } from './support.js';

const KEY = 'a fleet key of 32 bytes, for test';
const { state, fleetOptions, start } = fleetTests('trust');
let client: Awaited<ReturnType<RedisServer['client']>>;

beforeAll(async () => {
  client = await state.redis.client();
});

afterAll(async () => {
  await client.close();
});

const hits = (site: Site) => site.hits.get('/robots.txt') ?? 0;

/** Sites whose robots.txt disallows everything, after `delayMs`. */
function closedSites(count: number, delayMs = 0): Promise<Site[]> {
  return startSites(count, (req, res) => {
    if (req.url !== '/robots.txt') return void res.writeHead(404).end();
    setTimeout(() => res.writeHead(200, { 'cache-control': 'max-age=3600' }).end('User-agent: *\nDisallow: /\n'), delayMs);
  });
}

/** A store value saying `origin` allows everything, with a correct CRC-32C: what anyone who can write the prefix can make. */
function allowAll(origin: string): string {
  const now = Date.now();
  return encodeStoredRecord({
    status: 'ok', origin, httpStatus: 200, finalUrl: `${origin}/robots.txt`, redirects: 0, fetchedAt: now, expiresAt: now + 3_600_000,
    error: undefined, body: Buffer.from('User-agent: *\nAllow: /\n').toString('base64'), etag: undefined, lastModified: undefined, unreachableSince: undefined,
  });
}

/** `check` and how long it took. */
async function timed<T>(check: Promise<T>): Promise<T & { ms: number }> {
  const started = Date.now();
  const reply = await check;
  return { ...reply, ms: Date.now() - started };
}

describe('values the fleet did not write', () => {
  it('a 100 MB value under an origin is never read: the process stays near its baseline RSS and fetches the origin itself', async () => {
    state.sites = await closedSites(1);
    const origin = state.sites[0].origin;
    const urls = [`${origin}/secret`];
    const baseline = await start(fleetOptions()).check(urls);
    const options = fleetOptions();
    const key = `${options.prefix}robots:${origin}`;
    // Built inside Redis (SETRANGE pads with zero bytes), so the test sends no 100 MB itself.
    await client.set(key, allowAll(origin));
    await client.setRange(key, 100_000_000, 'x');
    expect(await client.strLen(key)).toBe(100_000_001);
    const reply = await start(options).check(urls);
    expect([baseline.verdicts, reply.verdicts]).toEqual(['0', '0']);
    expect(reply.maxRssKb).toBeLessThan(baseline.maxRssKb + 60 * 1024);
    expect(hits(state.sites[0])).toBe(2);
    // The fetched record replaced it.
    expect(await client.strLen(key)).toBeLessThan(10_000);
  }, 60_000);

  describe('with a fleet key', () => {
    it('a forged record with a valid CRC is refused, refetched and replaced; a record signed with the key is used', async () => {
      state.sites = await closedSites(3);
      const [forged, wrongKey, signed] = state.sites.map((s) => s.origin);
      const options = fleetOptions({ key: KEY });
      const key = (origin: string) => `${options.prefix}robots:${origin}`;
      await client.set(key(forged), allowAll(forged));
      await client.set(key(wrongKey), await new ValueSigner('another key of at least 16 bytes').sign(wrongKey, allowAll(wrongKey)));
      await client.set(key(signed), await new ValueSigner(KEY).sign(signed, allowAll(signed)));
      const reply = await start(options).check([forged, wrongKey, signed].map((o) => `${o}/secret`));
      expect(reply.verdicts).toBe('001');
      expect(state.sites.map(hits)).toEqual([1, 1, 0]);
      for (const origin of [forged, wrongKey]) expect(await client.get(key(origin))).toMatch(/^hmac-sha256 [0-9a-f]{64}\nrobots-wasm-record\/1 /);
      // A second process uses the replacements: no fetch, the real verdicts.
      expect(await start(options).check([forged, wrongKey].map((o) => `${o}/secret`))).toMatchObject({ verdicts: '00', fetches: 0 });
    }, 30_000);

    it('a record signed for origin A, copied under origin B, is refused there', async () => {
      state.sites = await closedSites(2);
      const [a, b] = state.sites.map((s) => s.origin);
      const options = fleetOptions({ key: KEY });
      const signer = new ValueSigner(KEY);
      // A's own record, and one that names B but whose tag was made for A.
      await client.set(`${options.prefix}robots:${a}`, await signer.sign(a, allowAll(a)));
      await client.set(`${options.prefix}robots:${b}`, await signer.sign(a, allowAll(b)));
      expect((await start(options).check([`${a}/secret`, `${b}/secret`])).verdicts).toBe('10');
      expect(state.sites.map(hits)).toEqual([0, 1]);
    }, 30_000);

    it('without a key, the same forged record decides the verdict: what the docs warn of', async () => {
      state.sites = await closedSites(1);
      const options = fleetOptions();
      await client.set(`${options.prefix}robots:${state.sites[0].origin}`, allowAll(state.sites[0].origin));
      expect((await start(options).check([`${state.sites[0].origin}/secret`])).verdicts).toBe('1');
      expect(hits(state.sites[0])).toBe(0);
    }, 30_000);
  });
});

describe('leases and replies the protocol does not make: no lookup stalls', () => {
  it('leases not written by the protocol (any value, no expiry, another type) are reported once and not waited for', async () => {
    state.sites = await closedSites(3);
    const options = fleetOptions();
    const lease = (site: Site) => `${options.prefix}lease:${site.origin}`;
    await client.set(lease(state.sites[0]), 'held by someone else');
    await client.set(lease(state.sites[1]), `${Date.now().toString(36)}-abcdef`); // an owner name, but with no expiry
    await client.hSet(lease(state.sites[2]), 'owner', 'x');
    const process = start(options);
    const reply = await timed(process.check(state.sites.map((s) => `${s.origin}/secret`)));
    expect(reply.verdicts).toBe('000');
    // The default timeouts: a lease the protocol wrote would be waited for up to 11 s.
    expect(reply.ms).toBeLessThan(3000);
    expect(process.events).toEqual(['foreign-lease']);
    expect(state.sites.map(hits)).toEqual([1, 1, 1]);
    // The results were stored: another process fetches nothing.
    expect(await start(options).check(state.sites.map((s) => `${s.origin}/secret`))).toMatchObject({ verdicts: '000', fetches: 0 });
  }, 30_000);

  it('a lease the protocol wrote but nobody lets go: waited for a fetch and a store call at most, then fetched and stored', async () => {
    state.sites = await closedSites(1);
    const options = fleetOptions({ timeoutMs: 1000, storeTimeoutMs: 200 });
    await client.set(`${options.prefix}lease:${state.sites[0].origin}`, `${Date.now().toString(36)}-abcdef`, { PX: 3_600_000 });
    const process = start(options);
    const reply = await timed(process.check([`${state.sites[0].origin}/secret`]));
    expect(reply.verdicts).toBe('0');
    expect(reply.ms).toBeGreaterThanOrEqual(1100);
    expect(reply.ms).toBeLessThan(1200 + 1500);
    expect(process.events).toEqual([]);
    expect(await start(options).check([`${state.sites[0].origin}/secret`])).toMatchObject({ verdicts: '0', fetches: 0 });
  }, 30_000);

  it('a claimant whose SET fails still lets go of its lease: the next process waits for the fetch, not the lease', async () => {
    state.sites = await closedSites(1, 200);
    const origin = state.sites[0].origin;
    const options = fleetOptions();
    // A user that may read records but not write them: its SET fails with NOPERM.
    await client.sendCommand(['ACL', 'SETUSER', 'reader', 'on', '>reader', '+@all', `%R~${options.prefix}robots:*`, `~${options.prefix}lease:*`]);
    const claimant = start({ ...options, redisUrl: state.redis.url.replace('redis://', 'redis://reader:reader@') });
    const claimed = timed(claimant.check([`${origin}/secret`]));
    while (hits(state.sites[0]) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const other = start(options);
    const waited = await timed(other.check([`${origin}/secret`]));
    expect((await claimed).verdicts).toBe('0');
    expect(waited.verdicts).toBe('0');
    // The claimant's 200 ms fetch, then this one's own: far from the 13 s lease.
    expect(waited.ms).toBeLessThan(2500);
    expect(claimant.events).toEqual(['unavailable']);
    expect(other.events).toEqual([]);
    expect(hits(state.sites[0])).toBe(2);
    expect(await client.exists(`${options.prefix}lease:${origin}`)).toBe(0);
  }, 30_000);

  it('a client that returns Buffers: a store failure, reported once, and every lookup fetches at once', async () => {
    state.sites = await closedSites(3);
    const process = start(fleetOptions({ bufferReplies: true }));
    const reply = await timed(process.check(state.sites.map((s) => `${s.origin}/secret`)));
    expect(reply.verdicts).toBe('000');
    expect(reply.ms).toBeLessThan(3000);
    expect(process.events).toEqual(['unavailable']);
    expect(state.sites.map(hits)).toEqual([1, 1, 1]);
  }, 30_000);
});
