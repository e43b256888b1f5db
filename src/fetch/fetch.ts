// Fetching robots.txt the way RFC 9309 2.3-2.5 asks: the file at the origin's /robots.txt,
// redirects followed by hand (up to five, across hosts, loops detected), the body read as a
// stream and cut at the parsing limit, and every outcome mapped to one of three access
// results:
//   ok          2xx: the parsed file (any content type, any encoding: the parser takes bytes)
//   unavailable 4xx, too many redirects, a redirect loop or a broken Location: allow all
//   unreachable 5xx, 429, network/DNS/TLS errors, timeouts: disallow all
// 429 is "unreachable", as Google does: it says "slow down", not "there is no file", and
// reading it as permission to crawl everything would answer a rate limit with more load.
// An unreachable answer with a Retry-After header stands until the time it names (between
// RETRY_AFTER_FLOOR_MS and ttlMs) instead of unreachableTtlMs: the rules stay disallow-all,
// but the next attempt comes when the server asked for it.
// Requests go out through node:http(s) where the runtime has it (transport-node.ts), which
// decodes gzip, deflate and br strictly: a body that does not decode to its end is a failed
// download, not a shorter file. Browsers use the platform fetch (transport-web.ts). With
// proxyUrl every request, redirects included, goes through that proxy (Node transport only).
// The limit applies to the decoded bytes, so a compressed bomb is cut like any long body.
// Every call ends within timeoutMs, whatever the transport does with its abort signal.

import { integerOption } from '../args.js';
import { concatBytes } from '../bytes.js';
import { retryAfterMs } from '../fields/retry-after.js';
import { DEFAULT_MAX_BYTES, resolveParseOptions, type Mode } from '../robots/options.js';
import { RobotsTxt } from '../robots-txt.js';
import { explicitFreshnessMs, freshnessMs, MAX_TTL_MS } from './freshness.js';
import { robotsLocation, type RobotsLocation } from './origin.js';
import { defaultGet, proxiedGet } from '#transport';
import type { HttpGet, HttpResponse } from './http.js';

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
  /**
   * The fetch implementation; default: node:http(s) with bodies decoded strictly where the
   * runtime has it (Node, Deno, Bun), else the platform fetch. A fetch given here must decode
   * strictly too: the platform fetch reads a compressed body cut short as whole. Must support
   * `redirect: 'manual'`.
   */
  fetch?: typeof globalThis.fetch;
  /**
   * An HTTP(S) proxy every request (redirects included) goes through:
   * `http://[user:password@]host:port` or `https://...`; credentials are sent to the proxy
   * as Basic Proxy-Authorization, never to the site. Plain-HTTP URLs go to the proxy in
   * absolute form, https: ones in a CONNECT tunnel with the site's certificate verified as
   * without a proxy. A 407, or a CONNECT the proxy refuses, is a failed download
   * (unreachable: disallow all), not the site's answer. Needs node:http (Node, Deno, Bun):
   * elsewhere, and with `fetch`, it is a TypeError.
   */
  proxyUrl?: string;
  /**
   * Asked before each redirect is followed, with the URL redirected from and to; false (or a
   * promise of false) refuses it, and the file is unavailable, as RFC 9309 2.3.1.2 reads
   * redirects that cannot be followed. For example, to refuse loopback and private addresses.
   */
  allowRedirect?: (from: URL, to: URL) => boolean | Promise<boolean>;
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
  /**
   * How long an unreachable result stands before the next attempt; default 600,000 ms. An
   * answer with a Retry-After header stands until the time it names instead, at least 1 s (so
   * that `Retry-After: 0` does not make every check refetch) and at most `ttlMs`.
   */
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
  /**
   * When the server asked to be asked again (ms since the epoch): the Retry-After header of
   * an unreachable answer (5xx, 429), as given (at most Number.MAX_SAFE_INTEGER), before
   * expiresAt's clamp to between 1 s and `ttlMs` after fetchedAt. Undefined for other answers
   * and when the header is absent or not a delta-seconds or HTTP-date. In a RobotsCache, the
   * last good copy answering for an unreachable origin carries it too, as it carries `error`.
   */
  retryAt: number | undefined;
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
  get: HttpGet;
  allowRedirect: ((from: URL, to: URL) => boolean | Promise<boolean>) | undefined;
  signal: AbortSignal | undefined;
  mode: Mode;
  ttlMs: number;
  minTtlMs: number;
  unreachableTtlMs: number;
}

/** The longest timeout a timer can wait: 2^31 - 1 ms (longer ones fire at once). */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * Throws a TypeError unless `value` can be sent as a header value: tab, printable ASCII and
 * Latin-1 only (a CR, LF or NUL, or a character past U+00FF, would make every request fail).
 */
function requireHeaderValue(value: unknown, name: string): asserts value is string {
  if (typeof value !== 'string') throw new TypeError(`robots-wasm: ${name} must be a string`);
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c > 0xff || c === 0x7f || (c < 0x20 && c !== 0x09)) {
      throw new TypeError(`robots-wasm: ${name} cannot be sent in an HTTP header (character ${JSON.stringify(value[i])} at ${i})`);
    }
  }
}

/** The proxy `proxyUrl` names; a TypeError unless it is an absolute http: or https: URL. */
function proxyOption(proxyUrl: unknown): URL {
  // The value is not quoted back: it may hold the proxy's password.
  if (typeof proxyUrl !== 'string' || !URL.canParse(proxyUrl)) throw new TypeError('robots-wasm: proxyUrl must be an absolute URL string');
  const proxy = new URL(proxyUrl);
  if (proxy.protocol !== 'http:' && proxy.protocol !== 'https:') {
    throw new TypeError(`robots-wasm: proxyUrl must be an http: or https: proxy, not ${proxy.protocol}`);
  }
  return proxy;
}

/** What sends the requests: the caller's fetch, a proxy, or this runtime's transport. */
function sender(options: FetchRobotsOptions): HttpGet {
  if (options.fetch !== undefined && typeof options.fetch !== 'function') throw new TypeError('robots-wasm: fetch must be a function');
  if (options.proxyUrl === undefined) return options.fetch ?? defaultGet;
  // A fetch of the caller's sends requests its own way: it would bypass the proxy.
  if (options.fetch !== undefined) throw new TypeError('robots-wasm: pass fetch or proxyUrl, not both');
  return proxiedGet(proxyOption(options.proxyUrl));
}

/** Checks fetch options and fills defaults; misuse is a TypeError that names the option. */
export function resolveFetchOptions(options: FetchRobotsOptions = {}): ResolvedFetchOptions {
  if (options === null || typeof options !== 'object') throw new TypeError('robots-wasm: options must be an object');
  const { mode } = resolveParseOptions({ mode: options.mode });
  if (options.allowRedirect !== undefined && typeof options.allowRedirect !== 'function') {
    throw new TypeError('robots-wasm: allowRedirect must be a function');
  }
  if (options.userAgent !== undefined) requireHeaderValue(options.userAgent, 'userAgent');
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) {
    throw new TypeError('robots-wasm: signal must be an AbortSignal');
  }
  const timeoutMs = integerOption(options.timeoutMs, 'timeoutMs', 10_000);
  if (timeoutMs > MAX_TIMEOUT_MS) throw new TypeError(`robots-wasm: timeoutMs must be at most ${MAX_TIMEOUT_MS} (2^31 - 1), got ${timeoutMs}`);
  return {
    userAgent: options.userAgent ?? 'robots-wasm',
    timeoutMs,
    maxBytes: integerOption(options.maxBytes, 'maxBytes', DEFAULT_MAX_BYTES, 0),
    maxRedirects: integerOption(options.maxRedirects, 'maxRedirects', 5, 0),
    get: sender(options),
    allowRedirect: options.allowRedirect,
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

/** The files RFC 9309 2.3.1.3 and 2.3.1.4 read an unavailable and an unreachable robots.txt as. */
export const ALLOW_ALL = '';
export const DISALLOW_ALL = 'User-agent: *\nDisallow: /\n';

/**
 * The least an unreachable answer's Retry-After makes it stand: a `Retry-After: 0` (or a date
 * past) would otherwise have every check refetch. Not minTtlMs, which would swallow the short
 * delays a server gives to say "soon".
 */
export const RETRY_AFTER_FLOOR_MS = 1000;

/**
 * How long an unreachable result fetched at `fetchedAt` stands: until `retryAt` kept between
 * RETRY_AFTER_FLOOR_MS and ttlMs (the most any result lives, RFC 9309 2.4), or
 * unreachableTtlMs when the server named no time.
 */
export function unreachableLifetime(retryAt: number | undefined, fetchedAt: number, options: Pick<ResolvedFetchOptions, 'ttlMs' | 'unreachableTtlMs'>): number {
  if (retryAt === undefined) return options.unreachableTtlMs;
  return Math.min(options.ttlMs, Math.max(RETRY_AFTER_FLOOR_MS, retryAt - fetchedAt));
}

/** The time a response's Retry-After header names, or undefined when it has none that parses. */
function retryTimeOf(response: HttpResponse, now: number): number | undefined {
  const value = response.headers.get('retry-after');
  const wait = value === null ? undefined : retryAfterMs(value, now);
  // A huge delay stays a safe integer, so that a snapshot of the result can be checked as one.
  return wait === undefined ? undefined : Math.min(now + wait, Number.MAX_SAFE_INTEGER);
}

/** The result of an answer that was not a usable file. */
function fallback(
  status: 'unavailable' | 'unreachable',
  location: RobotsLocation,
  options: ResolvedFetchOptions,
  details: { httpStatus?: number; finalUrl: string; redirects: number; error?: string; expiresAt?: number; retryAt?: number },
): RobotsFetchResult {
  const fetchedAt = Date.now();
  const body = status === 'unavailable' ? ALLOW_ALL : DISALLOW_ALL;
  return {
    status,
    robots: RobotsTxt.parse(body, { mode: options.mode }),
    origin: location.origin,
    httpStatus: details.httpStatus,
    finalUrl: details.finalUrl,
    redirects: details.redirects,
    fetchedAt,
    expiresAt: details.expiresAt ?? fetchedAt + (status === 'unavailable' ? options.ttlMs : unreachableLifetime(details.retryAt, fetchedAt, options)),
    retryAt: details.retryAt,
    error: details.error,
    body: undefined,
    etag: undefined,
    lastModified: undefined,
    revalidated: false,
  };
}

/** Reads at most `limit` bytes of a body stream, then stops the download. */
export async function readLimited(response: HttpResponse, limit: number): Promise<Uint8Array> {
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

/** An error's message with its code (node:http's, or the platform fetch's cause's). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const detail = errorCode(error) ?? cause?.message;
  return detail !== undefined && !error.message.includes(detail) ? `${error.message} (${detail})` : error.message;
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown; cause?: { code?: unknown } } | undefined)?.code ?? (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return typeof code === 'string' ? code : undefined;
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

async function getRetryingDroppedConnection(get: HttpGet, url: string, init: Parameters<HttpGet>[1]): Promise<HttpResponse> {
  for (let retries = 0; ; retries++) {
    try {
      return await get(url, init);
    } catch (error) {
      const code = errorCode(error);
      const dropped = code !== undefined && DROPPED_CONNECTION.has(code);
      if (!dropped || init.signal.aborted || retries === RETRIES_ON_DROPPED_CONNECTION) throw error;
    }
  }
}

/**
 * One fetch of `location`'s robots.txt. With `previous` (an ok result that carries
 * validators) the request is conditional, and a 304 answer renews `previous`. Ends within
 * options.timeoutMs however the transport behaves: at the deadline the request is aborted
 * and, if it does not stop, abandoned.
 */
export async function requestRobotsTxt(
  location: RobotsLocation,
  options: ResolvedFetchOptions,
  previous: RobotsFetchResult | undefined,
): Promise<RobotsFetchResult> {
  const deadline = new AbortController();
  const signal = options.signal === undefined ? deadline.signal : AbortSignal.any([options.signal, deadline.signal]);
  const progress = { url: location.robotsUrl, redirects: 0 };
  const attempt = fetchFile(location, options, previous, signal, progress);
  // An attempt abandoned at the deadline may still fail later: that is no longer news.
  attempt.catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const timedOut = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => {
      deadline.abort(new Error(`timed out after ${options.timeoutMs} ms`));
      resolve(undefined);
    }, options.timeoutMs);
  });
  // The caller's abort ends the call at once too, whatever the transport does with it.
  const aborted = new Promise<never>((_, reject) => {
    if (options.signal === undefined) return;
    onAbort = () => reject(options.signal!.reason);
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const result = await Promise.race([attempt, timedOut, aborted]);
    if (result !== undefined) return result;
    return fallback('unreachable', location, options, { finalUrl: progress.url, redirects: progress.redirects, error: `timed out after ${options.timeoutMs} ms` });
  } catch (error) {
    // The caller's own abort is not an answer about the server.
    if (options.signal?.aborted) throw options.signal.reason;
    const reason = deadline.signal.aborted ? `timed out after ${options.timeoutMs} ms` : describe(error);
    return fallback('unreachable', location, options, { finalUrl: progress.url, redirects: progress.redirects, error: reason });
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) options.signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * The request and its redirects: the result of the answer, or a rejection when no answer
 * arrived (network failure, abort). `progress` keeps the URL and redirect count so far.
 */
async function fetchFile(
  location: RobotsLocation,
  options: ResolvedFetchOptions,
  previous: RobotsFetchResult | undefined,
  signal: AbortSignal,
  progress: { url: string; redirects: number },
): Promise<RobotsFetchResult> {
  const headers: Record<string, string> = { 'user-agent': options.userAgent, accept: 'text/plain, */*;q=0.5' };
  const conditional = previous?.status === 'ok' && (previous.etag !== undefined || previous.lastModified !== undefined);
  if (conditional) {
    if (previous.etag !== undefined) headers['if-none-match'] = previous.etag;
    if (previous.lastModified !== undefined) headers['if-modified-since'] = previous.lastModified;
  }
  const seen = new Set([progress.url]);
  for (;;) {
    const url = progress.url;
    const response = await getRetryingDroppedConnection(options.get, url, { redirect: 'manual', signal, headers });
    const httpStatus = response.status;
    const details = { httpStatus, finalUrl: url, redirects: progress.redirects };
    if (REDIRECTS.has(httpStatus)) {
      await response.body?.cancel().catch(() => undefined);
      const refusal = await redirectRefusal(response.headers.get('location'), url, seen, progress.redirects, options);
      if (typeof refusal === 'string') return fallback('unavailable', location, options, { ...details, error: refusal });
      seen.add(refusal.href);
      progress.url = refusal.href;
      progress.redirects++;
      continue;
    }
    const now = Date.now();
    if (httpStatus === 304) {
      await response.body?.cancel().catch(() => undefined);
      // Only an answer to a conditional request may say "not modified".
      if (!conditional) return fallback('unreachable', location, options, { ...details, error: 'HTTP 304 to a request with no validator' });
      return { ...previous, httpStatus, finalUrl: url, redirects: progress.redirects, fetchedAt: now, expiresAt: now + renewedLifetime(response, now, previous, options), retryAt: undefined, revalidated: true };
    }
    if (httpStatus < 200 || httpStatus >= 300) {
      await response.body?.cancel().catch(() => undefined);
      const unreachable = httpStatus >= 500 || httpStatus === 429;
      const error = `HTTP ${httpStatus}`;
      return unreachable
        ? fallback('unreachable', location, options, { ...details, error, retryAt: retryTimeOf(response, now) })
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
      retryAt: undefined,
      error: undefined,
      body,
      etag: response.headers.get('etag') ?? undefined,
      lastModified: response.headers.get('last-modified') ?? undefined,
      revalidated: false,
    };
  }
}

/**
 * Where a redirect from `from` to `target` (its Location) leads, or why it is not followed:
 * an unusable location, credentials in it, one redirect too many, a loop, or the caller's
 * allowRedirect said no.
 */
async function redirectRefusal(
  target: string | null,
  from: string,
  seen: Set<string>,
  redirects: number,
  options: ResolvedFetchOptions,
): Promise<URL | string> {
  let next: URL | undefined;
  try {
    next = target === null ? undefined : new URL(target, from);
  } catch {
    next = undefined;
  }
  if (next === undefined || (next.protocol !== 'http:' && next.protocol !== 'https:')) return `redirect to an unusable location ${JSON.stringify(target)}`;
  if (next.username !== '' || next.password !== '') return `redirect to a URL with credentials (${next.host})`;
  if (redirects === options.maxRedirects) return `more than ${options.maxRedirects} redirects`;
  if (seen.has(next.href)) return `redirect loop at ${next.href}`;
  if (options.allowRedirect !== undefined && !(await options.allowRedirect(new URL(from), new URL(next.href)))) {
    return `redirect to ${next.href} refused by allowRedirect`;
  }
  return next;
}

function lifetime(response: HttpResponse, now: number, options: ResolvedFetchOptions): number {
  return Math.min(options.ttlMs, Math.max(options.minTtlMs, freshnessMs(response.headers, now, options.ttlMs, options.ttlMs)));
}

/**
 * How long a 304 renews `previous` for: by the 304's own freshness headers when it has them
 * (they update the stored response's, RFC 9111 4.3.4), else by the stored response's, which
 * gave `previous` its lifetime: no-store stays no-store, max-age stays max-age.
 */
function renewedLifetime(response: HttpResponse, now: number, previous: RobotsFetchResult, options: ResolvedFetchOptions): number {
  if (explicitFreshnessMs(response.headers, now) !== undefined) return lifetime(response, now, options);
  return Math.min(options.ttlMs, Math.max(options.minTtlMs, previous.expiresAt - previous.fetchedAt));
}
