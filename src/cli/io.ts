// What every command shares: usage errors, option parsing with node:util's parseArgs, loading a
// robots.txt from a file or a URL, reading inputs, buffered output with backpressure, colour
// and progress on a TTY.

import { closeSync, createReadStream, existsSync, fstatSync, openSync, readFileSync, readSync, statSync, writeSync } from 'node:fs';
import { once } from 'node:events';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { fetchRobotsTxt, type RobotsFetchResult } from '../fetch/fetch.js';
import type { Mode } from '../robots/options.js';
import { RobotsTxt } from '../robots-txt.js';

/** A mistake on the command line: printed as one line, exit code 2. */
export class UsageError extends Error {}

export type Options = NonNullable<ParseArgsConfig['options']>;

/** Parses a command's arguments; unknown flags and bad values are UsageErrors. */
export function parse(args: string[], options: Options): { values: Record<string, string | boolean | string[] | undefined>; positionals: string[] } {
  try {
    return parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (error) {
    // parseArgs explains at length how to pass a positional that starts with '-': one line is enough.
    const message = (error as Error).message.split('\n')[0];
    throw new UsageError(message.replace(/^Unknown option '([^']*)'.*$/, "unknown option '$1'"));
  }
}

/** The string value of option `name`; a UsageError when it is required and missing. */
export function stringValue(values: Record<string, unknown>, name: string, required = false): string | undefined {
  const value = values[name];
  if (value === undefined && required) throw new UsageError(`--${name} is required`);
  return value as string | undefined;
}

/** The --mode option (rfc or google, default rfc). */
export function modeOf(values: Record<string, unknown>): Mode {
  const mode = (values.mode as string | undefined) ?? 'rfc';
  if (mode !== 'rfc' && mode !== 'google') throw new UsageError(`--mode must be rfc or google, got ${mode}`);
  return mode;
}

/** A positive integer option, or `fallback` when absent. */
export function integerValue(values: Record<string, unknown>, name: string, fallback: number): number {
  const raw = values[name] as string | undefined;
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} must be a positive integer, got ${raw}`);
  return n;
}

/** Does the argument name an http(s) URL rather than a file? */
export function isUrl(text: string): boolean {
  return /^https?:\/\//i.test(text);
}

/** Reads a file as bytes; a missing or unreadable file is a UsageError. */
export function readFile(path: string): Uint8Array {
  try {
    if (statSync(path).isDirectory()) throw new UsageError(`${path} is a directory`);
    return readFileSync(path);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** A robots.txt from a file, or fetched (with the access rules of RFC 9309) from a URL or origin. */
export async function loadRobots(source: string | undefined, mode: Mode, userAgent: string | undefined): Promise<{ robots: RobotsTxt; fetched?: RobotsFetchResult }> {
  if (source === undefined) throw new UsageError('give a robots.txt file or URL');
  if (isUrl(source)) {
    const fetched = await fetchRobotsTxt(source, { mode, userAgent });
    return { robots: fetched.robots, fetched };
  }
  if (!existsSync(source)) throw new UsageError(`no such file: ${source}`);
  return { robots: RobotsTxt.parse(readFile(source), { mode }) };
}

/** Checks an input argument: a file, or stdin for `-` or none (refused when stdin is a terminal). */
function inputSource(path: string | undefined): { path: string | undefined; size: number | undefined } {
  if (path === undefined || path === '-') {
    if (path === undefined && process.stdin.isTTY) throw new UsageError('no input: give a file of URLs, or pipe them in');
    return { path: undefined, size: undefined };
  }
  if (!existsSync(path)) throw new UsageError(`no such file: ${path}`);
  const stats = statSync(path);
  if (stats.isDirectory()) throw new UsageError(`${path} is a directory`);
  return { path, size: stats.size };
}

/** A stream of input bytes: a file, or stdin for `-` or none (refused when stdin is a terminal). */
export function inputStream(path: string | undefined, chunkBytes = 1 << 20): { stream: NodeJS.ReadableStream; size: number | undefined } {
  const source = inputSource(path);
  const stream = source.path === undefined ? process.stdin : createReadStream(source.path, { highWaterMark: chunkBytes });
  return { stream, size: source.size };
}

/** Reads up to `length` bytes into `buffer` at `offset`; 0 at the end of the input. */
type Fill = (buffer: Uint8Array, offset: number, length: number) => number | Promise<number>;

/** A Fill that takes the chunks of a stream (stdin) in turn. */
function streamFill(stream: NodeJS.ReadableStream): Fill {
  const chunks = (stream as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  let chunk: Uint8Array = new Uint8Array(0);
  let used = 0;
  return async (buffer, offset, length) => {
    while (used === chunk.length) {
      const next = await chunks.next();
      if (next.done === true) return 0;
      chunk = next.value;
      used = 0;
    }
    const n = Math.min(length, chunk.length - used);
    buffer.set(chunk.subarray(used, used + n), offset);
    used += n;
    return n;
  };
}

/** A line longer than this is passed on in pieces rather than buffered whole. */
const MAX_LINE_BYTES = 64 << 20;

/**
 * The input (a file, or stdin for `-` or none) as blocks of whole lines of about `blockBytes`
 * (the last may lack its line end). A file is read synchronously into one buffer that every
 * block is a view of: a block is valid until the next is asked for. Synchronous reads of a
 * file cost a third of a read stream's here, and nothing is allocated per block.
 */
export function inputBlocks(path: string | undefined, blockBytes: number): { blocks: AsyncGenerator<Uint8Array>; size: number | undefined } {
  const source = inputSource(path);
  let fill: Fill;
  let close = () => {};
  if (source.path === undefined) {
    fill = streamFill(process.stdin);
  } else {
    const fd = openSync(source.path, 'r');
    fill = (buffer, offset, length) => readSync(fd, buffer, offset, length, null);
    close = () => closeSync(fd);
  }
  return { blocks: lineBlocks(fill, blockBytes, close), size: source.size };
}

async function* lineBlocks(fill: Fill, blockBytes: number, close: () => void): AsyncGenerator<Uint8Array> {
  let buffer = Buffer.allocUnsafeSlow(blockBytes);
  // Bytes at the start of `buffer` that belong to a line not yet ended.
  let held = 0;
  try {
    for (;;) {
      if (held === buffer.length) {
        if (held >= MAX_LINE_BYTES) {
          yield buffer.subarray(0, held);
          held = 0;
        } else {
          const larger = Buffer.allocUnsafeSlow(buffer.length * 2);
          larger.set(buffer);
          buffer = larger;
        }
      }
      const n = await fill(buffer, held, buffer.length - held);
      if (n === 0) {
        if (held > 0) yield buffer.subarray(0, held);
        return;
      }
      const filled = held + n;
      // Only the new bytes: the held ones hold no LF, and a long line arrives in many reads.
      const lastLf = held + buffer.subarray(held, filled).lastIndexOf(0x0a);
      if (lastLf < held) {
        held = filled;
        continue;
      }
      yield buffer.subarray(0, lastLf + 1);
      buffer.copyWithin(0, lastLf + 1, filled);
      held = filled - lastLf - 1;
    }
  } finally {
    close();
  }
}

/**
 * stdout is a file or a device such as /dev/null, not a terminal: Node writes to it
 * synchronously, so output can go out straight from memory that is reused afterwards. Pipes,
 * terminals and sockets may be written later, from a buffer the stream keeps.
 */
export const stdoutIsFile = (() => {
  try {
    const stat = fstatSync(1);
    return stat.isFile() || (stat.isCharacterDevice() && process.stdout.isTTY !== true);
  } catch {
    return false;
  }
})();

/** Writes all of `bytes` to stdout before returning (stdoutIsFile only). */
export function writeFileOutput(bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length;) done += writeSync(1, bytes, done, bytes.length - done);
}

/** Writes to stdout and waits when the pipe is full, so output never piles up in memory. */
export async function write(data: string | Uint8Array): Promise<void> {
  if (data.length === 0) return;
  if (!process.stdout.write(data)) await once(process.stdout, 'drain');
}

const useColour = process.stdout.isTTY === true && process.env.NO_COLOR === undefined;

/** Wraps text in an ANSI colour when stdout is a terminal. */
export function colour(code: 'red' | 'yellow' | 'green' | 'dim' | 'bold', text: string): string {
  if (!useColour) return text;
  const codes = { red: 31, yellow: 33, green: 32, dim: 2, bold: 1 };
  return `\u001b[${codes[code]}m${text}\u001b[0m`;
}

/** Progress on stderr (amount, rate, ETA when the size is known), only when stderr is a terminal. */
export class Progress {
  readonly #enabled: boolean;
  readonly #started = Date.now();
  #shown = 0;

  constructor(readonly total: number | undefined, minBytes = 8 << 20) {
    this.#enabled = process.stderr.isTTY === true && (total === undefined || total >= minBytes);
  }

  /** `bytes` of the input read so far; `urls` kept so far, when that is what is counted. */
  update(bytes: number, urls?: number): void {
    if (!this.#enabled) return;
    const now = Date.now();
    if (now - this.#shown < 250) return;
    this.#shown = now;
    const seconds = Math.max((now - this.#started) / 1000, 0.001);
    const mb = bytes / 1e6;
    let line = urls === undefined ? `${mb.toFixed(1)} MB, ${(mb / seconds).toFixed(1)} MB/s` : `${urls.toLocaleString('en')} URLs kept`;
    if (this.total !== undefined && bytes > 0) {
      line += `, ${Math.round((100 * bytes) / this.total)}%, ETA ${Math.ceil((seconds * (this.total - bytes)) / bytes)} s`;
    }
    process.stderr.write(`\r${line}\u001b[K`);
  }

  done(): void {
    if (this.#enabled && this.#shown > 0) process.stderr.write('\r\u001b[K');
  }
}
