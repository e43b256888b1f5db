// robots-wasm/crawlee: crawlee's RobotsTxtFile over fetchRobotsTxt, against real servers on
// 127.0.0.1 (every RFC 9309 2.3.1 access result), directly and through a proxy, and from() on
// given content.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RobotsFile, RobotsTxtFile, type PacedNavigation } from '../src/compat/crawlee.js';
import type { Pacer } from '../src/index.js';
import { serve, startProxy, startSites, stopSites, type Proxy, type Site } from './support/servers.js';

const RULES = 'User-agent: *\nDisallow: /private\nCrawl-delay: 3\n\nUser-agent: ShopBot\nDisallow: /cart\n';
const SITEMAPS = ['https://shop.example/sitemap.xml', 'http://shop.example./news.xml', 'https://shop.example:8443/more.xml', 'https://cdn.example/shop.xml', 'ftp://shop.example/files.xml'];
const SHOP = `${RULES}${SITEMAPS.map((s) => `Sitemap: ${s}\n`).join('')}`;

let sites: Site[] = [];
let a: Site;
let b: Site;

beforeAll(async () => {
  sites = await startSites(2, serve(RULES));
  [a, b] = sites;
});
afterAll(() => stopSites(sites));

describe('RobotsTxtFile.find', () => {
  it('200: the file at the origin, found from any URL of it, its rules applied', async () => {
    a.handler = serve(RULES);
    a.hits.clear();
    const robots = await RobotsTxtFile.find(`${a.origin}/some/page?x=1`);
    expect([...a.hits.keys()]).toEqual(['/robots.txt']);
    expect(robots.isAllowed(`${a.origin}/private/1`)).toBe(false);
    expect(robots.isAllowed(`${a.origin}/cart`)).toBe(true);
    expect(robots.isAllowed(`${a.origin}/cart`, 'ShopBot/2.0')).toBe(false);
    expect(robots.isAllowed(`${a.origin}/private/1`, 'ShopBot/2.0')).toBe(true);
    expect(robots.getCrawlDelay()).toBe(3);
    expect(robots.getCrawlDelay('ShopBot')).toBe(undefined);
  });

  it('sitemaps are scoped to the host asked for, which a redirect does not change', async () => {
    const port = new URL(b.origin).port;
    const listed = [`${a.origin}/sitemap.xml`, `${b.origin}/sitemap.xml`, `http://localhost:${port}/sitemap.xml`];
    a.handler = (_req, res) => res.writeHead(302, { location: `http://localhost:${port}/robots.txt` }).end();
    b.handler = serve(`User-agent: *\nDisallow:\n${listed.map((s) => `Sitemap: ${s}\n`).join('')}`);
    const robots = await RobotsTxtFile.find(a.origin);
    expect(robots.getSitemaps()).toEqual(listed.slice(0, 2));
    expect(robots.getSitemaps('same-origin')).toEqual(listed.slice(0, 1));
    expect(robots.getSitemaps('all')).toEqual(listed);
  });

  it.each([404, 403, 410])('%i: no file, everything allowed (crawlee throws for all 4xx but 404)', async (status) => {
    a.handler = serve(RULES, {}, status);
    const robots = await RobotsTxtFile.find(a.origin);
    expect(robots.isAllowed(`${a.origin}/private/1`)).toBe(true);
    expect(robots.getSitemaps()).toEqual([]);
    expect(robots.getCrawlDelay()).toBe(undefined);
  });

  it.each([500, 503, 429])('%i: the server failed, everything disallowed (crawlee throws)', async (status) => {
    a.handler = serve(RULES, {}, status);
    const robots = await RobotsTxtFile.find(a.origin);
    expect(robots.isAllowed(`${a.origin}/`)).toBe(false);
    expect(robots.isAllowed(`${a.origin}/public`, 'ShopBot')).toBe(false);
  });

  it('a server that never answers: timed out, everything disallowed', async () => {
    a.handler = () => undefined;
    const started = Date.now();
    const robots = await RobotsTxtFile.find(a.origin, { timeoutMs: 300 });
    expect(robots.isAllowed(`${a.origin}/`)).toBe(false);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('a redirect to another host is followed; the rules apply to the origin asked for', async () => {
    a.handler = (_req, res) => res.writeHead(301, { location: `${b.origin}/moved/robots.txt` }).end();
    b.handler = (req, res) => res.end(req.url === '/moved/robots.txt' ? 'User-agent: *\nDisallow: /moved-rule\n' : '');
    const robots = await RobotsTxtFile.find(`${a.origin}/start`);
    expect(robots.isAllowed(`${a.origin}/moved-rule`)).toBe(false);
    expect(robots.isAllowed(`${a.origin}/other`)).toBe(true);
    // The file speaks for a's origin only: b's URLs have no rules here.
    expect(robots.isAllowed(`${b.origin}/moved-rule`)).toBe(true);
  });

  it('sends the User-Agent it is given, and uses the fetch it is given', async () => {
    let seen = '';
    a.handler = (req, res) => {
      seen = req.headers['user-agent'] ?? '';
      res.end(RULES);
    };
    await RobotsTxtFile.find(a.origin, { userAgent: 'ShopBot/2.0 (+https://shop.example/bot)' });
    expect(seen).toBe('ShopBot/2.0 (+https://shop.example/bot)');
    const asked: string[] = [];
    const recording: typeof fetch = (input, init) => {
      asked.push(String(input));
      return fetch(input, init);
    };
    const robots = await RobotsTxtFile.find(`${a.origin}/x`, { fetch: recording });
    expect(asked).toEqual([`${a.origin}/robots.txt`]);
    expect(robots.isAllowed(`${a.origin}/private`)).toBe(false);
  });

  it("refuses crawlee's HTTP client option and a proxy that is not http(s) instead of bypassing them", async () => {
    await expect(RobotsTxtFile.find(a.origin, { httpClient: {} } as never)).rejects.toThrow(/httpClient is not supported/);
    await expect(RobotsTxtFile.find(a.origin, 'socks5://127.0.0.1:1080')).rejects.toThrow(/proxyUrl must be an http: or https: proxy, not socks5:/);
  });

  it("takes crawlee 3.18's third argument: timeoutMillis and signal", async () => {
    a.handler = () => undefined;
    const robots = await RobotsTxtFile.find(a.origin, undefined, { timeoutMillis: 200 });
    expect(robots.isAllowed(`${a.origin}/`)).toBe(false);
    const abort = new AbortController();
    const pending = RobotsTxtFile.find(a.origin, undefined, { signal: abort.signal });
    abort.abort(new Error('crawl stopped'));
    await expect(pending).rejects.toThrow('crawl stopped');
  });

  it('rejects a URL that is not absolute http(s)', async () => {
    await expect(RobotsTxtFile.find('/relative/page')).rejects.toThrow(TypeError);
    await expect(RobotsTxtFile.find('ftp://files.example/')).rejects.toThrow(TypeError);
  });
});

// crawlee's find(url, proxyUrl): the request goes through the proxy (a real one on 127.0.0.1),
// and a proxy that refuses disallows everything, as a network failure does.
describe('RobotsTxtFile.find through a proxy', () => {
  let proxy: Proxy;
  beforeAll(async () => {
    proxy = await startProxy();
  });
  afterAll(() => stopSites([proxy]));
  beforeEach(() => {
    Object.assign(proxy, { forwarded: [], received: [], credentials: undefined, refuse: undefined });
    a.handler = serve(RULES);
    a.hits.clear();
  });

  it("crawlee's find(url, proxyUrl, options): the robots.txt request goes through the proxy, its credentials to the proxy only", async () => {
    let siteSaw: unknown = 'no request';
    a.handler = (req, res) => {
      siteSaw = req.headers['proxy-authorization'];
      res.end(RULES);
    };
    proxy.credentials = `Basic ${Buffer.from('crawler:secret').toString('base64')}`;
    const proxyUrl = proxy.url.replace('http://', 'http://crawler:secret@');
    const robots = await RobotsTxtFile.find(`${a.origin}/some/page`, proxyUrl, { timeoutMillis: 5000 });
    expect([proxy.forwarded, siteSaw]).toEqual([[`GET ${a.origin}/robots.txt`], undefined]);
    expect([robots.isAllowed(`${a.origin}/private/1`), robots.isAllowed(`${a.origin}/cart`), robots.isAllowed(`${a.origin}/cart`, 'ShopBot')]).toEqual([false, true, false]);
  });

  it('named options take a proxyUrl too; redirects go through it', async () => {
    a.handler = (_req, res) => res.writeHead(301, { location: `${b.origin}/moved/robots.txt` }).end();
    b.handler = (req, res) => res.end(req.url === '/moved/robots.txt' ? 'User-agent: *\nDisallow: /moved-rule\n' : '');
    const robots = await RobotsTxtFile.find(a.origin, { proxyUrl: proxy.url, userAgent: 'ShopBot/2.0' });
    expect(proxy.forwarded).toEqual([`GET ${a.origin}/robots.txt`, `GET ${b.origin}/moved/robots.txt`]);
    expect([robots.isAllowed(`${a.origin}/moved-rule`), robots.isAllowed(`${a.origin}/other`)]).toEqual([false, true]);
  });

  it('an empty proxyUrl is none, as crawlee reads it: the request goes straight to the site', async () => {
    const robots = await RobotsTxtFile.find(a.origin, '');
    expect([proxy.forwarded, [...a.hits.keys()], robots.isAllowed(`${a.origin}/private`)]).toEqual([[], ['/robots.txt'], false]);
  });

  it.each([
    ['a 407 (wrong credentials)', 407],
    ['a 502', 502],
  ])('a proxy that refuses with %s: everything disallowed, the site never asked', async (_name, status) => {
    if (status === 407) proxy.credentials = 'Basic right';
    else proxy.refuse = status;
    const robots = await RobotsTxtFile.find(a.origin, proxy.url);
    expect([robots.isAllowed(`${a.origin}/`), robots.isAllowed(`${a.origin}/cart`, 'ShopBot'), robots.getSitemaps('all')]).toEqual([false, false, []]);
    expect([proxy.received, proxy.forwarded, a.hits.size]).toEqual([[`GET ${a.origin}/robots.txt`], [], 0]);
  });

  it('an https: site is reached in a CONNECT tunnel; a refused CONNECT disallows everything', async () => {
    proxy.refuse = 403;
    const robots = await RobotsTxtFile.find('https://127.0.0.1:1/page', proxy.url);
    expect([robots.isAllowed('https://127.0.0.1:1/'), proxy.received, proxy.forwarded]).toEqual([false, ['CONNECT 127.0.0.1:1'], []]);
  });
});

describe('RobotsTxtFile.from', () => {
  const robots = RobotsTxtFile.from('https://shop.example/robots.txt', SHOP);

  it('answers for the given content, * by default', () => {
    expect(robots.isAllowed('https://shop.example/private')).toBe(false);
    expect(robots.isAllowed('https://shop.example/private', '*')).toBe(false);
    expect(robots.isAllowed('https://shop.example/cart', 'ShopBot')).toBe(false);
    expect(robots.isAllowed('https://shop.example:443/cart/1', 'shopbot/9')).toBe(false);
    expect(robots.isAllowed('https://shop.example/robots.txt', 'ShopBot')).toBe(true);
    expect(robots.getCrawlDelay()).toBe(3);
    expect(robots.getCrawlDelay('ShopBot/1.0')).toBe(undefined);
  });

  it("scopes sitemaps as crawlee 3.18 does: same hostname by default, http(s) only", () => {
    expect(robots.getSitemaps()).toEqual(SITEMAPS.slice(0, 3));
    expect(robots.getSitemaps({ enqueueStrategy: 'same-hostname' })).toEqual(SITEMAPS.slice(0, 3));
    expect(robots.getSitemaps('same-origin')).toEqual(SITEMAPS.slice(0, 1));
    expect(robots.getSitemaps({ enqueueStrategy: 'all' })).toEqual(SITEMAPS.slice(0, 4));
    expect(() => robots.getSitemaps('same-domain' as never)).toThrow(/same-domain.*not supported/);
    expect(RobotsTxtFile.from('not a url', SHOP).getSitemaps('all')).toEqual([]);
  });

  it('allows a URL of another origin or an invalid one, as crawlee does: the file has no rules for it', () => {
    expect(robots.isAllowed('http://shop.example/private')).toBe(true);
    expect(robots.isAllowed('https://other.example/private')).toBe(true);
    expect(robots.isAllowed('not a url')).toBe(true);
  });

  it('returns a new sitemap array each time', () => {
    robots.getSitemaps().push('https://elsewhere.example/');
    expect(robots.getSitemaps()).toEqual(SITEMAPS.slice(0, 3));
  });

  it('is exported under crawlee\'s former name too', () => {
    expect(RobotsFile).toBe(RobotsTxtFile);
    expect(RobotsFile.from('https://shop.example/robots.txt', 'User-agent: *\nDisallow: /\n').isAllowed('https://shop.example/a')).toBe(false);
  });
});

// The example's robots.txt module (examples/crawlee/robots.mjs), run as the example runs it,
// against a server on 127.0.0.1; crawler.mjs itself needs crawlee, which the repository
// installs only as @crawlee/http for test/compat-crawlee-pacing.test.ts.
describe('examples/crawlee', () => {
  const root = new URL('../', import.meta.url);
  const example = new URL('examples/crawlee/', root);
  /**
   * robots.mjs as the example runs it, copied where its `robots-wasm/crawlee` resolves to this
   * package by self-reference (the example's own install packs it from the package around it).
   */
  async function loadExample(): Promise<{ siteRules: (url: string) => Promise<SiteRules>; pacing: (extendTimeout?: (ms: number) => void) => { pacer: Pacer; options: PacedNavigation }; USER_AGENT: string }> {
    const dir = new URL('build/examples/crawlee/', root);
    mkdirSync(dir, { recursive: true });
    writeFileSync(new URL('robots.mjs', dir), readFileSync(new URL('robots.mjs', example)));
    return import(new URL('robots.mjs', dir).href);
  }

  interface SiteRules {
    allows: (url: string) => boolean;
    sitemaps: string[];
  }

  it('the crawler takes its rules from robots.mjs, and crawlee is a dependency of the example only', () => {
    const crawler = readFileSync(new URL('crawler.mjs', example), 'utf8');
    expect(crawler).toContain("import { pacing, siteRules, USER_AGENT } from './robots.mjs';");
    expect(crawler).toContain('rules.allows(link.url)');
    expect(crawler).toContain('...paced.preNavigationHooks');
    expect(crawler).not.toContain('maxRequestsPerMinute:');
    const own = JSON.parse(readFileSync(new URL('package.json', example), 'utf8')) as { dependencies: Record<string, string> };
    const main = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { dependencies?: Record<string, string>; devDependencies: Record<string, string> };
    expect(Object.keys(own.dependencies).sort()).toEqual(['@apify/timeout', 'crawlee', 'robots-wasm']);
    expect({ ...main.dependencies, ...main.devDependencies }.crawlee).toBe(undefined);
  });

  it("follows the site's rules for its agent", async () => {
    const { siteRules, USER_AGENT } = await loadExample();
    let agent = '';
    a.handler = (req, res) => {
      agent = req.headers['user-agent'] ?? '';
      res.end(`User-agent: *\nDisallow: /\n\nUser-agent: ExampleCrawler\nDisallow: /private\nCrawl-delay: 2\nSitemap: ${a.origin}/sitemap.xml\n`);
    };
    const rules = await siteRules(`${a.origin}/start`);
    expect(agent).toBe(USER_AGENT);
    expect([rules.allows(`${a.origin}/start`), rules.allows(`${a.origin}/private/1`), rules.allows(`${a.origin}/robots.txt`)]).toEqual([true, false, true]);
    expect(rules.sitemaps).toEqual([`${a.origin}/sitemap.xml`]);
  });

  it('crawls everything of a site without robots.txt, nothing of a failing one', async () => {
    const { siteRules } = await loadExample();
    a.handler = serve('', {}, 404);
    const missing = await siteRules(a.origin);
    expect([missing.allows(`${a.origin}/private/1`), missing.sitemaps]).toEqual([true, []]);
    a.handler = serve('', {}, 503);
    const failing = await siteRules(a.origin);
    expect(failing.allows(`${a.origin}/`)).toBe(false);
  });

  it("paces requests by the Crawl-delay of the crawler's group, fetching robots.txt as its agent", async () => {
    const { pacing, USER_AGENT } = await loadExample();
    let agent = '';
    a.handler = (req, res) => {
      agent = req.headers['user-agent'] ?? '';
      res.end('User-agent: *\nDisallow: /\n\nUser-agent: ExampleCrawler\nCrawl-delay: 1\n');
    };
    const { pacer, options } = pacing();
    const starts: number[] = [];
    for (const path of ['/1', '/2', '/3']) {
      const slot = await pacer.acquire(`${a.origin}${path}`);
      starts.push(slot.startedAt);
      slot.release({ status: 200 });
    }
    expect(agent).toBe(USER_AGENT);
    expect([starts[1] - starts[0], starts[2] - starts[1]].map((gap) => gap >= 1000)).toEqual([true, true]);
    expect([options.preNavigationHooks.length, options.postNavigationHooks.length, typeof options.errorHandler, typeof options.failedRequestHandler])
      .toEqual([1, 1, 'function', 'function']);
  });
});
