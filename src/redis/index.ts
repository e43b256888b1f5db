// robots-wasm/redis: a RobotsStore on Redis, so that a fleet of crawler processes fetches each
// robots.txt once and paces each origin together. Values are plain strings with Redis expiry (SET ... PX), read by a script
// that checks their type and length first, so that a huge value is never transferred; a lease
// is a key set only if absent (SET ... NX PX) and released by a script that deletes it only for
// its owner. An origin's pacing ledger (pacing/ledger.ts) is one hash, read and written by one
// script per reserve or release on Redis's clock. With a fleet key every value carries an HMAC-SHA256 tag (signing.ts). Commands go
// through `sendCommand`, so any client of the official `redis` package (an optional peer
// dependency: only this entry point loads it) works, connected or not; a reply of a type the
// command cannot give is an error, which RobotsCache treats as the store failing.

import { checkKey, SIGNED_HEADER_LENGTH, ValueSigner } from '../fetch/signing.js';
import type { RobotsStore } from '../fetch/store.js';
import { WAITER_GRACE_MS, type SlotEnd, type SlotEndReply, type SlotReply, type SlotRequest } from '../pacing/ledger.js';

/** The part of a Redis client the store uses: the official `redis` package's clients have it. */
export interface RedisCommandClient {
  sendCommand(args: string[]): Promise<unknown>;
}

/** Options of RedisStore. */
export interface RedisStoreOptions {
  /** Put before every key, so that several crawls share a server; default `robots-wasm:`. */
  prefix?: string;
  /**
   * The fleet key (a string or bytes, at least 16 bytes; 32 random bytes are best), the same in
   * every process: values are stored with an HMAC-SHA256 tag, and a value without a valid tag
   * for its origin is refetched and replaced, never used. Without it, anyone who can write
   * under the prefix decides every verdict. Default none.
   */
  key?: string | Uint8Array;
}

/** Deletes the lease KEYS[1] only when its value is ARGV[1], its owner's name. */
const RELEASE_SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

/**
 * The string value KEYS[1] when it is at most ARGV[1] bytes long; '' for a longer one or a key
 * of another type (a value that is not a record), without reading it; nil for no key.
 */
const GET_SCRIPT = `local t = redis.call('type', KEYS[1]).ok
if t == 'none' then return false end
if t ~= 'string' or redis.call('strlen', KEYS[1]) > tonumber(ARGV[1]) then return '' end
return redis.call('get', KEYS[1])`;

/**
 * Sets the lease KEYS[1] to ARGV[1] for ARGV[2] ms when absent and returns 1; otherwise returns
 * its holder (its first 100 bytes), or '' for something that is not a lease: a key of another
 * type, or one with no expiry (the protocol always sets one).
 */
const CLAIM_SCRIPT = `if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
if redis.call('type', KEYS[1]).ok ~= 'string' or redis.call('pttl', KEYS[1]) < 0 then return '' end
return redis.call('getrange', KEYS[1], 0, 99)`;

/**
 * The pacing ledger's common part: `now` on Redis's clock in ms, and the hash KEYS[1] made
 * safe to read. Anything there that is not a ledger (another type, or more fields than slots
 * can make) is dropped: the processes then pace alone until the next start, which is what an
 * outage gives too. Numbers that do not parse read as 0.
 */
const LEDGER_PRELUDE = `local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local kind = redis.call('type', KEYS[1]).ok
if kind ~= 'none' and (kind ~= 'hash' or redis.call('hlen', KEYS[1]) > 1024) then redis.call('del', KEYS[1]) end
local function num(v) return tonumber(v) or 0 end
local function keep(untilMs) if untilMs > now + redis.call('pttl', KEYS[1]) then redis.call('pexpire', KEYS[1], math.ceil(untilMs - now)) end end`;

/**
 * Reserves slot ARGV[1] of the origin KEYS[1] (ARGV: slot, delayMs, maxConcurrent, leaseMs,
 * maxWaitMs, keepMs, waiterGraceMs) as RobotsStore.reserveSlot says; answers {reserved 0|1,
 * waitMs, now}. Slots are fields `s:<slot>` holding when their lease ends, their start and the
 * next start they set (`<leaseEnd> <start> <next>`); the line is fields
 * `w:<slot>` holding `<place> <until>`, places counted by the field `line`. The ledger lives
 * keepMs past its last start, pause, lease or place in line, so that idle origins are forgotten.
 */
const RESERVE_SCRIPT = `${LEDGER_PRELUDE}
local fields = redis.call('hgetall', KEYS[1])
local nextStart, paused, held, first, firstPlace, mine, places = 0, 0, 0, nil, nil, nil, {}
for i = 1, #fields, 2 do
  local name, value = fields[i], fields[i + 1]
  local prefix = string.sub(name, 1, 2)
  if name == 'next' then nextStart = num(value)
  elseif name == 'paused' then paused = num(value)
  elseif prefix == 's:' then
    if num(string.match(value, '^%d+')) > now then held = held + 1 else redis.call('hdel', KEYS[1], name) end
  elseif prefix == 'w:' then
    local place, untilMs = string.match(value, '^(%d+) (%d+)$')
    if place == nil or num(untilMs) <= now then redis.call('hdel', KEYS[1], name)
    else
      place = num(place)
      places[#places + 1] = place
      if name == 'w:' .. ARGV[1] then mine = place end
      if firstPlace == nil or place < firstPlace then first, firstPlace = name, place end
    end
  end
end
local at = math.min(math.max(nextStart, paused, now), now + tonumber(ARGV[5]))
if held >= tonumber(ARGV[3]) or (first ~= nil and first ~= 'w:' .. ARGV[1]) then
  if mine == nil then
    mine = math.max(0, math.floor(num(redis.call('hget', KEYS[1], 'line')))) + 1
    redis.call('hset', KEYS[1], 'line', mine)
  end
  local ahead = 0
  for _, place in ipairs(places) do if place < mine then ahead = ahead + 1 end end
  local wait = at - now
  if wait > 0 then wait = wait + ahead * tonumber(ARGV[2]) end
  redis.call('hset', KEYS[1], 'w:' .. ARGV[1], string.format('%d %d', mine, now + wait + tonumber(ARGV[7])))
  keep(now + wait + tonumber(ARGV[7]) + tonumber(ARGV[6]))
  return {0, wait, now}
end
redis.call('hdel', KEYS[1], 'w:' .. ARGV[1])
local leaseEnd = at + tonumber(ARGV[4])
redis.call('hset', KEYS[1], 'next', at + tonumber(ARGV[2]), 's:' .. ARGV[1], string.format('%d %d %d', leaseEnd, at, at + tonumber(ARGV[2])))
keep(math.max(at + tonumber(ARGV[2]), leaseEnd) + tonumber(ARGV[6]))
return {1, at - now, now}`;

/**
 * Ends slot ARGV[1] of the origin KEYS[1] (ARGV: slot, kind, pauseMs, backoffBaseMs,
 * backoffMaxMs, keepMs, startedAgoMs (-1 for a slot that did not start), delayMs) as
 * RobotsStore.releaseSlot says; answers {failures, pauseMs}. A slot that never started gives
 * its spacing back when no later start was reserved after it.
 */
const RELEASE_SLOT_SCRIPT = `${LEDGER_PRELUDE}
local held = redis.call('hget', KEYS[1], 's:' .. ARGV[1])
redis.call('hdel', KEYS[1], 's:' .. ARGV[1], 'w:' .. ARGV[1])
local startedAgo, delay = tonumber(ARGV[7]), tonumber(ARGV[8])
if startedAgo < 0 and held then
  local at, set = string.match(held, '^%d+ (%d+) (%d+)$')
  if at and redis.call('hget', KEYS[1], 'next') == set then redis.call('hset', KEYS[1], 'next', at) end
end
if startedAgo >= 0 and now - startedAgo + delay > num(redis.call('hget', KEYS[1], 'next')) then redis.call('hset', KEYS[1], 'next', now - startedAgo + delay) end
local failures, pause = 0, 0
if ARGV[2] == 'success' then redis.call('hdel', KEYS[1], 'failures')
elseif ARGV[2] == 'pause' then pause = tonumber(ARGV[3])
elseif ARGV[2] == 'failure' then
  failures = math.max(0, math.floor(num(redis.call('hget', KEYS[1], 'failures')))) + 1
  redis.call('hset', KEYS[1], 'failures', failures)
  pause = math.min(tonumber(ARGV[5]), tonumber(ARGV[4]) * 2 ^ math.min(failures - 1, 52))
end
if pause > 0 and now + pause > num(redis.call('hget', KEYS[1], 'paused')) then redis.call('hset', KEYS[1], 'paused', now + pause) end
if redis.call('exists', KEYS[1]) == 1 then keep(now + pause + tonumber(ARGV[6])) end
return {failures, pause}`;

/** How long an origin's ledger outlives its last start, pause or lease: its failures in a row are remembered that long. */
const LEDGER_KEEP_MS = 600_000;

/** Whole milliseconds for PX: at least 1, which Redis requires. */
function px(ms: number): string {
  return String(Math.max(1, Math.ceil(ms)));
}

/** `reply` when `accept` says it is a reply `command` can give; else an Error naming what came. */
function expectReply<T>(reply: unknown, command: string, accept: (reply: unknown) => reply is T): T {
  if (accept(reply)) return reply;
  const kind = reply === null ? 'null' : Array.isArray(reply) ? 'an array' : reply instanceof Uint8Array ? 'bytes' : typeof reply;
  throw new Error(`unexpected reply to ${command}: ${kind} (the client must return strings and numbers, as the redis package does by default)`);
}

const isText = (reply: unknown): reply is string => typeof reply === 'string';
const isTextOrNull = (reply: unknown): reply is string | null => reply === null || typeof reply === 'string';
const isCount = (reply: unknown): reply is number => typeof reply === 'number';
const isClaimReply = (reply: unknown): reply is 1 | string => reply === 1 || typeof reply === 'string';
const isIntegers = (length: number) => (reply: unknown): reply is number[] => Array.isArray(reply) && reply.length === length && reply.every((n) => Number.isSafeInteger(n));
/** What the reserve script answers ({reserved, waitMs, now}) and the release script ({failures, pauseMs}). */
const isReserveReply = isIntegers(3);
const isReleaseReply = isIntegers(2);

/**
 * A RobotsStore on a Redis server, through a client of your own (`createClient()` of the
 * `redis` package; connectRedisStore makes one): a cached origin under
 * `<prefix>robots:<origin>`, its fetch lease under `<prefix>lease:<origin>`. The README's
 * "Running a fleet" has an example.
 */
export class RedisStore implements RobotsStore {
  readonly #client: RedisCommandClient;
  readonly #prefix: string;
  readonly #signer: ValueSigner | undefined;
  /** Each script's SHA-1 once SCRIPT LOAD gave it. */
  readonly #shas = new Map<string, Promise<string>>();

  constructor(client: RedisCommandClient, options: RedisStoreOptions = {}) {
    if (typeof client?.sendCommand !== 'function') throw new TypeError('robots-wasm: RedisStore needs a client with sendCommand (the redis package\'s)');
    const prefix = options.prefix ?? 'robots-wasm:';
    if (typeof prefix !== 'string') throw new TypeError('robots-wasm: prefix must be a string');
    this.#client = client;
    this.#prefix = prefix;
    this.#signer = options.key === undefined ? undefined : new ValueSigner(options.key);
  }

  /**
   * Runs `script` on `key` by its SHA-1 (EVALSHA), loaded once per store with SCRIPT LOAD, so
   * that its text does not cross the connection on every call; a server that lost it (NOSCRIPT:
   * restarted or flushed) gets the text, and the script is loaded again for the next calls.
   */
  async #eval(script: string, key: string, args: string[]): Promise<unknown> {
    let sha = this.#shas.get(script);
    if (sha === undefined) {
      sha = Promise.resolve(this.#client.sendCommand(['SCRIPT', 'LOAD', script])).then((reply) => expectReply(reply, 'SCRIPT LOAD', isText));
      this.#shas.set(script, sha);
      // A load that failed is tried again by the next call, not remembered.
      sha.catch(() => this.#shas.delete(script));
    }
    try {
      return await this.#client.sendCommand(['EVALSHA', await sha, '1', key, ...args]);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      this.#shas.delete(script);
      return this.#client.sendCommand(['EVAL', script, '1', key, ...args]);
    }
  }

  /**
   * See RobotsStore.get. A key of another type, a value longer than `maxLength` (never
   * transferred) and, with a key, a value without a valid tag all read as '': not a record.
   */
  async get(key: string, maxLength?: number): Promise<string | undefined> {
    const limit = maxLength === undefined ? Number.MAX_SAFE_INTEGER : maxLength + (this.#signer === undefined ? 0 : SIGNED_HEADER_LENGTH);
    const reply = await this.#eval(GET_SCRIPT, `${this.#prefix}robots:${key}`, [String(limit)]);
    const value = expectReply(reply, 'GET', isTextOrNull);
    if (value === null) return undefined;
    if (this.#signer === undefined || value === '') return value;
    return (await this.#signer.open(key, value)) ?? '';
  }

  /** See RobotsStore.set; with a key, the value is stored with its tag. */
  async set(key: string, value: string, ttlMs: number): Promise<void> {
    const stored = this.#signer === undefined ? value : await this.#signer.sign(key, value);
    expectReply(await this.#client.sendCommand(['SET', `${this.#prefix}robots:${key}`, stored, 'PX', px(ttlMs)]), 'SET', isText);
  }

  /** See RobotsStore.delete. */
  async delete(key: string): Promise<void> {
    expectReply(await this.#client.sendCommand(['DEL', `${this.#prefix}robots:${key}`]), 'DEL', isCount);
  }

  /** See RobotsStore.claim: true, or the holder's name ('' for a key there that is not a lease). */
  async claim(key: string, owner: string, leaseMs: number): Promise<boolean | string> {
    const reply = await this.#eval(CLAIM_SCRIPT, `${this.#prefix}lease:${key}`, [owner, px(leaseMs)]);
    const held = expectReply(reply, 'SET NX', isClaimReply);
    return held === 1 ? true : held;
  }

  /** See RobotsStore.release. */
  async release(key: string, owner: string): Promise<void> {
    expectReply(await this.#eval(RELEASE_SCRIPT, `${this.#prefix}lease:${key}`, [owner]), 'EVAL', isCount);
  }

  /** See RobotsStore.reserveSlot: one script on the origin's ledger `<prefix>pace:<origin>`, on Redis's clock. */
  async reserveSlot(key: string, slot: string, request: SlotRequest): Promise<SlotReply> {
    const { delayMs, maxConcurrent, leaseMs, maxWaitMs } = request;
    const args = [slot, delayMs, maxConcurrent, leaseMs, maxWaitMs, LEDGER_KEEP_MS, WAITER_GRACE_MS].map((v) => String(v));
    const [reserved, waitMs, now] = expectReply(await this.#eval(RESERVE_SCRIPT, `${this.#prefix}pace:${key}`, args), 'EVAL', isReserveReply);
    return { reserved: reserved === 1, waitMs, now };
  }

  /** See RobotsStore.releaseSlot: one script on the origin's ledger. */
  async releaseSlot(key: string, slot: string, end: SlotEnd): Promise<SlotEndReply> {
    const pauseMs = end.kind === 'pause' ? end.pauseMs : 0;
    const [base, max] = end.kind === 'failure' ? [end.backoffBaseMs, end.backoffMaxMs] : [0, 0];
    const started = end.started === undefined ? [-1, 0] : [Math.max(0, Math.round(end.started.agoMs)), end.started.delayMs];
    const args = [slot, end.kind, pauseMs, base, max, LEDGER_KEEP_MS, ...started].map((v) => String(v));
    const [failures, pause] = expectReply(await this.#eval(RELEASE_SLOT_SCRIPT, `${this.#prefix}pace:${key}`, args), 'EVAL', isReleaseReply);
    return { failures, pauseMs: pause };
  }
}

/** Options of connectRedisStore. */
export interface ConnectRedisOptions extends RedisStoreOptions {
  /** The longest wait for a connection (each attempt); default 2,000 ms. */
  connectTimeoutMs?: number;
}

/** A RedisStore on the client connectRedisStore made for it. */
export class ConnectedRedisStore extends RedisStore {
  readonly #close: () => Promise<void>;

  /** Internal: connectRedisStore makes these. */
  constructor(client: RedisCommandClient, options: RedisStoreOptions, close: () => Promise<void>) {
    super(client, options);
    this.#close = close;
  }

  /** Closes the connection. */
  close(): Promise<void> {
    return this.#close();
  }
}

/** A TypeError unless `url` is a Redis URL the client takes: redis:// or rediss://, a host, at most a database number as path. */
function checkRedisUrl(url: unknown): void {
  let parsed: URL | undefined;
  try {
    parsed = typeof url === 'string' ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || !/^rediss?:$/.test(parsed.protocol) || parsed.hostname === '' || !/^\/?\d*$/.test(parsed.pathname)) {
    throw new TypeError(`robots-wasm: not a Redis URL (redis://[user:password@]host[:port][/db], or rediss://): ${JSON.stringify(String(url).slice(0, 200))}`);
  }
}

/**
 * A RedisStore on a new client of the `redis` package (`npm install redis`) for `url`
 * (`redis://host:port`), once connected or after `connectTimeoutMs`; a TypeError, before
 * connecting, for a URL that is not a Redis URL or a `key` that is too short. While the server is down,
 * commands fail at once rather than queue, so RobotsCache works alone, and the client
 * reconnects in the background.
 */
export async function connectRedisStore(url: string, options: ConnectRedisOptions = {}): Promise<ConnectedRedisStore> {
  checkRedisUrl(url);
  if (options.key !== undefined) checkKey(options.key);
  let redis: typeof import('redis');
  try {
    redis = await import('redis');
  } catch {
    throw new Error('robots-wasm/redis needs the redis package: npm install redis');
  }
  const connectTimeoutMs = options.connectTimeoutMs ?? 2000;
  const client = redis.createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: connectTimeoutMs, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2000) },
  });
  // Errors reach RobotsCache through the commands that fail; an unheard 'error' event would end the process.
  client.on('error', () => {});
  // The first connection is waited for (commands sent before it would fail), but no longer
  // than one attempt may take: a server that is down leaves the client retrying behind.
  const connected = client.connect().then(() => undefined, () => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([connected, new Promise((resolve) => (timer = setTimeout(resolve, connectTimeoutMs)))]);
  clearTimeout(timer);
  return new ConnectedRedisStore(client as unknown as RedisCommandClient, options, async () => {
    if (client.isOpen) await client.close();
    else client.destroy();
  });
}
