// A crawlee crawler paced by a Pacer: its navigations start when the Pacer lets them, and each
// response (or failure) steers the Pacer. crawlee's own maxRequestsPerMinute caps a rate over
// the whole crawl, never the spacing of one origin, so robots.txt's Crawl-delay needs this.
// Typed structurally, so robots-wasm depends on no crawlee package.

import type { AcquireOptions, PacerOutcome, PacerSlot } from '../pacing/pacer.js';
import type { HeadersInput } from '../tags/controls.js';

/** What the hooks use of a Pacer. */
export interface PacerLike {
  acquire(url: string, options?: AcquireOptions): Promise<PacerSlot>;
}

/** The parts of a crawlee crawling context the hooks read. */
export interface PacedContext {
  request: { url: string };
  /** crawlee 3's response (`statusCode`) or a fetch Response (`status`). */
  response?: { statusCode?: number; status?: number; headers?: HeadersInput } | null;
  /** crawlee 4's: pushes the request's timeouts back by `secs`. */
  extendTimeout?: (secs: number) => void;
}

/** Options of pacedNavigation. */
export interface PacedNavigationOptions {
  /**
   * Pushes crawlee's timeouts of the request back by `ms`, called as a pacing wait goes on so
   * that the wait never times the request out: pass `extendTimeout` of `@apify/timeout` with
   * crawlee 3; crawlee 4's `context.extendTimeout` is used when present.
   */
  extendTimeout?: (ms: number) => void;
}

/** crawlee crawler options that pace its navigations; spread them into the crawler's options. */
export interface PacedNavigation {
  /** Waits for the Pacer's slot for the request's origin. */
  preNavigationHooks: [(context: PacedContext) => Promise<void>];
  /** Releases the slot with the response's status and headers. */
  postNavigationHooks: [(context: PacedContext) => void];
  /** Ends the wait or releases the slot of a request that failed: with its response if one came, else with the error; crawlee calls it before a retry. */
  errorHandler: (context: PacedContext, error: unknown) => void;
  /** The same as errorHandler, for the last failure of a request, which crawlee gives here instead. */
  failedRequestHandler: (context: PacedContext, error: unknown) => void;
}

/** How often a pacing wait pushes crawlee's timeouts back, in ms. */
const EXTEND_STEP_MS = 1000;

/** A request's pacing: the wait's abort, and the slot once given. */
interface Held {
  abort: AbortController;
  slot: PacerSlot | undefined;
}

/** The context's way to push its timeouts back, in ms, if any. */
function extenderOf(context: PacedContext, options: PacedNavigationOptions): ((ms: number) => void) | undefined {
  if (options.extendTimeout !== undefined) return options.extendTimeout;
  const own = context.extendTimeout;
  return typeof own === 'function' ? (ms) => own.call(context, ms / 1000) : undefined;
}

/** Awaits `wait`, pushing the timeouts back by the time it took, step by step so none fires meanwhile. */
async function extended<T>(wait: Promise<T>, extend: ((ms: number) => void) | undefined): Promise<T> {
  if (extend === undefined) return wait;
  let last = Date.now();
  const push = (): void => {
    const now = Date.now();
    extend(now - last);
    last = now;
  };
  const timer = setInterval(push, EXTEND_STEP_MS);
  try {
    return await wait;
  } finally {
    clearInterval(timer);
    push();
  }
}

/**
 * How the request went: its response when one came, whichever hook or check failed after it
 * (crawlee's own post-navigation hook rejects content types before ours runs), else `error`.
 */
function outcomeOf(context: PacedContext, error: unknown): PacerOutcome {
  const response = context.response;
  const status = response?.statusCode ?? response?.status;
  return typeof status === 'number' ? { status, headers: response?.headers } : { error };
}

/**
 * crawlee crawler options (`preNavigationHooks`, `postNavigationHooks`, `errorHandler`,
 * `failedRequestHandler`) that start each navigation when `pacer` lets it and release its slot
 * with the response, or with the error of a navigation that failed; see docs/pacing.md "crawlee".
 * Spread them into HttpCrawler's or CheerioCrawler's options; a crawler with hooks or handlers
 * of its own calls these from its own.
 * @example
 * import { createServer } from 'node:http';
 * import { Configuration, HttpCrawler, log } from '@crawlee/http';
 * import { Pacer } from 'robots-wasm';
 * import { pacedNavigation } from 'robots-wasm/crawlee';
 *
 * const server = createServer((req, res) => {
 *   if (req.url === '/robots.txt') return res.end('User-agent: *\nCrawl-delay: 0.3\n');
 *   res.setHeader('content-type', 'text/html').end('<title>page</title>');
 * });
 * await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
 * const site = `http://127.0.0.1:${server.address().port}`;
 * log.setLevel(log.LEVELS.OFF);
 * const pacer = new Pacer({ agent: 'ExampleBot' });
 * const crawler = new HttpCrawler({
 *   ...pacedNavigation(pacer), // each request waits for its origin's slot; its response steers the pacer
 *   maxConcurrency: 3,
 *   requestHandler: async ({ body }) => {},
 * }, new Configuration({ persistStorage: false }));
 * const { requestsFinished } = await crawler.run([`${site}/a`, `${site}/b`, `${site}/c`]);
 * const { acquired, waits, waitedMs } = pacer.stats();
 * console.log(requestsFinished, acquired, waits, waitedMs >= 2 * 300 - 20); // → 3 3 2 true
 * server.closeAllConnections();
 * server.close();
 */
export function pacedNavigation(pacer: PacerLike, options: PacedNavigationOptions = {}): PacedNavigation {
  // Keyed by the request, the one object crawlee hands to every hook and handler of an attempt.
  const held = new WeakMap<object, Held>();
  const settle = (context: PacedContext, error: unknown): void => {
    const entry = held.get(context.request);
    held.delete(context.request);
    entry?.abort.abort(error);
    entry?.slot?.release(outcomeOf(context, error));
  };
  return {
    preNavigationHooks: [async (context) => {
      const entry: Held = { abort: new AbortController(), slot: undefined };
      held.set(context.request, entry);
      const wait = pacer.acquire(context.request.url, { signal: entry.abort.signal });
      entry.slot = await extended(wait, extenderOf(context, options));
    }],
    postNavigationHooks: [(context) => settle(context, undefined)],
    errorHandler: settle,
    failedRequestHandler: settle,
  };
}
