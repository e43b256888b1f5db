// pacedNavigation with a real crawlee HttpCrawler (@crawlee/http, a devDependency) against
// servers on 127.0.0.1 that record when each page request arrived.
import { extendTimeout } from '@apify/timeout';
import { Configuration, HttpCrawler, log } from '@crawlee/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pacedNavigation, type PacedNavigationOptions } from '../src/compat/crawlee.js';
import { Pacer, type PacerOptions } from '../src/index.js';
import { startSites, stopSites, type Handler, type Site } from './support/servers.js';

/** Timer slack allowed under a spacing. */
const SLACK_MS = 20;

let sites: Site[];
beforeAll(async () => {
  log.setLevel(log.LEVELS.OFF);
  sites = await startSites(2, () => undefined);
  // crawlee loads its HTTP client on its first request, which would delay that request's arrival past its slot.
  for (const site of sites) pacedSite(site);
  await crawl(sites.map((site) => `${site.origin}/warm-up`));
});
afterAll(() => stopSites(sites));

/** Start times of the page requests a site received, in order. */
const starts = new Map<Site, number[]>();

/** A site asking `Crawl-delay: 1` of every agent whose pages answer through `page`, recording each page's arrival. */
function pacedSite(site: Site, page: Handler = (_req, res) => res.end('<html><title>page</title></html>')): void {
  starts.set(site, []);
  site.handler = (req, res, s) => {
    if (req.url === '/robots.txt') return void res.end('User-agent: *\nCrawl-delay: 1\n');
    starts.get(s)!.push(Date.now());
    // crawlee skips a page of another content type (and the pacer still counts it as answered).
    res.setHeader('content-type', 'text/html');
    page(req, res, s);
  };
}

/** The gaps between successive entries of `times`. */
function gaps(times: number[]): number[] {
  return times.slice(1).map((t, i) => t - times[i]);
}

/** Crawls `urls` with an HttpCrawler running 8 requests at once, paced by a new Pacer; returns the pacer and the requests that failed. */
async function crawl(urls: string[], pacerOptions: Partial<PacerOptions> = {}, hookOptions: PacedNavigationOptions = {}, crawlerOptions = {}): Promise<{ pacer: Pacer; failed: number }> {
  const pacer = new Pacer({ agent: 'TestBot', ...pacerOptions });
  const crawler = new HttpCrawler({
    ...pacedNavigation(pacer, hookOptions),
    // All at once from the start, not as crawlee's autoscaling ramps up: a request waiting for its slot holds one of these.
    minConcurrency: 8,
    maxConcurrency: 8,
    maxRequestRetries: 2,
    requestHandler: async () => undefined,
    ...crawlerOptions,
  }, new Configuration({ persistStorage: false }));
  const { requestsFailed } = await crawler.run(urls);
  return { pacer, failed: requestsFailed };
}

const pages = (site: Site, n: number): string[] => Array.from({ length: n }, (_, i) => `${site.origin}/page/${i}`);

describe('pacedNavigation with crawlee HttpCrawler', () => {
  it('spaces the 5 pages of an origin by its Crawl-delay, and does not slow another origin', async () => {
    const [a, b] = sites;
    pacedSite(a);
    b.handler = (req, res) => {
      if (req.url !== '/robots.txt') starts.get(b)!.push(Date.now());
      res.setHeader('content-type', 'text/html');
      res.end(req.url === '/robots.txt' ? '' : 'page');
    };
    starts.set(b, []);
    const { pacer, failed } = await crawl([...pages(a, 5), ...pages(b, 3)]);
    expect(starts.get(a)).toHaveLength(5);
    for (const gap of gaps(starts.get(a)!)) expect(gap).toBeGreaterThanOrEqual(1000 - SLACK_MS);
    // b asks no delay: its three pages all arrive before a's second.
    expect(starts.get(b)).toHaveLength(3);
    expect(Math.max(...starts.get(b)!)).toBeLessThan(starts.get(a)![1]);
    expect(failed).toBe(0);
    expect(pacer.stats()).toMatchObject({ acquired: 8, pauses: 0, backoffs: 0 });
  }, 20_000);

  it('a 429 with Retry-After: 2 pauses the origin for 2 s; crawlee retries the page after it', async () => {
    const [a] = sites;
    let refused = 0;
    let refusedAt = 0;
    pacedSite(a, (req, res) => {
      if (req.url === '/page/1' && refused++ === 0) {
        refusedAt = Date.now();
        return void res.writeHead(429, { 'retry-after': '2' }).end();
      }
      res.end('page');
    });
    const { pacer, failed } = await crawl(pages(a, 3));
    const after = starts.get(a)!.filter((t) => t > refusedAt);
    expect(starts.get(a)).toHaveLength(4);
    expect(after.length).toBeGreaterThan(0);
    expect(after[0] - refusedAt).toBeGreaterThanOrEqual(2000 - SLACK_MS);
    expect([refused, failed]).toEqual([2, 0]);
    expect(pacer.stats()).toMatchObject({ acquired: 4, pauses: 1 });
  }, 20_000);

  it('a navigation that fails releases its slot with the error: the origin backs off', async () => {
    const [a] = sites;
    let failedAt = 0;
    pacedSite(a, (req, res) => {
      if (req.url === '/page/0' && failedAt === 0) {
        failedAt = Date.now();
        return void req.socket.destroy();
      }
      res.end('page');
    });
    const { pacer, failed } = await crawl(pages(a, 2), { backoffBaseMs: 1500 });
    const after = starts.get(a)!.filter((t) => t > failedAt);
    expect([starts.get(a)!.length, failed]).toEqual([3, 0]);
    expect(after[0] - failedAt).toBeGreaterThanOrEqual(1500 - SLACK_MS);
    expect(pacer.stats()).toMatchObject({ acquired: 3, backoffs: 1, origins: {} });
  }, 20_000);

  // crawlee 3 times a whole request (hooks included) by navigationTimeoutSecs +
  // requestHandlerTimeoutSecs + 10 s; waits longer than that time out unless pushed back.
  it('with extendTimeout, waits longer than crawlee\'s request timeout neither time out nor retry', async () => {
    const [a] = sites;
    pacedSite(a);
    const { pacer, failed } = await crawl(pages(a, 14), {}, { extendTimeout }, {
      minConcurrency: 14, maxConcurrency: 14, navigationTimeoutSecs: 1, requestHandlerTimeoutSecs: 1, maxRequestRetries: 0,
    });
    expect([starts.get(a)!.length, failed]).toEqual([14, 0]);
    expect(pacer.stats()).toMatchObject({ acquired: 14, backoffs: 0 });
  }, 30_000);
});
