// The filter command's `--cache FILE`: a RobotsCache kept between runs, one record per line
// (cache-records.ts), read and written a record at a time so that a file of any size needs
// no more memory than the cache's budget; written so that a crash, a full disk or a run beside
// this one loses nothing:
// - a write goes to a temporary file in FILE's directory, is fsynced and renamed over FILE, so
//   FILE is always a whole file, the old one or the new one; a FILE that is a symbolic link is
//   followed, and its target is the file replaced;
// - writes happen under a lock file (FILE.lock), and each write merges every record FILE holds
//   then, read under the lock: whatever another run wrote (or this run's cache evicted) is
//   kept, and no inode, size or time decides whether FILE changed;
// - the run writes checkpoints while it works and once more when it ends or is interrupted;
// - a damaged record is skipped and the rest read; a FILE that is not a cache at all is
//   reported and set aside (renamed, never deleted), and the run starts with an empty cache;
// - a version-1 file (one JSON document) is read when it is small enough to read whole, and
//   set aside with a message when not;
// - the directory is checked, by taking the lock, before any work starts.

import { constants, hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { lstat, open, readdir, readlink, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { cachedRecords, restoreRecord, RobotsCache, type RobotsCacheOptions } from '../fetch/cache.js';
import { resolveFetchOptions } from '../fetch/fetch.js';
import { checkRecord, snapshotRecords, type CheckedRecord, type SnapshotLimits } from '../fetch/snapshot.js';
import {
  BufferedWriter, fileLines, headerLine, nextHeader, parseHeader, parseRecordLine, recordLine, type Header,
} from './cache-records.js';
import { errnoText, UsageError, warn } from './io.js';
import { isAlive, LockBusyError, withLock } from './lock.js';

/** The most entries FILE keeps when runs merge (RobotsCache's default maxEntries): the most recently fetched. */
const MAX_ENTRIES = 100_000;
/** A version-1 file is one JSON document, read whole: larger ones are set aside. */
const MAX_V1_BYTES = 64 * 1024 * 1024;
/** How much of a FILE that is set aside must still be as read: the header, or the start of a version-1 file. */
const PREFIX_BYTES = 4096;
const MAX_LINKS = 40;

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Called with each good record of FILE and its line as read (undefined for a version-1 file's). */
type EachRecord = (checked: CheckedRecord, line: Buffer | undefined) => void | Promise<void>;

/** What reading FILE found: its header (none for version 1) and the records skipped; or why it is no cache. */
type ReadOutcome = { header: Header | undefined; damaged: number } | { unusable: string; prefix: Buffer };

/** `path` with its symbolic links followed to the file they name (which may not exist yet). */
async function followLinks(path: string): Promise<string> {
  let current = resolve(path);
  for (let hops = 0; hops < MAX_LINKS; hops++) {
    const info = await lstat(current).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw new UsageError(`cannot use the cache ${path}: ${errnoText(error)}`);
    });
    if (info === undefined || !info.isSymbolicLink()) return current;
    current = resolve(dirname(current), await readlink(current));
  }
  throw new UsageError(`cannot use the cache ${path}: more than ${MAX_LINKS} symbolic links`);
}

/** The first `bytes` bytes of the file open as `handle`. */
async function prefixOf(handle: FileHandle, bytes = PREFIX_BYTES): Promise<Buffer> {
  const buffer = Buffer.alloc(bytes);
  const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
  return buffer.subarray(0, bytesRead);
}

/** The records of a version-1 file (one JSON document), each checked; or why it cannot be read. */
async function readV1(handle: FileHandle, limits: SnapshotLimits, each: EachRecord): Promise<ReadOutcome> {
  const size = (await handle.stat()).size;
  const prefix = await prefixOf(handle);
  if (size > MAX_V1_BYTES) return { unusable: `a version-1 cache of ${size} bytes, more than the ${MAX_V1_BYTES} read whole`, prefix };
  let records: CheckedRecord[];
  try {
    records = snapshotRecords(JSON.parse(await handle.readFile('utf8')), limits);
  } catch (error) {
    if (!(error instanceof SyntaxError || error instanceof TypeError)) throw error;
    return { unusable: error.message, prefix };
  }
  for (const checked of records) await each(checked, undefined);
  return { header: undefined, damaged: 0 };
}

/**
 * Reads FILE (open as `handle`) a record at a time: each good record, an origin's first, goes to
 * `each`; damaged ones (checksum, JSON, a field) are counted and skipped.
 */
async function readRecords(handle: FileHandle, limits: SnapshotLimits, each: EachRecord): Promise<ReadOutcome> {
  const start = await prefixOf(handle, 1);
  if (start[0] === 0x7b) return readV1(handle, limits, each);
  const lines = fileLines(handle);
  const first = await lines.next();
  const header = first.done === true || first.value === undefined ? undefined : parseHeader(first.value);
  if (header === undefined) {
    await lines.return(undefined);
    return { unusable: start.length === 0 ? 'an empty file' : 'no robots-wasm-cache header', prefix: await prefixOf(handle) };
  }
  const seen = new Set<string>();
  let damaged = 0;
  for await (const line of lines) {
    const checked = line === undefined ? undefined : checkedLine(line, limits);
    if (checked === undefined || seen.has(checked.record.origin)) {
      damaged++;
      continue;
    }
    seen.add(checked.record.origin);
    await each(checked, line);
  }
  return { header, damaged };
}

/** The record of a line, checked, or undefined when anything in it is wrong. */
function checkedLine(line: Buffer, limits: SnapshotLimits): CheckedRecord | undefined {
  const value = parseRecordLine(line);
  if (value === undefined) return undefined;
  try {
    return checkRecord(value, 'record', limits);
  } catch (error) {
    if (error instanceof TypeError) return undefined;
    throw error;
  }
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

/** The indices of the MAX_ENTRIES most recent of `times` (fetch times, in file order). */
function newest(times: number[]): Uint8Array {
  const keep = new Uint8Array(times.length);
  const order = times.map((_, i) => i).sort((a, b) => times[b] - times[a]);
  for (const i of order.slice(0, MAX_ENTRIES)) keep[i] = 1;
  return keep;
}

/** A RobotsCache kept in a file between runs (see the top of this file). */
export class CacheFile {
  /** FILE as the user named it. */
  readonly path: string;
  /** The file replaced: FILE with its symbolic links followed. */
  readonly #target: string;
  readonly #dir: string;
  readonly #lock: string;
  /** Temporary files are named `${#tempPrefix}<pid>.<random>.<host>.tmp`. */
  readonly #tempPrefix: string;
  readonly #options: RobotsCacheOptions;
  /** FILE's header as this run last read or wrote it. */
  #header: Header | undefined;
  /** FILE holds this run's cache: it was read, or written. */
  #holds = false;
  #saving: Promise<void> = Promise.resolve();
  #savedFetches = 0;

  private constructor(path: string, target: string, options: RobotsCacheOptions) {
    this.path = path;
    this.#target = target;
    this.#dir = dirname(target);
    this.#lock = `${target}.lock`;
    this.#tempPrefix = `.${basename(target)}.`;
    this.#options = options;
  }

  /**
   * Checks that FILE can be kept (a UsageError before any work when not), then loads it: a
   * missing FILE is an empty cache, one that is no cache is set aside and reported.
   */
  static async open(path: string, options: RobotsCacheOptions): Promise<{ file: CacheFile; cache: RobotsCache }> {
    const file = new CacheFile(path, await followLinks(path), options);
    await file.#checkWritable();
    const cache = new RobotsCache(options);
    for (;;) {
      const read = await file.#read((checked) => restoreRecord(cache, checked));
      if (read === undefined) return { file, cache };
      if (!('unusable' in read)) {
        if (read.damaged > 0) warn(`${path}: ${read.damaged} damaged record${read.damaged === 1 ? '' : 's'} skipped`);
        [file.#header, file.#holds] = [read.header, true];
        return { file, cache };
      }
      // False when another run replaced FILE meanwhile: then that one is read.
      if (await withLock(file.#lock, () => file.#setAside(read))) return { file, cache };
    }
  }

  /** Writes the cache to FILE (merged with what FILE holds then), after any save under way. */
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

  /**
   * The last save, when the run fetched anything or FILE does not hold the cache yet. (A fetch
   * counts when it starts: a checkpoint taken during the last fetch has the count, not the result.)
   */
  async close(cache: RobotsCache): Promise<void> {
    if (cache.fetches > 0 || !this.#holds) await this.save(cache);
    else await this.#saving;
  }

  async #checkWritable(): Promise<void> {
    const info = await stat(this.#target).catch(() => undefined);
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

  /** What a record read now may claim. */
  #limits(): SnapshotLimits {
    const { ttlMs, unreachableTtlMs } = resolveFetchOptions(this.#options);
    return { now: Date.now(), ttlMs, unreachableTtlMs };
  }

  /** Reads FILE's records into `each`; undefined when there is no FILE. */
  async #read(each: EachRecord): Promise<ReadOutcome | undefined> {
    let handle;
    try {
      handle = await open(this.#target, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new UsageError(`cannot read the cache ${this.path}: ${errnoText(error)}`);
    }
    try {
      return await readRecords(handle, this.#limits(), each);
    } finally {
      await handle.close();
    }
  }

  /**
   * Renames FILE aside (the lock held) when it still starts as read; false when it does not.
   * `then`: what the run does instead, for the message.
   */
  async #setAside(read: { unusable: string; prefix: Buffer }, then = 'starting with an empty cache'): Promise<boolean> {
    const handle = await open(this.#target, 'r').catch(() => undefined);
    if (handle === undefined) return false;
    const same = await prefixOf(handle).then((now) => now.equals(read.prefix), () => false).finally(() => handle.close());
    if (!same) return false;
    let aside = `${this.#target}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    if (existsSync(aside)) aside += `-${process.pid}`;
    await rename(this.#target, aside);
    warn(`${this.path} is not a usable cache (${read.unusable}): moved to ${aside}, ${then}`);
    return true;
  }

  async #save(cache: RobotsCache): Promise<void> {
    const fetches = cache.fetches;
    try {
      await withLock(this.#lock, (held) => this.#write(cache, held));
    } catch (error) {
      throw new Error(`cannot write the cache ${this.path}: ${error instanceof LockBusyError ? error.message : errnoText(error)}`);
    }
    this.#savedFetches = fetches;
  }

  /**
   * Writes a new FILE (the lock held): FILE's records that this cache has no newer copy of,
   * then this cache's, at most MAX_ENTRIES (the most recently fetched).
   */
  async #write(cache: RobotsCache, held: () => boolean): Promise<void> {
    const ours = cachedRecords(cache);
    const oursAt = new Map(ours.map((r) => [r.origin, r.fetchedAt]));
    const theirsNewer = new Set<string>();
    const times: number[] = [];
    const header = nextHeader((await this.#currentHeader()) ?? this.#header);
    let temp = await this.#writeTemp(headerLine(header), async (writer) => {
      const read = await this.#read(async (checked, line) => {
        const { origin, fetchedAt } = checked.record;
        const mine = oursAt.get(origin);
        if (mine !== undefined && mine >= fetchedAt) return;
        if (mine !== undefined) theirsNewer.add(origin);
        await (line === undefined ? writer.write(recordLine(checked.record)) : writer.writeLine(line));
        times.push(fetchedAt);
      });
      if (read !== undefined && 'unusable' in read) await this.#setAside(read, 'writing this run\'s cache in its place');
      for (const r of ours) {
        if (theirsNewer.has(r.origin)) continue;
        await writer.write(recordLine(r.record()));
        times.push(r.fetchedAt);
      }
    });
    if (times.length > MAX_ENTRIES) temp = await this.#cap(temp, newest(times), headerLine(header));
    await this.#replace(temp, held);
    [this.#header, this.#holds] = [header, true];
  }

  /** FILE's header now, or undefined (no FILE, or one without a header). */
  async #currentHeader(): Promise<Header | undefined> {
    const handle = await open(this.#target, 'r').catch(() => undefined);
    if (handle === undefined) return undefined;
    try {
      const start = await prefixOf(handle, 128);
      const lf = start.indexOf(0x0a);
      return lf < 0 ? undefined : parseHeader(start.subarray(0, lf));
    } finally {
      await handle.close();
    }
  }

  /** A temporary file holding `header` and the lines `fill` writes, fsynced; removed when anything fails. */
  async #writeTemp(header: string, fill: (writer: BufferedWriter) => Promise<void>): Promise<string> {
    const temp = join(this.#dir, `${this.#tempPrefix}${process.pid}.${randomBytes(4).toString('hex')}.${hostname()}.tmp`);
    const handle = await open(temp, 'wx');
    try {
      try {
        const writer = new BufferedWriter(handle);
        await writer.write(header);
        await fill(writer);
        await writer.flush();
        await handle.sync();
      } finally {
        await handle.close();
      }
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    return temp;
  }

  /** A copy of the temporary file `temp` with only the records `keep` marks; `temp` is removed. */
  async #cap(temp: string, keep: Uint8Array, header: string): Promise<string> {
    const source = await open(temp, 'r');
    try {
      return await this.#writeTemp(header, async (writer) => {
        let i = -1;
        for await (const line of fileLines(source)) {
          if (i >= 0 && line !== undefined && keep[i] === 1) await writer.writeLine(line);
          i++;
        }
      });
    } finally {
      await source.close();
      await rm(temp, { force: true });
    }
  }

  /** Renames the temporary file `temp` over FILE while the lock is this run's; removes it when it cannot. */
  async #replace(temp: string, held: () => boolean): Promise<void> {
    try {
      if (!held()) throw new Error(`another run took the lock ${this.#lock}`);
      await rename(temp, this.#target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    await syncDirectory(this.#dir);
  }
}
