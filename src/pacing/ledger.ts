// The fleet's pacing ledger: what a store shared by the processes of a crawl keeps per origin
// so that they pace it together, and the reference implementation of it in memory (MemoryStore
// uses it; robots-wasm/redis keeps the same ledger in a Redis script). A start is reserved in
// one step: the ledger says when, and holds the slot from then until it is released or its
// lease ends, so a process that dies holding one stalls nobody past the lease. A request turned
// away (every slot held) gets a place in line, so that the process that just released a slot
// cannot take the next one ahead of those that waited for it. Times in
// requests and replies are durations from the ledger's clock, never instants, so that the
// processes' clocks need not agree.

import { LocalSchedule } from './schedule.js';

/** What a Pacer asks of the ledger to start a request to an origin. */
export interface SlotRequest {
  /** The spacing the start sets before the next one, in ms. */
  delayMs: number;
  /** Slots held or reserved at once across the fleet. */
  maxConcurrent: number;
  /** How long a slot holds from its start when it is not released, in ms. */
  leaseMs: number;
  /** The longest the ledger may make the start wait, in ms: a pause or spacing beyond it (written by something else) is cut to it. */
  maxWaitMs: number;
}

/** The ledger's answer: a start reserved in `waitMs`, or none free yet. */
export interface SlotReply {
  /** True when the slot is reserved: the request may start in `waitMs`. */
  reserved: boolean;
  /**
   * Reserved: ms until the start. Not reserved (the request is in line): ms until its turn, the
   * origin's next start plus a delay for each request ahead of it in line; 0 when only a slot
   * must come free.
   */
  waitMs: number;
  /**
   * The store's clock (ms since the epoch) when it answered, if it tells: a pacer compares it
   * with its own from answer to answer to see how late an answer reached it.
   */
  now?: number;
}

/**
 * How a slot ended, as the ledger steers the origin by it; `started`, for a slot that started:
 * how long before the release it did and the delay it asked, so that the origin's next start is
 * at least that delay after the real start (one that came later than reserved, as a busy
 * process does, moves it), on the ledger's own clock.
 */
export type SlotEnd = (
  | { kind: 'success' | 'none' }
  | { kind: 'pause'; pauseMs: number }
  | { kind: 'failure'; backoffBaseMs: number; backoffMaxMs: number }
) & { started?: { agoMs: number; delayMs: number } };

/** The ledger's answer to a release: failures in a row fleet-wide, and the pause now in force from this end (0 for none). */
export interface SlotEndReply {
  failures: number;
  pauseMs: number;
}

/** The pause after `failures` failures in a row: `base` doubled for each before the last, at most `max`. */
export function backoffMs(failures: number, base: number, max: number): number {
  return Math.min(max, base * 2 ** Math.min(Math.max(failures, 1) - 1, 52));
}

/**
 * How long a waiter turned away keeps its place in line after the wait it was told: long
 * enough for a pacer to come back (it polls at most every 400 ms), short enough that one that
 * died or gave up holds the line up only briefly.
 */
export const WAITER_GRACE_MS = 1000;

/** Ledger calls between two sweeps: often enough to bound memory, rarely enough to cost nothing per call. */
const SWEEP_EVERY = 4096;

/** Per origin in a SlotLedger: slots reserved or held, and the waiters turned away, in the order they came. */
interface OriginLedger {
  /** Slot to when its lease ends, its start, and the next start it set. */
  slots: Map<string, { until: number; at: number; next: number }>;
  /** Slot to when its place in line lapses, in arrival order. */
  waiters: Map<string, number>;
}

/** The same ledger in this process's memory, with its own clock: what MemoryStore shares between the pacers of a process. */
export class SlotLedger {
  readonly #schedule = new LocalSchedule();
  readonly #origins = new Map<string, OriginLedger>();
  /** Calls since the last sweep of origins nobody came back to. */
  #calls = 0;

  /** Reserves a start for `slot` on `key`, or puts it in line; see RobotsStore.reserveSlot. */
  reserve(key: string, slot: string, request: SlotRequest, now = Date.now()): SlotReply {
    this.#sweepNow(now);
    const o = this.#live(key, now);
    const at = Math.min(Math.max(this.#schedule.startAt(key), now), now + request.maxWaitMs);
    const first = o.waiters.keys().next().value;
    if (o.slots.size >= request.maxConcurrent || (first !== undefined && first !== slot)) {
      const ahead = o.waiters.has(slot) ? [...o.waiters.keys()].indexOf(slot) : o.waiters.size;
      const waitMs = at > now ? at - now + ahead * request.delayMs : 0;
      o.waiters.set(slot, now + waitMs + WAITER_GRACE_MS);
      return { reserved: false, waitMs, now };
    }
    o.waiters.delete(slot);
    this.#schedule.started(key, at, request.delayMs);
    o.slots.set(slot, { until: at + request.leaseMs, at, next: at + request.delayMs });
    return { reserved: true, waitMs: at - now, now };
  }

  /** Ends `slot` on `key` (held, reserved or in line) and steers the origin by `end`; see RobotsStore.releaseSlot. */
  release(key: string, slot: string, end: SlotEnd, now = Date.now()): SlotEndReply {
    this.#sweepNow(now);
    const o = this.#origins.get(key);
    const held = o?.slots.get(slot);
    o?.slots.delete(slot);
    o?.waiters.delete(slot);
    if (held !== undefined && end.started === undefined) this.#schedule.unstart(key, held.at, held.next);
    let pauseMs = 0;
    let failures = 0;
    if (end.kind === 'success') this.#schedule.succeeded(key);
    else if (end.kind === 'pause') pauseMs = end.pauseMs;
    else if (end.kind === 'failure') {
      failures = this.#schedule.failed(key);
      pauseMs = backoffMs(failures, end.backoffBaseMs, end.backoffMaxMs);
    }
    if (pauseMs > 0) this.#schedule.pause(key, now + pauseMs);
    if (end.started !== undefined) this.#schedule.started(key, now - end.started.agoMs, end.started.delayMs);
    this.#forgetIfPast(key, now);
    return { failures, pauseMs };
  }

  /** Now and then, drops the origins whose slots, line and schedule are all past: memory follows the origins in use. */
  #sweepNow(now: number): void {
    if (++this.#calls < SWEEP_EVERY) return;
    this.#calls = 0;
    for (const key of [...this.#origins.keys()]) this.#live(key, now);
    for (const key of [...this.#schedule.origins()]) this.#forgetIfPast(key, now);
  }

  /** Drops the origin when it holds nothing: no slot, nobody in line, no start or pause ahead. */
  #forgetIfPast(key: string, now: number): void {
    const o = this.#origins.get(key);
    if (o !== undefined && (o.slots.size > 0 || o.waiters.size > 0)) return;
    this.#origins.delete(key);
    this.#schedule.forgetIfPast(key, now);
  }

  /** The origin's ledger, with lapsed leases and places in line dropped. */
  #live(key: string, now: number): OriginLedger {
    let o = this.#origins.get(key);
    if (o === undefined) this.#origins.set(key, (o = { slots: new Map(), waiters: new Map() }));
    for (const [slot, held] of o.slots) if (held.until <= now) o.slots.delete(slot);
    for (const [slot, until] of o.waiters) if (until <= now) o.waiters.delete(slot);
    return o;
  }
}
