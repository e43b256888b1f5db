// Fetching robots.txt the way RFC 9309 2.3-2.5 asks: the file at the origin's /robots.txt,
// redirects followed by hand (up to five, across hosts, loops detected), the body read as a
// stream and cut at the parsing limit, and every outcome mapped to one of three access
// results:
//   ok          2xx: the parsed file (any content type, any encoding: the parser takes bytes)
//   unavailable 4xx, too many redirects, a redirect loop or a broken Location: allow all
//   unreachable 5xx, 429, network/DNS/TLS errors, timeouts: disallow all
// 429 is "unreachable", as Google does: it says "slow down", not "there is no file", and
// reading it as permission to crawl everything would answer a rate limit with more load.
// Built on the platform fetch (Node's undici), which also decodes gzip, deflate and br; the
// limit applies to the decoded bytes, so a compressed bomb is cut like any long body.

import { integerOption } from '../args.js';
import { concatBytes } from '../bytes.js';
import { DEFAULT_MAX_BYTES, resolveParseOptions, type Mode } from '../robots/options.js';
import { RobotsTxt } from '../robots-txt.js';
import { freshnessMs, MAX_TTL_MS } from './freshness.js';
import { robotsLocation, type RobotsLocation } from './origin.js';

/** The access result of RFC 9309 2.3.1. */
export type RobotsStatus = 'ok' | 'unavailable' | 'unreachable';

export interface FetchRobotsOptions {
  /** Sent as the User-Agent header; default `robots-wasm`. */
  userAgent?: string;
  /** Time for the whole fetch, redirects and body included; default 10,000 ms. */
  timeoutMs?: number;
  /** Bytes of the (decoded) body read and parsed; default 512,000 (RFC 9309 2.5 asks for at least 500 KiB). */
  maxBytes?: number;
  /** Redirects followed; one more makes the file unavailable (RFC 9309 2.3.1.2). Default 5. */
  maxRedirects?: number;
  /** The fetch implementation; default the global fetch. */
  fetch?: typeof globalThis.fetch;
  /** Aborts the fetch; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Matching semantics of the parsed file; default `rfc`. */
  mode?: Mode;
  /** Freshness when the response sets none, and the most any response gets; default 24 hours (RFC 9309 2.4). */
  ttlMs?: number;
  /**
   * The least freshness of an ok or unavailable result, even under `no-store`/`no-cache`:
   * a server that forbids caching must not make a crawler refetch robots.txt for every URL.
   * Default 60,000 ms.
   */
  minTtlMs?: number;
  /** How long an unreachable result stands before the next attempt; default 600,000 ms. */
  unreachableTtlMs?: number;
}

/** What fetching an origin's robots.txt gave. */
export interface RobotsFetchResult {
  status: RobotsStatus;
  /** The rules to follow: the parsed file, allow-all when unavailable, disallow-all when unreachable. */
  robots: RobotsTxt;
  /** `scheme://host[:port]` the rules apply to: the initial authority, even after redirects. */
  origin: string;
  /** The status of the last response, or undefined when none arrived. */
  httpStatus: number | undefined;
  /** The URL of the last request. */
  finalUrl: string;
  /** Redirects followed. */
  redirects: number;
  /** When the response arrived (ms since the epoch). */
  fetchedAt: number;
  /** Until when the result may be used (ms since the epoch). */
  expiresAt: number;
  /** Why the file is unavailable or unreachable, when no HTTP status says it (timeouts, loops, ...). */
  error: string | undefined;
  /** The body bytes read (ok only): at most maxBytes + 1, so the parser sees whether the limit cut a line. */
  body: Uint8Array | undefined;
  /** Validators for a conditional refresh. */
  etag: string | undefined;
  lastModified: string | undefined;
  /** True when this result came from a 304 answer to a conditional request. */
  revalidated: boolean;
}

/** Options with their defaults applied. */
export interface ResolvedFetchOptions {
  userAgent: string;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  fetch: typeof globalThis.fetch;
  signal: AbortSignal | undefined;
  mode: Mode;
  ttlMs: number;
  minTtlMs: number;
  unreachableTtlMs: number;
}

/** Checks fetch options and fills defaults; misuse is a TypeError that names the option. */
export function resolveFetchOptions(options: FetchRobotsOptions = {}): ResolvedFetchOptions {
  if (options === null || typeof options !== 'object') throw new TypeError('robots-wasm: options must be an object');
  const { mode } = resolveParseOptions({ mode: options.mode });
  const fetchFn = options.fetch ?? globalThis.fetch;
  if (typeof fetchFn !== 'function') throw new TypeError('robots-wasm: fetch must be a function');
  if (options.userAgent !== undefined && typeof options.userAgent !== 'string') {
    throw new TypeError('robots-wasm: userAgent must be a string');
  }
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) {
    throw new TypeError('robots-wasm: signal must be an AbortSignal');
  }
  return {
    userAgent: options.userAgent ?? 'robots-wasm',
    timeoutMs: integerOption(options.timeoutMs, 'timeoutMs', 10_000),
    maxBytes: integerOption(options.maxBytes, 'maxBytes', DEFAULT_MAX_BYTES, 0),
    maxRedirects: integerOption(options.maxRedirects, 'maxRedirects', 5, 0),
    fetch: fetchFn,
    signal: options.signal,
    mode,
    ttlMs: integerOption(options.ttlMs, 'ttlMs', MAX_TTL_MS, 0),
    minTtlMs: integerOption(options.minTtlMs, 'minTtlMs', 60_000, 0),
    unreachableTtlMs: integerOption(options.unreachableTtlMs, 'unreachableTtlMs', 600_000, 0),
  };
}

/**
 * Fetches the robots.txt of `urlOrOrigin`'s origin and says what it means for crawling
 * (RFC 9309 2.3-2.5). Resolves for every server answer and network failure; rejects only on
 * misuse (TypeError) or when `signal` aborts.
 */
export async function fetchRobotsTxt(urlOrOrigin: string, options?: FetchRobotsOptions): Promise<RobotsFetchResult> {
  if (typeof urlOrOrigin !== 'string') throw new TypeError('robots-wasm: fetchRobotsTxt expects a URL string');
  return requestRobotsTxt(robotsLocation(urlOrOrigin), resolveFetchOptions(options), undefined);
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The result of an answer that was not a usable file. */
function fallback(
  status: 'unavailable' | 'unreachable',
  location: RobotsLocation,
  options: ResolvedFetchOptions,
  details: { httpStatus?: number; finalUrl: string; redirects: number; error?: string; expiresAt?: number },
): RobotsFetchResult {
  const fetchedAt = Date.now();
  const body = status === 'unavailable' ? '' : 'User-agent: *\nDisallow: /\n';
  return {
    status,
    robots: RobotsTxt.parse(body, { mode: options.mode }),
    origin: location.origin,
    httpStatus: details.httpStatus,
    finalUrl: details.finalUrl,
    redirects: details.redirects,
    fetchedAt,
    expiresAt: details.expiresAt ?? fetchedAt + (status === 'unavailable' ? options.ttlMs : options.unreachableTtlMs),
    error: details.error,
    body: undefined,
    etag: undefined,
    lastModified: undefined,
    revalidated: false,
  };
}

/** Reads at most `limit` bytes of a body stream, then stops the download. */
export async function readLimited(response: Response, limit: number): Promise<Uint8Array> {
  if (response.body === null) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (total < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      total += value.length;
    }
  } finally {
    if (total >= limit) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  return concatBytes(chunks).subarray(0, limit);
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const detail = cause?.code ?? cause?.message;
  return detail !== undefined && detail !== error.message ? `${error.message} (${detail})` : error.message;
}

// Errors that mean the connection closed under the request, before any answer.
const DROPPED_CONNECTION = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

// A keep-alive connection that the server closes just as it is reused fails the request sent
// on it, and fetch does not retry. Reading that race as "unreachable" would turn a healthy
// site to disallow-all for `unreachableTtlMs`, so a dropped connection is retried, within the
// same timeout. Twice, because the pool may hold more than one connection closed in the same
// instant. Refused connections, DNS and TLS failures and timeouts are answers about the site
// and are not retried.
const RETRIES_ON_DROPPED_CONNECTION = 2;

async function fetchRetryingDroppedConnection(
  fetch: typeof globalThis.fetch,
  url: string,
  init: RequestInit & { signal: AbortSignal },
): Promise<Response> {
  for (let retries = 0; ; retries++) {
    try {
      return await fetch(url, init);
    } catch (error) {
      const code = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
      const dropped = typeof code === 'string' && DROPPED_CONNECTION.has(code);
      if (!dropped || init.signal.aborted || retries === RETRIES_ON_DROPPED_CONNECTION) throw error;
    }
  }
}

/**
 * One fetch of `location`'s robots.txt. With `previous` (an ok result that carries
 * validators) the request is conditional, and a 304 answer renews `previous`.
 */
export async function requestRobotsTxt(
  location: RobotsLocation,
  options: ResolvedFetchOptions,
  previous: RobotsFetchResult | undefined,
): Promise<RobotsFetchResult> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout]);
  const headers: Record<string, string> = { 'user-agent': options.userAgent, accept: 'text/plain, */*;q=0.5' };
  if (previous?.status === 'ok') {
    if (previous.etag !== undefined) headers['if-none-match'] = previous.etag;
    if (previous.lastModified !== undefined) headers['if-modified-since'] = previous.lastModified;
  }
  let url = location.robotsUrl;
  let redirects = 0;
  const seen = new Set([url]);
  try {
    for (;;) {
      const response = await fetchRetryingDroppedConnection(options.fetch, url, { redirect: 'manual', signal, headers });
      const httpStatus = response.status;
      if (REDIRECTS.has(httpStatus)) {
        await response.body?.cancel().catch(() => undefined);
        const target = response.headers.get('location');
        let next: URL | undefined;
        try {
          next = target === null ? undefined : new URL(target, url);
        } catch {
          next = undefined;
        }
        const details = { httpStatus, finalUrl: url, redirects };
        if (next === undefined || (next.protocol !== 'http:' && next.protocol !== 'https:')) {
          return fallback('unavailable', location, options, { ...details, error: `redirect to an unusable location ${JSON.stringify(target)}` });
        }
        if (redirects === options.maxRedirects) {
          return fallback('unavailable', location, options, { ...details, error: `more than ${options.maxRedirects} redirects` });
        }
        if (seen.has(next.href)) return fallback('unavailable', location, options, { ...details, error: `redirect loop at ${next.href}` });
        seen.add(next.href);
        url = next.href;
        redirects++;
        continue;
      }
      const now = Date.now();
      const details = { httpStatus, finalUrl: url, redirects };
      if (httpStatus === 304 && previous?.status === 'ok') {
        return { ...previous, httpStatus, finalUrl: url, redirects, fetchedAt: now, expiresAt: now + lifetime(response, now, options), revalidated: true };
      }
      if (httpStatus < 200 || httpStatus >= 300) {
        await response.body?.cancel().catch(() => undefined);
        const unreachable = httpStatus >= 500 || httpStatus === 429;
        const error = `HTTP ${httpStatus}`;
        return unreachable
          ? fallback('unreachable', location, options, { ...details, error })
          : fallback('unavailable', location, options, { ...details, error, expiresAt: now + lifetime(response, now, options) });
      }
      const body = await readLimited(response, options.maxBytes + 1);
      const fetchedAt = Date.now();
      return {
        status: 'ok',
        robots: RobotsTxt.parse(body, { mode: options.mode, maxBytes: options.maxBytes }),
        origin: location.origin,
        ...details,
        fetchedAt,
        expiresAt: fetchedAt + lifetime(response, fetchedAt, options),
        error: undefined,
        body,
        etag: response.headers.get('etag') ?? undefined,
        lastModified: response.headers.get('last-modified') ?? undefined,
        revalidated: false,
      };
    }
  } catch (error) {
    // The caller's own abort is not an answer about the server.
    if (options.signal?.aborted) throw options.signal.reason;
    const reason = timeout.aborted ? `timed out after ${options.timeoutMs} ms` : describe(error);
    return fallback('unreachable', location, options, { finalUrl: url, redirects, error: reason });
  }
}

function lifetime(response: Response, now: number, options: ResolvedFetchOptions): number {
  return Math.min(options.ttlMs, Math.max(options.minTtlMs, freshnessMs(response.headers, now, options.ttlMs, options.ttlMs)));
}
