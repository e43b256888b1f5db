// fetchRobotsTxt against real servers on 127.0.0.1: every RFC 9309 2.3 access result.
import { brotliCompressSync, constants, createBrotliCompress, createDeflate, createGzip, deflateRawSync, deflateSync, gzipSync, type BrotliCompress, type Gzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchRobotsTxt, RobotsCache } from '../src/index.js';
import { freshnessMs } from '../src/fetch/freshness.js';
import { originOf } from '../src/fetch/origin.js';
import { refusedOrigin, serve, startSites, stopSites, type Site } from './support/servers.js';

let sites: Site[] = [];
let a: Site;
let b: Site;
const RULES = 'User-agent: *\nDisallow: /private\n';

beforeAll(async () => {
  sites = await startSites(2, serve(RULES));
  [a, b] = sites;
});
afterAll(() => stopSites(sites));

describe('fetchRobotsTxt: successful access (RFC 9309 2.3.1.1)', () => {
  it('200: the file is parsed and its rules apply', async () => {
    a.handler = serve(RULES, { 'cache-control': 'max-age=120' });
    const r = await fetchRobotsTxt(`${a.origin}/some/page?x=1`, { minTtlMs: 0 });
    expect(r.status).toBe('ok');
    expect(r.httpStatus).toBe(200);
    expect(r.origin).toBe(a.origin);
    expect(r.finalUrl).toBe(`${a.origin}/robots.txt`);
    expect(r.redirects).toBe(0);
    expect(r.expiresAt - r.fetchedAt).toBe(120_000);
    expect(r.robots.isAllowed(`${a.origin}/private/x`, 'Bot')).toBe(false);
    expect(r.robots.isAllowed(`${a.origin}/public`, 'Bot')).toBe(true);
  });

  it('CRLF line ends and a UTF-8 BOM are read; an HTML page yields no rules', async () => {
    a.handler = serve('\ufeffUser-agent: *\r\nDisallow: /crlf\r\n');
    const crlf = await fetchRobotsTxt(a.origin);
    expect(crlf.robots.isAllowed('/crlf/1', 'Bot')).toBe(false);
    a.handler = serve('<!doctype html><html><body>Disallow: /x</body></html>', { 'content-type': 'text/html' });
    const html = await fetchRobotsTxt(a.origin);
    expect(html.status).toBe('ok');
    expect(html.robots.isAllowed('/x', 'Bot')).toBe(true);
  });

  it('a body that is not UTF-8 is parsed, not rejected', async () => {
    a.handler = serve(new Uint8Array([...new TextEncoder().encode('User-agent: *\nDisallow: /caf'), 0xe9, 0x0a]));
    const r = await fetchRobotsTxt(a.origin);
    expect(r.status).toBe('ok');
    expect(r.robots.isAllowed('/caf%E9', 'Bot')).toBe(false);
    expect(r.robots.isAllowed('/cafe', 'Bot')).toBe(true);
  });

  it('sends the User-Agent it is given', async () => {
    let seen = '';
    a.handler = (req, res) => {
      seen = req.headers['user-agent'] ?? '';
      res.end(RULES);
    };
    await fetchRobotsTxt(a.origin, { userAgent: 'ExampleBot/1.0 (+https://example.com/bot)' });
    expect(seen).toBe('ExampleBot/1.0 (+https://example.com/bot)');
  });

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('%s bodies are decoded', async (encoding, compress) => {
    a.handler = (_req, res) => res.writeHead(200, { 'content-encoding': encoding }).end(compress(RULES));
    const r = await fetchRobotsTxt(a.origin);
    expect(r.robots.isAllowed('/private', 'Bot')).toBe(false);
    expect(r.robots.isAllowed('/public', 'Bot')).toBe(true);
  });
});

describe('fetchRobotsTxt: the parsing limit (RFC 9309 2.5)', () => {
  it('a 10 MB body: only maxBytes are read, the cut line is dropped, the download stops', async () => {
    let written = 0;
    let finished = false;
    a.handler = (_req, res) => {
      res.writeHead(200);
      const head = 'User-agent: *\nDisallow: /early\n';
      res.write(head);
      written = head.length;
      const line = Buffer.from('Disallow: /filler-line-of-forty-bytes-x\n');
      const pump = () => {
        while (written < 10_000_000) {
          written += line.length;
          if (!res.write(line)) return void res.once('drain', pump);
        }
        finished = true;
        res.end('Disallow: /late\n');
      };
      res.on('close', () => undefined);
      pump();
    };
    const r = await fetchRobotsTxt(a.origin, { maxBytes: 100_000 });
    expect(r.status).toBe('ok');
    expect(r.body!.length).toBe(100_001);
    expect(r.robots.truncated).toBe(true);
    expect(r.robots.isAllowed('/early', 'Bot')).toBe(false);
    expect(r.robots.isAllowed('/late', 'Bot')).toBe(true);
    // The last full line before the limit is kept, the one the limit cuts is dropped.
    const rules = r.robots.groups[0].rules;
    expect(rules.at(-1)!.pattern).toBe('/filler-line-of-forty-bytes-x');
    expect(rules.length).toBe(1 + Math.floor((100_000 - 31) / 40));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(finished).toBe(false);
  });

  it('a gzip bomb is cut at maxBytes of decoded bytes', async () => {
    const bomb = gzipSync(Buffer.concat([Buffer.from('User-agent: *\nDisallow: /bomb\n'), Buffer.alloc(50_000_000, 0x20)]));
    expect(bomb.length).toBeLessThan(100_000);
    a.handler = (_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(bomb);
    const r = await fetchRobotsTxt(a.origin, { maxBytes: 200_000 });
    expect(r.body!.length).toBe(200_001);
    expect(r.robots.isAllowed('/bomb', 'Bot')).toBe(false);
  });
});

describe('fetchRobotsTxt: redirects (RFC 9309 2.3.1.2)', () => {
  it.each([1, 2, 3, 4, 5])('%i redirects, across hosts: followed, rules kept for the initial origin', async (n) => {
    // /robots.txt -> /r/0 is one redirect; start the chain by asking for the file at /r/(n-1).
    a.handler = (req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(301, { location: `${b.origin}/r/${n - 1}` }).end();
      const m = /^\/r\/(\d+)$/.exec(req.url ?? '');
      const k = Number(m![1]);
      if (k === 0) return void res.end('User-agent: *\nDisallow: /from-a\n');
      res.writeHead(307, { location: `${b.origin}/r/${k - 1}` }).end();
    };
    b.handler = (req, res) => {
      const k = Number(/^\/r\/(\d+)$/.exec(req.url ?? '')![1]);
      if (k === 0) return void res.end('User-agent: *\nDisallow: /from-b\n');
      res.writeHead(308, { location: `${a.origin}/r/${k - 1}` }).end();
    };
    const r = await fetchRobotsTxt(a.origin);
    expect(r.status).toBe('ok');
    expect(r.redirects).toBe(n);
    expect(r.origin).toBe(a.origin);
    const last = n % 2 === 1 ? 'b' : 'a';
    expect(r.finalUrl).toBe(`${last === 'a' ? a.origin : b.origin}/r/0`);
    expect(r.robots.isAllowed(`/from-${last}`, 'Bot')).toBe(false);
  });

  it('6 redirects: unavailable, everything allowed', async () => {
    a.handler = (req, res) => {
      const k = req.url === '/robots.txt' ? 6 : Number(/^\/r\/(\d+)$/.exec(req.url ?? '')![1]);
      if (k === 0) return void res.end('User-agent: *\nDisallow: /\n');
      res.writeHead(302, { location: `/r/${k - 1}` }).end();
    };
    const r = await fetchRobotsTxt(a.origin);
    expect(r.status).toBe('unavailable');
    expect(r.redirects).toBe(5);
    expect(r.error).toBe('more than 5 redirects');
    expect(r.robots.isAllowed('/anything', 'Bot')).toBe(true);
    expect((await fetchRobotsTxt(a.origin, { maxRedirects: 6 })).robots.isAllowed('/anything', 'Bot')).toBe(false);
  });

  it('a redirect loop across hosts is detected', async () => {
    a.handler = (_req, res) => res.writeHead(301, { location: `${b.origin}/robots.txt` }).end();
    b.handler = (_req, res) => res.writeHead(301, { location: `${a.origin}/robots.txt` }).end();
    const r = await fetchRobotsTxt(a.origin);
    expect(r.status).toBe('unavailable');
    expect(r.error).toBe(`redirect loop at ${a.origin}/robots.txt`);
    expect(a.hits.get('/robots.txt')! + b.hits.get('/robots.txt')!).toBeGreaterThanOrEqual(2);
  });

  it('a redirect without a usable Location is unavailable', async () => {
    a.handler = (_req, res) => res.writeHead(302).end();
    expect((await fetchRobotsTxt(a.origin)).status).toBe('unavailable');
    a.handler = (_req, res) => res.writeHead(302, { location: 'ftp://example.com/robots.txt' }).end();
    const r = await fetchRobotsTxt(a.origin);
    expect(r.status).toBe('unavailable');
    expect(r.robots.isAllowed('/x', 'Bot')).toBe(true);
  });
});

describe('fetchRobotsTxt: unavailable and unreachable (RFC 9309 2.3.1.3, 2.3.1.4)', () => {
  it.each([
    [404, 'unavailable', true],
    [410, 'unavailable', true],
    [401, 'unavailable', true],
    [403, 'unavailable', true],
    [429, 'unreachable', false],
    [500, 'unreachable', false],
    [503, 'unreachable', false],
  ])('HTTP %i: %s', async (code, status, allowed) => {
    a.handler = serve('User-agent: *\nAllow: /\n', {}, code);
    const r = await fetchRobotsTxt(a.origin, { unreachableTtlMs: 5000 });
    expect(r.status).toBe(status);
    expect(r.httpStatus).toBe(code);
    expect(r.robots.isAllowed(`${a.origin}/page`, 'Bot')).toBe(allowed);
    if (status === 'unreachable') expect(r.expiresAt - r.fetchedAt).toBe(5000);
  });

  it('a connection reset on every try is unreachable, after two retries', async () => {
    a.hits.clear();
    a.handler = (req) => req.socket.destroy();
    const r = await fetchRobotsTxt(a.origin);
    expect(r.status).toBe('unreachable');
    expect(r.httpStatus).toBeUndefined();
    expect(r.error).toMatch(/ECONNRESET/);
    expect(r.robots.isAllowed('/x', 'Bot')).toBe(false);
    expect(a.hits.get('/robots.txt')).toBe(3);
  });

  it('a connection reset once is retried on a new connection: ok', async () => {
    a.hits.clear();
    let resets = 0;
    a.handler = (req, res) => {
      if (resets++ === 0) req.socket.destroy();
      else serve('User-agent: *\nDisallow: /private\n')(req, res, a);
    };
    const r = await fetchRobotsTxt(a.origin);
    expect(r.status).toBe('ok');
    expect(r.robots.isAllowed(`${a.origin}/private`, 'Bot')).toBe(false);
    expect(r.robots.isAllowed(`${a.origin}/page`, 'Bot')).toBe(true);
    expect(a.hits.get('/robots.txt')).toBe(2);
  });

  it('a keep-alive connection the server closes as it is reused does not make the site unreachable', async () => {
    // The server answers once per connection and cuts any request that comes on a connection
    // it has already answered on: each fetch after the first goes out on a reused connection,
    // is cut, and must be retried on a new one.
    const [site] = await startSites(1, serve(''));
    const answered = new WeakSet<object>();
    site.handler = (req, res) => {
      if (answered.has(req.socket)) {
        req.socket.destroy();
        return;
      }
      answered.add(req.socket);
      serve('User-agent: *\nDisallow: /private\n')(req, res, site);
    };
    for (let i = 0; i < 5; i++) {
      const r = await fetchRobotsTxt(site.origin);
      expect(r.status).toBe('ok');
      expect(r.robots.isAllowed(`${site.origin}/private`, 'Bot')).toBe(false);
      // Let the connection go back to the pool, so that the next fetch reuses it.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // Every fetch after the first was cut at least once.
    expect(site.hits.get('/robots.txt')).toBeGreaterThanOrEqual(9);
    await stopSites([site]);
  });

  it('a server that never answers times out: unreachable', async () => {
    a.handler = () => undefined;
    const started = Date.now();
    const r = await fetchRobotsTxt(a.origin, { timeoutMs: 300 });
    expect(r.status).toBe('unreachable');
    expect(r.error).toBe('timed out after 300 ms');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('a server that trickles one byte a second times out: unreachable', async () => {
    a.handler = (_req, res) => {
      res.writeHead(200);
      const timer = setInterval(() => res.write('#'), 1000);
      res.on('close', () => clearInterval(timer));
    };
    const r = await fetchRobotsTxt(a.origin, { timeoutMs: 1500 });
    expect(r.status).toBe('unreachable');
    expect(r.error).toBe('timed out after 1500 ms');
  });

  it('a refused connection is unreachable at once, not retried', async () => {
    const gone = { origin: await refusedOrigin() };
    let calls = 0;
    const counting: typeof fetch = (input, init) => {
      calls++;
      return fetch(input, init);
    };
    const r = await fetchRobotsTxt(gone.origin, { fetch: counting });
    expect(r.status).toBe('unreachable');
    expect(r.error).toMatch(/ECONNREFUSED/);
    expect(calls).toBe(1);
  });

  it('a TLS failure is unreachable (https to a plain HTTP server)', async () => {
    a.handler = serve(RULES);
    const r = await fetchRobotsTxt(a.origin.replace('http:', 'https:'));
    expect(r.status).toBe('unreachable');
    expect(r.httpStatus).toBeUndefined();
    expect(r.robots.isAllowed('/public', 'Bot')).toBe(false);
  });

  it("the caller's abort rejects instead of answering", async () => {
    a.handler = () => undefined;
    const controller = new AbortController();
    const pending = fetchRobotsTxt(a.origin, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop')), 50);
    await expect(pending).rejects.toThrow('stop');
  });

  it('misuse is a TypeError', async () => {
    await expect(fetchRobotsTxt('/relative')).rejects.toThrow(TypeError);
    await expect(fetchRobotsTxt('ftp://example.com/')).rejects.toThrow(/not an absolute http\(s\) URL/);
    await expect(fetchRobotsTxt(a.origin, { timeoutMs: 0 })).rejects.toThrow(/timeoutMs must be an integer of at least 1/);
    await expect(fetchRobotsTxt(a.origin, { maxRedirects: -1 })).rejects.toThrow(/maxRedirects/);
  });
});

/** `text` compressed with `coding`, with a sync flush after each line (the cut points a streaming server makes). */
async function flushedLines(coding: 'gzip' | 'deflate' | 'br', text: string): Promise<Buffer> {
  const stream: Gzip | BrotliCompress = coding === 'gzip' ? createGzip() : coding === 'deflate' ? createDeflate() : createBrotliCompress();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => stream.on('end', resolve));
  for (const line of text.split(/(?<=\n)/)) {
    stream.write(line);
    await new Promise<void>((resolve) => stream.flush(coding === 'br' ? constants.BROTLI_OPERATION_FLUSH : constants.Z_SYNC_FLUSH, () => resolve()));
  }
  stream.end();
  await ended;
  return Buffer.concat(chunks);
}

describe('fetchRobotsTxt: bodies that do not arrive whole are unreachable', () => {
  // Every prefix of this file allows something its whole does not: "/private" and "/x".
  const text = 'User-agent: *\nDisallow: /\nAllow: /public/$\n';
  const plain = { gzip: gzipSync(text), deflate: deflateSync(text), br: brotliCompressSync(text) };

  it.each(['gzip', 'deflate', 'br'] as const)('every cut of a %s body, plain and sync-flushed: unreachable; whole: ok', async (coding) => {
    for (const body of [plain[coding], await flushedLines(coding, text)]) {
      let cut = 0;
      a.handler = (_req, res) => res.writeHead(200, { 'content-encoding': coding, 'content-length': cut }).end(body.subarray(0, cut));
      const statuses: string[] = [];
      for (cut = 0; cut < body.length; cut++) {
        const r = await fetchRobotsTxt(a.origin);
        statuses.push(r.status);
        expect([cut, r.status, r.robots.isAllowed('/private', 'Bot')]).toEqual([cut, 'unreachable', false]);
      }
      expect(new Set(statuses)).toEqual(new Set(['unreachable']));
      cut = body.length;
      const whole = await fetchRobotsTxt(a.origin);
      expect([whole.status, whole.robots.isAllowed('/private', 'Bot'), whole.robots.isAllowed('/public/', 'Bot')]).toEqual(['ok', false, true]);
    }
  });

  it('raw deflate (as some servers send "deflate") and stacked codings decode', async () => {
    a.handler = (_req, res) => res.writeHead(200, { 'content-encoding': 'deflate' }).end(deflateRawSync(text));
    expect((await fetchRobotsTxt(a.origin)).robots.isAllowed('/public/', 'Bot')).toBe(true);
    a.handler = (_req, res) => res.writeHead(200, { 'content-encoding': 'gzip, br' }).end(brotliCompressSync(gzipSync(text)));
    const stacked = await fetchRobotsTxt(a.origin);
    expect([stacked.status, stacked.robots.isAllowed('/private', 'Bot')]).toEqual(['ok', false]);
  });

  it('a plain body shorter than its Content-Length is unreachable', async () => {
    a.handler = (req, res) => {
      res.writeHead(200, { 'content-length': 100 });
      res.write('User-agent: *\nDisallow: /\n');
      setTimeout(() => req.socket.destroy(), 20);
    };
    const r = await fetchRobotsTxt(a.origin);
    expect([r.status, r.robots.isAllowed('/x', 'Bot')]).toEqual(['unreachable', false]);
  });
});

describe('fetchRobotsTxt: the deadline holds whatever the transport does', () => {
  it('a fetch that never settles, even when aborted: unreachable at timeoutMs', async () => {
    const never: typeof fetch = () => new Promise(() => undefined);
    const started = Date.now();
    const r = await fetchRobotsTxt(a.origin, { fetch: never, timeoutMs: 200 });
    expect([r.status, r.error]).toEqual(['unreachable', 'timed out after 200 ms']);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a body stream that never ends and ignores the abort: unreachable at timeoutMs', async () => {
    const endless: typeof fetch = async () => new Response(new ReadableStream({ pull: () => new Promise(() => undefined) }), { status: 200 });
    const r = await fetchRobotsTxt(a.origin, { fetch: endless, timeoutMs: 200 });
    expect([r.status, r.error]).toEqual(['unreachable', 'timed out after 200 ms']);
  });

  it("the caller's abort rejects at once even when the fetch ignores it", async () => {
    const controller = new AbortController();
    const pending = fetchRobotsTxt(a.origin, { fetch: () => new Promise(() => undefined), signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop')), 20);
    await expect(pending).rejects.toThrow('stop');
  });

  it('RobotsCache with concurrency 1: an origin whose fetch hangs does not hold up the others', async () => {
    const hanging = new URL(b.origin).host;
    const fetchSome: typeof fetch = (input, init) => (String(input).includes(hanging) ? new Promise(() => undefined) : fetch(input, init));
    a.handler = serve(RULES);
    const cache = new RobotsCache({ agent: 'Bot', concurrency: 1, timeoutMs: 300, fetch: fetchSome });
    const verdicts = await Promise.all([cache.isAllowed(`${b.origin}/x`), cache.isAllowed(`${a.origin}/private`), cache.isAllowed(`${a.origin}/x`)]);
    expect(verdicts).toEqual([false, false, true]);
    expect((await cache.get(b.origin)).error).toBe('timed out after 300 ms');
  });
});

describe('fetchRobotsTxt: options that could not work are refused', () => {
  it('timeoutMs from 1 to 2^31 - 1', async () => {
    for (const timeoutMs of [0, 2 ** 31, 2 ** 32, 2 ** 40, 1.5, Number.NaN]) {
      await expect(fetchRobotsTxt(a.origin, { timeoutMs })).rejects.toThrow(TypeError);
    }
    a.handler = serve(RULES);
    expect((await fetchRobotsTxt(a.origin, { timeoutMs: 2 ** 31 - 1 })).status).toBe('ok');
  });

  it('a userAgent or a cache agent that cannot be a header value is a TypeError at construction', async () => {
    for (const bad of ['Bot\r\nX-Injected: 1', 'Bot\n', 'Bot\0', 'Bot 日本', 'Bot\x7f']) {
      await expect(fetchRobotsTxt(a.origin, { userAgent: bad })).rejects.toThrow(/cannot be sent in an HTTP header/);
      expect(() => new RobotsCache({ agent: bad })).toThrow(TypeError);
      expect(() => new RobotsCache({ agent: 'Bot', userAgent: bad })).toThrow(TypeError);
    }
    // Latin-1 and tabs are fine: they are sent as they are.
    let sent: string | undefined;
    a.handler = (req, res) => {
      sent = req.headers['user-agent'];
      serve(RULES)(req, res, a);
    };
    expect((await fetchRobotsTxt(a.origin, { userAgent: 'Bot\tcafé' })).status).toBe('ok');
    expect(Buffer.from(sent!, 'latin1').toString('latin1')).toBe('Bot\tcafé');
  });
});

describe('fetchRobotsTxt: HTTP details', () => {
  it('a 304 to a request that sent no validator is unreachable', async () => {
    a.handler = (_req, res) => res.writeHead(304).end();
    const r = await fetchRobotsTxt(a.origin);
    expect([r.status, r.httpStatus, r.error]).toEqual(['unreachable', 304, 'HTTP 304 to a request with no validator']);
  });

  it('a 304 renewal keeps the stored response\'s freshness: no-store stays no-store, max-age stays max-age', async () => {
    const cache = new RobotsCache({ agent: 'Bot', minTtlMs: 0 });
    for (const [stored, lifetime] of [['no-store', 0], ['max-age=1', 1000]] as const) {
      let first = true;
      const origin = (await startSites(1, (req, res) => {
        if (first) {
          first = false;
          return void res.writeHead(200, { etag: '"v1"', 'cache-control': stored }).end(RULES);
        }
        expect(req.headers['if-none-match']).toBe('"v1"');
        res.writeHead(304, { etag: '"v1"' }).end();
      }))[0];
      const result = await cache.get(origin.origin);
      expect(result.expiresAt - result.fetchedAt).toBe(lifetime);
      // Once expired, the next use revalidates.
      await new Promise((resolve) => setTimeout(resolve, lifetime + 50));
      const renewed = await cache.get(origin.origin);
      expect([renewed.httpStatus, renewed.revalidated, renewed.expiresAt - renewed.fetchedAt]).toEqual([304, true, lifetime]);
      await stopSites([origin]);
    }
  });

  it('a redirect to a URL with credentials is unavailable', async () => {
    a.handler = (_req, res) => res.writeHead(302, { location: `http://user:secret@${new URL(b.origin).host}/robots.txt` }).end();
    b.hits.clear();
    const r = await fetchRobotsTxt(a.origin);
    expect([r.status, r.error, b.hits.size]).toEqual(['unavailable', `redirect to a URL with credentials (${new URL(b.origin).host})`, 0]);
  });

  it('allowRedirect sees each redirect and can refuse it: unavailable, nothing fetched there', async () => {
    a.handler = (_req, res) => res.writeHead(301, { location: `${b.origin}/robots.txt` }).end();
    b.handler = serve(RULES);
    b.hits.clear();
    const asked: string[] = [];
    const refuseLoopback = async (from: URL, to: URL) => {
      asked.push(`${from.href} -> ${to.href}`);
      return to.hostname !== '127.0.0.1';
    };
    const refused = await fetchRobotsTxt(a.origin, { allowRedirect: refuseLoopback });
    expect([refused.status, refused.error, b.hits.size]).toEqual(['unavailable', `redirect to ${b.origin}/robots.txt refused by allowRedirect`, 0]);
    expect(asked).toEqual([`${a.origin}/robots.txt -> ${b.origin}/robots.txt`]);
    const followed = await fetchRobotsTxt(a.origin, { allowRedirect: () => true });
    expect([followed.status, followed.robots.isAllowed('/private', 'Bot')]).toEqual(['ok', false]);
    await expect(fetchRobotsTxt(a.origin, { allowRedirect: 'no' as never })).rejects.toThrow(TypeError);
  });
});

describe('freshness (RFC 9111 under the 24-hour cap of RFC 9309 2.4)', () => {
  const DAY = 86_400_000;
  const h = (headers: Record<string, string>) => new Headers(headers);
  const now = Date.parse('2026-11-22T12:00:00Z');
  it.each([
    [{}, DAY],
    [{ 'cache-control': 'max-age=60' }, 60_000],
    [{ 'cache-control': 'public, s-maxage=30, max-age=60' }, 30_000],
    [{ 'cache-control': 'max-age=999999' }, DAY],
    [{ 'cache-control': 'no-store' }, 0],
    [{ 'cache-control': 'no-cache, max-age=60' }, 0],
    [{ 'cache-control': 'max-age=60', age: '20' }, 40_000],
    [{ expires: 'Sun, 22 Nov 2026 13:00:00 GMT' }, 3_600_000],
    [{ expires: 'Sun, 22 Nov 2026 13:00:00 GMT', date: 'Sun, 22 Nov 2026 12:30:00 GMT' }, 1_800_000],
    [{ expires: '0' }, 0],
    [{ 'cache-control': 'max-age=60', expires: 'Sun, 22 Nov 2026 13:00:00 GMT' }, 60_000],
  ])('%j -> %i ms', (headers, expected) => {
    expect(freshnessMs(h(headers), now, DAY, DAY)).toBe(expected);
  });

  it('no-store is floored at minTtlMs, and ttlMs caps everything', async () => {
    a.handler = serve(RULES, { 'cache-control': 'no-store' });
    const floored = await fetchRobotsTxt(a.origin);
    expect(floored.expiresAt - floored.fetchedAt).toBe(60_000);
    a.handler = serve(RULES, { 'cache-control': 'max-age=3600' });
    const capped = await fetchRobotsTxt(a.origin, { ttlMs: 1000 });
    expect(capped.expiresAt - capped.fetchedAt).toBe(1000);
  });
});

describe('originOf', () => {
  it.each([
    ['https://Example.COM/a', 'https://example.com'],
    ['http://example.com:80/a', 'http://example.com'],
    ['https://example.com:443', 'https://example.com'],
    ['http://example.com:8080?q', 'http://example.com:8080'],
    ['http://user:pw@example.com/x', 'http://example.com'],
    ['http://bücher.de/', 'http://xn--bcher-kva.de'],
    ['http://127.1/', 'http://127.0.0.1'],
    ['http://[::1]:81/', 'http://[::1]:81'],
    ['https://a.example.com#frag', 'https://a.example.com'],
    ['mailto:x@example.com', undefined],
    ['/relative', undefined],
    ['http://foo.123/', undefined],
  ])('%s -> %s', (url, origin) => {
    expect(originOf(url)).toBe(origin);
  });
});

describe('fetchRobotsTxt: Retry-After on an unreachable answer sets the next attempt', () => {
  /** Fetches `a` answering `code` with `retryAfter`, and the clock around the fetch. */
  async function answered(code: number, retryAfter: string, options: Parameters<typeof fetchRobotsTxt>[1] = {}) {
    a.handler = serve('User-agent: *\nAllow: /\n', { 'retry-after': retryAfter }, code);
    const before = Date.now();
    const r = await fetchRobotsTxt(a.origin, options);
    return { r, before, after: Date.now() };
  }

  it('503 with Retry-After: 2: still disallow-all, and it stands until the time named', async () => {
    const { r, before, after } = await answered(503, '2');
    expect(r.status).toBe('unreachable');
    expect(r.robots.isAllowed(`${a.origin}/page`, 'Bot')).toBe(false);
    expect(r.retryAt).toBeGreaterThanOrEqual(before + 2000);
    expect(r.retryAt).toBeLessThanOrEqual(after + 2000);
    expect(r.expiresAt).toBe(r.retryAt);
  });

  it('429 with an HTTP-date: it stands until that date', async () => {
    const at = Math.floor(Date.now() / 1000) * 1000 + 30_000;
    const { r } = await answered(429, new Date(at).toUTCString());
    expect(r.status).toBe('unreachable');
    expect(r.retryAt).toBe(at);
    expect(r.expiresAt).toBe(at);
  });

  it('Retry-After: 0 and a date past stand for the 1 s floor, not 0', async () => {
    for (const value of ['0', 'Thu, 01 Jan 2015 12:00:00 GMT']) {
      const { r, after } = await answered(503, value);
      expect(r.retryAt, value).toBeLessThanOrEqual(after);
      expect(r.expiresAt - r.fetchedAt, value).toBe(1000);
    }
  });

  it('a huge Retry-After is capped at ttlMs, the longest any result lives', async () => {
    const { r, before } = await answered(503, '999999999');
    expect(r.retryAt).toBeGreaterThanOrEqual(before + 999_999_999_000);
    expect(Number.isSafeInteger(r.retryAt)).toBe(true);
    expect(r.expiresAt - r.fetchedAt).toBe(86_400_000);
    const short = await answered(503, '3600', { ttlMs: 10_000 });
    expect(short.r.expiresAt - short.r.fetchedAt).toBe(10_000);
    // Longer than unreachableTtlMs is honoured: the server said when.
    const long = await answered(503, '3600', { unreachableTtlMs: 5000 });
    expect(long.r.expiresAt - long.r.fetchedAt).toBe(long.r.retryAt! - long.r.fetchedAt);
    expect(long.r.expiresAt - long.r.fetchedAt).toBeGreaterThan(3_590_000);
  });

  it('a Retry-After that is neither delta-seconds nor an HTTP-date: no retryAt, unreachableTtlMs', async () => {
    for (const value of ['-5', '1.5', 'NaN', 'soon', '', 'Mon, 32 Jan 2026 00:00:00 GMT', '0x10']) {
      const { r } = await answered(503, value, { unreachableTtlMs: 5000 });
      expect(r.status, value).toBe('unreachable');
      expect(r, value).toHaveProperty('retryAt', undefined);
      expect(r.expiresAt - r.fetchedAt, value).toBe(5000);
    }
  });

  it('answers that are not unreachable ignore Retry-After', async () => {
    for (const code of [200, 404]) {
      const { r } = await answered(code, '2', { minTtlMs: 0 });
      expect(r.status, String(code)).toBe(code === 200 ? 'ok' : 'unavailable');
      expect(r, String(code)).toHaveProperty('retryAt', undefined);
      // An unavailable result's expiry counts from the answer, its fetchedAt from a moment later.
      expect(r.expiresAt - r.fetchedAt, String(code)).toBeGreaterThan(86_399_000);
    }
  });
});
