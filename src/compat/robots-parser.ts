// robots-parser's interface (version 3.0.1) over RobotsTxt, so that a crawler written for it
// switches with its import line: the same methods, return values and user-agent defaults,
// with RFC 9309 verdicts (docs/robots-parser-differences.md lists where they differ). URLs of
// another origin get robots-parser's "no answer" (undefined, line -1): a file speaks only for
// its own origin.

import { RobotsTxt } from '../robots-txt.js';

/** What robotsParser() returns: robots-parser's `Robot` interface. */
export interface Robot {
  /** May `ua` (default `*`) fetch `url`? Undefined for an invalid URL or one of another origin. */
  isAllowed(url: string, ua?: string): boolean | undefined;
  /** `!isAllowed(url, ua)`: true for an invalid URL or one of another origin, as in robots-parser. */
  isDisallowed(url: string, ua?: string): boolean | undefined;
  /** 1-based line of the rule that decides `url`; -1 when none does or the URL is not this file's. */
  getMatchingLineNumber(url: string, ua?: string): number;
  /** Crawl-delay in seconds of the group that applies to `ua` (default `*`), if it sets one. */
  getCrawlDelay(ua?: string): number | undefined;
  /** The Sitemap URLs of the file, in file order (a new array on every call). */
  getSitemaps(): string[];
  /** The last `Host:` value, lowercased, or null when the file has none. */
  getPreferredHost(): string | null;
}

// Relative URLs resolve against one fixed base, so that a relative file URL and a relative URL
// are of one origin, and a relative URL is of none other (robots-parser's rule). `.invalid`
// is reserved (RFC 2606): no real origin is this one.
const RELATIVE_BASE = 'http://relative.invalid/';

function parseUrl(url: string): URL | undefined {
  try {
    return new URL(url, RELATIVE_BASE);
  } catch {
    return undefined;
  }
}

/** robots-parser's `Robot` over a parsed file whose rules apply to the origin of `url`. */
class RobotsParserCompat implements Robot {
  readonly #robots: RobotsTxt;
  readonly #base: URL | undefined;

  constructor(url: string, robots: RobotsTxt) {
    this.#robots = robots;
    this.#base = parseUrl(url);
  }

  /** `url` resolved, when it is of this file's origin (scheme, host and port, default ports dropped). */
  #own(url: string): string | undefined {
    const parsed = parseUrl(url);
    const base = this.#base;
    if (parsed === undefined || base === undefined) return undefined;
    if (parsed.protocol !== base.protocol || parsed.hostname !== base.hostname || parsed.port !== base.port) return undefined;
    return parsed.href;
  }

  isAllowed(url: string, ua?: string): boolean | undefined {
    const own = this.#own(url);
    return own === undefined ? undefined : this.#robots.isAllowed(own, agent(ua));
  }

  isDisallowed(url: string, ua?: string): boolean {
    return !this.isAllowed(url, ua);
  }

  getMatchingLineNumber(url: string, ua?: string): number {
    const own = this.#own(url);
    return own === undefined ? -1 : (this.#robots.explain(own, agent(ua)).rule?.line ?? -1);
  }

  getCrawlDelay(ua?: string): number | undefined {
    return this.#robots.crawlDelay(agent(ua));
  }

  getSitemaps(): string[] {
    return [...this.#robots.sitemaps];
  }

  getPreferredHost(): string | null {
    const hosts = this.#robots.hosts.filter((host) => host !== '');
    return hosts.length === 0 ? null : hosts[hosts.length - 1].toLowerCase();
  }
}

/** A missing or empty agent is `*`, as in robots-parser. */
function agent(ua: string | undefined): string {
  return ua || '*';
}

/**
 * Internal (the crawlee adapter): robots-parser's `Robot` for a file already parsed, whose
 * rules apply to the origin of `url`.
 * @internal
 */
export function robotFor(url: string, robots: RobotsTxt): Robot {
  return new RobotsParserCompat(url, robots);
}

/**
 * Drop-in for robots-parser's default export: parses `contents`, the robots.txt found at
 * `url`, with RFC 9309 semantics.
 */
export default function robotsParser(url: string, contents: string): Robot {
  return robotFor(url, RobotsTxt.parse(contents || ''));
}
