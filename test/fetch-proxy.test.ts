// fetchRobotsTxt with proxyUrl, through a real HTTP proxy on 127.0.0.1 (absolute-form GETs and
// CONNECT tunnels) to real servers on 127.0.0.1: every request goes through the proxy,
// redirects too, its credentials reach the proxy and not the site, a proxy that refuses fails
// closed, and the limits and access results hold as they do without a proxy.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fetchRobotsTxt, RobotsCache } from '../src/index.js';
import { proxiedGet as webProxiedGet } from '../src/fetch/transport-web.js';
import { serve, startProxy, startSites, startTlsSite, stopSites, type Proxy, type Site } from './support/servers.js';

const RULES = 'User-agent: *\nDisallow: /private\n';

let sites: Site[] = [];
let a: Site;
let b: Site;
let secure: Site & { certificate: string };
let proxy: Proxy;

beforeAll(async () => {
  sites = await startSites(2, serve(RULES));
  [a, b] = sites;
  secure = await startTlsSite(serve(RULES));
  proxy = await startProxy();
});
afterAll(() => stopSites([...sites, secure, proxy]));

beforeEach(() => {
  Object.assign(proxy, { forwarded: [], received: [], authorizations: [], credentials: undefined, refuse: undefined });
  a.handler = serve(RULES);
  a.hits.clear();
});

/** The proxy's URL with `user` and `password` in it (percent-encoded as a URL holds them). */
function withCredentials(user: string, password: string): string {
  const url = new URL(proxy.url);
  url.username = user;
  url.password = password;
  return url.href;
}

describe('fetchRobotsTxt through an HTTP proxy', () => {
  it('an http: site: one absolute-form GET through the proxy, the file parsed', async () => {
    const r = await fetchRobotsTxt(`${a.origin}/some/page?x=1`, { proxyUrl: proxy.url });
    expect(proxy.forwarded).toEqual([`GET ${a.origin}/robots.txt`]);
    expect([r.status, r.httpStatus, r.finalUrl, r.origin]).toEqual(['ok', 200, `${a.origin}/robots.txt`, a.origin]);
    expect([r.robots.isAllowed(`${a.origin}/private/1`, 'Bot'), r.robots.isAllowed(`${a.origin}/public`, 'Bot')]).toEqual([false, true]);
  });

  it('credentials in the proxy URL: Basic Proxy-Authorization to the proxy, nothing to the site', async () => {
    let siteSaw: unknown = 'no request';
    a.handler = (req, res) => {
      siteSaw = req.headers['proxy-authorization'];
      res.end(RULES);
    };
    const expected = `Basic ${Buffer.from('crawler:pa:ss@word').toString('base64')}`;
    proxy.credentials = expected;
    const r = await fetchRobotsTxt(a.origin, { proxyUrl: withCredentials('crawler', 'pa:ss@word') });
    expect([r.status, proxy.authorizations, siteSaw]).toEqual(['ok', [expected], undefined]);
  });

  it('redirects go through the proxy too, across hosts; one too many makes the file unavailable', async () => {
    a.handler = (_req, res) => res.writeHead(301, { location: `${b.origin}/moved/robots.txt` }).end();
    b.handler = (req, res) => res.end(req.url === '/moved/robots.txt' ? 'User-agent: *\nDisallow: /moved\n' : '');
    const moved = await fetchRobotsTxt(a.origin, { proxyUrl: proxy.url });
    expect(proxy.forwarded).toEqual([`GET ${a.origin}/robots.txt`, `GET ${b.origin}/moved/robots.txt`]);
    expect([moved.status, moved.redirects, moved.robots.isAllowed(`${a.origin}/moved/1`, 'Bot')]).toEqual(['ok', 1, false]);
    proxy.forwarded = [];
    a.handler = (req, res) => res.writeHead(302, { location: `/hop${req.url!.length}` }).end();
    const looping = await fetchRobotsTxt(a.origin, { proxyUrl: proxy.url, maxRedirects: 2 });
    expect([looping.status, looping.error, proxy.forwarded.length]).toEqual(['unavailable', 'more than 2 redirects', 3]);
  });

  it('the parsing limit holds: maxBytes of a long body are read', async () => {
    a.handler = serve(`User-agent: *\nDisallow: /private\n${'Disallow: /filler\n'.repeat(60_000)}Disallow: /after\n`);
    const r = await fetchRobotsTxt(a.origin, { proxyUrl: proxy.url, maxBytes: 100_000 });
    expect([r.status, r.body!.length]).toEqual(['ok', 100_001]);
    expect([r.robots.isAllowed('/private', 'Bot'), r.robots.isAllowed('/after', 'Bot')]).toEqual([false, true]);
  });

  it("the site's answers keep their RFC 9309 meaning: 404 allows all, 503 disallows all, no answer times out", async () => {
    a.handler = serve(RULES, {}, 404);
    const missing = await fetchRobotsTxt(a.origin, { proxyUrl: proxy.url });
    expect([missing.status, missing.httpStatus, missing.robots.isAllowed('/private', 'Bot')]).toEqual(['unavailable', 404, true]);
    a.handler = serve(RULES, {}, 503);
    const failing = await fetchRobotsTxt(a.origin, { proxyUrl: proxy.url });
    expect([failing.status, failing.httpStatus, failing.robots.isAllowed('/', 'Bot')]).toEqual(['unreachable', 503, false]);
    a.handler = () => undefined;
    const silent = await fetchRobotsTxt(a.origin, { proxyUrl: proxy.url, timeoutMs: 300 });
    expect([silent.status, silent.error, silent.robots.isAllowed('/', 'Bot')]).toEqual(['unreachable', 'timed out after 300 ms', false]);
    expect(proxy.forwarded).toEqual(Array(3).fill(`GET ${a.origin}/robots.txt`));
  });

  it('a proxy that refuses fails closed: 407 and 502 disallow all, and the site is never asked', async () => {
    proxy.credentials = 'Basic other';
    const unauthorized = await fetchRobotsTxt(a.origin, { proxyUrl: withCredentials('crawler', 'wrong') });
    expect([unauthorized.status, unauthorized.httpStatus, unauthorized.error]).toEqual(['unreachable', undefined, `the proxy refused GET ${a.origin}/robots.txt: HTTP 407`]);
    expect(unauthorized.robots.isAllowed('/public', 'Bot')).toBe(false);
    proxy.credentials = undefined;
    proxy.refuse = 502;
    const badGateway = await fetchRobotsTxt(a.origin, { proxyUrl: proxy.url });
    expect([badGateway.status, badGateway.httpStatus, badGateway.robots.isAllowed('/public', 'Bot')]).toEqual(['unreachable', 502, false]);
    expect([proxy.received, proxy.forwarded, a.hits.size]).toEqual([Array(2).fill(`GET ${a.origin}/robots.txt`), [], 0]);
  });

  it('an https: site: a CONNECT tunnel, and TLS inside it verified as without a proxy', async () => {
    const r = await fetchRobotsTxt(secure.origin, { proxyUrl: proxy.url });
    expect(proxy.forwarded).toEqual([`CONNECT ${new URL(secure.origin).host}`]);
    // The site's certificate is self-signed: not trusted here, so the file is unreachable.
    expect([r.status, r.robots.isAllowed('/public', 'Bot')]).toEqual(['unreachable', false]);
    expect(r.error).toMatch(/self[- ]signed certificate/);
  });

  it('an https: site whose certificate is trusted: the file, read through the tunnel', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'robots-wasm-ca-'));
    try {
      writeFileSync(join(dir, 'ca.pem'), secure.certificate);
      // Node reads extra trusted certificates only at start: a process of its own trusts this one.
      const script = `const { fetchRobotsTxt } = await import(process.argv[1]);
        const r = await fetchRobotsTxt(process.argv[2], { proxyUrl: process.argv[3] });
        console.log(JSON.stringify([r.status, r.httpStatus, r.robots.isAllowed('/private/1', 'Bot'), r.robots.isAllowed('/public', 'Bot')]));`;
      const dist = new URL('../dist/index.js', import.meta.url).href;
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, dist, `${secure.origin}/page`, proxy.url], {
        env: { ...process.env, NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem') },
      });
      expect(JSON.parse(stdout)).toEqual(['ok', 200, false, true]);
      expect(proxy.forwarded).toEqual([`CONNECT ${new URL(secure.origin).host}`]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an https: proxy is spoken to over TLS, verified: one with an untrusted certificate is unreachable', async () => {
    const r = await fetchRobotsTxt(a.origin, { proxyUrl: secure.origin });
    expect([r.status, r.robots.isAllowed('/public', 'Bot'), a.hits.size]).toEqual(['unreachable', false, 0]);
    expect(r.error).toMatch(/self[- ]signed certificate/);
  });

  it('a CONNECT the proxy refuses fails closed, whatever its status', async () => {
    for (const status of [403, 407, 502]) {
      proxy.refuse = status;
      const r = await fetchRobotsTxt(secure.origin, { proxyUrl: proxy.url });
      expect([r.status, r.error, r.robots.isAllowed('/public', 'Bot')]).toEqual(['unreachable', `the proxy refused CONNECT ${new URL(secure.origin).host}: HTTP ${status}`, false]);
    }
    expect([proxy.received.length, proxy.forwarded]).toEqual([3, []]);
  });

  it('a RobotsCache fetches through the proxy it is given', async () => {
    const cache = new RobotsCache({ agent: 'Bot', proxyUrl: proxy.url });
    expect([await cache.isAllowed(`${a.origin}/private/1`), await cache.isAllowed(`${a.origin}/public`)]).toEqual([false, true]);
    expect(proxy.forwarded).toEqual([`GET ${a.origin}/robots.txt`]);
  });
});

describe('proxyUrl: what cannot work is refused', () => {
  it('a proxy that is not http(s) or not a URL, fetch beside it, undecodable credentials: TypeError, nothing sent', async () => {
    await expect(fetchRobotsTxt(a.origin, { proxyUrl: 'socks5://127.0.0.1:1080' })).rejects.toThrow(/proxyUrl must be an http: or https: proxy, not socks5:/);
    await expect(fetchRobotsTxt(a.origin, { proxyUrl: '127.0.0.1:8080' })).rejects.toThrow(TypeError);
    await expect(fetchRobotsTxt(a.origin, { proxyUrl: 'not a url' })).rejects.toThrow(/proxyUrl must be an absolute URL string/);
    await expect(fetchRobotsTxt(a.origin, { proxyUrl: proxy.url, fetch })).rejects.toThrow(/pass fetch or proxyUrl, not both/);
    await expect(fetchRobotsTxt(a.origin, { proxyUrl: withCredentials('%zz', 'x') })).rejects.toThrow(/not valid percent-encoding/);
    expect(() => new RobotsCache({ agent: 'Bot', proxyUrl: 'ftp://127.0.0.1:21' })).toThrow(/not ftp:/);
    expect([proxy.received, a.hits.size]).toEqual([[], 0]);
  });

  it('the platform-fetch transport refuses a proxy rather than fetch without it', () => {
    expect(() => webProxiedGet(new URL(proxy.url))).toThrow(TypeError);
    expect(() => webProxiedGet(new URL(proxy.url))).toThrow(/proxyUrl needs node:http/);
  });
});
