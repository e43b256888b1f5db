// RobotsCache against real servers on 127.0.0.1: one fetch per origin, freshness,
// revalidation, the last good copy while unreachable, eviction, persistence and filter().
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RobotsCache } from '../src/index.js';
import { serve, startSites, stopSites, type Site } from './support/servers.js';

const RULES = 'User-agent: *\nDisallow: /private\n\nUser-agent: ExampleBot\nDisallow: /not-for-examplebot\n';
let sites: Site[] = [];

beforeAll(async () => {
  sites = await startSites(200, serve(RULES));
});
afterAll(() => stopSites(sites));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('RobotsCache', () => {
  it('1,000 concurrent isAllowed calls over 200 origins: each robots.txt fetched exactly once', async () => {
    for (const site of sites) site.hits.clear();
    const cache = new RobotsCache({ agent: 'ExampleBot', concurrency: 16 });
    const urls = Array.from({ length: 1000 }, (_, i) => {
      const site = sites[(i * 7) % 200];
      const path = ['/private/a', '/not-for-examplebot/b', '/public/c', '/'][i % 4];
      return { url: `${site.origin}${path}?i=${i}` };
    });
    const verdicts = await Promise.all(urls.map(({ url }) => cache.isAllowed(url)));
    // ExampleBot has a group of its own, so the `*` group's /private does not apply to it.
    expect(verdicts).toEqual(urls.map(({ url }) => !url.includes('/not-for-examplebot')));
    expect(sites.every((site) => site.hits.get('/robots.txt') === 1)).toBe(true);
    expect(cache.fetches).toBe(200);
    expect(cache.size).toBe(200);
    const other = new RobotsCache({ agent: 'OtherBot' });
    expect(await other.isAllowed(`${sites[0].origin}/private/a`)).toBe(false);
    expect(await other.isAllowed(`${sites[0].origin}/not-for-examplebot`)).toBe(true);
  });

  it('never runs more than `concurrency` fetches at once', async () => {
    const slow = await startSites(12, serve(RULES));
    let inFlight = 0;
    let most = 0;
    for (const site of slow) {
      site.handler = (_req, res) => {
        inFlight++;
        most = Math.max(most, inFlight);
        setTimeout(() => {
          inFlight--;
          res.end(RULES);
        }, 30);
      };
    }
    const cache = new RobotsCache({ agent: 'Bot', concurrency: 3 });
    const verdicts = await Promise.all(slow.map((site) => cache.isAllowed(`${site.origin}/private`)));
    expect(verdicts).toEqual(slow.map(() => false));
    expect(most).toBe(3);
    await stopSites(slow);
  });

  it('an expired entry is refreshed before it answers; ETag revalidation uses 304', async () => {
    const [site] = await startSites(1, serve(RULES));
    let conditional = 0;
    site.handler = (req, res) => {
      if (req.headers['if-none-match'] === '"v1"') {
        conditional++;
        return void res.writeHead(304, { etag: '"v1"', 'cache-control': 'max-age=0' }).end();
      }
      res.writeHead(200, { etag: '"v1"', 'cache-control': 'max-age=0' }).end(RULES);
    };
    const cache = new RobotsCache({ agent: 'Bot', minTtlMs: 0 });
    expect(await cache.isAllowed(`${site.origin}/private`)).toBe(false);
    expect(await cache.isAllowed(`${site.origin}/private`)).toBe(false);
    expect(await cache.isAllowed(`${site.origin}/public`)).toBe(true);
    expect(site.hits.get('/robots.txt')).toBe(3);
    expect(conditional).toBe(2);
    const result = await cache.get(site.origin);
    expect(result.revalidated).toBe(true);
    expect(result.httpStatus).toBe(304);
    await stopSites([site]);
  });

  it('Last-Modified revalidation, and a changed file replaces the old one', async () => {
    const [site] = await startSites(1, serve(RULES));
    const stamp = 'Sat, 21 Nov 2026 10:00:00 GMT';
    let body = RULES;
    site.handler = (req, res) => {
      if (req.headers['if-modified-since'] === stamp && body === RULES) return void res.writeHead(304, { 'cache-control': 'no-cache' }).end();
      res.writeHead(200, { 'last-modified': stamp, 'cache-control': 'no-cache' }).end(body);
    };
    const cache = new RobotsCache({ agent: 'Bot', minTtlMs: 0 });
    expect(await cache.isAllowed(`${site.origin}/private`)).toBe(false);
    expect((await cache.get(site.origin)).revalidated).toBe(true);
    body = 'User-agent: *\nDisallow: /other\n';
    expect(await cache.isAllowed(`${site.origin}/private`)).toBe(true);
    expect(await cache.isAllowed(`${site.origin}/other`)).toBe(false);
    await stopSites([site]);
  });

  it('fresh entries are not refetched', async () => {
    const [site] = await startSites(1, serve(RULES, { 'cache-control': 'max-age=3600' }));
    const cache = new RobotsCache({ agent: 'Bot' });
    for (let i = 0; i < 5; i++) expect(await cache.isAllowed(`${site.origin}/private/${i}`)).toBe(false);
    expect(site.hits.get('/robots.txt')).toBe(1);
    const result = await cache.get(`${site.origin}/anything`);
    expect(result.expiresAt - result.fetchedAt).toBe(3_600_000);
    await stopSites([site]);
  });

  it('while refreshes are unreachable, the last good copy keeps answering (RFC 9309 2.4)', async () => {
    const [site] = await startSites(1, serve(RULES, { 'cache-control': 'max-age=0' }));
    const cache = new RobotsCache({ agent: 'Bot', minTtlMs: 0, unreachableTtlMs: 0 });
    expect(await cache.isAllowed(`${site.origin}/public`)).toBe(true);
    site.handler = serve('', {}, 503);
    expect(await cache.isAllowed(`${site.origin}/public`)).toBe(true);
    expect(await cache.isAllowed(`${site.origin}/private`)).toBe(false);
    const result = await cache.get(site.origin);
    expect(result.status).toBe('ok');
    expect(result.error).toBe('HTTP 503');
    expect(site.hits.get('/robots.txt')).toBe(4);
    await stopSites([site]);
  });

  it('unreachable with no good copy: disallowed, then unavailable after maxUnreachableMs', async () => {
    const [site] = await startSites(1, serve('', {}, 500));
    const cache = new RobotsCache({ agent: 'Bot', unreachableTtlMs: 0, maxUnreachableMs: 200 });
    expect(await cache.isAllowed(`${site.origin}/page`)).toBe(false);
    expect((await cache.get(site.origin)).status).toBe('unreachable');
    await sleep(250);
    expect(await cache.isAllowed(`${site.origin}/page`)).toBe(true);
    expect((await cache.get(site.origin)).status).toBe('unavailable');
    await stopSites([site]);
  });

  it('503 with Retry-After: 2: refetched once the time named has come, not before', async () => {
    const [site] = await startSites(1, serve('', { 'retry-after': '2' }, 503));
    const cache = new RobotsCache({ agent: 'Bot' });
    expect(await cache.isAllowed(`${site.origin}/public`)).toBe(false);
    const first = await cache.get(site.origin);
    expect(first.status).toBe('unreachable');
    expect(first.expiresAt).toBe(first.retryAt);
    expect(first.retryAt! - first.fetchedAt).toBeGreaterThan(1900);
    site.handler = serve(RULES);
    // Checks until just before the time named all answer from the unreachable entry.
    while (Date.now() < first.expiresAt - 300) {
      expect(await cache.isAllowed(`${site.origin}/public`)).toBe(false);
      await sleep(100);
    }
    expect(site.hits.get('/robots.txt')).toBe(1);
    await sleep(first.expiresAt - Date.now() + 50);
    expect(await cache.isAllowed(`${site.origin}/public`)).toBe(true);
    expect(site.hits.get('/robots.txt')).toBe(2);
    await stopSites([site]);
  });

  it('Retry-After while a good copy answers: the copy stays in force until the time named', async () => {
    const [site] = await startSites(1, serve(RULES, { 'cache-control': 'max-age=0' }));
    const cache = new RobotsCache({ agent: 'Bot', minTtlMs: 0 });
    expect(await cache.isAllowed(`${site.origin}/public`)).toBe(true);
    site.handler = serve('', { 'retry-after': '3600' }, 503);
    expect(await cache.isAllowed(`${site.origin}/public`)).toBe(true);
    const result = await cache.get(site.origin);
    expect([result.status, result.error]).toEqual(['ok', 'HTTP 503']);
    expect(result.expiresAt).toBe(result.retryAt);
    expect(result.expiresAt - Date.now()).toBeGreaterThan(3_590_000);
    for (let i = 0; i < 5; i++) expect(await cache.isAllowed(`${site.origin}/private`)).toBe(false);
    expect(site.hits.get('/robots.txt')).toBe(2);
    // Across a restart too: the good copy and the time named come back.
    const restored = RobotsCache.import(JSON.parse(JSON.stringify(cache.export())), { agent: 'Bot', minTtlMs: 0 });
    const back = await restored.get(site.origin);
    expect([back.status, back.retryAt, back.expiresAt]).toEqual(['ok', result.retryAt, result.expiresAt]);
    expect(restored.fetches).toBe(0);
    await stopSites([site]);
  });

  it('is bounded: the least recently used origin is evicted and refetched on its next use', async () => {
    const [x, y, z] = sites;
    for (const site of [x, y, z]) site.hits.clear();
    const cache = new RobotsCache({ agent: 'Bot', maxEntries: 2 });
    await cache.isAllowed(`${x.origin}/a`);
    await cache.isAllowed(`${y.origin}/a`);
    await cache.isAllowed(`${x.origin}/b`); // x is now the most recent
    await cache.isAllowed(`${z.origin}/a`); // evicts y
    expect(cache.size).toBe(2);
    expect(await cache.isAllowed(`${y.origin}/private`)).toBe(false);
    expect([x, y, z].map((site) => site.hits.get('/robots.txt'))).toEqual([1, 2, 1]);
  });

  it('is bounded by bytes: hostile 200 KB files on 40 origins stay within maxCacheBytes, with every verdict right', async () => {
    // 12,000 rules each: a body, an object per rule and a table of about 200 KB each.
    const hostile = await startSites(40, (req, res) => {
      const port = (req.socket.localPort ?? 0) % 1000;
      res.end(`User-agent: *\n${Array.from({ length: 12_000 }, (_, r) => `Disallow: /p${port}/r${r}/`).join('\n')}\n`);
    });
    const budget = 4 * 1024 * 1024;
    const cache = new RobotsCache({ agent: 'Bot', maxCacheBytes: budget });
    const urls = hostile.flatMap((site) => {
      const port = Number(new URL(site.origin).port) % 1000;
      return [`${site.origin}/p${port}/r11999/x`, `${site.origin}/p${port}/r12000/x`];
    });
    let most = 0;
    const verdicts: boolean[] = [];
    for (const url of urls) {
      verdicts.push(await cache.isAllowed(url));
      most = Math.max(most, cache.bytes);
    }
    expect(verdicts).toEqual(urls.map((_, i) => i % 2 === 1));
    expect(most).toBeLessThanOrEqual(budget);
    expect(cache.bytes).toBeGreaterThan(budget / 2);
    expect(cache.size).toBeLessThan(20);
    // An evicted origin is fetched again on its next use, and answers as before.
    expect(await cache.isAllowed(urls[0])).toBe(false);
    expect(hostile[0].hits.get('/robots.txt')).toBe(2);
    expect(Array.from(await cache.checkMany(urls))).toEqual(urls.map((_, i) => i % 2));
    expect(cache.bytes).toBeLessThanOrEqual(budget);
    await stopSites(hostile);
  });

  it('a file whose table passes the WebAssembly memory limit disallows its origin instead of throwing', async () => {
    const [big] = await startSites(1, (_req, res) => res.end(`User-agent: *\n${Array.from({ length: 300_000 }, (_, r) => `Disallow: /r${r}/*.x$`).join('\n')}\n`));
    // In a process of its own: the limit applies to the whole thread. With 4 MiB to spare the
    // body cannot even be read into WebAssembly memory; with 24 MiB it is, and its table is not.
    const script = (spare: number) => `
      import { RobotsCache, setWasmMemoryLimit, wasmMemoryStats } from ${JSON.stringify(new URL('../dist/index.js', import.meta.url).href)};
      setWasmMemoryLimit(wasmMemoryStats().memoryBytes + ${spare});
      const cache = new RobotsCache({ agent: 'Bot', maxBytes: 100_000_000 });
      const verdict = await cache.isAllowed('${big.origin}/elsewhere');
      const result = await cache.get('${big.origin}');
      console.log(JSON.stringify({ verdict, status: result.status, error: result.error }));
    `;
    // Not execFileSync: the server answering the child runs on this thread.
    const { execFile } = await import('node:child_process');
    const run = (spare: number) => new Promise<{ verdict: boolean; status: string; error: string }>((resolve, reject) => {
      execFile(process.execPath, ['--input-type=module', '-e', script(spare)], { encoding: 'utf8' }, (error, out) => (error ? reject(error) : resolve(JSON.parse(out))));
    });
    const unread = await run(4 << 20);
    expect([unread.verdict, unread.status]).toEqual([false, 'unreachable']);
    expect(unread.error).toMatch(/bytes asked for, .*memory limit/);
    const uncompiled = await run(24 << 20);
    expect([uncompiled.verdict, uncompiled.status]).toEqual([false, 'unreachable']);
    expect(uncompiled.error).toMatch(/^robots.txt too large to compile: robots-wasm: .*memory limit/);
    await stopSites([big]);
  });

  it('export() and import(): a restarted crawler does not refetch', async () => {
    const cache = new RobotsCache({ agent: 'ExampleBot' });
    const [ok, gone] = sites.slice(10, 12);
    gone.handler = serve('', {}, 404);
    await cache.isAllowed(`${ok.origin}/x`);
    await cache.isAllowed(`${gone.origin}/x`);
    const snapshot = JSON.parse(JSON.stringify(cache.export()));
    expect(snapshot.entries.map((e: { status: string }) => e.status)).toEqual(['ok', 'unavailable']);
    const restored = RobotsCache.import(snapshot, {
      agent: 'ExampleBot',
      fetch: () => Promise.reject(new Error('no fetch expected')),
    });
    expect(await restored.isAllowed(`${ok.origin}/not-for-examplebot/1`)).toBe(false);
    expect(await restored.isAllowed(`${ok.origin}/private`)).toBe(true);
    expect(await restored.isAllowed(`${gone.origin}/anything`)).toBe(true);
    expect(restored.fetches).toBe(0);
    expect(() => RobotsCache.import({ version: 2 } as never, { agent: 'x' })).toThrow(TypeError);
  });

  it('filter(): the allowed URLs in order, from sync and async iterables; bad URLs dropped', async () => {
    for (const site of sites) site.handler = serve(RULES);
    const cache = new RobotsCache({ agent: 'Bot', lookahead: 50 });
    const urls: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const site = sites[(i * 13) % 200];
      urls.push(i % 3 === 0 ? `${site.origin}/private/${i}` : `${site.origin}/page/${i}`);
      if (i % 500 === 0) urls.push('not a url', 'mailto:someone@example.com');
    }
    const expected = urls.filter((url) => url.startsWith('http') && !url.includes('/private/'));
    const out: string[] = [];
    for await (const url of cache.filter(urls)) out.push(url);
    expect(out).toEqual(expected);
    async function* slowly() {
      for (const url of urls.slice(0, 300)) {
        await Promise.resolve();
        yield url;
      }
    }
    const outAsync: string[] = [];
    for await (const url of cache.filter(slowly())) outAsync.push(url);
    expect(outAsync).toEqual(urls.slice(0, 300).filter((url) => url.startsWith('http') && !url.includes('/private/')));
  });

  it('checkMany: verdicts for a batch over many origins, each file fetched once', async () => {
    for (const site of sites) {
      site.handler = serve(RULES);
      site.hits.clear();
    }
    const cache = new RobotsCache({ agent: 'Bot' });
    const urls = Array.from({ length: 5000 }, (_, i) => `${sites[Math.floor(i / 7) % 200].origin}/${i % 2 ? 'private' : 'page'}/${i}`);
    urls.push('not a url', `${sites[0].origin}/page/x`);
    const verdicts = await cache.checkMany(urls);
    expect(Array.from(verdicts)).toEqual(urls.map((url) => (url.startsWith('http') && !url.includes('/private/') ? 1 : 0)));
    expect(sites.every((site) => site.hits.get('/robots.txt') === 1)).toBe(true);
    expect(Array.from(await cache.checkMany([]))).toEqual([]);
    await expect(cache.checkMany('x' as never)).rejects.toThrow(TypeError);
  });

  it('checkMany, isAllowed, filter: a URL that only starts like the previous origin is looked up on its own', async () => {
    const now = Date.now();
    const entry = (origin: string, rules: string) => ({
      status: 'ok' as const, origin, httpStatus: 200, finalUrl: `${origin}/robots.txt`, redirects: 0, fetchedAt: now,
      expiresAt: now + 3_600_000, error: undefined, body: Buffer.from(`User-agent: *\n${rules}\n`).toString('base64'),
      etag: undefined, lastModified: undefined, unreachableSince: undefined,
    });
    const cache = RobotsCache.import({
      version: 1,
      entries: [entry('https://a.example', 'Disallow: /private'), entry('https://a.example.evil', 'Disallow: /page'), entry('https://b.example', 'Disallow: /')],
    }, { agent: 'Bot', fetch: () => Promise.reject(new Error('no fetch expected')) });
    const cases: [string, number][] = [
      ['https://a.example/page', 1],
      ['https://a.example.evil/page', 0], // another host
      ['https://a.example@b.example/page', 0], // userinfo: the host is b.example
      ['https://a.example/private', 0],
      ['https://a.example:443/page', 1], // the default port: the same origin
      ['https://a.example?q=1', 1],
      ['https://a.example#top', 1],
      ['https://a.example', 1],
      ['https://b.example/page', 0],
    ];
    expect(Array.from(await cache.checkMany(cases.map(([url]) => url)))).toEqual(cases.map(([, verdict]) => verdict));
    const one: number[] = [];
    for (const [url] of cases) one.push((await cache.isAllowed(url)) ? 1 : 0);
    expect(one).toEqual(cases.map(([, verdict]) => verdict));
    const allowed: string[] = [];
    for await (const url of cache.filter(cases.map(([url]) => url))) allowed.push(url);
    expect(allowed).toEqual(cases.filter(([, verdict]) => verdict === 1).map(([url]) => url));
    expect(cache.fetches).toBe(0);
  });

  describe('import() checks every field of a snapshot', () => {
    // Taken again before each test: a describe-time clock runs out the 5 s freshness below on a busy machine.
    let now = Date.now();
    beforeEach(() => {
      now = Date.now();
    });
    const okRecord = (origin: string, fields: Record<string, unknown> = {}) => ({
      status: 'ok', origin, httpStatus: 200, finalUrl: `${origin}/robots.txt`, redirects: 0, fetchedAt: now - 1000,
      expiresAt: now + 3_600_000, body: Buffer.from('User-agent: *\nDisallow: /private\n').toString('base64'), ...fields,
    });
    const load = (entries: unknown[], options: Record<string, unknown> = {}) =>
      RobotsCache.import({ version: 1, entries } as never, { agent: 'Bot', fetch: () => Promise.reject(new Error('no fetch expected')), ...options });
    const refused = (entries: unknown[]) => {
      try {
        load(entries);
      } catch (error) {
        expect(error).toBeInstanceOf(TypeError);
        return (error as Error).message;
      }
      throw new Error('import accepted a malformed snapshot');
    };

    it('a malformed entry is a TypeError naming the entry and the field', () => {
      const a = 'https://a.example';
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ status: 'pwned' }, /status must be "ok", "unavailable" or "unreachable", got "pwned"/],
        [{ body: undefined }, /body must be the robots\.txt bytes as base64, got nothing/],
        [{ body: 'not base64 at all!' }, /body must be the robots\.txt bytes as base64, got "not base64 at all!"/],
        [{ body: 'QUJD=' }, /body must be the robots\.txt bytes as base64/],
        [{ status: 'unreachable' }, /body must be absent/],
        [{ fetchedAt: now + 3_600_000 }, /fetchedAt must be a time \(ms since the epoch\) not in the future/],
        [{ fetchedAt: '1' }, /fetchedAt must be a time/],
        [{ expiresAt: Number.NaN }, /expiresAt must be a finite time/],
        [{ expiresAt: null }, /expiresAt must be a finite time \(ms since the epoch\), got null/],
        [{ httpStatus: 1000 }, /httpStatus must be an HTTP status/],
        [{ redirects: -1 }, /redirects must be a count/],
        [{ finalUrl: 'ftp://a.example/robots.txt' }, /finalUrl must be an absolute http\(s\) URL/],
        [{ error: 5 }, /error must be a string or absent, got 5/],
        [{ etag: {} }, /etag must be a string or absent, got an object/],
        [{ lastModified: [] }, /lastModified must be a string or absent, got an array/],
        [{ unreachableSince: now + 60_000 }, /unreachableSince must be a time/],
      ];
      for (const [fields, message] of cases) {
        expect(refused([okRecord('https://b.example'), okRecord(a, fields)]), JSON.stringify(fields)).toMatch(
          new RegExp(`^robots-wasm: RobotsCache snapshot entries\\[1\\] \\(https://a\\.example\\): ${message.source}`),
        );
      }
      expect(refused([okRecord('https://A.example:443')])).toMatch(/entries\[0\] \(https:\/\/A\.example:443\): origin must be an origin/);
      expect(refused([okRecord('https://a.example/path')])).toMatch(/origin must be an origin/);
      expect(refused([okRecord(a), null])).toBe('robots-wasm: RobotsCache snapshot entries[1] must be an object, got null');
      expect(refused([okRecord(a), okRecord('https://b.example'), okRecord(a)])).toBe(
        'robots-wasm: RobotsCache snapshot entries[2] (https://a.example): origin is also entries[0]',
      );
      expect(refused([{ ...okRecord(a), origin: undefined }])).toMatch(/^robots-wasm: RobotsCache snapshot entries\[0\]: origin must be/);
    });

    it('freshness is clamped to ttlMs (unreachableTtlMs when unreachable) from fetchedAt', async () => {
      const unreachable = { ...okRecord('https://u.example'), status: 'unreachable', httpStatus: 503, body: undefined, expiresAt: now + 86_400_000 };
      const cache = load([okRecord('https://a.example', { expiresAt: 1e308 }), unreachable]);
      expect((await cache.get('https://a.example')).expiresAt).toBe(now - 1000 + 86_400_000);
      expect((await cache.get('https://u.example')).expiresAt).toBe(now - 1000 + 600_000);
      const short = load([okRecord('https://a.example', { expiresAt: 1e308 })], { ttlMs: 5000 });
      expect((await short.get('https://a.example')).expiresAt).toBe(now + 4000);
      // An entry whose clamped freshness has run out is fetched again on its next use.
      let fetched = 0;
      const stale = load([okRecord('https://a.example', { expiresAt: 1e308 })], {
        ttlMs: 500, fetch: () => (fetched++, Promise.resolve(new Response('User-agent: *\nDisallow: /\n'))),
      });
      expect(await stale.isAllowed('https://a.example/page')).toBe(false);
      expect(fetched).toBe(1);
    });

    it('a Retry-After longer than unreachableTtlMs survives export() and import(); entries without retryAt still load', async () => {
      const [site] = await startSites(1, serve('', { 'retry-after': '3600' }, 503));
      const cache = new RobotsCache({ agent: 'Bot' });
      const fetched = await cache.get(site.origin);
      expect(fetched.expiresAt - fetched.fetchedAt).toBeGreaterThan(3_590_000);
      const snapshot = JSON.parse(JSON.stringify(cache.export()));
      const older = { ...okRecord('https://u.example'), status: 'unreachable', httpStatus: 503, body: undefined, expiresAt: now + 86_400_000 };
      const restored = load([...snapshot.entries, older]);
      const back = await restored.get(site.origin);
      expect([back.status, back.retryAt, back.expiresAt]).toEqual(['unreachable', fetched.retryAt, fetched.expiresAt]);
      expect(await restored.isAllowed(`${site.origin}/page`)).toBe(false);
      // A record from before retryAt existed: unreachableTtlMs, as then.
      const old = await restored.get('https://u.example');
      expect([old.retryAt, old.expiresAt]).toEqual([undefined, now - 1000 + 600_000]);
      expect(restored.fetches).toBe(0);
      await stopSites([site]);
    });

    it('a retryAt is a time or absent, and clamps an unreachable entry between 1 s and ttlMs from fetchedAt', async () => {
      const unreachable = (origin: string, fields: Record<string, unknown>) =>
        ({ ...okRecord(origin), status: 'unreachable', httpStatus: 503, body: undefined, expiresAt: 1e308, ...fields });
      for (const retryAt of [-1, 1.5, Number.NaN, '1', null, 2 ** 53]) {
        expect(refused([unreachable('https://a.example', { retryAt })]), String(retryAt)).toMatch(/retryAt must be a time \(ms since the epoch\) or absent/);
      }
      const cache = load([
        unreachable('https://far.example', { retryAt: now + 999_999_999_000 }),
        unreachable('https://soon.example', { retryAt: now - 1000 }),
        unreachable('https://hour.example', { retryAt: now + 3_600_000 }),
      ]);
      expect((await cache.get('https://far.example')).expiresAt).toBe(now - 1000 + 86_400_000);
      expect((await cache.get('https://hour.example')).expiresAt).toBe(now + 3_600_000);
      // The 1 s floor from fetchedAt, a second ago: expired, so it is fetched again.
      let fetched = 0;
      const soon = load([unreachable('https://soon.example', { retryAt: now - 1000 })], {
        fetch: () => (fetched++, Promise.resolve(new Response('User-agent: *\nDisallow: /\n'))),
      });
      expect(await soon.isAllowed('https://soon.example/page')).toBe(false);
      expect(fetched).toBe(1);
    });

    it('well-formed entries load, unknown fields are ignored, and export() gives the same records back', async () => {
      const records = [
        okRecord('https://a.example', { etag: '"v1"', lastModified: 'Sat, 21 Nov 2026 10:00:00 GMT', extra: 'ignored' }),
        { ...okRecord('https://g.example'), status: 'unavailable', httpStatus: 404, body: undefined, error: 'HTTP 404' },
        { ...okRecord('https://u.example'), status: 'unreachable', httpStatus: undefined, body: undefined, error: 'timed out', unreachableSince: now - 5000, expiresAt: now + 500_000 },
        okRecord('https://e.example', { body: '' }),
      ];
      const cache = load(records);
      expect(await cache.isAllowed('https://a.example/private/x')).toBe(false);
      expect(await cache.isAllowed('https://e.example/private/x')).toBe(true);
      expect(await cache.isAllowed('https://g.example/private/x')).toBe(true);
      expect(await cache.isAllowed('https://u.example/x')).toBe(false);
      const byOrigin = (list: { origin: string }[]) => [...list].sort((x, y) => x.origin.localeCompare(y.origin));
      const { extra, ...first } = records[0] as Record<string, unknown>;
      void extra;
      expect(byOrigin(JSON.parse(JSON.stringify(cache.export())).entries)).toEqual(byOrigin(JSON.parse(JSON.stringify([first, ...records.slice(1)]))));
    });
  });

  it('misuse is a TypeError', async () => {
    expect(() => new RobotsCache({} as never)).toThrow(/agent must be a string/);
    expect(() => new RobotsCache({ agent: 'Bot', concurrency: 0 })).toThrow(/concurrency/);
    const cache = new RobotsCache({ agent: 'Bot' });
    await expect(cache.isAllowed('/relative')).rejects.toThrow(TypeError);
    await expect(cache.isAllowed(5 as never)).rejects.toThrow(/url must be a string/);
  });
});
