// A lock file next to a file that several runs share (the filter command's cache): created
// with O_EXCL, it names its owner (pid, host, time) and a random token, by which the owner knows
// the lock is still its own (an inode is reused by the next file created). Runs hold it only while they read and
// replace the shared file, so a waiting run waits briefly. A lock whose owner died (kill -9
// during the write) is taken over: on the same host when its process is gone, elsewhere when
// it is older than any write takes.

import { randomBytes } from 'node:crypto';
import { link, open, readFile, rename, rm } from 'node:fs/promises';
import { readFileSync, unlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/** How long a run waits for another to release the lock. */
const WAIT_MS = 30_000;
/** A lock from another host is stale after this; a lock without an owner line, after STALE_EMPTY_MS. */
const STALE_REMOTE_MS = 10 * 60_000;
const STALE_EMPTY_MS = 10_000;

interface Owner {
  pid: number;
  host: string;
  since: number;
  /** Random: which taking of the lock this is. */
  token?: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Is the process `pid` of this host alive? (EPERM: it is, under another user.) */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function ownerOf(text: string): Owner | undefined {
  try {
    const owner = JSON.parse(text) as Owner;
    return Number.isSafeInteger(owner.pid) && typeof owner.host === 'string' && typeof owner.since === 'number' ? owner : undefined;
  } catch {
    return undefined;
  }
}

/** Why the lock at `path` is still held, or undefined when it is gone or stale and was removed. */
async function holder(path: string): Promise<string | undefined> {
  let text: string;
  let age: number;
  try {
    const handle = await open(path, 'r');
    try {
      age = Date.now() - (await handle.stat()).mtimeMs;
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const owner = ownerOf(text);
  const stale = owner === undefined ? age > STALE_EMPTY_MS : owner.host === hostname() ? !isAlive(owner.pid) : age > STALE_REMOTE_MS;
  if (!stale) return owner === undefined ? `${path} is being created` : `${path} is held by process ${owner.pid} on ${owner.host} since ${new Date(owner.since).toISOString()}`;
  // Move the stale lock aside, then make sure it is the one judged stale: a run may have taken
  // the lock in between, and its lock goes back.
  const aside = `${path}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await rename(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if ((await readFile(aside, 'utf8').catch(() => text)) !== text) await link(aside, path).catch(() => undefined);
  await rm(aside, { force: true });
  return undefined;
}

/** Creates the lock file, naming this run; its text, or undefined when it exists. */
async function create(path: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(path, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw error;
  }
  try {
    const text = JSON.stringify({ pid: process.pid, host: hostname(), since: Date.now(), token: randomBytes(16).toString('hex') } satisfies Owner);
    await handle.writeFile(text);
    return text;
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  } finally {
    await handle.close();
  }
}

/** The lock file could not be taken in time. */
export class LockBusyError extends Error {}

/**
 * Runs `work` holding the lock file `path`; `held()` says whether the lock is still this run's
 * (check it just before a step that must not race). Errors creating the lock (a missing or
 * read-only directory) reject as they are; waiting longer than WAIT_MS is a LockBusyError.
 */
export async function withLock<T>(path: string, work: (held: () => boolean) => Promise<T>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  let mine: string | undefined;
  for (let delay = 10; (mine = await create(path)) === undefined; delay = Math.min(delay * 2, 200)) {
    const busy = await holder(path);
    if (busy === undefined) continue;
    if (Date.now() > deadline) throw new LockBusyError(`${busy}; remove it if no robots-wasm runs there`);
    await sleep(delay);
  }
  const held = () => {
    try {
      return readFileSync(path, 'utf8') === mine;
    } catch {
      return false;
    }
  };
  try {
    return await work(held);
  } finally {
    if (held()) unlinkSync(path);
  }
}
