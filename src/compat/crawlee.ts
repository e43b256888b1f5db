// crawlee's RobotsTxtFile (@crawlee/utils 3.18) over robots-wasm, so that crawlee code switches
// with its import line. find() fetches through fetchRobotsTxt, so the answers of RFC 9309
// 2.3.1 apply where crawlee's loader throws: a 4xx allows everything, a 5xx, a network failure
// or a timeout disallows everything. The sitemap downloads (parseSitemaps and
// parseUrlsFromSitemaps) are left out: they return crawlee's own Sitemap class.

import { fetchRobotsTxt, type FetchRobotsOptions } from '../fetch/fetch.js';
import { robotFor, type Robot } from './robot.js';
import robotsParser from './robots-parser.js';

/** Options of RobotsTxtFile.find(): how fetchRobotsTxt fetches (crawlee's httpClient is refused). */
export type RobotsTxtFileFindOptions = Pick<FetchRobotsOptions, 'userAgent' | 'timeoutMs' | 'maxBytes' | 'maxRedirects' | 'fetch' | 'proxyUrl' | 'allowRedirect' | 'signal'>;

/** The third argument of crawlee 3.18's find(url, proxyUrl, options). */
export interface CrawleeFindOptions {
  signal?: AbortSignal;
  timeoutMillis?: number;
}

/** crawlee's enqueue strategies for sitemaps, but `same-domain`, which needs a public-suffix list. */
export type SitemapStrategy = 'all' | 'same-hostname' | 'same-origin';

/**
 * fetchRobotsTxt's options from find()'s arguments, in crawlee's shapes. Throws for crawlee's
 * httpClient: ignoring it would send the request some other way than the crawler's.
 */
function fetchOptions(options: string | RobotsTxtFileFindOptions | undefined, crawleeOptions: CrawleeFindOptions | undefined): FetchRobotsOptions {
  // crawlee 3's find(url, proxyUrl) passes a string, an empty one for none as got-scraping reads it.
  const named: RobotsTxtFileFindOptions | undefined = typeof options === 'string' ? { proxyUrl: options || undefined } : options;
  if ((named as Record<string, unknown> | undefined)?.httpClient !== undefined) {
    throw new TypeError('robots-wasm/crawlee: httpClient is not supported; pass a `fetch` that sends requests the way you need');
  }
  // crawlee reads a timeoutMillis of 0 as none given.
  const { signal, timeoutMillis } = crawleeOptions ?? {};
  return { signal, timeoutMs: timeoutMillis || undefined, ...named, mode: 'rfc' };
}

/** A hostname without its trailing dot (`example.com.` is `example.com`). */
function bareHostname(url: URL): string {
  return url.hostname.endsWith('.') ? url.hostname.slice(0, -1) : url.hostname;
}

/** Is `sitemap` an http(s) URL in `strategy`'s scope of the file at `file`, as crawlee filters them? */
function inScope(sitemap: string, file: URL | undefined, strategy: SitemapStrategy): boolean {
  const url = URL.canParse(sitemap) ? new URL(sitemap) : undefined;
  if (url === undefined || file === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) return false;
  if (strategy === 'all') return true;
  const sameHostname = bareHostname(url) === bareHostname(file);
  return strategy === 'same-hostname' ? sameHostname : sameHostname && url.protocol === file.protocol && url.port === file.port;
}

/** crawlee's RobotsTxtFile: one origin's robots.txt, with RFC 9309 verdicts. */
export class RobotsTxtFile {
  readonly #url: URL | undefined;
  readonly #robot: Robot;

  private constructor(url: string, robot: Robot) {
    this.#url = URL.canParse(url) ? new URL(url) : undefined;
    this.#robot = robot;
  }

  /**
   * Fetches the robots.txt of `url`'s origin. Resolves for every server answer: a 4xx (or too
   * many redirects) allows everything, a 5xx, a network failure or a timeout disallows
   * everything. Takes crawlee 3.18's `find(url, proxyUrl, { signal, timeoutMillis })` too: the
   * request (and its redirects) then go through that HTTP(S) proxy, and a proxy that refuses
   * (407, a refused CONNECT) disallows everything, like a network failure. Rejects on misuse
   * (a URL that is not absolute http(s), a proxy URL that is not http(s), crawlee's
   * httpClient) and when `signal` aborts.
   */
  static async find(url: string, options?: string | RobotsTxtFileFindOptions, crawleeOptions?: CrawleeFindOptions): Promise<RobotsTxtFile> {
    const result = await fetchRobotsTxt(url, fetchOptions(options, crawleeOptions));
    return new RobotsTxtFile(result.origin, robotFor(result.origin, result.robots));
  }

  /**
   * The file `content`, found at `url` (its rules apply to `url`'s origin). The proxy URL is
   * accepted for crawlee's signature and unused: it only served the sitemap downloads.
   */
  static from(url: string, content: string, _proxyUrl?: string): RobotsTxtFile {
    return new RobotsTxtFile(url, robotsParser(url, content));
  }

  /**
   * May `userAgent` fetch `url`? A URL of another origin (or an invalid one) is allowed, as in
   * crawlee: this file has no rules for it.
   */
  isAllowed(url: string, userAgent = '*'): boolean {
    return this.#robot.isAllowed(url, userAgent) ?? true;
  }

  /**
   * The file's http(s) Sitemap URLs in `enqueueStrategy`'s scope of the file's URL (default
   * `same-hostname`, as in crawlee 3.18), in file order; crawlee logs the others, this skips
   * them silently.
   */
  getSitemaps(options?: SitemapStrategy | { enqueueStrategy?: SitemapStrategy }): string[] {
    const strategy = (typeof options === 'string' ? options : options?.enqueueStrategy) ?? 'same-hostname';
    if (strategy !== 'all' && strategy !== 'same-hostname' && strategy !== 'same-origin') {
      throw new TypeError(`robots-wasm/crawlee: enqueueStrategy ${JSON.stringify(strategy)} is not supported; use 'all', 'same-hostname' or 'same-origin'`);
    }
    return this.#robot.getSitemaps().filter((sitemap) => inScope(sitemap, this.#url, strategy));
  }

  /** Crawl-delay in seconds for `userAgent`, if its group sets one (crawlee's Python class has it, its JS class not). */
  getCrawlDelay(userAgent = '*'): number | undefined {
    return this.#robot.getCrawlDelay(userAgent);
  }
}

/** crawlee's former name of RobotsTxtFile, which it still exports. */
export { RobotsTxtFile as RobotsFile };

export { pacedNavigation, type PacedContext, type PacedNavigation, type PacedNavigationOptions, type PacerLike } from './crawlee-pacing.js';
