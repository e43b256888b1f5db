// A fleet of crawler processes sharing robots.txt state through a real Redis (npm run
// test:redis): child processes, each with its own RobotsCache on robots-wasm/redis, against
// servers on 127.0.0.1 that count the requests they receive.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { RobotsCache } from '../../src/index.js';
import { decodeStoredRecord, encodeStoredRecord } from '../../src/fetch/store.js';
import { startSites, type Handler, type Site } from '../support/servers.js';
import { fleetTests, freePort } from './support.js';

const { state, fleetOptions, startFleet } = fleetTests('test');

const hits = (site: Site) => site.hits.get('/robots.txt') ?? 0;

/** Each site disallows its own directory, /d<port % 5>/, so that verdicts differ from site to site. */
const perSite: Handler = (req, res, site) => {
  if (req.url !== '/robots.txt') return void res.writeHead(404).end();
  res.writeHead(200, { 'cache-control': 'max-age=3600' }).end(`User-agent: *\nDisallow: /d${Number(new URL(site.origin).port) % 5}/\n`);
};

/** Three URLs per site: one in each of three directories. */
function urlsOf(list: Site[]): string[] {
  return list.flatMap((s) => [`${s.origin}/d0/a`, `${s.origin}/d1/b?q=1`, `${s.origin}/d${Number(new URL(s.origin).port) % 5}/c`]);
}

/** A seeded shuffle, so that each process meets the origins in its own order. */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let x = seed;
  for (let i = out.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** The verdicts of a RobotsCache of this process, with no store: what every fleet process must answer. */
async function expectedVerdicts(urls: string[]): Promise<string> {
  const before = state.sites.map(hits);
  const verdicts = [...(await new RobotsCache({ agent: 'ExampleBot' }).checkMany(urls))].join('');
  // Its own fetches are taken back out of the counts the tests compare.
  state.sites.forEach((s, i) => s.hits.set('/robots.txt', before[i]));
  return verdicts;
}

describe('a fleet on Redis', () => {
  it('4 processes x 1,000 origins: every robots.txt requested once in all, every verdict as one local cache answers', async () => {
    state.sites = await startSites(1000, perSite);
    const urls = urlsOf(state.sites);
    const processes = startFleet(4, fleetOptions());
    const orders = processes.map((_, p) => shuffled(urls, p + 1));
    const answers = await Promise.all(processes.map((p, i) => p.check(orders[i])));
    for (let p = 0; p < processes.length; p++) expect(answers[p].verdicts).toBe(await expectedVerdicts(orders[p]));
    expect(state.sites.filter((s) => hits(s) !== 1).map((s) => [s.origin, hits(s)])).toEqual([]);
    expect(answers.reduce((sum, a) => sum + a.fetches, 0)).toBe(1000);
  }, 120_000);

  it('a process killed while it fetches: another takes over once the lease lapses; fetched twice at most, nobody hangs', async () => {
    let stall = true;
    state.sites = await startSites(1, (req, res, site) => {
      if (stall) return; // the first request never gets an answer
      perSite(req, res, site);
    });
    const options = fleetOptions({ timeoutMs: 1500, storeTimeoutMs: 200 });
    const [holder] = startFleet(1, options);
    const url = `${state.sites[0].origin}/d${Number(new URL(state.sites[0].origin).port) % 5}/x`;
    void holder.check([url]);
    while (hits(state.sites[0]) === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await holder.kill();
    stall = false;
    const [taker] = startFleet(1, options);
    const started = Date.now();
    const answer = await taker.check([url, `${state.sites[0].origin}/elsewhere`]);
    expect(answer.verdicts).toBe('01');
    expect(hits(state.sites[0])).toBe(2);
    // A waiter gives the lease's holder a fetch and a store call (1.7 s here), then fetches itself.
    expect(Date.now() - started).toBeLessThan(1700 + 2000);
  }, 30_000);

  it('Redis stopped mid-run and restarted: answers stay right throughout, each outage is reported once, and the store is used again after', async () => {
    // Slow answers, so that Redis goes down while fetches are in flight.
    state.sites = await startSites(60, (req, res, site) => setTimeout(() => perSite(req, res, site), 150));
    const options = fleetOptions({ storeTimeoutMs: 300, storeRetryMs: 300 });
    const processes = startFleet(2, options);
    const phase = (from: number, to: number) => urlsOf(state.sites.slice(from, to));

    const first = await Promise.all(processes.map((p) => p.check(phase(0, 10))));
    for (const a of first) expect(a.verdicts).toBe(await expectedVerdicts(phase(0, 10)));
    expect(state.sites.slice(0, 10).map(hits)).toEqual(Array(10).fill(1));

    const during = Promise.all(processes.map((p) => p.check(phase(10, 20))));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await state.redis.stop();
    for (const a of await during) expect(a.verdicts).toBe(await expectedVerdicts(phase(10, 20)));
    const down = await Promise.all(processes.map((p) => p.check(phase(20, 30))));
    for (const a of down) expect(a.verdicts).toBe(await expectedVerdicts(phase(20, 30)));
    for (const p of processes) expect(p.events).toEqual(['unavailable']);
    // Without the store each process fetched on its own: twice at most.
    expect(state.sites.slice(20, 30).map(hits)).toEqual(Array(10).fill(2));

    await state.redis.resume();
    // Each process finds the store again on a later miss (origins 30-49 are its probes).
    for (const [p, member] of processes.entries()) {
      for (let probe = 30 + p * 10; !member.events.includes('available'); probe++) {
        expect(probe).toBeLessThan(40 + p * 10);
        await new Promise((resolve) => setTimeout(resolve, 400));
        await member.check(phase(probe, probe + 1));
      }
      expect(member.events).toEqual(['unavailable', 'available']);
    }
    const back = await processes[0].check(phase(50, 60));
    const other = await processes[1].check(phase(50, 60));
    expect(back.verdicts).toBe(await expectedVerdicts(phase(50, 60)));
    expect(other.verdicts).toBe(back.verdicts);
    expect(state.sites.slice(50, 60).map(hits)).toEqual(Array(10).fill(1));
  }, 60_000);

  it('Redis that stops answering (SIGSTOP): no verdict waits longer than the store timeout, and the store is used again once it answers', async () => {
    state.sites = await startSites(40, perSite);
    const options = fleetOptions({ storeTimeoutMs: 300, storeRetryMs: 300 });
    const processes = startFleet(2, options);
    const phase = (from: number, to: number) => urlsOf(state.sites.slice(from, to));
    expect((await processes[0].check(phase(0, 5))).verdicts).toBe(await expectedVerdicts(phase(0, 5)));

    state.redis.freeze();
    try {
      const started = Date.now();
      const frozen = await processes[0].check(phase(5, 15));
      // One store call times out; the cache then skips the store and fetches.
      expect(Date.now() - started).toBeLessThan(300 + 1000);
      expect(frozen.verdicts).toBe(await expectedVerdicts(phase(5, 15)));
      expect(processes[0].events).toEqual(['unavailable']);
    } finally {
      state.redis.thaw();
    }
    for (let probe = 15; !processes[0].events.includes('available'); probe++) {
      expect(probe).toBeLessThan(30);
      await new Promise((resolve) => setTimeout(resolve, 400));
      await processes[0].check(phase(probe, probe + 1));
    }
    const first = await processes[0].check(phase(30, 40));
    const second = await processes[1].check(phase(30, 40));
    expect(second.verdicts).toBe(first.verdicts);
    expect(state.sites.slice(30, 40).map(hits)).toEqual(Array(10).fill(1));
  }, 60_000);

  it('garbage, truncated, forged or mistyped values under the prefix: refused, refetched, replaced, never used as rules', async () => {
    state.sites = await startSites(5, perSite);
    const options = fleetOptions();
    const client = await state.redis.client();
    const now = Date.now();
    const allowAll = (origin: string) => encodeStoredRecord({
      status: 'ok', origin, httpStatus: 200, finalUrl: `${origin}/robots.txt`, redirects: 0, fetchedAt: now, expiresAt: now + 3_600_000,
      error: undefined, body: '', etag: undefined, lastModified: undefined, unreachableSince: undefined,
    });
    const key = (site: Site) => `${options.prefix}robots:${site.origin}`;
    const [garbage, truncated, forged, otherOrigin, mistyped] = state.sites;
    await client.set(key(garbage), '\u0000\u00ff not a record at all');
    await client.set(key(truncated), allowAll(truncated.origin).slice(0, -20));
    await client.set(key(forged), allowAll(forged.origin).replace(/ [0-9a-f]{8}\n/, ' 12345678\n'));
    await client.set(key(otherOrigin), allowAll('https://example.com'));
    await client.hSet(key(mistyped), 'body', '');
    const urls = state.sites.map((s) => `${s.origin}/d${Number(new URL(s.origin).port) % 5}/x`);
    const [member] = startFleet(1, options);
    expect((await member.check(urls)).verdicts).toBe('00000');
    expect(state.sites.map(hits)).toEqual([1, 1, 1, 1, 1]);
    for (const site of state.sites) {
      const stored = decodeStoredRecord((await client.get(key(site)))!, site.origin, { now: Date.now(), ttlMs: 86_400_000, unreachableTtlMs: 600_000 }, 512_000);
      expect(stored?.record.httpStatus).toBe(200);
    }
    expect(member.events).toEqual([]);
    await client.close();
  }, 30_000);

  it('expiry and conditional refresh across processes: one 304 for the fleet, and the refreshed copy answers everywhere', async () => {
    let conditional = 0;
    state.sites = await startSites(1, (req, res) => {
      if (req.url !== '/robots.txt') return void res.writeHead(404).end();
      if (req.headers['if-none-match'] === '"v1"') {
        conditional++;
        return void res.writeHead(304, { 'cache-control': 'max-age=1' }).end();
      }
      res.writeHead(200, { etag: '"v1"', 'cache-control': 'max-age=1' }).end('User-agent: *\nDisallow: /private/\n');
    });
    const options = fleetOptions({ minTtlMs: 0 });
    const [a, b] = startFleet(2, options);
    const urls = [`${state.sites[0].origin}/private/x`, `${state.sites[0].origin}/public`];
    expect((await a.check(urls)).verdicts).toBe('01');
    const client = await state.redis.client();
    // Kept past its expiry for a day, so that any process can revalidate it.
    const ttl = await client.pTTL(`${options.prefix}robots:${state.sites[0].origin}`);
    expect(ttl).toBeGreaterThan(86_400_000);
    expect(ttl).toBeLessThanOrEqual(86_401_000);
    await client.close();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await b.check(urls)).verdicts).toBe('01');
    const again = await a.check(urls);
    expect(again.verdicts).toBe('01');
    expect([hits(state.sites[0]), conditional, again.fetches]).toEqual([2, 1, 1]);
  }, 30_000);

  describe('robots-wasm filter --store', () => {
    const cli = new URL('../../dist/cli/main.js', import.meta.url).pathname;
    const run = (args: string[]) => promisify(execFile)(process.execPath, [cli, 'filter', '--agent', 'ExampleBot', ...args]);

    /** `count` state.sites, a file of their URLs, and the lines filter must print (what one local cache allows). */
    async function frontier(count: number): Promise<{ file: string; allowed: string }> {
      state.sites = await startSites(count, perSite);
      const urls = urlsOf(state.sites);
      const file = join(mkdtempSync(join(tmpdir(), 'fleet-')), 'urls.txt');
      writeFileSync(file, `${urls.join('\n')}\n`);
      const verdicts = await expectedVerdicts(urls);
      return { file, allowed: `${urls.filter((_, i) => verdicts[i] === '1').join('\n')}\n` };
    }

    it('two runs over one frontier: each origin fetched once in all, each run prints the allowed URLs in order', async () => {
      const { file, allowed } = await frontier(100);
      const args = ['--store', state.redis.url, '--store-prefix', fleetOptions().prefix, file];
      const outputs = await Promise.all([run(args), run(args)]);
      for (const { stdout, stderr } of outputs) {
        expect(stdout).toBe(allowed);
        expect(stderr).toBe('');
      }
      expect(state.sites.map(hits)).toEqual(state.sites.map(() => 1));
    }, 60_000);

    it('with no Redis at the address: the run fetches on its own, says so once, and its output is right', async () => {
      const { file, allowed } = await frontier(20);
      const { stdout, stderr } = await run(['--store', `redis://127.0.0.1:${await freePort()}`, file]);
      expect(stdout).toBe(allowed);
      expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(/^robots-wasm: the --store server is unavailable \(.+\): fetching without it until it answers$/)]);
      expect(state.sites.map(hits)).toEqual(state.sites.map(() => 1));
    }, 60_000);

    it('--store must be a redis URL, and --store-prefix needs --store', async () => {
      await expect(run(['--store', 'http://127.0.0.1:1', '-'])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('--store must be a redis:// or rediss:// URL') });
      await expect(run(['--store-prefix', 'x:', '-'])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('--store-prefix needs --store') });
    });

    it('a redis URL the client cannot take (a path that is not a database, a broken host) is a usage error, exit 2', async () => {
      for (const url of ['redis://127.0.0.1:6391/abc', 'redis://[::1']) {
        const failure = await run(['--store', url, '-']).then(() => undefined, (error: { code: number; stderr: string }) => error);
        expect(failure?.code).toBe(2);
        expect(failure?.stderr).toBe(`robots-wasm: --store: not a Redis URL (redis://[user:password@]host[:port][/db], or rediss://): ${JSON.stringify(url)}\n`);
      }
    });

    it('--store-key-file: needs --store and 16 bytes; with it a forged record is refused and the run prints only what the file allows', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'fleet-key-'));
      const short = join(dir, 'short');
      writeFileSync(short, 'too short');
      await expect(run(['--store-key-file', short, '-'])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('--store-key-file needs --store') });
      await expect(run(['--store', state.redis.url, '--store-key-file', short, '-'])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('at least 16 bytes') });
      await expect(run(['--store', state.redis.url, '--store-key-file', join(dir, 'missing'), '-'])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('cannot read') });
      const { file, allowed } = await frontier(3);
      const keyFile = join(dir, 'key');
      writeFileSync(keyFile, 'the fleet key of this test run\n');
      const prefix = fleetOptions().prefix;
      const client = await state.redis.client();
      const now = Date.now();
      // A record allowing everything, with a correct CRC-32C but no tag.
      await client.set(`${prefix}robots:${state.sites[0].origin}`, encodeStoredRecord({
        status: 'ok', origin: state.sites[0].origin, httpStatus: 200, finalUrl: `${state.sites[0].origin}/robots.txt`, redirects: 0, fetchedAt: now, expiresAt: now + 3_600_000,
        error: undefined, body: '', etag: undefined, lastModified: undefined, unreachableSince: undefined,
      }));
      const { stdout, stderr } = await run(['--store', state.redis.url, '--store-prefix', prefix, '--store-key-file', keyFile, file]);
      expect([stdout, stderr]).toEqual([allowed, '']);
      expect(state.sites.map(hits)).toEqual([1, 1, 1]);
      expect(await client.get(`${prefix}robots:${state.sites[0].origin}`)).toMatch(/^hmac-sha256 [0-9a-f]{64}\n/);
      await client.close();
    }, 60_000);
  });
});
