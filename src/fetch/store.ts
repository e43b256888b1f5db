// The store a fleet of RobotsCache processes shares (issue: a crawl that outgrows one process):
// the contract any key-value service can meet, an in-memory implementation of it, and how a
// cached origin is written into it. A stored value is text: a header with a CRC-32C of the
// record, then the record as JSON in the form RobotsCache.export() writes. A value that is not
// exactly that (damaged, cut short, written by something else, for another origin) is refused
// whole: it is never read as rules.

import { SlotLedger, type SlotEnd, type SlotEndReply, type SlotReply, type SlotRequest } from '../pacing/ledger.js';
import { crc32c } from '../wasm/kernel.js';
import { checkRecord, type CheckedRecord, type RobotsCacheRecord, type SnapshotLimits } from './snapshot.js';

/**
 * What RobotsCache needs of a shared store (Redis, a SQL table, Keyv...): plain values with
 * an expiry, and a lease that one caller at a time can hold. Keys are origins
 * (`https://example.com`); the store may prefix them. Every method may reject: RobotsCache
 * then works alone until the store answers again.
 */
export interface RobotsStore {
  /**
   * The value stored under `key`, or undefined when there is none (or it expired). A value
   * longer than `maxLength` bytes (when given) is no use to the caller: a store may answer ''
   * for it without reading it.
   */
  get(key: string, maxLength?: number): Promise<string | undefined>;
  /** Stores `value` under `key`, replacing any, until `ttlMs` from now. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Removes the value under `key`. */
  delete(key: string): Promise<void>;
  /**
   * Atomically: when nobody holds the lease on `key` (a namespace apart from the values), gives
   * it to `owner` for `leaseMs` and resolves true; otherwise resolves false, or better the
   * holder's owner name as stored ('' for something there that is not a lease), so that a lease
   * the protocol did not write is not waited for.
   */
  claim(key: string, owner: string, leaseMs: number): Promise<boolean | string>;
  /** Ends the lease on `key` if `owner` still holds it; otherwise does nothing. */
  release(key: string, owner: string): Promise<void>;
  /**
   * Optional, with releaseSlot: makes a Pacer on this store pace the fleet. Atomically, on the
   * store's clock: when fewer than `maxConcurrent` slots of `key` are held (leases past their
   * end dropped) and no other slot is in line before `slot`, reserves `slot` at the earliest
   * start the origin's spacing and pause allow (at most `maxWaitMs` away), holds it until its
   * start plus `leaseMs`, moves the next start to its start plus `delayMs`, and answers
   * `{ reserved: true, waitMs }`; otherwise puts `slot` in line (keeping its place when it is
   * already there) until a second after the wait it is told, and answers
   * `{ reserved: false, waitMs }`, the ms until its turn (0 when only a slot must come free).
   * Either answer may carry `now`, the store's clock (SlotReply).
   */
  reserveSlot?(key: string, slot: string, request: SlotRequest): Promise<SlotReply>;
  /**
   * Optional, with reserveSlot: ends `slot` of `key`, held or in line (nothing when neither; a
   * slot released without `started` gives back the spacing it took when no later start was
   * reserved after it), and steers
   * the origin: `success` resets the failures in a row, `pause` pauses it `pauseMs` from now
   * (a longer pause in force stays), `failure` counts one more failure and pauses it
   * `backoffBaseMs` doubled per earlier failure, at most `backoffMaxMs`; with `started`, the
   * origin's next start is at least its `delayMs` after the slot's start, `agoMs` before now.
   */
  releaseSlot?(key: string, slot: string, end: SlotEnd): Promise<SlotEndReply>;
}

/**
 * A RobotsStore in this process's memory: what several RobotsCache instances of one process
 * can share, and the reference for the contract. Expired values and leases are dropped when
 * next read.
 * @example
 * import { createServer } from 'node:http';
 * import { MemoryStore, RobotsCache } from 'robots-wasm';
 * const server = createServer((req, res) => res.end('User-agent: *\nDisallow: /private/\n'));
 * await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
 * const site = `http://127.0.0.1:${server.address().port}`;
 * const store = new MemoryStore();
 * const first = new RobotsCache({ agent: 'ExampleBot', store });
 * const second = new RobotsCache({ agent: 'ExampleBot', store });
 * console.log(await first.isAllowed(`${site}/private/a`), await second.isAllowed(`${site}/b`)); // → false true
 * console.log(first.fetches, second.fetches); // → 1 0
 * server.close();
 */
export class MemoryStore implements RobotsStore {
  readonly #values = new Map<string, { value: string; until: number }>();
  readonly #leases = new Map<string, { owner: string; until: number }>();
  readonly #ledger = new SlotLedger();

  /** Values held (expired ones included until they are next read). */
  get size(): number {
    return this.#values.size;
  }

  /** See RobotsStore.get. */
  async get(key: string): Promise<string | undefined> {
    const held = this.#values.get(key);
    if (held === undefined || held.until > Date.now()) return held?.value;
    this.#values.delete(key);
    return undefined;
  }

  /** See RobotsStore.set. */
  async set(key: string, value: string, ttlMs: number): Promise<void> {
    this.#values.set(key, { value, until: Date.now() + ttlMs });
  }

  /** See RobotsStore.delete. */
  async delete(key: string): Promise<void> {
    this.#values.delete(key);
  }

  /** See RobotsStore.claim. */
  async claim(key: string, owner: string, leaseMs: number): Promise<boolean | string> {
    const lease = this.#leases.get(key);
    if (lease !== undefined && lease.until > Date.now()) return lease.owner;
    this.#leases.set(key, { owner, until: Date.now() + leaseMs });
    return true;
  }

  /** See RobotsStore.release. */
  async release(key: string, owner: string): Promise<void> {
    if (this.#leases.get(key)?.owner === owner) this.#leases.delete(key);
  }

  /** See RobotsStore.reserveSlot. */
  async reserveSlot(key: string, slot: string, request: SlotRequest): Promise<SlotReply> {
    return this.#ledger.reserve(key, slot, request);
  }

  /** See RobotsStore.releaseSlot. */
  async releaseSlot(key: string, slot: string, end: SlotEnd): Promise<SlotEndReply> {
    return this.#ledger.release(key, slot, end);
  }
}

/** The first word of every stored value: the format, so that another version's values are refused, not misread. */
const STORE_FORMAT = 'robots-wasm-record/1';

const encoder = new TextEncoder();

/** CRC-32C of `json` as eight hex digits. */
function checksumOf(json: string): string {
  return crc32c(encoder.encode(json)).toString(16).padStart(8, '0');
}

/** A cached origin's record as a store value: format, checksum, JSON. */
export function encodeStoredRecord(record: RobotsCacheRecord): string {
  const json = JSON.stringify(record);
  return `${STORE_FORMAT} ${checksumOf(json)}\n${json}`;
}

/** Room in a stored value for everything but the body: the fields, and a final URL as long as a request line gets. */
const RECORD_FIELDS_ROOM = 64 * 1024;

/** The longest store value a record with a body of `maxBodyBytes` + 1 can be: what get() needs to read. */
export function maxStoredLength(maxBodyBytes: number): number {
  return Math.ceil((maxBodyBytes + 1) / 3) * 4 + RECORD_FIELDS_ROOM;
}

/**
 * The record of a store value for `origin`, checked as an exported snapshot's entries are
 * (every field, and freshness clamped by `limits`); undefined for anything else: another
 * format, a checksum that does not match, JSON that does not parse, a bad field, another
 * origin, or a value longer than a record with a body of `maxBodyBytes` + 1 can be (it is not
 * read at all).
 */
export function decodeStoredRecord(value: string, origin: string, limits: SnapshotLimits, maxBodyBytes: number): CheckedRecord | undefined {
  if (value.length > maxStoredLength(maxBodyBytes)) return undefined;
  const headerEnd = value.indexOf('\n');
  if (headerEnd !== STORE_FORMAT.length + 9 || !value.startsWith(`${STORE_FORMAT} `)) return undefined;
  const json = value.slice(headerEnd + 1);
  if (value.slice(STORE_FORMAT.length + 1, headerEnd) !== checksumOf(json)) return undefined;
  try {
    const checked = checkRecord(JSON.parse(json), 'value', limits);
    return checked.record.origin === origin ? checked : undefined;
  } catch {
    return undefined;
  }
}
