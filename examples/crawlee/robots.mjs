// The robots.txt side of the crawler: what the site lets this crawler fetch, and how fast.
// It needs robots-wasm only, so it runs (and is tested) without crawlee.
import { RobotsTxtFile } from 'robots-wasm/crawlee';

/** Sent with every request, robots.txt included; its product token names the crawler's group. */
export const USER_AGENT = 'ExampleCrawler/1.0 (+https://example.com/crawler)';

/**
 * The rules of `startUrl`'s site. RobotsTxtFile.find follows RFC 9309: no robots.txt (a 4xx)
 * allows everything, a failing server or a timeout disallows everything.
 */
export async function siteRules(startUrl) {
  const robots = await RobotsTxtFile.find(startUrl, { userAgent: USER_AGENT, timeoutMs: 10_000 });
  const delay = robots.getCrawlDelay(USER_AGENT);
  return {
    allows: (url) => robots.isAllowed(url, USER_AGENT),
    // One request per crawl-delay, when the site asks for one.
    maxRequestsPerMinute: delay > 0 ? Math.max(1, Math.floor(60 / delay)) : undefined,
    sitemaps: robots.getSitemaps(),
  };
}
