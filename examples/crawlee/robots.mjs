// The robots.txt side of the crawler: what the site lets this crawler fetch, and how fast.
// It needs robots-wasm only, so it runs (and is tested) without crawlee.
import { Pacer, RobotsCache } from 'robots-wasm';
import { pacedNavigation, RobotsTxtFile } from 'robots-wasm/crawlee';

/** Sent with every request, robots.txt included; its product token names the crawler's group. */
export const USER_AGENT = 'ExampleCrawler/1.0 (+https://example.com/crawler)';
const PRODUCT_TOKEN = 'ExampleCrawler';

/**
 * The rules of `startUrl`'s site. RobotsTxtFile.find follows RFC 9309: no robots.txt (a 4xx)
 * allows everything, a failing server or a timeout disallows everything.
 */
export async function siteRules(startUrl) {
  const robots = await RobotsTxtFile.find(startUrl, { userAgent: USER_AGENT, timeoutMs: 10_000 });
  return {
    allows: (url) => robots.isAllowed(url, USER_AGENT),
    sitemaps: robots.getSitemaps(),
  };
}

/**
 * crawlee options that start each request when its site's Crawl-delay or Request-rate allows,
 * and pause a site that answers 429 or 503 with Retry-After, with the Pacer behind them.
 * `extendTimeout` (crawlee 3's, from @apify/timeout) keeps a long wait from timing requests out.
 */
export function pacing(extendTimeout) {
  // A site asking more than a minute between requests is still crawled, a minute apart.
  const pacer = new Pacer({ cache: new RobotsCache({ agent: PRODUCT_TOKEN, userAgent: USER_AGENT }), maxDelayMs: 60_000 });
  return { pacer, options: pacedNavigation(pacer, { extendTimeout }) };
}
