// RobotsCache: verdicts for URLs on many origins, fetching each origin's robots.txt once.
// Results stay fresh as long as fetch.ts allowed (HTTP caching under the 24-hour cap of RFC
// 9309 2.4); an expired entry is refreshed before it answers again, conditionally when the
// last file had validators. Concurrent requests for one origin share one fetch, fetches run
// at most `concurrency` at a time, and entries are evicted least recently used first.
//
// While refreshes fail as unreachable, the last good copy keeps answering (RFC 9309 2.4);
// with no good copy the origin is disallowed, and after `maxUnreachableMs` of that (30 days
// by default) treated as unavailable, i.e. allowed (2.3.1.4) - the choice Google makes too.
// An unreachable answer's Retry-After sets when the entry is refreshed (fetch.ts), with or
// without a good copy answering meanwhile.
// With a `store`, processes share what they fetched (fleet.ts): a local miss reads the store
// before it fetches.

import { integerOption, requireString } from '../args.js';
import { toBase64 } from '../encoding.js';
import { checkManyAsFetched, isAllowedAsFetched, type Matcher } from '../matcher.js';
import { retainedBytes, RobotsTxt } from '../robots-txt.js';
import {
  ALLOW_ALL, DISALLOW_ALL, requestRobotsTxt, resolveFetchOptions, type FetchRobotsOptions, type ResolvedFetchOptions, type RobotsFetchResult,
} from './fetch.js';
import { refreshShared, StoreLink, warnStoreEvent, type StoreEvent } from './fleet.js';
import { originOf, robotsLocation } from './origin.js';
import { snapshotRecords, type CheckedRecord, type RobotsCacheRecord, type SnapshotLimits } from './snapshot.js';
import { decodeStoredRecord, encodeStoredRecord, maxStoredLength, type RobotsStore } from './store.js';

export type { RobotsCacheRecord };

export interface RobotsCacheOptions extends FetchRobotsOptions {
  /** The crawler's product token, matched against user-agent lines (`ExampleBot`). */
  agent: string;
  /** Origins kept; the least recently used are dropped beyond this. Default 100,000. */
  maxEntries?: number;
  /**
   * Bytes the cached files may hold, their bodies, parsed rules and compiled tables counted;
   * the least recently used origins are dropped beyond this. Default 256 MiB.
   */
  maxCacheBytes?: number;
  /** Fetches in flight at once; default 32. */
  concurrency?: number;
  /**
   * How long an origin with no good copy stays disallowed while unreachable; default 30 days.
   * Checked when the entry is next refreshed, which a Retry-After may put off up to `ttlMs`.
   */
  maxUnreachableMs?: number;
  /** URLs filter() reads ahead, so that fetches for upcoming origins overlap; default 1,000. */
  lookahead?: number;
  /**
   * A store shared with other processes (robots-wasm/redis, or any RobotsStore): read on a
   * local miss, written after each fetch, and a lease in it makes one process of the fleet
   * fetch each origin. Default none.
   */
  store?: RobotsStore;
  /** The longest a store call may take before the store counts as out; default 1,000 ms. */
  storeTimeoutMs?: number;
  /** How long the cache works without the store after a call failed, before it tries it again; default 5,000 ms. */
  storeRetryMs?: number;
  /** Told when the store stops answering (once per outage) and when it answers again; default: a console.warn line. */
  onStoreEvent?: (event: StoreEvent) => void;
}

/** What export() returns: plain data, ready for JSON.stringify. */
export interface RobotsCacheSnapshot {
  version: 1;
  entries: RobotsCacheRecord[];
}

interface Entry {
  /** What the origin's URLs are checked against now. */
  result: RobotsFetchResult | undefined;
  /** The last ok or unavailable result: kept while refreshes are unreachable. */
  lastGood: RobotsFetchResult | undefined;
  unreachableSince: number | undefined;
  refresh: Promise<Entry> | undefined;
  matcher: Matcher | undefined;
  /** The use count when the entry last moved to the recent end of the LRU order. */
  movedAt: number;
  /** What its results hold, as counted in the cache's byte budget. */
  bytes: number;
}

/** About how many bytes a fetch result holds: its body and its parsed file. */
function resultBytes(result: RobotsFetchResult | undefined): number {
  return result === undefined ? 0 : (result.body?.length ?? 0) + retainedBytes(result.robots);
}

/** `url` has nothing, or a path, query or fragment, at `at`: an authority ending there is whole. */
function endsAuthority(url: string, at: number): boolean {
  if (at === url.length) return true;
  const c = url.charCodeAt(at);
  return c === 0x2f || c === 0x3f || c === 0x23;
}

/** Counts fetch slots: at most `limit` holders at once, the others wait in order. */
class Slots {
  #free: number;
  readonly #waiting: (() => void)[] = [];

  constructor(limit: number) {
    this.#free = limit;
  }

  async acquire(): Promise<void> {
    if (this.#free > 0) {
      this.#free--;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  release(): void {
    const next = this.#waiting.shift();
    if (next !== undefined) next();
    else this.#free++;
  }
}

const THIRTY_DAYS_MS = 30 * 86_400_000;

const STORE_METHODS = ['get', 'set', 'delete', 'claim', 'release'] as const;

/**
 * How far ahead of this one the clock of a machine that stored a record may be: a fleet's
 * clocks differ by seconds, and a record "fetched in the future" by less is not damage.
 */
const STORE_CLOCK_SKEW_MS = 60_000;

/** The link to the options' store, or undefined without one; a TypeError for a store that lacks a RobotsStore method. */
function storeLink(options: RobotsCacheOptions, timeoutMs: number): StoreLink | undefined {
  const store = options.store;
  if (store === undefined) return undefined;
  const missing = STORE_METHODS.filter((name) => typeof (store as unknown as Record<string, unknown> | null)?.[name] !== 'function');
  if (missing.length > 0) throw new TypeError(`robots-wasm: store must be a RobotsStore, missing ${missing.join(', ')}`);
  if (options.onStoreEvent !== undefined && typeof options.onStoreEvent !== 'function') throw new TypeError('robots-wasm: onStoreEvent must be a function');
  const retryMs = integerOption(options.storeRetryMs, 'storeRetryMs', 5000);
  return new StoreLink(store, { timeoutMs, retryMs, onEvent: options.onStoreEvent ?? warnStoreEvent });
}

/** A result as a snapshot entry and a stored record hold it. */
function recordOf(origin: string, r: RobotsFetchResult, unreachableSince: number | undefined): RobotsCacheRecord {
  return {
    status: r.status, origin, httpStatus: r.httpStatus, finalUrl: r.finalUrl, redirects: r.redirects, fetchedAt: r.fetchedAt,
    expiresAt: r.expiresAt, retryAt: r.retryAt, error: r.error, body: r.body === undefined ? undefined : toBase64(r.body),
    etag: r.etag, lastModified: r.lastModified, unreachableSince,
  };
}

/** restoreRecord and cachedRecords, set by RobotsCache's static block, which alone sees its private members. */
let restore: (cache: RobotsCache, checked: CheckedRecord) => void;
let entriesOf: (cache: RobotsCache) => [string, Entry][];
let linkOf: (cache: RobotsCache) => StoreLink | undefined;
let readyOf: (cache: RobotsCache, origin: string) => RobotsFetchResult | undefined;

/**
 * Internal (the Pacer's path without a wait): the origin's result when it is cached and fresh,
 * marked used; undefined when it must be fetched or refreshed first (which this starts).
 */
export function readyResult(cache: RobotsCache, origin: string): RobotsFetchResult | undefined {
  return readyOf(cache, origin);
}

/** Internal (the Pacer): the cache's link to its store, so that pacing shares its timeouts and reports one outage once. */
export function storeLinkOf(cache: RobotsCache): StoreLink | undefined {
  return linkOf(cache);
}

/** Internal (the CLI's cache file): adds one checked record to the cache, as import() does each. */
export function restoreRecord(cache: RobotsCache, checked: CheckedRecord): void {
  restore(cache, checked);
}

/** An entry of cachedRecords(): its record is made when it is asked for. */
export interface CachedRecord {
  origin: string;
  fetchedAt: number;
  record: () => RobotsCacheRecord;
}

/**
 * Internal (the CLI's cache file): the cache's entries, each record made when it is asked for,
 * so that a large cache is written out without a copy of it all in memory.
 */
export function cachedRecords(cache: RobotsCache): CachedRecord[] {
  const list: CachedRecord[] = [];
  for (const [origin, entry] of entriesOf(cache)) {
    const result = entry.result;
    if (result !== undefined) list.push({ origin, fetchedAt: result.fetchedAt, record: () => recordOf(origin, entry.result ?? result, entry.unreachableSince) });
  }
  return list;
}

/** Verdicts for URLs on many origins; each origin's robots.txt is fetched once and cached. */
export class RobotsCache {
  /** The product token URLs are checked for. */
  readonly agent: string;
  readonly #options: ResolvedFetchOptions;
  readonly #maxEntries: number;
  readonly #maxCacheBytes: number;
  /** Bytes the entries hold (their `bytes`). */
  #bytes = 0;
  readonly #maxUnreachableMs: number;
  readonly #lookahead: number;
  readonly #slots: Slots;
  readonly #entries = new Map<string, Entry>();
  #fetches = 0;
  #tick = 0;
  /** The origin of the last URL asked about (see #originOf). */
  #lastOrigin = '';
  readonly #link: StoreLink | undefined;
  readonly #storeTimeoutMs: number;

  constructor(options: RobotsCacheOptions) {
    if (options === null || typeof options !== 'object') throw new TypeError('robots-wasm: RobotsCache needs options with an agent');
    requireString(options.agent, 'agent');
    this.agent = options.agent;
    this.#options = resolveFetchOptions({ ...options, userAgent: options.userAgent ?? options.agent });
    this.#maxEntries = integerOption(options.maxEntries, 'maxEntries', 100_000);
    this.#maxCacheBytes = integerOption(options.maxCacheBytes, 'maxCacheBytes', 256 * 1024 * 1024, 0);
    this.#maxUnreachableMs = integerOption(options.maxUnreachableMs, 'maxUnreachableMs', THIRTY_DAYS_MS, 0);
    this.#lookahead = integerOption(options.lookahead, 'lookahead', 1000);
    this.#slots = new Slots(integerOption(options.concurrency, 'concurrency', 32));
    this.#storeTimeoutMs = integerOption(options.storeTimeoutMs, 'storeTimeoutMs', 1000);
    this.#link = storeLink(options, this.#storeTimeoutMs);
  }

  /** Origins cached. */
  get size(): number {
    return this.#entries.size;
  }

  /** About how many bytes the cached files hold (bodies, parsed rules, compiled tables): at most maxCacheBytes. */
  get bytes(): number {
    return this.#bytes;
  }

  /** robots.txt requests sent so far (redirects not counted separately). */
  get fetches(): number {
    return this.#fetches;
  }

  /**
   * The fetch result in force for the origin of `urlOrOrigin`, fetched or refreshed first when
   * there is none or it expired. It belongs to the cache: its `robots` is disposed when the
   * entry is evicted or replaced.
   */
  async get(urlOrOrigin: string): Promise<RobotsFetchResult> {
    requireString(urlOrOrigin, 'url');
    const entry = await this.#readyNow(robotsLocation(urlOrOrigin).origin);
    return entry.result!;
  }

  /** May the agent fetch `url`? Fetches the origin's robots.txt on first use and after it expired. */
  async isAllowed(url: string): Promise<boolean> {
    requireString(url, 'url');
    const origin = this.#originOf(url);
    if (origin === undefined) throw new TypeError(`robots-wasm: not an absolute http(s) URL: ${JSON.stringify(url.slice(0, 200))}`);
    return this.#verdict(await this.#readyNow(origin), url);
  }

  /**
   * Verdicts for a batch of URLs on any number of origins (1 allowed, 0 disallowed), in
   * order: the robots.txt of every origin in the batch are fetched concurrently, then each
   * origin's URLs are checked in one matcher.checkMany call. A URL that is not an absolute
   * http(s) URL gets 0: there is nothing to fetch.
   */
  async checkMany(urls: readonly string[]): Promise<Uint8Array> {
    if (!Array.isArray(urls)) throw new TypeError('robots-wasm: checkMany expects an array of strings');
    const byOrigin = new Map<string, number[]>();
    let last = '';
    let lastIndices: number[] | undefined;
    for (let i = 0; i < urls.length; i++) {
      const url = urls[i];
      requireString(url, 'url');
      const origin = this.#originOf(url);
      if (origin === undefined) continue;
      // Frontiers come in runs of one origin: skip the map for those.
      if (origin !== last || lastIndices === undefined) {
        last = origin;
        lastIndices = byOrigin.get(origin);
        if (lastIndices === undefined) byOrigin.set(origin, (lastIndices = []));
      }
      lastIndices.push(i);
    }
    const verdicts = new Uint8Array(urls.length);
    // Each origin's URLs are checked as soon as its file is ready: a batch over many origins
    // then holds no more files at once than the cache keeps and the fetches in flight, not
    // every file of the batch until the last one arrives.
    const pending: Promise<void>[] = [];
    for (const [origin, indices] of byOrigin) {
      const check = (entry: Entry) => {
        const answers = checkManyAsFetched(this.#matcher(entry), indices.map((i) => urls[i]));
        for (let k = 0; k < indices.length; k++) verdicts[indices[k]] = answers[k];
      };
      const ready = this.#readyNow(origin);
      if (ready instanceof Promise) pending.push(ready.then(check));
      else check(ready);
    }
    await Promise.all(pending);
    return verdicts;
  }

  /**
   * The allowed URLs of `urls`, in order. Reads up to `lookahead` URLs ahead so that the
   * robots.txt of many origins are fetched at once. URLs that are not absolute http(s) URLs
   * are dropped.
   */
  async *filter(urls: Iterable<string> | AsyncIterable<string>): AsyncGenerator<string> {
    const sync = Symbol.iterator in urls;
    const iterator = sync ? (urls as Iterable<string>)[Symbol.iterator]() : (urls as AsyncIterable<string>)[Symbol.asyncIterator]();
    // URLs read and not yet yielded, each with its verdict, or the promise of it while the
    // origin's file is on its way. The verdict is taken as soon as the file is ready: an item
    // holds no file, so reading ahead holds no more files than the fetches in flight.
    const queue: { url: string; allowed: boolean; waiting: Promise<void> | undefined }[] = [];
    let head = 0;
    let done = false;
    for (;;) {
      // Read ahead while the oldest URL waits for its origin (up to `lookahead`).
      while (!done && queue.length - head < this.#lookahead) {
        const next = sync ? (iterator as Iterator<string>).next() : await iterator.next();
        if (next.done === true) {
          done = true;
          break;
        }
        const url = next.value;
        requireString(url, 'url');
        const origin = this.#originOf(url);
        if (origin === undefined) continue;
        const item: { url: string; allowed: boolean; waiting: Promise<void> | undefined } = { url, allowed: false, waiting: undefined };
        const ready = this.#readyNow(origin);
        if (ready instanceof Promise) {
          item.waiting = ready.then((entry) => {
            item.allowed = this.#verdict(entry, url);
            item.waiting = undefined;
          });
          // Failures surface where the item is awaited, in order.
          item.waiting.catch(() => undefined);
        } else {
          item.allowed = this.#verdict(ready, url);
        }
        queue.push(item);
        if (queue[head].waiting === undefined) break;
      }
      while (head < queue.length) {
        const item = queue[head];
        if (item.waiting !== undefined) {
          if (!done && queue.length - head < this.#lookahead) break;
          await item.waiting;
          continue;
        }
        head++;
        if (item.allowed) yield item.url;
      }
      if (done && head === queue.length) return;
      if (head > 4096 && head * 2 > queue.length) {
        queue.splice(0, head);
        head = 0;
      }
    }
  }

  /** The cache as plain data (JSON-safe), for import() after a restart. */
  export(): RobotsCacheSnapshot {
    const entries: RobotsCacheRecord[] = [];
    for (const [origin, entry] of this.#entries) {
      if (entry.result !== undefined) entries.push(recordOf(origin, entry.result, entry.unreachableSince));
    }
    return { version: 1, entries };
  }

  /**
   * A cache holding the entries of a snapshot from export(); expired entries refresh on first
   * use. Every field is checked first (a TypeError names the entry and the field), and no entry
   * stays fresh longer than `ttlMs` from when it was fetched.
   */
  static import(snapshot: RobotsCacheSnapshot, options: RobotsCacheOptions): RobotsCache {
    const cache = new RobotsCache(options);
    for (const checked of snapshotRecords(snapshot, cache.#limits())) cache.#restore(checked);
    return cache;
  }

  static {
    restore = (cache, checked) => cache.#restore(checked);
    // A copy of the list: the cache goes on working while its records are written.
    entriesOf = (cache) => [...cache.#entries];
    linkOf = (cache) => cache.#link;
    readyOf = (cache, origin) => {
      const ready = cache.#readyNow(origin);
      return ready instanceof Promise ? undefined : ready.result;
    };
  }

  /** Drops every entry and frees its tables. */
  clear(): void {
    for (const entry of this.#entries.values()) {
      this.#release(entry, undefined);
      entry.matcher = undefined;
    }
    this.#entries.clear();
    this.#bytes = 0;
  }

  /** What a snapshot or stored record may claim now; `skewMs`: how far ahead another machine's clock may be. */
  #limits(skewMs = 0): SnapshotLimits {
    const { ttlMs, unreachableTtlMs } = this.#options;
    return { now: Date.now() + skewMs, ttlMs, unreachableTtlMs };
  }

  /** The fetch result a checked record stands for, its file parsed. */
  #resultOf({ record, body }: CheckedRecord): RobotsFetchResult {
    const mode = this.#options.mode;
    let robots: RobotsTxt;
    if (record.status === 'ok') robots = RobotsTxt.parse(body!, { mode, maxBytes: this.#options.maxBytes });
    else robots = RobotsTxt.parse(record.status === 'unavailable' ? ALLOW_ALL : DISALLOW_ALL, { mode });
    return {
      status: record.status, robots, origin: record.origin, httpStatus: record.httpStatus, finalUrl: record.finalUrl,
      redirects: record.redirects, fetchedAt: record.fetchedAt, expiresAt: record.expiresAt, retryAt: record.retryAt, error: record.error, body,
      etag: record.etag, lastModified: record.lastModified, revalidated: false,
    };
  }

  #restore(checked: CheckedRecord): void {
    const record = checked.record;
    const result = this.#resultOf(checked);
    const entry = this.#entry(record.origin);
    entry.result = result;
    entry.lastGood = result.status === 'unreachable' ? undefined : result;
    entry.unreachableSince = record.unreachableSince;
    this.#count(record.origin, entry);
  }

  /**
   * originOf(url), for a stream of URLs in runs of one origin: a URL that starts with the last
   * origin and ends its authority there is on it (an origin is canonical: no other spelling of
   * it is a prefix), so it takes no parse and no new string. Others (a longer host, userinfo,
   * an explicit port) are parsed.
   */
  #originOf(url: string): string | undefined {
    const last = this.#lastOrigin;
    if (last !== '' && url.startsWith(last) && endsAuthority(url, last.length)) return last;
    const origin = originOf(url);
    if (origin !== undefined) this.#lastOrigin = origin;
    return origin;
  }

  /** The entry's matcher, compiled on first use (and counted in the budget then). */
  #matcher(entry: Entry): Matcher {
    if (entry.matcher !== undefined && !entry.matcher.disposed) return entry.matcher;
    const result = entry.result!;
    try {
      entry.matcher = result.robots.matcher(this.agent);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      // A file whose table alone passes the memory limit cannot be followed: fail closed, as
      // for a file that cannot be fetched, and say why.
      entry.result = { ...result, status: 'unreachable', robots: RobotsTxt.parse(DISALLOW_ALL, { mode: this.#options.mode }), error: `robots.txt too large to compile: ${error.message}` };
      entry.matcher = entry.result.robots.matcher(this.agent);
    }
    this.#count(result.origin, entry);
    return entry.matcher;
  }

  /** The verdict for a URL the crawler will fetch: matched as the path the fetch requests, in either mode. */
  #verdict(entry: Entry, url: string): boolean {
    return isAllowedAsFetched(this.#matcher(entry), url);
  }

  /** The origin's entry when its result is fresh, else the promise of its refresh. */
  #readyNow(origin: string): Entry | Promise<Entry> {
    const entry = this.#entry(origin);
    if (entry.result !== undefined && entry.result.expiresAt > Date.now()) return entry;
    entry.refresh ??= this.#refresh(origin, entry).finally(() => (entry.refresh = undefined));
    return entry.refresh;
  }

  /** The origin's entry (created if needed), marked most recently used. */
  #entry(origin: string): Entry {
    const tick = ++this.#tick;
    let entry = this.#entries.get(origin);
    if (entry !== undefined) {
      // Moving an entry to the recent end on every use costs more than the check it serves; an
      // entry used within the last size/2 uses cannot have drifted to the eviction end yet.
      if (tick - entry.movedAt > this.#entries.size >> 1) {
        this.#entries.delete(origin);
        this.#entries.set(origin, entry);
        entry.movedAt = tick;
      }
      return entry;
    }
    entry = { result: undefined, lastGood: undefined, unreachableSince: undefined, refresh: undefined, matcher: undefined, movedAt: tick, bytes: 0 };
    this.#entries.set(origin, entry);
    if (this.#entries.size > this.#maxEntries) this.#evictOldest();
    return entry;
  }

  /** Drops the least recently used entry and frees its tables. */
  #evictOldest(): void {
    const [oldest, evicted] = this.#entries.entries().next().value as [string, Entry];
    this.#entries.delete(oldest);
    this.#release(evicted, undefined);
    evicted.matcher = undefined;
    this.#bytes -= evicted.bytes;
    evicted.bytes = 0;
  }

  /**
   * Counts what `origin`'s entry holds now in the byte budget, and drops the least recently
   * used other entries while the cache holds more than maxCacheBytes. An entry already
   * evicted (its refresh finished after it was) is not counted: nothing keeps it.
   */
  #count(origin: string, entry: Entry): void {
    if (this.#entries.get(origin) !== entry) return;
    const { result, lastGood } = entry;
    // An unreachable result served from the last good copy shares its body and file.
    const bytes = resultBytes(result) + (lastGood !== undefined && lastGood.robots !== result?.robots ? resultBytes(lastGood) : 0);
    this.#bytes += bytes - entry.bytes;
    entry.bytes = bytes;
    while (this.#bytes > this.#maxCacheBytes && this.#entries.size > 1) {
      // The entry just counted is the one in use: the recent end of the order.
      if (this.#entries.keys().next().value === origin) {
        this.#entries.delete(origin);
        this.#entries.set(origin, entry);
        entry.movedAt = this.#tick;
      }
      this.#evictOldest();
    }
  }

  /** Brings the origin's entry up to date: through the store when there is one, else by fetching. */
  async #refresh(origin: string, entry: Entry): Promise<Entry> {
    if (this.#link === undefined || !(await this.#refreshShared(this.#link, origin, entry))) await this.#fetchInto(origin, entry);
    return entry;
  }

  /** #refresh through the store (fleet.ts); false when the cache must fetch on its own. */
  #refreshShared(link: StoreLink, origin: string, entry: Entry): Promise<boolean> {
    const { timeoutMs, ttlMs } = this.#options;
    // The fetcher's lease covers its fetch and the store calls around it; a waiter gives it a
    // fetch and a store call, what a live holder needs to store its result.
    const leaseMs = timeoutMs + 3 * this.#storeTimeoutMs;
    return refreshShared(link, leaseMs, timeoutMs + this.#storeTimeoutMs, {
      key: origin,
      maxLength: maxStoredLength(this.#options.maxBytes),
      decode: (value) => decodeStoredRecord(value, origin, this.#limits(STORE_CLOCK_SKEW_MS), this.#options.maxBytes),
      fresh: (stored) => stored.record.expiresAt > Date.now(),
      adopt: (stored) => this.#apply(origin, entry, this.#resultOf(stored), stored.record.unreachableSince),
      withSlot: (claimAndFetch) => this.#withSlot(claimAndFetch),
      fetch: async (stale) => {
        // A stale stored copy is this process's last good one too: its validators make the
        // request conditional, and it answers while the origin is unreachable (RFC 9309 2.4).
        if (entry.lastGood === undefined && stale !== undefined && stale.record.status !== 'unreachable') {
          this.#apply(origin, entry, this.#resultOf(stale), stale.record.unreachableSince);
        }
        await this.#fetchNow(origin, entry);
        const result = entry.result!;
        // A file is kept past its expiry for as long again, so that any process can revalidate
        // it or answer with it while the origin is unreachable; the record says when it expires.
        const keepMs = result.body !== undefined ? ttlMs : 0;
        return { value: encodeStoredRecord(recordOf(origin, result, entry.unreachableSince)), ttlMs: Math.max(1, result.expiresAt - Date.now() + keepMs) };
      },
    });
  }

  /** `use()` holding one of the `concurrency` fetch slots. */
  async #withSlot<T>(use: () => Promise<T>): Promise<T> {
    await this.#slots.acquire();
    try {
      return await use();
    } finally {
      this.#slots.release();
    }
  }

  /** #fetchNow in a fetch slot. */
  #fetchInto(origin: string, entry: Entry): Promise<void> {
    return this.#withSlot(() => this.#fetchNow(origin, entry));
  }

  /** Fetches the origin's robots.txt (conditionally, when the entry has a good copy) and takes the result. */
  async #fetchNow(origin: string, entry: Entry): Promise<void> {
    this.#fetches++;
    const fetched = await requestRobotsTxt(robotsLocation(origin), this.#options, entry.lastGood);
    this.#apply(origin, entry, fetched, fetched.status === 'unreachable' ? fetched.fetchedAt : undefined);
  }

  /**
   * Takes a fetched or stored result as the entry's: an unreachable one keeps the last good
   * copy in force, or after maxUnreachableMs without one becomes unavailable. `unreachableSince`:
   * since when the origin has been unreachable, as the result knows it.
   */
  #apply(origin: string, entry: Entry, fetched: RobotsFetchResult, unreachableSince: number | undefined): void {
    let next = fetched;
    let lastGood = entry.lastGood;
    if (fetched.status === 'unreachable') {
      const since = unreachableSince ?? fetched.fetchedAt;
      entry.unreachableSince = Math.min(entry.unreachableSince ?? since, since);
      if (lastGood !== undefined) {
        // RFC 9309 2.4: the cached copy stays in force while the file is unreachable, until the
        // next attempt the unreachable answer set (its Retry-After, when it had one).
        next = { ...lastGood, expiresAt: fetched.expiresAt, retryAt: fetched.retryAt, error: fetched.error };
      } else if (fetched.fetchedAt - entry.unreachableSince >= this.#maxUnreachableMs) {
        next = { ...fetched, status: 'unavailable', robots: RobotsTxt.parse('', { mode: this.#options.mode }) };
        fetched.robots.dispose();
      }
    } else {
      entry.unreachableSince = unreachableSince;
      lastGood = fetched;
    }
    this.#release(entry, new Set([next.robots, lastGood?.robots]));
    if (next.robots !== entry.result?.robots) entry.matcher = undefined;
    entry.result = next;
    entry.lastGood = lastGood;
    this.#count(origin, entry);
  }

  /** Frees the tables of the entry's files that are not in `keep`. */
  #release(entry: Entry, keep: Set<RobotsTxt | undefined> | undefined): void {
    for (const result of [entry.result, entry.lastGood]) {
      if (result !== undefined && !keep?.has(result.robots)) result.robots.dispose();
    }
  }
}
