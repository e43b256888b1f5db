// robots-wasm/redis: a RobotsStore on Redis, so that a fleet of crawler processes fetches each
// robots.txt once. Values are plain strings with Redis expiry (SET ... PX); a lease is a key
// set only if absent (SET ... NX PX) and released by a script that deletes it only for its
// owner. Commands go through `sendCommand`, so any client of the official `redis` package
// (an optional peer dependency: only this entry point loads it) works, connected or not.

import type { RobotsStore } from '../fetch/store.js';

/** The part of a Redis client the store uses: the official `redis` package's clients have it. */
export interface RedisCommandClient {
  sendCommand(args: string[]): Promise<unknown>;
}

/** Options of RedisStore. */
export interface RedisStoreOptions {
  /** Put before every key, so that several crawls share a server; default `robots-wasm:`. */
  prefix?: string;
}

/** Deletes the lease KEYS[1] only when its value is ARGV[1], its owner's name. */
const RELEASE_SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

/** Whole milliseconds for PX: at least 1, which Redis requires. */
function px(ms: number): string {
  return String(Math.max(1, Math.ceil(ms)));
}

/**
 * A RobotsStore on a Redis server, through a client of your own (`createClient()` of the
 * `redis` package; connectRedisStore makes one): a cached origin under
 * `<prefix>robots:<origin>`, its fetch lease under `<prefix>lease:<origin>`. The README's
 * "Running a fleet" has an example.
 */
export class RedisStore implements RobotsStore {
  readonly #client: RedisCommandClient;
  readonly #prefix: string;

  constructor(client: RedisCommandClient, options: RedisStoreOptions = {}) {
    if (typeof client?.sendCommand !== 'function') throw new TypeError('robots-wasm: RedisStore needs a client with sendCommand (the redis package\'s)');
    const prefix = options.prefix ?? 'robots-wasm:';
    if (typeof prefix !== 'string') throw new TypeError('robots-wasm: prefix must be a string');
    this.#client = client;
    this.#prefix = prefix;
  }

  /** See RobotsStore.get. A key of another type reads as a value that is not a record (it is then written over). */
  async get(key: string): Promise<string | undefined> {
    let value: unknown;
    try {
      value = await this.#client.sendCommand(['GET', `${this.#prefix}robots:${key}`]);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('WRONGTYPE')) return '';
      throw error;
    }
    if (value === null || value === undefined) return undefined;
    return typeof value === 'string' ? value : '';
  }

  /** See RobotsStore.set. */
  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.#client.sendCommand(['SET', `${this.#prefix}robots:${key}`, value, 'PX', px(ttlMs)]);
  }

  /** See RobotsStore.delete. */
  async delete(key: string): Promise<void> {
    await this.#client.sendCommand(['DEL', `${this.#prefix}robots:${key}`]);
  }

  /** See RobotsStore.claim. */
  async claim(key: string, owner: string, leaseMs: number): Promise<boolean> {
    return (await this.#client.sendCommand(['SET', `${this.#prefix}lease:${key}`, owner, 'NX', 'PX', px(leaseMs)])) === 'OK';
  }

  /** See RobotsStore.release. */
  async release(key: string, owner: string): Promise<void> {
    await this.#client.sendCommand(['EVAL', RELEASE_SCRIPT, '1', `${this.#prefix}lease:${key}`, owner]);
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

/**
 * A RedisStore on a new client of the `redis` package (`npm install redis`) for `url`
 * (`redis://host:port`), once connected or after `connectTimeoutMs`. While the server is down,
 * commands fail at once rather than queue, so RobotsCache works alone, and the client
 * reconnects in the background.
 */
export async function connectRedisStore(url: string, options: ConnectRedisOptions = {}): Promise<ConnectedRedisStore> {
  if (typeof url !== 'string') throw new TypeError('robots-wasm: connectRedisStore expects a redis:// URL');
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
