// How a RobotsCache shares its origins with other processes through a RobotsStore, without
// ever depending on it. On a local miss the cache reads the store; when the stored record is
// missing or expired, one process of the fleet claims a lease on the origin, fetches it
// (conditionally, with the stored validators) and stores the result, while the others poll
// for it, no longer than a fetch and a store call take: then they fetch and store it
// themselves. A lease the protocol did not write (not an owner name) is reported once and
// waited for one short poll only, and a lease is let go even when a store call failed under
// it. Every store call is bounded by a timeout; a call that fails, times out or answers what
// no store may puts the store "out" for a while, during which the cache fetches on its own,
// and the outage is reported once, as is the store's return.

import type { RobotsStore } from './store.js';

/**
 * What a RobotsCache reports about its store: it stopped answering (once per outage), it
 * answers again, or it holds a lease the protocol did not write (once per cache: someone else
 * writes under the prefix; such leases are not waited for).
 */
export type StoreEvent = { type: 'unavailable'; error: Error } | { type: 'available' } | { type: 'foreign-lease'; key: string };

/** The result of a store call that failed, timed out, or was not made while the store is out. */
export const STORE_OUT = Symbol('store out');

/** The first wait between two looks at an origin another process is fetching; it doubles up to MAX_POLL_MS. */
const FIRST_POLL_MS = 20;
const MAX_POLL_MS = 250;

/** `promise`, or a rejection once `ms` have passed without it settling. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** A lease owner name no other process picks: random, with the time it was made. */
function ownerName(): string {
  const words = new Uint32Array(2);
  globalThis.crypto.getRandomValues(words);
  return `${Date.now().toString(36)}-${words[0].toString(36)}${words[1].toString(36)}`;
}

/** Whether a lease holder's name is one ownerName() makes: anything else was written outside the protocol. */
export function isOwnerName(holder: string): boolean {
  return /^[0-9a-z]{1,11}-[0-9a-z]{2,14}$/.test(holder);
}

/** The console of every runtime the package runs in, typed without lib.dom. */
const runtimeConsole = (globalThis as unknown as { console: { warn(message: string): void } }).console;

/** Prints an outage, the store's return or a foreign lease on the console: the default onStoreEvent. */
export function warnStoreEvent(event: StoreEvent): void {
  if (event.type === 'unavailable') runtimeConsole.warn(`robots-wasm: the RobotsCache store is unavailable (${event.error.message}); fetching without it until it answers`);
  else if (event.type === 'foreign-lease') runtimeConsole.warn(`robots-wasm: the RobotsCache store holds a lease robots-wasm did not write (on ${event.key}); such leases are not waited for`);
  else runtimeConsole.warn('robots-wasm: the RobotsCache store answers again');
}

/** A RobotsStore behind timeouts, with its outages tracked and reported once. */
export class StoreLink {
  /** The name this cache's leases are held under. */
  readonly owner = ownerName();
  readonly #store: RobotsStore;
  readonly #timeoutMs: number;
  readonly #retryMs: number;
  readonly #onEvent: (event: StoreEvent) => void;
  /** While the store is out: when to try it again. */
  #retryAt: number | undefined;
  #foreignReported = false;

  constructor(store: RobotsStore, options: { timeoutMs: number; retryMs: number; onEvent: (event: StoreEvent) => void }) {
    this.#store = store;
    this.#timeoutMs = options.timeoutMs;
    this.#retryMs = options.retryMs;
    this.#onEvent = options.onEvent;
  }

  /** Whether the store keeps a pacing ledger (reserveSlot and releaseSlot), for a Pacer to pace the fleet by. */
  get canPace(): boolean {
    return typeof this.#store.reserveSlot === 'function' && typeof this.#store.releaseSlot === 'function';
  }

  /** True while the store is out and not yet due to be tried again. */
  get out(): boolean {
    return this.#retryAt !== undefined && Date.now() < this.#retryAt;
  }

  /**
   * `call(store)` within the timeout; STORE_OUT when it fails, times out, answers what `accept`
   * refuses (what no store of the contract answers), or the store is out.
   */
  async call<T>(call: (store: RobotsStore) => Promise<T>, accept: (value: T) => boolean = () => true): Promise<T | typeof STORE_OUT> {
    if (this.out) return STORE_OUT;
    let value: T;
    try {
      value = await within(Promise.resolve().then(() => call(this.#store)), this.#timeoutMs);
      if (!accept(value)) throw new Error(`the store answered ${describeReply(value)}, which a RobotsStore never does`);
    } catch (error) {
      if (this.#retryAt === undefined) this.#report({ type: 'unavailable', error: error instanceof Error ? error : new Error(String(error)) });
      this.#retryAt = Date.now() + this.#retryMs;
      return STORE_OUT;
    }
    if (this.#retryAt !== undefined) {
      this.#retryAt = undefined;
      this.#report({ type: 'available' });
    }
    return value;
  }

  /** `call(store)` within the timeout even while the store is out, its failure ignored: for letting go of a lease. */
  async force(call: (store: RobotsStore) => Promise<void>): Promise<void> {
    await within(Promise.resolve().then(() => call(this.#store)), this.#timeoutMs).catch(() => undefined);
  }

  /** Reports a lease the protocol did not write, the first time one is met. */
  foreignLease(key: string): void {
    if (this.#foreignReported) return;
    this.#foreignReported = true;
    this.#report({ type: 'foreign-lease', key });
  }

  #report(event: StoreEvent): void {
    try {
      this.#onEvent(event);
    } catch {
      // A failing listener must not turn a store outage into a failed verdict.
    }
  }
}

/** A store's answer as an error message names it. */
function describeReply(value: unknown): string {
  if (value === null || Array.isArray(value)) return value === null ? 'null' : 'an array';
  return value instanceof Uint8Array ? 'bytes' : typeof value;
}

/** What get() may answer. */
const isValue = (value: unknown): boolean => value === undefined || typeof value === 'string';
/** What claim() may answer. */
const isClaim = (value: unknown): boolean => typeof value === 'boolean' || typeof value === 'string';

/** What refreshShared needs of the cache for one origin. */
export interface SharedOrigin<Stored> {
  key: string;
  /** The longest stored value that can be a record: a longer one is not read. */
  maxLength: number;
  /** The checked record of a stored value, or undefined for a value that is not one. */
  decode(value: string): Stored | undefined;
  /** Whether a stored record may answer now. */
  fresh(stored: Stored): boolean;
  /** Takes a fresh stored record as the origin's result. */
  adopt(stored: Stored): void;
  /**
   * Runs `claimAndFetch` in one of the cache's fetch slots: a lease is taken only when its
   * holder can fetch at once, so that it does not lapse while the fetch waits for a slot.
   */
  withSlot<T>(claimAndFetch: () => Promise<T>): Promise<T>;
  /** Fetches the origin (revalidating `stale` when it has validators) and gives the value to store and for how long. */
  fetch(stale: Stored | undefined): Promise<{ value: string; ttlMs: number }>;
}

/** A claim that found a lease the protocol did not write. */
const FOREIGN = Symbol('foreign lease');

/**
 * Brings one origin up to date through the store: adopts a fresh stored record, or fetches it
 * as the fleet's one fetcher and stores the result, or waits (up to `waitMs`) for the process
 * that is fetching it, then fetches and stores it itself. A lease the protocol did not write
 * is waited for one short poll. Resolves false when the cache must fetch on its own: the
 * store is out.
 */
export async function refreshShared<Stored>(link: StoreLink, leaseMs: number, waitMs: number, origin: SharedOrigin<Stored>): Promise<boolean> {
  const waitUntil = Date.now() + waitMs;
  let pause = FIRST_POLL_MS;
  let foreign = false;
  for (;;) {
    const stored = await readStored(link, origin);
    if (stored === STORE_OUT) return false;
    if (stored !== undefined && origin.fresh(stored)) {
      origin.adopt(stored);
      return true;
    }
    const claimed = await origin.withSlot(() => claimAndFetch(link, leaseMs, origin));
    if (claimed === STORE_OUT) return false;
    if (claimed === true) return true;
    const left = waitUntil - Date.now();
    if (left <= 0 || (foreign && claimed === FOREIGN)) return origin.withSlot(() => fetchAndStore(link, origin, stored));
    foreign ||= claimed === FOREIGN;
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
    pause = Math.min(pause * 2, MAX_POLL_MS);
  }
}

/** Claims the origin's lease and fetches as its holder; false when another process holds it, FOREIGN when no process does. */
async function claimAndFetch<Stored>(link: StoreLink, leaseMs: number, origin: SharedOrigin<Stored>): Promise<boolean | typeof FOREIGN | typeof STORE_OUT> {
  const held = await link.call((store) => store.claim(origin.key, link.owner, leaseMs), isClaim);
  if (held === STORE_OUT) return held;
  if (held === true) return fetchAsClaimant(link, origin);
  if (typeof held !== 'string' || isOwnerName(held)) return false;
  link.foreignLease(origin.key);
  return FOREIGN;
}

/** The origin's stored record: undefined when there is none or it is not a record, STORE_OUT when the store is out. */
async function readStored<Stored>(link: StoreLink, origin: SharedOrigin<Stored>): Promise<Stored | undefined | typeof STORE_OUT> {
  const value = await link.call((store) => store.get(origin.key, origin.maxLength), isValue);
  if (value === STORE_OUT) return value;
  return typeof value === 'string' ? origin.decode(value) : undefined;
}

/** Fetches the origin (revalidating `stale`) and stores the result. */
async function fetchAndStore<Stored>(link: StoreLink, origin: SharedOrigin<Stored>, stale: Stored | undefined): Promise<true> {
  const { value, ttlMs } = await origin.fetch(stale);
  await link.call((store) => store.set(origin.key, value, ttlMs));
  return true;
}

/**
 * Holding the lease: reads the store once more (the previous holder stores its result before
 * it lets go, so a lease taken just after it finds that result), then fetches, stores and lets
 * go, even when a store call failed meanwhile: a lease left held would stall the fleet.
 */
async function fetchAsClaimant<Stored>(link: StoreLink, origin: SharedOrigin<Stored>): Promise<true> {
  try {
    const stored = await readStored(link, origin);
    if (stored !== STORE_OUT && stored !== undefined && origin.fresh(stored)) {
      origin.adopt(stored);
      return true;
    }
    return await fetchAndStore(link, origin, stored === STORE_OUT ? undefined : stored);
  } finally {
    await link.force((store) => store.release(origin.key, link.owner));
  }
}
