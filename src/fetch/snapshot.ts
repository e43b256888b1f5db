// Reading a RobotsCache snapshot back (RobotsCache.import, and the CLI's cache file): every
// field of every entry is checked, because a snapshot is a file a crawler kept, and a damaged
// or edited one must not become allow-all rules or an entry that is never refreshed. A bad
// entry is a TypeError that names it and the field; freshness is clamped to what a fetch
// could have given from `fetchedAt`. Fields added since version 1 (retryAt) may be absent:
// older snapshots and older members of a fleet write records without them.

import { unreachableLifetime, type RobotsFetchResult } from './fetch.js';
import { originOf } from './origin.js';
import { fromBase64 } from '../encoding.js';

/** One cached origin, as RobotsCache's export() writes it and import() reads it (JSON-safe). */
export type RobotsCacheRecord = Omit<RobotsFetchResult, 'robots' | 'body' | 'revalidated' | 'retryAt'> & {
  /** See RobotsFetchResult.retryAt; optional, because records written before it existed lack it. */
  retryAt?: number | undefined;
  /** The body read, base64 (ok results). */
  body: string | undefined;
  /** Since when refreshes have been unreachable, if they are. */
  unreachableSince: number | undefined;
};

/** What a record may claim, at the time it is read. */
export interface SnapshotLimits {
  /** The time now: no entry was fetched after it. */
  now: number;
  /** The most freshness an ok or unavailable entry may have from its fetchedAt. */
  ttlMs: number;
  /** The most freshness an unreachable entry without a retryAt may have from its fetchedAt (with one: up to ttlMs). */
  unreachableTtlMs: number;
}

/** A checked record and its body bytes (ok entries). */
export interface CheckedRecord {
  record: RobotsCacheRecord;
  body: Uint8Array | undefined;
}

const STATUSES: ReadonlySet<unknown> = new Set(['ok', 'unavailable', 'unreachable']);

/** What a field must be, as a phrase for the error, or undefined when `value` is fine. */
type Rule = (value: unknown, now: number) => string | undefined;

const optionalString: Rule = (v) => (v === undefined || typeof v === 'string' ? undefined : 'a string or absent');
const time: Rule = (v, now) => (Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= now ? undefined : 'a time (ms since the epoch) not in the future');

const RULES: Record<Exclude<keyof RobotsCacheRecord, 'body'>, Rule> = {
  status: (v) => (STATUSES.has(v) ? undefined : '"ok", "unavailable" or "unreachable"'),
  origin: (v) => (typeof v === 'string' && originOf(v) === v ? undefined : 'an origin as scheme://host[:port], lowercase, no default port'),
  httpStatus: (v) => (v === undefined || (Number.isInteger(v) && (v as number) >= 100 && (v as number) <= 599) ? undefined : 'an HTTP status (100-599) or absent'),
  finalUrl: (v) => (typeof v === 'string' && originOf(v) !== undefined ? undefined : 'an absolute http(s) URL'),
  redirects: (v) => (Number.isSafeInteger(v) && (v as number) >= 0 ? undefined : 'a count of at least 0'),
  fetchedAt: time,
  expiresAt: (v) => (typeof v === 'number' && Number.isFinite(v) ? undefined : 'a finite time (ms since the epoch)'),
  // A time ahead, unlike fetchedAt: when the server asked to be asked again.
  retryAt: (v) => (v === undefined || (Number.isSafeInteger(v) && (v as number) >= 0) ? undefined : 'a time (ms since the epoch) or absent'),
  error: optionalString,
  etag: optionalString,
  lastModified: optionalString,
  unreachableSince: (v, now) => (v === undefined ? undefined : time(v, now)),
};

/** A value as an error message shows it. */
function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 100));
  if (value === null || Array.isArray(value)) return value === null ? 'null' : 'an array';
  return typeof value === 'object' ? 'an object' : value === undefined ? 'nothing' : String(value);
}

/**
 * The body bytes of an entry, or what the body must be: an ok entry's is canonical base64 (so
 * that garbage is not read as an empty, allow-all file), other entries have none.
 */
function bodyOf(value: unknown, ok: boolean): Uint8Array | undefined | string {
  if (!ok) return value === undefined ? undefined : 'absent (only ok entries have a body)';
  const bytes = typeof value === 'string' ? fromBase64(value) : undefined;
  return bytes ?? 'the robots.txt bytes as base64';
}

/** Checks one entry; returns it with only its known fields and expiresAt clamped. */
export function checkRecord(value: unknown, where: string, limits: SnapshotLimits): CheckedRecord {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new TypeError(`robots-wasm: RobotsCache snapshot ${where} must be an object, got ${describe(value)}`);
  const fields = value as Record<string, unknown>;
  const name = typeof fields.origin === 'string' ? `${where} (${fields.origin.slice(0, 100)})` : where;
  function fail(field: string, expected: string): never {
    throw new TypeError(`robots-wasm: RobotsCache snapshot ${name}: ${field} must be ${expected}, got ${describe(fields[field])}`);
  }
  for (const [field, rule] of Object.entries(RULES)) {
    const expected = rule(fields[field], limits.now);
    if (expected !== undefined) fail(field, expected);
  }
  const body = bodyOf(fields.body, fields.status === 'ok');
  if (typeof body === 'string') fail('body', body);
  const record = Object.fromEntries(Object.keys(RULES).map((field) => [field, fields[field]])) as RobotsCacheRecord;
  record.body = fields.body as string | undefined;
  // An unreachable entry stands as long as its fetch made it: by its Retry-After when it had one.
  const ttl = record.status === 'unreachable' ? unreachableLifetime(record.retryAt, record.fetchedAt, limits) : limits.ttlMs;
  record.expiresAt = Math.min(record.expiresAt, record.fetchedAt + ttl);
  return { record, body };
}

/**
 * The entries of a snapshot (the value export() returned, or its JSON parsed), every field
 * checked and expiresAt clamped to `ttlMs` from fetchedAt (for unreachable entries,
 * `unreachableTtlMs`, or with a retryAt that time kept between 1 s and `ttlMs`). A TypeError
 * that names the entry and the field when anything is wrong: a bad version, an entry that is
 * not an object, a field of the wrong type or out of range, an ok entry without a canonical
 * base64 body, a time in the future, an origin twice.
 */
export function snapshotRecords(snapshot: unknown, limits: SnapshotLimits): CheckedRecord[] {
  const s = snapshot as { version?: unknown; entries?: unknown } | null;
  if (s === null || typeof s !== 'object' || s.version !== 1 || !Array.isArray(s.entries)) {
    throw new TypeError('robots-wasm: not a RobotsCache snapshot (version 1)');
  }
  const seen = new Map<string, number>();
  return s.entries.map((value, i) => {
    const checked = checkRecord(value, `entries[${i}]`, limits);
    const origin = checked.record.origin;
    const first = seen.get(origin);
    if (first !== undefined) throw new TypeError(`robots-wasm: RobotsCache snapshot entries[${i}] (${origin}): origin is also entries[${first}]`);
    seen.set(origin, i);
    return checked;
  });
}
