// The filter command's `--cache FILE`: a RobotsCache snapshot (JSON) kept between runs, written
// so that a crash, a full disk or a run beside this one loses nothing:
// - a write goes to a temporary file in FILE's directory, is fsynced and renamed over FILE, so
//   FILE is always a whole snapshot, the old one or the new one;
// - writes happen under a lock file (FILE.lock) and merge what another run wrote since this
//   one read FILE, so two runs at once keep both runs' entries;
// - the run writes checkpoints while it works and once more when it ends or is interrupted;
// - a FILE that is not a usable snapshot is reported and set aside (renamed, never deleted),
//   and the run starts with an empty cache;
// - the directory is checked, by taking the lock, before any work starts.

import { randomBytes } from 'node:crypto';
import { constants, hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { open, readdir, rename, rm, stat } from 'node:fs/promises';
import { existsSync, type Stats } from 'node:fs';
import { RobotsCache, type RobotsCacheOptions, type RobotsCacheRecord } from '../fetch/cache.js';
import { resolveFetchOptions } from '../fetch/fetch.js';
import { snapshotRecords } from '../fetch/snapshot.js';
import { errnoText, UsageError, warn } from './io.js';
import { isAlive, LockBusyError, withLock } from './lock.js';

/** The most entries FILE keeps when runs merge (RobotsCache's default maxEntries): the most recently fetched. */
const MAX_ENTRIES = 100_000;

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Which version of FILE a run has seen: another run replaced it when this differs. */
interface Signature {
  ino: number;
  size: number;
  mtimeMs: number;
}

const signatureOf = (s: Stats): Signature => ({ ino: s.ino, size: s.size, mtimeMs: s.mtimeMs });
const same = (a: Signature | undefined, b: Signature | undefined) => a !== undefined && b !== undefined && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;

/** Is this error a snapshot that cannot be used (not JSON, not a valid snapshot, too long to read)? */
function unusable(error: unknown): boolean {
  return error instanceof SyntaxError || error instanceof TypeError || (error as NodeJS.ErrnoException).code === 'ERR_STRING_TOO_LONG';
}

/** The entries of both, each origin's most recently fetched, at most MAX_ENTRIES (the newest). */
function merge(ours: RobotsCacheRecord[], theirs: RobotsCacheRecord[]): RobotsCacheRecord[] {
  const byOrigin = new Map<string, RobotsCacheRecord>();
  for (const record of theirs) byOrigin.set(record.origin, record);
  for (const record of ours) {
    const other = byOrigin.get(record.origin);
    if (other === undefined || record.fetchedAt >= other.fetchedAt) byOrigin.set(record.origin, record);
  }
  const all = [...byOrigin.values()];
  return all.length <= MAX_ENTRIES ? all : all.sort((a, b) => a.fetchedAt - b.fetchedAt).slice(-MAX_ENTRIES);
}

/** Makes a rename in `dir` durable. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } catch {
    // Some file systems cannot sync a directory; the rename itself is still atomic.
  } finally {
    await handle.close();
  }
}

/** A RobotsCache kept in a file between runs (see the top of this file). */
export class CacheFile {
  readonly path: string;
  readonly #dir: string;
  readonly #lock: string;
  /** Temporary files are named `${#tempPrefix}<pid>.<random>.<host>.tmp`. */
  readonly #tempPrefix: string;
  readonly #options: RobotsCacheOptions;
  /** FILE as this run last read or wrote it. */
  #known: Signature | undefined;
  #saving: Promise<void> = Promise.resolve();
  #savedFetches = 0;

  private constructor(path: string, options: RobotsCacheOptions) {
    this.path = path;
    this.#dir = dirname(path);
    this.#lock = `${path}.lock`;
    this.#tempPrefix = `.${basename(path)}.`;
    this.#options = options;
  }

  /**
   * Checks that FILE can be kept (a UsageError before any work when not), then loads it: a
   * missing FILE is an empty cache, an unusable one is set aside and reported.
   */
  static async open(path: string, options: RobotsCacheOptions): Promise<{ file: CacheFile; cache: RobotsCache }> {
    const file = new CacheFile(path, options);
    await file.#checkWritable();
    for (;;) {
      const read = await file.#read();
      if (read === undefined) return { file, cache: new RobotsCache(options) };
      try {
        const cache = RobotsCache.import(JSON.parse(read.text), options);
        file.#known = read.signature;
        return { file, cache };
      } catch (error) {
        if (!unusable(error)) throw error;
        // False when another run replaced FILE meanwhile: then that one is read.
        const setAside = await withLock(file.#lock, () => file.#setAside(read.signature, error as Error));
        if (setAside) return { file, cache: new RobotsCache(options) };
      }
    }
  }

  /** Writes the cache to FILE (merged with what other runs wrote since), after any save under way. */
  save(cache: RobotsCache): Promise<void> {
    const saved = this.#saving.then(() => this.#save(cache));
    this.#saving = saved.catch(() => undefined);
    return saved;
  }

  /**
   * Keeps the cache safe while the run works: a checkpoint every `intervalMs` when something was
   * fetched since the last save, and on SIGINT, SIGTERM or SIGHUP a save before exiting (with
   * 128 + the signal's number). Returns what stops both.
   */
  keep(cache: RobotsCache, intervalMs: number): () => void {
    const timer = setInterval(() => {
      if (cache.fetches !== this.#savedFetches) this.save(cache).catch((error: Error) => warn(error.message));
    }, intervalMs);
    timer.unref();
    const stop = (signal: NodeJS.Signals) => {
      this.save(cache).catch((error: Error) => warn(error.message)).finally(() => process.exit(128 + constants.signals[signal]));
    };
    for (const signal of SIGNALS) process.once(signal, stop);
    return () => {
      clearInterval(timer);
      for (const signal of SIGNALS) process.off(signal, stop);
    };
  }

  /** The last save, when the cache changed since the last one or FILE does not hold it yet. */
  async close(cache: RobotsCache): Promise<void> {
    if (cache.fetches !== this.#savedFetches || this.#known === undefined) await this.save(cache);
    else await this.#saving;
  }

  async #checkWritable(): Promise<void> {
    const info = await stat(this.path).catch(() => undefined);
    if (info !== undefined && !info.isFile()) throw new UsageError(`--cache ${this.path} is not a regular file`);
    try {
      await withLock(this.#lock, () => this.#removeLeftovers());
    } catch (error) {
      if (error instanceof LockBusyError) throw new UsageError(`cannot use the cache ${this.path}: ${error.message}`);
      throw new UsageError(`cannot write the cache ${this.path} in ${this.#dir}: ${errnoText(error)}`);
    }
  }

  /** Removes the temporary files of runs on this host that died while writing. */
  async #removeLeftovers(): Promise<void> {
    for (const name of await readdir(this.#dir)) {
      if (!name.startsWith(this.#tempPrefix) || !name.endsWith('.tmp')) continue;
      const [pid, , ...host] = name.slice(this.#tempPrefix.length, -'.tmp'.length).split('.');
      if (host.join('.') === hostname() && /^[0-9]+$/.test(pid) && !isAlive(Number(pid))) await rm(join(this.#dir, name), { force: true });
    }
  }

  /** FILE's text and which version it is, or undefined when there is none. */
  async #read(): Promise<{ text: string; signature: Signature } | undefined> {
    let handle;
    try {
      handle = await open(this.path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new UsageError(`cannot read the cache ${this.path}: ${errnoText(error)}`);
    }
    try {
      const signature = signatureOf(await handle.stat());
      return { text: await handle.readFile('utf8'), signature };
    } finally {
      await handle.close();
    }
  }

  /** Renames FILE aside (the lock held) when it is still the version read; false when it is not. */
  async #setAside(signature: Signature, why: Error): Promise<boolean> {
    const now = await stat(this.path).catch(() => undefined);
    if (now === undefined || !same(signatureOf(now), signature)) return false;
    let aside = `${this.path}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    if (existsSync(aside)) aside += `-${process.pid}`;
    await rename(this.path, aside);
    warn(`${this.path} is not a usable cache (${why.message}): moved to ${aside}, starting with an empty cache`);
    return true;
  }

  /** The entries another run wrote to FILE since this run read or wrote it (the lock held). */
  async #theirs(): Promise<RobotsCacheRecord[] | undefined> {
    const read = await this.#read();
    if (read === undefined || same(read.signature, this.#known)) return undefined;
    const { ttlMs, unreachableTtlMs } = resolveFetchOptions(this.#options);
    try {
      return snapshotRecords(JSON.parse(read.text), { now: Date.now(), ttlMs, unreachableTtlMs }).map((checked) => checked.record);
    } catch (error) {
      if (!unusable(error)) throw error;
      await this.#setAside(read.signature, error as Error);
      return undefined;
    }
  }

  async #save(cache: RobotsCache): Promise<void> {
    const fetches = cache.fetches;
    const ours = cache.export().entries;
    try {
      await withLock(this.#lock, async (held) => {
        const theirs = await this.#theirs();
        await this.#replace(JSON.stringify({ version: 1, entries: theirs === undefined ? ours : merge(ours, theirs) }), held);
      });
    } catch (error) {
      throw new Error(`cannot write the cache ${this.path}: ${error instanceof LockBusyError ? error.message : errnoText(error)}`);
    }
    this.#savedFetches = fetches;
  }

  /** Writes `text` to a temporary file, fsyncs it and renames it over FILE while the lock is this run's. */
  async #replace(text: string, held: () => boolean): Promise<void> {
    const temp = join(this.#dir, `${this.#tempPrefix}${process.pid}.${randomBytes(4).toString('hex')}.${hostname()}.tmp`);
    const handle = await open(temp, 'wx');
    try {
      try {
        await handle.writeFile(text);
        await handle.sync();
      } finally {
        await handle.close();
      }
      if (!held()) throw new Error(`another run took the lock ${this.#lock}`);
      await rename(temp, this.path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    await syncDirectory(this.#dir);
    this.#known = signatureOf(await stat(this.path));
  }
}
