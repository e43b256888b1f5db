// Pacer: when a request to an origin may start. Spacing comes from the origin's robots.txt as
// the RobotsCache fetched it (Crawl-delay, Request-rate: Pacing.delayMs), clamped to the
// crawler's own bounds; responses steer it (Retry-After pauses, exponential back-off on
// failures). Each origin has its own FIFO queue and timer, so one origin's waits never delay
// another's, and an origin's state is dropped once it is idle, so memory follows the origins
// in use. When the cache shares a store that keeps a pacing ledger (ledger.ts), each start is
// also reserved in it, so that the processes of a fleet pace each origin together; the process
// keeps its own schedule as well, which alone paces it while the store is out.

import { readyResult, RobotsCache, storeLinkOf } from '../fetch/cache.js';
import type { RobotsFetchResult } from '../fetch/fetch.js';
import { STORE_OUT, type StoreLink } from '../fetch/fleet.js';
import { originOf } from '../fetch/origin.js';
import type { HeadersInput } from '../tags/controls.js';
import type { Pacing, TimeWindow } from '../robots/pacing.js';
import { backoffMs, type SlotEnd, type SlotEndReply, type SlotReply, type SlotRequest } from './ledger.js';
import type { RobotsTxt } from '../robots-txt.js';
import { headerValue, retryAfterMs } from '../fields/retry-after.js';
import { LocalSchedule } from './schedule.js';

/** What `acquire` does when robots.txt asks a longer delay than `maxDelayMs`. */
export type TooLong = 'wait' | 'skip';

/** Options of a Pacer. */
export interface PacerOptions {
  /** The cache whose robots.txt give the delays; default: a new RobotsCache for `agent`. */
  cache?: RobotsCache;
  /** The product token whose groups' pacing applies; default the cache's agent. Needed without `cache`. */
  agent?: string;
  /** The least delay between two starts on an origin, in ms, and the delay when robots.txt is unavailable or unreachable; default 0. */
  minDelayMs?: number;
  /** The most delay between two starts the pacer keeps, in ms; default 60,000. */
  maxDelayMs?: number;
  /** Above `maxDelayMs`: wait `maxDelayMs` (`'wait'`, the default) or reject with a PacingSkipError (`'skip'`). */
  tooLong?: TooLong;
  /** Slots held at once per origin; default 1. */
  maxConcurrentPerOrigin?: number;
  /** A slot not released within this many ms frees itself (counted as neither success nor failure); default 60,000. */
  leaseMs?: number;
  /** The first back-off after a failure, in ms, doubled with each failure in a row; default 1,000. */
  backoffBaseMs?: number;
  /** The longest back-off, in ms; default 300,000. */
  backoffMaxMs?: number;
  /** The longest pause a Retry-After header gets, in ms; default 3,600,000 (an hour). */
  maxRetryAfterMs?: number;
  /** Wait for the file's Visit-time windows (UTC) to open; default false. */
  respectVisitTime?: boolean;
  /**
   * Pace with every process sharing the cache's store, when the store keeps a pacing ledger
   * (robots-wasm/redis and MemoryStore do); false paces this process alone. Default true.
   */
  fleet?: boolean;
}

/** Options of one `acquire`. */
export interface AcquireOptions {
  /** Aborts the wait: `acquire` rejects with the signal's reason and leaves nothing queued. */
  signal?: AbortSignal;
}

/** How a request went, as `PacerSlot.release` takes it: the response's status and headers, or the error that ended it. */
export type PacerOutcome = { status: number; headers?: HeadersInput } | { error: unknown };

/** Counts a Pacer keeps. */
export interface PacerCounts {
  /** Slots given out. */
  acquired: number;
  /** Slots given out after being held back (by the spacing, a pause, a full origin or a closed window; fetching robots.txt or asking the fleet's ledger is no wait). */
  waits: number;
  /** The ms those waits took, summed. */
  waitedMs: number;
  /** Retry-After pauses taken. */
  pauses: number;
  /** Back-offs taken after failures. */
  backoffs: number;
  /** Acquires rejected with a PacingSkipError. */
  skips: number;
  /** Slots given out by this process's schedule alone because the fleet's store was out. */
  unshared: number;
}

/** One origin in use, in PacerStats. */
export interface PacerOriginStats extends PacerCounts {
  /** Slots held now. */
  held: number;
  /** Acquires waiting now. */
  waiting: number;
  /** The earliest time (ms since the epoch) the next request may start. */
  nextStartAt: number;
}

/** What `Pacer.stats()` returns: totals since the pacer was made, and the origins in use now. */
export interface PacerStats extends PacerCounts {
  /** The origins the pacer holds state for (idle ones are forgotten, with their counts). */
  origins: Record<string, PacerOriginStats>;
}

/** Rejects `acquire` under `tooLong: 'skip'` when an origin's robots.txt asks more than `maxDelayMs`. */
export class PacingSkipError extends Error {
  /** The origin skipped. */
  readonly origin: string;
  /** The delay its robots.txt asks, in ms. */
  readonly delayMs: number;

  constructor(origin: string, delayMs: number, maxDelayMs: number) {
    super(`robots-wasm: ${origin} asks ${delayMs} ms between requests, more than maxDelayMs (${maxDelayMs})`);
    this.name = 'PacingSkipError';
    this.origin = origin;
    this.delayMs = delayMs;
  }
}

/** The longest a timer can wait: 2^31 - 1 ms; longer waits are taken in steps. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;
const DAY_MS = 86_400_000;

interface Resolved {
  minDelayMs: number;
  maxDelayMs: number;
  tooLong: TooLong;
  maxConcurrent: number;
  leaseMs: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  maxRetryAfterMs: number;
  respectVisitTime: boolean;
}

/** A queued acquire. */
interface Waiter {
  /** When its robots.txt was read (performance.now()): waits are counted from then, not from the fetch. */
  since: number;
  /** In its origin's queue still: not started, aborted or skipped. */
  queued: boolean;
  /** Held back by the spacing, a window, a pause or the concurrency: its start is a wait. */
  heldBack: boolean;
  /** The spacing its start sets, once robots.txt was read. */
  delayMs: number | undefined;
  /** Its name in the fleet's ledger, once it asked there: the same each time it asks, so that it keeps its place in line. */
  slot: string | undefined;
  windows: TimeWindow[] | undefined;
  resolve: (slot: PacerSlot) => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

/** A slot's place in the fleet's ledger: its name, and the delay its start sets. */
interface Shared {
  slot: string;
  delayMs: number;
}

/** The head waiter's start being reserved in the fleet's ledger: asked (no timer yet), or reserved and timed. */
interface Reservation {
  waiter: Waiter;
  slot: string;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** When (performance.now()) it is due: the answer's arrival plus the wait it names, less the answer's lag. */
  dueAt: number;
}

/** The local part of an origin's state: its queue, the slots held, its timer, its counts. */
interface OriginQueue {
  waiters: Waiter[];
  /** Slots given and not yet released (a count: a set emptied and refilled on every request costs more than it tells). */
  held: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  counts: PacerCounts;
  reservation: Reservation | undefined;
  /** The next wait before asking the ledger again when only a slot must come free; it doubles up to MAX_POLL_MS. */
  pollMs: number;
}

/** How often a process asks again for a slot of an origin whose fleet-wide slots are all held. */
const FIRST_POLL_MS = 25;
const MAX_POLL_MS = 400;
/** How long before its turn a waiter in line asks again (at most a fifth of the delay), so that its start is reserved by then. */
const EARLY_MS = 50;
/** How long after an origin falls idle it is looked at for forgetting. */
const SWEEP_MS = 1000;
/** How fast the least delay an answer is seen to take may rise (ms per ms): a floor that follows a slower network or a clock set back within seconds. */
const LAG_FLOOR_DRIFT = 1e-3;

/** What reserveSlot and releaseSlot may answer. */
const isSlotReply = (r: unknown): boolean =>
  typeof (r as SlotReply)?.reserved === 'boolean' && Number.isFinite((r as SlotReply).waitMs) && ((r as SlotReply).now === undefined || Number.isFinite((r as SlotReply).now));
const isEndReply = (r: unknown): boolean => Number.isFinite((r as SlotEndReply)?.failures) && Number.isFinite((r as SlotEndReply)?.pauseMs);

function zeroCounts(): PacerCounts {
  return { acquired: 0, waits: 0, waitedMs: 0, pauses: 0, backoffs: 0, skips: 0, unshared: 0 };
}

/** `value` when a whole number of at least `min` (and at most `max`), `fallback` when undefined; else a RangeError. */
function msOption(value: unknown, name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`robots-wasm: ${name} must be an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

/** Checks a Pacer's options and fills defaults: a RangeError names what is wrong. */
function resolveOptions(options: PacerOptions): Resolved {
  const minDelayMs = msOption(options.minDelayMs, 'minDelayMs', 0);
  const maxDelayMs = msOption(options.maxDelayMs, 'maxDelayMs', Math.max(60_000, minDelayMs), minDelayMs);
  const tooLong = options.tooLong ?? 'wait';
  if (tooLong !== 'wait' && tooLong !== 'skip') throw new RangeError(`robots-wasm: tooLong must be 'wait' or 'skip', got ${String(tooLong)}`);
  const backoffBaseMs = msOption(options.backoffBaseMs, 'backoffBaseMs', 1000);
  if (options.respectVisitTime !== undefined && typeof options.respectVisitTime !== 'boolean') throw new RangeError('robots-wasm: respectVisitTime must be a boolean');
  return {
    minDelayMs, maxDelayMs, tooLong, backoffBaseMs,
    maxConcurrent: msOption(options.maxConcurrentPerOrigin, 'maxConcurrentPerOrigin', 1, 1),
    leaseMs: msOption(options.leaseMs, 'leaseMs', 60_000, 1, MAX_TIMEOUT_MS),
    backoffMaxMs: msOption(options.backoffMaxMs, 'backoffMaxMs', Math.max(300_000, backoffBaseMs), backoffBaseMs),
    maxRetryAfterMs: msOption(options.maxRetryAfterMs, 'maxRetryAfterMs', 3_600_000),
    respectVisitTime: options.respectVisitTime ?? false,
  };
}

/** The cache's store link when it keeps a pacing ledger and `fleet` is not false. */
function fleetLink(cache: RobotsCache, fleet: unknown): StoreLink | undefined {
  if (fleet !== undefined && typeof fleet !== 'boolean') throw new RangeError('robots-wasm: fleet must be a boolean');
  const link = fleet === false ? undefined : storeLinkOf(cache);
  return link?.canPace === true ? link : undefined;
}

/** Ms from `now` until one of `windows` (minutes of the UTC day) is open: 0 when one is. */
export function msUntilOpen(windows: readonly TimeWindow[] | undefined, now: number): number {
  if (windows === undefined || windows.length === 0) return 0;
  const t = ((now % DAY_MS) + DAY_MS) % DAY_MS;
  let wait = DAY_MS;
  for (const { start, end } of windows) {
    const s = start * 60_000;
    const e = end * 60_000;
    // A window that starts where it ends (`0000-0000`) is read as the whole day, never as no time at all.
    const open = s === e || (s < e ? t >= s && t < e : t >= s || t < e);
    if (open) return 0;
    wait = Math.min(wait, (s - t + DAY_MS) % DAY_MS);
  }
  return wait;
}

/** A held permission to send one request to an origin; release it with how the request went. */
export class PacerSlot {
  /** The origin the slot is for. */
  readonly origin: string;
  /** When the slot was given (ms since the epoch): the request's start. */
  readonly startedAt: number;
  /** How long acquire waited for the origin's pace, in ms (fetching robots.txt not counted). */
  readonly waitedMs: number;
  readonly #done: (outcome: unknown) => void;
  #released = false;

  /** Internal: slots are made by Pacer.acquire. */
  constructor(origin: string, startedAt: number, waitedMs: number, done: (outcome: unknown) => void) {
    this.origin = origin;
    this.startedAt = startedAt;
    this.waitedMs = waitedMs;
    this.#done = done;
  }

  /** Gives the slot back, with how the request went (which may pause or back off the origin); later calls do nothing. */
  release(outcome?: PacerOutcome): void {
    if (this.#released) return;
    this.#released = true;
    this.#done(outcome);
  }
}

/**
 * Paces requests per origin by robots.txt and the responses; see docs/pacing.md "Pacer".
 * @example
 * import { createServer } from 'node:http';
 * import { Pacer } from 'robots-wasm';
 *
 * const server = createServer((req, res) => res.end(req.url === '/robots.txt' ? 'User-agent: *\nCrawl-delay: 0.2\n' : 'page'));
 * await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
 * const site = `http://127.0.0.1:${server.address().port}`;
 * const pacer = new Pacer({ agent: 'ExampleBot', maxDelayMs: 10_000 });
 * const starts = [];
 * for (const path of ['/a', '/b', '/c']) {
 *   const slot = await pacer.acquire(site + path); // resolves when the origin's spacing allows
 *   starts.push(slot.startedAt);
 *   const response = await fetch(site + path);
 *   slot.release({ status: response.status, headers: response.headers }); // a 429 or 503 would pause the origin
 * }
 * console.log(starts[1] - starts[0] >= 200, starts[2] - starts[1] >= 200); // → true true
 * const { acquired, waits, pauses, backoffs } = pacer.stats();
 * console.log(acquired, waits, pauses, backoffs); // → 3 2 0 0
 * server.closeAllConnections();
 * server.close();
 */
export class Pacer {
  /** The cache robots.txt are read through. */
  readonly cache: RobotsCache;
  /** The product token the pacing is read for. */
  readonly agent: string;
  readonly #o: Resolved;
  readonly #schedule = new LocalSchedule();
  readonly #queues = new Map<string, OriginQueue>();
  readonly #totals = zeroCounts();
  /** The fleet's store, when starts are reserved in its ledger. */
  readonly #link: StoreLink | undefined;
  /** The longest wait a ledger may ask: beyond it, what the store holds was not written by a pacer. */
  readonly #maxWaitMs: number;
  #reservations = 0;
  /** The least gap between the ledger's clock and this process's seen in an answer, and when it was last set (performance.now()). */
  #lagFloor = Infinity;
  #lagFloorAt = 0;
  /** The timer of the next sweep of idle origins, while one is due. */
  #sweep: ReturnType<typeof setTimeout> | undefined;
  /** Each file's pacing for the agent, read once: a file never changes, a refresh brings a new RobotsTxt, and a dropped one takes its entry with it. */
  readonly #pacings = new WeakMap<RobotsTxt, Pacing>();

  constructor(options: PacerOptions) {
    if (options === null || typeof options !== 'object') throw new RangeError('robots-wasm: Pacer needs options with a cache or an agent');
    if (options.cache !== undefined && !(options.cache instanceof RobotsCache)) throw new RangeError('robots-wasm: cache must be a RobotsCache');
    if (options.agent !== undefined && (typeof options.agent !== 'string' || options.agent === '')) throw new RangeError('robots-wasm: agent must be a non-empty string');
    const agent = options.agent ?? options.cache?.agent;
    if (agent === undefined) throw new RangeError('robots-wasm: Pacer needs a cache or an agent');
    this.#o = resolveOptions(options);
    this.agent = agent;
    this.cache = options.cache ?? new RobotsCache({ agent });
    this.#link = fleetLink(this.cache, options.fleet);
    const { maxDelayMs, maxRetryAfterMs, backoffMaxMs } = this.#o;
    this.#maxWaitMs = Math.min(MAX_TIMEOUT_MS, Math.max(maxDelayMs, maxRetryAfterMs, backoffMaxMs));
  }

  /**
   * Resolves with a slot when a request to `url`'s origin may start: after the spacing since
   * the last start, any pause, a free slot of the origin's `maxConcurrentPerOrigin`, and (with
   * `respectVisitTime`) an open Visit-time window; waiters of one origin are served in order.
   * Rejects with a TypeError for a URL that is not absolute http(s) or a signal that is not an
   * AbortSignal, the signal's reason on abort, or a PacingSkipError under `tooLong: 'skip'`.
   */
  acquire(url: string, options: AcquireOptions = {}): Promise<PacerSlot> {
    const origin = typeof url === 'string' ? originOf(url) : undefined;
    if (origin === undefined) return Promise.reject(new TypeError(`robots-wasm: acquire needs an absolute http(s) URL, got ${JSON.stringify(String(url).slice(0, 200))}`));
    const signal = options?.signal;
    if (signal !== undefined && !(signal instanceof AbortSignal)) return Promise.reject(new TypeError('robots-wasm: signal must be an AbortSignal'));
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    const now = this.#startsNow(origin);
    if (now !== undefined) return Promise.resolve(now);
    return new Promise<PacerSlot>((resolve, reject) => {
      const waiter: Waiter = { since: performance.now(), queued: true, heldBack: false, delayMs: undefined, slot: undefined, windows: undefined, resolve, reject, signal, onAbort: undefined };
      const queue = this.#queueOf(origin);
      queue.waiters.push(waiter);
      if (signal !== undefined) {
        waiter.onAbort = () => this.#drop(origin, waiter, signal.reason);
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      void this.#pacingOf(origin).then((pacing) => this.#ready(origin, waiter, pacing));
    });
  }

  /** Totals since the pacer was made, and counts of each origin in use now. */
  stats(): PacerStats {
    const origins: Record<string, PacerOriginStats> = {};
    for (const [origin, q] of this.#queues) {
      origins[origin] = { ...q.counts, held: q.held, waiting: q.waiters.length, nextStartAt: this.#schedule.startAt(origin) };
    }
    return { ...this.#totals, origins };
  }

  #queueOf(origin: string): OriginQueue {
    let q = this.#queues.get(origin);
    if (q === undefined) this.#queues.set(origin, (q = { waiters: [], held: 0, timer: undefined, counts: zeroCounts(), reservation: undefined, pollMs: FIRST_POLL_MS }));
    return q;
  }

  /** The origin's pacing as its cached robots.txt asks; undefined when unavailable, unreachable or unreadable. */
  async #pacingOf(origin: string): Promise<Pacing | undefined> {
    try {
      const result = await this.cache.get(origin);
      this.#heedRetryAfter(origin, result);
      return this.#pacingIn(result);
    } catch {
      // A cache that fails is a robots.txt that could not be read: the pacer's own floor applies.
      return undefined;
    }
  }

  /**
   * A robots.txt answered 429 or 5xx with Retry-After (the cache keeps it disallowed until
   * then, RFC 9309 2.3.1.3): its origin pauses until then too, capped at maxRetryAfterMs.
   */
  #heedRetryAfter(origin: string, result: RobotsFetchResult): void {
    const now = Date.now();
    if (result.retryAt === undefined || result.retryAt <= now) return;
    const until = Math.min(result.retryAt, now + this.#o.maxRetryAfterMs);
    if (until <= this.#schedule.startAt(origin)) return;
    this.#schedule.pause(origin, until);
    this.#count(this.#queueOf(origin), 'pauses');
  }

  /** The pacing a fetch result asks for the agent; undefined when its file is unavailable, unreachable or unreadable. */
  #pacingIn(result: RobotsFetchResult): Pacing | undefined {
    if (result.status !== 'ok') return undefined;
    let pacing = this.#pacings.get(result.robots);
    if (pacing === undefined) this.#pacings.set(result.robots, (pacing = result.robots.pacing(this.agent)));
    return pacing;
  }

  /** The spacing a start under `pacing` sets, clamped; undefined when it asks more than maxDelayMs and tooLong is 'skip'. */
  #delayOf(pacing: Pacing | undefined): number | undefined {
    const { minDelayMs, maxDelayMs, tooLong } = this.#o;
    const asked = pacing?.delayMs ?? 0;
    return asked > maxDelayMs && tooLong === 'skip' ? undefined : Math.min(maxDelayMs, Math.max(minDelayMs, asked));
  }

  /**
   * The slot of a request that may start at once, with nothing to wait for: robots.txt cached
   * and fresh, nobody queued, a slot free, the spacing past, no window to wait for and no store
   * to ask. Undefined for anything else, which goes through the queue.
   */
  #startsNow(origin: string): PacerSlot | undefined {
    if (this.#link !== undefined) return undefined;
    const q = this.#queues.get(origin);
    if (q !== undefined && (q.waiters.length > 0 || q.held >= this.#o.maxConcurrent)) return undefined;
    const now = Date.now();
    if (this.#schedule.startAt(origin) > now) return undefined;
    const result = readyResult(this.cache, origin);
    if (result === undefined || result.retryAt !== undefined) return undefined;
    const pacing = this.#pacingIn(result);
    const delayMs = this.#delayOf(pacing);
    if (delayMs === undefined || (this.#o.respectVisitTime && msUntilOpen(pacing?.visitTime, now) > 0)) return undefined;
    return this.#grant(origin, q ?? this.#queueOf(origin), delayMs, now, 0, undefined);
  }

  /** The waiter's pacing is known: its delay is set (or it is skipped), and the queue moves. */
  #ready(origin: string, waiter: Waiter, pacing: Pacing | undefined): void {
    if (!waiter.queued) return;
    const delayMs = this.#delayOf(pacing);
    if (delayMs === undefined) {
      this.#count(this.#queueOf(origin), 'skips');
      this.#drop(origin, waiter, new PacingSkipError(origin, pacing!.delayMs!, this.#o.maxDelayMs));
      return;
    }
    waiter.since = performance.now();
    waiter.delayMs = delayMs;
    waiter.windows = this.#o.respectVisitTime ? pacing?.visitTime : undefined;
    this.#pump(origin);
  }

  /** Takes the waiter out of the queue, unhooked from its signal, and rejects it. */
  #drop(origin: string, waiter: Waiter, reason: unknown): void {
    const q = this.#queues.get(origin);
    const at = q === undefined ? -1 : q.waiters.indexOf(waiter);
    if (at < 0) return;
    if (q!.reservation?.waiter === waiter) this.#cancelReservation(origin, q!);
    else if (waiter.slot !== undefined) this.#endShared(origin, waiter.slot, { kind: 'none' });
    q!.waiters.splice(at, 1);
    waiter.queued = false;
    if (waiter.onAbort !== undefined) waiter.signal!.removeEventListener('abort', waiter.onAbort);
    waiter.reject(reason);
    this.#pump(origin);
  }

  /** Starts the origin's waiters that may start now, in order; sets the timer for the next, or forgets an idle origin. */
  #pump(origin: string): void {
    const q = this.#queues.get(origin);
    if (q === undefined) return;
    if (q.timer !== undefined) clearTimeout(q.timer);
    q.timer = undefined;
    while (q.waiters.length > 0 && q.held < this.#o.maxConcurrent && q.reservation === undefined) {
      const head = q.waiters[0];
      if (head.delayMs === undefined) return;
      const now = Date.now();
      const at = Math.max(this.#schedule.startAt(origin), now + msUntilOpen(head.windows, now));
      if (at > now) {
        head.heldBack = true;
        q.timer = setTimeout(() => this.#pump(origin), Math.min(at - now, MAX_TIMEOUT_MS));
        return;
      }
      if (this.#link !== undefined && !this.#link.out) {
        void this.#reserve(origin, q, head, this.#link);
        return;
      }
      q.waiters.shift();
      head.queued = false;
      if (this.#link !== undefined) this.#count(q, 'unshared');
      this.#start(origin, q, head, now, undefined);
    }
    if (q.waiters.length > 0 && q.held >= this.#o.maxConcurrent) q.waiters[0].heldBack = true;
    if (q.reservation === undefined) this.#forgetIfIdle(q);
  }

  /**
   * Asks the fleet's ledger for the head waiter's start: reserved, it starts when the ledger
   * says; not reserved, the queue asks again at the origin's next start (or after a poll, when
   * only a slot must come free); with the store out, the process's own schedule decides.
   */
  async #reserve(origin: string, q: OriginQueue, head: Waiter, link: StoreLink): Promise<void> {
    head.slot ??= `${link.owner}.${(++this.#reservations).toString(36)}`;
    const reservation: Reservation = { waiter: head, slot: head.slot, timer: undefined, dueAt: 0 };
    q.reservation = reservation;
    const request: SlotRequest = { delayMs: head.delayMs!, maxConcurrent: this.#o.maxConcurrent, leaseMs: this.#o.leaseMs, maxWaitMs: this.#maxWaitMs };
    const reply = await link.call((store) => store.reserveSlot!(origin, reservation.slot, request), isSlotReply);
    if (q.reservation !== reservation) {
      // The waiter left while the store was asked: a slot reserved for it, or its place in line, is given back.
      if (reply !== STORE_OUT) this.#endShared(origin, reservation.slot, { kind: 'none' });
      return;
    }
    if (reply === STORE_OUT) {
      q.reservation = undefined;
      // A reserve that timed out may still be carried out when the store wakes up: the release
      // queued behind it undoes it, or its slot would hold the origin for a whole lease.
      this.#endShared(origin, reservation.slot, { kind: 'none' });
      return this.#pump(origin);
    }
    if (!reply.reserved) return this.#comeBackAtTurn(origin, q, head, reply);
    q.pollMs = FIRST_POLL_MS;
    const wait = Math.min(Math.max(0, reply.waitMs), this.#maxWaitMs);
    const arrived = performance.now();
    reservation.dueAt = arrived + wait - this.#lagOf(reply, arrived);
    if (reservation.dueAt <= arrived) return this.#startReserved(origin, q);
    head.heldBack = true;
    reservation.timer = setTimeout(() => this.#startReserved(origin, q), reservation.dueAt - arrived);
  }

  /**
   * The head waiter is in the ledger's line: the queue asks again a little before its turn,
   * so that the start is reserved by then and on time, or polls when only a slot must come free.
   */
  #comeBackAtTurn(origin: string, q: OriginQueue, head: Waiter, reply: SlotReply): void {
    q.reservation = undefined;
    head.heldBack = true;
    const early = Math.min(EARLY_MS, head.delayMs! / 5) + this.#lagOf(reply, performance.now());
    const wait = reply.waitMs > 0 ? Math.max(0, Math.min(reply.waitMs, this.#maxWaitMs) - early) : q.pollMs;
    q.pollMs = reply.waitMs > 0 ? FIRST_POLL_MS : Math.min(q.pollMs * 2, MAX_POLL_MS);
    q.timer = setTimeout(() => this.#pump(origin), wait);
  }

  /**
   * How much later than the fastest answers this one reached the process (its event loop was
   * busy, or the answer queued): the least gap between the store's clock and this process's
   * seen so far is the clocks' offset plus the network's least delay, and what an answer takes
   * beyond it is lag, to be taken off its wait. 0 for a store that does not tell its clock.
   */
  #lagOf(reply: SlotReply, arrived: number): number {
    if (reply.now === undefined) return 0;
    const gap = performance.timeOrigin + arrived - reply.now;
    const floor = Math.min(gap, this.#lagFloor + (arrived - this.#lagFloorAt) * LAG_FLOOR_DRIFT);
    this.#lagFloor = floor;
    this.#lagFloorAt = arrived;
    return gap - floor;
  }

  /**
   * The reserved start is due: the head waiter gets its slot, shared with the fleet's ledger.
   * Its release tells the ledger when it really started, so a start a busy process made late
   * moves the next one as much (with more than one slot per origin, a start reserved before
   * that release keeps its time).
   */
  #startReserved(origin: string, q: OriginQueue): void {
    const reservation = q.reservation!;
    // A timer set from a busy event loop counts from the loop's last tick and can fire early.
    const early = reservation.dueAt - performance.now();
    if (early > 0) {
      reservation.timer = setTimeout(() => this.#startReserved(origin, q), Math.ceil(early));
      return;
    }
    q.reservation = undefined;
    q.waiters.shift();
    reservation.waiter.queued = false;
    this.#start(origin, q, reservation.waiter, Date.now(), { slot: reservation.slot, delayMs: reservation.waiter.delayMs! });
    this.#pump(origin);
  }

  /** The reserving waiter left: its reservation, once made, is given back to the ledger. */
  #cancelReservation(origin: string, q: OriginQueue): void {
    const reservation = q.reservation!;
    q.reservation = undefined;
    // Still asking: the answer, when it comes, is given back (see #reserve).
    if (reservation.timer === undefined) return;
    clearTimeout(reservation.timer);
    this.#endShared(origin, reservation.slot, { kind: 'none' });
  }

  /** Gives `waiter` its slot, started `now`; `shared`: its slot in the fleet's ledger. */
  #start(origin: string, q: OriginQueue, waiter: Waiter, now: number, shared: Shared | undefined): void {
    if (waiter.onAbort !== undefined) waiter.signal!.removeEventListener('abort', waiter.onAbort);
    // Only a start held back is a wait: the time robots.txt took to read, or a busy event loop, is none.
    const waited = waiter.heldBack ? Math.max(1, Math.floor(performance.now() - waiter.since)) : 0;
    waiter.resolve(this.#grant(origin, q, waiter.delayMs!, now, waited, shared));
  }

  /** A slot of `origin` started `now`, after `waited` ms, setting the next start `delayMs` later; `shared`: its slot in the fleet's ledger. */
  #grant(origin: string, q: OriginQueue, delayMs: number, now: number, waited: number, shared: Shared | undefined): PacerSlot {
    this.#schedule.started(origin, now, delayMs);
    this.#count(q, 'acquired');
    if (waited > 0) {
      this.#count(q, 'waits');
      this.#count(q, 'waitedMs', waited);
    }
    let lease: ReturnType<typeof setTimeout> | undefined;
    const startedPerf = performance.now();
    const slot = new PacerSlot(origin, now, waited, (outcome) => {
      clearTimeout(lease);
      this.#released(origin, outcome, shared, startedPerf);
    });
    // A crawler that lost a slot must not stall the origin forever; the lease keeps no process alive.
    lease = setTimeout(() => slot.release(), this.#o.leaseMs);
    (lease as { unref?: () => void }).unref?.();
    q.held++;
    return slot;
  }

  /** A slot came back: its outcome steers the origin, here and in the fleet's ledger, and the next waiter may start. */
  #released(origin: string, outcome: unknown, shared: Shared | undefined, startedPerf: number): void {
    const q = this.#queues.get(origin);
    if (q === undefined) return;
    q.held--;
    let end: SlotEnd = { kind: 'none' };
    try {
      end = this.#endOf(outcome);
    } catch {
      // An outcome that cannot be read (a throwing getter) steers nothing.
    }
    this.#steer(origin, q, end);
    if (shared !== undefined) this.#endShared(origin, shared.slot, { ...end, started: { agoMs: performance.now() - startedPerf, delayMs: shared.delayMs } });
    this.#pump(origin);
  }

  /** How a request went, as the ledger takes it: a success, a Retry-After pause, a failure, or nothing to say. */
  #endOf(outcome: unknown): SlotEnd {
    if (outcome === null || typeof outcome !== 'object') return { kind: 'none' };
    const { backoffBaseMs, backoffMaxMs } = this.#o;
    if ('error' in outcome) return { kind: 'failure', backoffBaseMs, backoffMaxMs };
    const { status, headers } = outcome as { status?: unknown; headers?: HeadersInput };
    if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599) return { kind: 'none' };
    if (status < 500 && status !== 429) return { kind: 'success' };
    const value = status === 429 || status === 503 ? headerValue(headers, 'retry-after') : undefined;
    const wait = value === undefined ? undefined : retryAfterMs(value, Date.now());
    if (wait === undefined) return { kind: 'failure', backoffBaseMs, backoffMaxMs };
    return { kind: 'pause', pauseMs: Math.min(wait, this.#o.maxRetryAfterMs) };
  }

  /** Pauses or backs off the origin in this process's schedule, or resets its back-off. */
  #steer(origin: string, q: OriginQueue, end: SlotEnd): void {
    if (end.kind === 'success') this.#schedule.succeeded(origin);
    else if (end.kind === 'pause') {
      this.#schedule.pause(origin, Date.now() + end.pauseMs);
      this.#count(q, 'pauses');
    } else if (end.kind === 'failure') {
      const failures = this.#schedule.failed(origin);
      this.#schedule.pause(origin, Date.now() + backoffMs(failures, end.backoffBaseMs, end.backoffMaxMs));
      this.#count(q, 'backoffs');
    }
  }

  /**
   * Ends the slot in the fleet's ledger; the pause the fleet's answer puts in force (a longer
   * back-off, from failures in other processes too) holds here as well. While the store is out
   * the release is still sent, unanswered: one skipped would hold the slot for its whole lease
   * once the store is back (a frozen server carries it out in order when it wakes).
   */
  #endShared(origin: string, slot: string, end: SlotEnd): void {
    const link = this.#link!;
    if (link.out) return void link.force(async (store) => void (await store.releaseSlot!(origin, slot, end)));
    void link.call((store) => store.releaseSlot!(origin, slot, end), isEndReply).then((reply) => {
      if (reply === STORE_OUT || reply.pauseMs <= 0) return;
      this.#schedule.pause(origin, Date.now() + Math.min(reply.pauseMs, this.#maxWaitMs));
      this.#queueOf(origin);
      this.#pump(origin);
    });
  }

  #count(q: OriginQueue, key: keyof PacerCounts, by = 1): void {
    q.counts[key] += by;
    this.#totals[key] += by;
  }

  /**
   * An origin with no waiter and no slot held is left for the next sweep, not dropped at once:
   * a crawler that goes back to it soon finds its state, and the maps are not emptied and
   * refilled on every request.
   */
  #forgetIfIdle(q: OriginQueue): void {
    if (q.waiters.length > 0 || q.held > 0 || this.#sweep !== undefined) return;
    this.#sweep = setTimeout(() => this.#sweepIdle(), SWEEP_MS);
    (this.#sweep as { unref?: () => void }).unref?.();
  }

  /** Drops the origins idle now whose next start and pause are past, so that memory follows the origins in use; looks again later while any are left. */
  #sweepIdle(): void {
    this.#sweep = undefined;
    const now = Date.now();
    for (const [origin, q] of this.#queues) {
      if (q.waiters.length > 0 || q.held > 0 || q.reservation !== undefined || this.#schedule.startAt(origin) > now) continue;
      this.#schedule.forgetIfPast(origin, now);
      if (q.timer !== undefined) clearTimeout(q.timer);
      this.#queues.delete(origin);
    }
    for (const q of this.#queues.values()) this.#forgetIfIdle(q);
  }

}
