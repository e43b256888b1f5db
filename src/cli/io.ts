// What every command shares: errors and one-line messages, option parsing with node:util's
// parseArgs, loading a robots.txt from a file or a URL, reading inputs as whole lines, output
// with backpressure, colour and progress on a TTY, and the paths of the bundled examples.

import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync, statSync, writeSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getSystemErrorMap, parseArgs, type ParseArgsConfig } from 'node:util';
import { fetchRobotsTxt, type RobotsFetchResult } from '../fetch/fetch.js';
import { interleavedGroups } from '../robots/groups.js';
import type { Mode } from '../robots/options.js';
import { RobotsTxt } from '../robots-txt.js';
import { etaSeconds, nextRate, startRate } from './eta.js';

/** A mistake on the command line: printed as one line, exit code 2. */
export class UsageError extends Error {}

/**
 * stdout could not be written: a full disk or a device that refuses is one line and exit code
 * 1; a reader that closed the pipe (`... | head`) is no error, the run just ends (`closed`).
 */
export class OutputError extends Error {
  constructor(message: string, readonly closed = false) {
    super(message);
  }
}

/** A system error as words and its code ("no space left on device (ENOSPC)"), else the message. */
export function errnoText(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  const known = typeof e?.errno === 'number' ? getSystemErrorMap().get(e.errno) : undefined;
  if (known !== undefined) return `${known[1]} (${known[0]})`;
  return e?.code ?? (error instanceof Error ? error.message : String(error));
}

/** A message as one line, without the library's own "robots-wasm: " (the CLI prints it once). */
export function oneLine(message: string): string {
  return message.replace(/^robots-wasm: /, '').replace(/[\r\n]+/g, ' ');
}

/** The progress line on stderr, '' when none is shown: a message clears it, then it is drawn again. */
let progressLine = '';

/** Prints "robots-wasm: message" on stderr, one line. */
export function warn(message: string): void {
  const text = `robots-wasm: ${oneLine(message)}\n`;
  process.stderr.write(progressLine === '' ? text : `\r\u001b[K${text}${progressLine}\u001b[K`);
}

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

/** The --agent option: required and not empty (an empty token names no crawler: only * would apply). */
export function agentValue(values: Record<string, unknown>): string {
  const agent = stringValue(values, 'agent', true)!;
  if (agent.trim() === '') throw new UsageError('--agent must not be empty');
  return agent;
}

/** The most milliseconds a timer takes (2^31 - 1): Node runs a longer one at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** An integer option of 1..`max` written in decimal digits, or `fallback` when absent. */
export function integerValue(values: Record<string, unknown>, name: string, fallback: number, max = MAX_TIMER_MS): number {
  const raw = values[name] as string | undefined;
  if (raw === undefined) return fallback;
  const n = /^[0-9]{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(n >= 1 && n <= max)) throw new UsageError(`--${name} must be an integer from 1 to ${max}, got ${raw}`);
  return n;
}

/** Key-value pairs as `key=value, key=value` (AI usage preferences and signals), '' for none. */
export function pairsText(pairs: Record<string, string>): string {
  return Object.entries(pairs).map(([key, value]) => `${key}=${value}`).join(', ');
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

/** One line on what an access result means. */
export function describeAccess(r: RobotsFetchResult): string {
  const why = r.error ?? (r.httpStatus === undefined ? '' : `HTTP ${r.httpStatus}`);
  if (r.status === 'ok' && r.error !== undefined) return `robots.txt unreachable (${why}): the copy fetched ${new Date(r.fetchedAt).toISOString()} stays in force`;
  if (r.status === 'ok') return `robots.txt fetched (${why})`;
  if (r.status === 'unavailable') return `robots.txt unavailable (${why}): everything is allowed`;
  return `robots.txt unreachable (${why}): everything is disallowed`;
}

/** Says on stderr, naming the origin, when its robots.txt was not fetched as it should be. */
export function reportAccess(r: RobotsFetchResult): void {
  if (r.status !== 'ok' || r.error !== undefined) warn(`${r.origin}: ${describeAccess(r)}`);
}

/** Library misuse caused by an argument (a bad URL, an option out of range) is a UsageError. */
export async function asUsage<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw error instanceof TypeError ? new UsageError(error.message) : error;
  }
}

/**
 * A robots.txt from a file, or fetched (with the access rules of RFC 9309) from a URL or
 * origin; an unreachable or unavailable one is reported on stderr.
 */
export async function loadRobots(source: string | undefined, mode: Mode, userAgent: string | undefined): Promise<{ robots: RobotsTxt; interleaved: Interleaved }> {
  if (source === undefined) throw new UsageError('give a robots.txt file or URL');
  if (isUrl(source)) {
    const fetched = await asUsage(() => fetchRobotsTxt(source, { mode, userAgent }));
    reportAccess(fetched);
    return { robots: fetched.robots, interleaved: interleavedOf(fetched.robots, fetched.body) };
  }
  if (!existsSync(source)) throw new UsageError(`no such file: ${source}`);
  const body = readFile(source);
  const robots = RobotsTxt.parse(body, { mode });
  return { robots, interleaved: interleavedOf(robots, body) };
}

/** interleavedGroups of the part of `body` that `robots` was parsed from. */
export function interleavedOf(robots: RobotsTxt, body: Uint8Array | undefined): Interleaved {
  return body === undefined ? new Map() : interleavedGroups(body.subarray(0, robots.parsedBytes), robots.mode);
}

/** Groups whose user-agent lines have other lines between them: the lines between, by the group's line. */
export type Interleaved = Map<number, number[]>;

/** The interleaving of the group at line `group`, if its user-agent lines have other lines between them. */
export function interleavingOf(interleaved: Interleaved, group: number | undefined): { group: number; lines: number[] } | undefined {
  const lines = group === undefined ? undefined : interleaved.get(group);
  return lines === undefined ? undefined : { group: group!, lines };
}

/** Says that a group's agents share what its interleaved lines sit in. */
export function interleavingText({ group, lines }: { group: number; lines: number[] }, what: string): string {
  return `${what} comes from the group at line ${group}, whose user-agent lines have line${lines.length > 1 ? 's' : ''} ${lines.join(', ')} between them: under RFC 9309 all its agents share it`;
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

/**
 * The longest input line read (not counting its line end): 8 MiB, longer than any URL a
 * browser or server takes. A longer line is not split (its pieces would be checked as URLs of
 * their own) nor held: it is skipped to its end and reported as one LongLine, so memory stays
 * bounded.
 */
export const MAX_LINE_BYTES = 8 << 20;

/** An input line longer than MAX_LINE_BYTES: where it starts in the input, and its length. */
export interface LongLine {
  offset: number;
  bytes: number;
}

/** What a command says about a LongLine. */
export function describeLongLine(line: LongLine): string {
  return `the line at byte ${line.offset} is ${line.bytes} bytes long, more than ${MAX_LINE_BYTES}: not checked`;
}

/**
 * The input (a file, or stdin for `-` or none) as blocks of whole lines of at most about
 * `blockBytes` (the last may lack its line end), with a LongLine in place of each line longer
 * than MAX_LINE_BYTES. A file is read synchronously into one buffer that every block is a view
 * of: a block is valid until the next is asked for. Synchronous reads cost far less than a
 * read stream's, and nothing is allocated per block.
 */
export function inputBlocks(path: string | undefined, blockBytes: number): { blocks: AsyncGenerator<Uint8Array | LongLine>; size: number | undefined } {
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

/** The length of the line `bytes[start, end)` without a CR before its LF. */
function lineLength(bytes: Uint8Array, start: number, end: number): number {
  return end > start && bytes[end - 1] === 0x0d ? end - start - 1 : end - start;
}

/**
 * Reads `blockBytes` at a time, so a line inside one read is shorter than the limit: only the
 * line carried over from earlier reads (`held`) can be too long, and it is measured once.
 */
async function* lineBlocks(fill: Fill, blockBytes: number, close: () => void): AsyncGenerator<Uint8Array | LongLine> {
  let buffer = Buffer.allocUnsafeSlow(blockBytes);
  // Bytes at the start of `buffer` that belong to a line not yet ended; `base` is buffer[0]'s
  // offset in the input; `long` the over-long line being skipped.
  let held = 0;
  let base = 0;
  let long: LongLine | undefined;
  try {
    for (;;) {
      if (buffer.length - held < blockBytes) {
        // A held line has at most MAX_LINE_BYTES + 1 bytes (with a CR), so this is the most.
        const larger = Buffer.allocUnsafeSlow(Math.min(Math.max(buffer.length * 2, held + blockBytes), MAX_LINE_BYTES + 1 + blockBytes));
        larger.set(buffer.subarray(0, held));
        buffer = larger;
      }
      const n = await fill(buffer, held, blockBytes);
      const end = held + n;
      if (n === 0) {
        if (long !== undefined) yield long;
        else if (lineLength(buffer, 0, held) > MAX_LINE_BYTES) yield { offset: base, bytes: lineLength(buffer, 0, held) };
        else if (held > 0) yield buffer.subarray(0, held);
        return;
      }
      let start = 0;
      if (long !== undefined || (held > 0 && end > MAX_LINE_BYTES)) {
        const firstLf = buffer.subarray(0, end).indexOf(0x0a, held);
        if (long !== undefined) {
          // Skipping: held is 0, and nothing before the next LF is kept.
          long.bytes += firstLf < 0 ? n : firstLf;
          if (firstLf < 0) {
            base += n;
            continue;
          }
          yield long;
          long = undefined;
          start = firstLf + 1;
        } else if (firstLf >= 0 && lineLength(buffer, 0, firstLf) > MAX_LINE_BYTES) {
          yield { offset: base, bytes: lineLength(buffer, 0, firstLf) };
          start = firstLf + 1;
        }
      }
      // Only the new bytes: the held ones hold no LF.
      const from = Math.max(start, held);
      const lastLf = from + buffer.subarray(from, end).lastIndexOf(0x0a);
      if (lastLf < from) {
        // No line ends here: [start, end) begins a line, which is too long once it has more
        // bytes than a line and a CR.
        if (end - start > MAX_LINE_BYTES + 1) {
          long = { offset: base + start, bytes: end - start };
          base += end;
          held = 0;
          continue;
        }
      } else {
        yield buffer.subarray(start, lastLf + 1);
        start = lastLf + 1;
      }
      buffer.copyWithin(0, start, end);
      base += start;
      held = end - start;
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

/** The error for a failed write to stdout. */
function outputError(error: unknown): OutputError {
  return new OutputError(`cannot write the output: ${errnoText(error)}`, (error as NodeJS.ErrnoException).code === 'EPIPE');
}

/** Writes all of `bytes` to stdout before returning (stdoutIsFile only). */
export function writeFileOutput(bytes: Uint8Array): void {
  try {
    for (let done = 0; done < bytes.length;) done += writeSync(1, bytes, done, bytes.length - done);
  } catch (error) {
    throw outputError(error);
  }
}

/**
 * Writes to stdout and resolves once the data is handed to the system, so output never piles
 * up in memory; a failed write rejects with an OutputError.
 */
export function write(data: string | Uint8Array): Promise<void> {
  if (data.length === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    process.stdout.write(data, (error) => (error ? reject(outputError(error)) : resolve()));
  });
}

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));

/**
 * The path of a bundled example file (they ship with the package) as a help text shows it:
 * relative to the working directory when under it, else absolute, quoted for a shell if needed.
 */
export function examplePath(name: string): string {
  const absolute = join(EXAMPLES, name);
  const near = relative(process.cwd(), absolute);
  const shown = near.startsWith('..') || isAbsolute(near) ? absolute : near;
  return /^[\w./-]+$/.test(shown) ? shown : `'${shown.replaceAll("'", "'\\''")}'`;
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
  #rate = startRate();
  #shown = 0;

  constructor(readonly total: number | undefined, minBytes = 8 << 20) {
    this.#enabled = process.stderr.isTTY === true && (total === undefined || total >= minBytes);
  }

  /** `bytes` of the input done so far; `urls` kept so far, when that is what is counted. */
  update(bytes: number, urls?: number): void {
    if (!this.#enabled) return;
    const now = Date.now();
    this.#rate = nextRate(this.#rate, bytes, now);
    if (now - this.#shown < 250) return;
    this.#shown = now;
    progressLine = `\r${this.#line(bytes, urls, now)}`;
    process.stderr.write(`${progressLine}\u001b[K`);
  }

  /** Clears the progress line. */
  done(): void {
    if (this.#enabled && this.#shown > 0) process.stderr.write('\r\u001b[K');
    progressLine = '';
  }

  #line(bytes: number, urls: number | undefined, now: number): string {
    const seconds = Math.max((now - this.#started) / 1000, 0.001);
    const mb = bytes / 1e6;
    let line = urls === undefined ? `${mb.toFixed(1)} MB, ${(mb / seconds).toFixed(1)} MB/s` : `${urls.toLocaleString('en')} URLs kept`;
    if (this.total === undefined || bytes === 0) return line;
    line += `, ${Math.round((100 * bytes) / this.total)}%`;
    const eta = etaSeconds(this.#rate, this.total, now);
    return eta === undefined ? line : `${line}, ETA ${eta} s`;
  }
}
