// The --store options of `robots-wasm filter`: the Redis store several runs share, its key
// prefix, and the fleet key that authenticates its records (a file, so that it stays out of
// the process list and shell history).

import type { StoreEvent } from '../fetch/fleet.js';
import { checkKey } from '../fetch/signing.js';
import type { ConnectedRedisStore } from '../redis/index.js';
import { readFile, stringValue, UsageError, warn } from './io.js';

/** The option definitions (for parse()) of the --store options. */
export const STORE_OPTIONS = { store: { type: 'string' }, 'store-prefix': { type: 'string' }, 'store-key-file': { type: 'string' } } as const;

/** The lines of --help about the --store options. */
export const STORE_HELP = `  --store URL         share robots.txt state with other runs through the Redis server at URL
                      (redis://[user:password@]HOST[:PORT][/DB]; needs the redis package): each
                      origin is fetched by one run of all, the others read its result; while
                      Redis is unreachable each run fetches on its own and says so once on stderr
  --store-prefix P    put P before every Redis key (default robots-wasm:)
  --store-key-file F  the fleet key, F's bytes (at least 16; every run the same): records are
                      stored with an HMAC-SHA256 tag and a record without a valid one is
                      refetched; without it, whoever can write under the prefix decides verdicts`;

/** The Redis store of --store, or undefined without it; a UsageError for a bad URL, key file or a --store-* option without --store. */
export async function openStore(values: Record<string, unknown>): Promise<ConnectedRedisStore | undefined> {
  const url = stringValue(values, 'store');
  const prefix = stringValue(values, 'store-prefix');
  const keyFile = stringValue(values, 'store-key-file');
  if (url === undefined) {
    if (prefix !== undefined) throw new UsageError('--store-prefix needs --store');
    if (keyFile !== undefined) throw new UsageError('--store-key-file needs --store');
    return undefined;
  }
  if (!/^rediss?:\/\/./i.test(url)) throw new UsageError(`--store must be a redis:// or rediss:// URL, got ${JSON.stringify(url)}`);
  const key = keyFile === undefined ? undefined : keyOf(keyFile);
  const { connectRedisStore } = await import('../redis/index.js');
  try {
    return await connectRedisStore(url, { prefix, key });
  } catch (error) {
    // The URL is checked before connecting: its TypeError is a usage mistake.
    throw error instanceof TypeError ? new UsageError(`--store: ${error.message.replace(/^robots-wasm: /, '')}`) : error;
  }
}

/** The fleet key in `path`: its bytes, whole; a UsageError for a file that cannot be read or is too short. */
function keyOf(path: string): Uint8Array {
  const key = readFile(path);
  try {
    return checkKey(key);
  } catch (error) {
    throw new UsageError(`--store-key-file ${path}: ${(error as Error).message.replace(/^robots-wasm: key/, 'the key')}`);
  }
}

/** Says on stderr what the store did: an outage, its return, a lease it holds that no run wrote. */
export function reportStoreEvent(event: StoreEvent): void {
  if (event.type === 'unavailable') warn(`the --store server is unavailable (${event.error.message}): fetching without it until it answers`);
  else if (event.type === 'foreign-lease') warn(`the --store server holds a lease no run wrote (on ${event.key}): not waiting for such leases`);
  else warn('the --store server answers again');
}
