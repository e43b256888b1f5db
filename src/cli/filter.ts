// `robots-wasm filter`: URLs from many hosts in, the allowed ones out. Each origin's robots.txt
// is fetched once through RobotsCache (RFC 9309 access rules, concurrency, timeouts). Lines are
// decided by RobotsCache.checkMany in small batches, several in flight so that the fetches of
// upcoming origins overlap, and each batch is written as soon as it and those before it are
// decided: output goes out as the run goes, in input order, each allowed line byte for byte
// as read. Origins whose robots.txt was unreachable or unavailable are reported on stderr, and
// lines that are no absolute http(s) URL are counted there at the end (--strict: exit 1).
// Lines waiting for their turn hold verdicts, never files: memory is the cache's budget plus
// the fetches in flight, whatever the frontier's order.
// With --cache the cache is kept in a file between runs (cache-file.ts); with --store several
// runs share it through Redis as they go (robots-wasm/redis).

import { RobotsCache, type RobotsCacheOptions } from '../fetch/cache.js';
import type { RobotsFetchResult } from '../fetch/fetch.js';
import { originOf } from '../fetch/origin.js';
import { CacheFile } from './cache-file.js';
import {
  agentValue, asUsage, describeLongLine, examplePath, inputBlocks, integerValue, MAX_LINE_BYTES, MAX_TIMER_MS, modeOf, OutputError, parse,
  Progress, reportAccess, stringValue, UsageError, warn, write, type LongLine,
} from './io.js';
import { openStore, reportStoreEvent, STORE_HELP, STORE_OPTIONS } from './store.js';

/** `robots-wasm filter --help`. */
export const FILTER_HELP = `usage: robots-wasm filter --agent NAME [options] [URLS_FILE | -]

Prints the URLs (one per line, any number of hosts) that the agent may fetch, in order, as
they are decided. Each origin's robots.txt is fetched once: 4xx allows everything, 5xx and
network errors disallow everything (RFC 9309 2.3.1); each origin that was unavailable or
unreachable is named on stderr with the reason. Lines that are not absolute http(s) URLs are
skipped and counted on stderr at the end (with the first one); a line longer than
${MAX_LINE_BYTES} bytes is reported on stderr and the exit code is 1.

  --agent NAME        the crawler's product token (required)
  --user-agent TEXT   the User-Agent header (default: the agent)
  --mode rfc|google   matching semantics (default rfc)
  --concurrency N     robots.txt fetches at once (default 32)
  --timeout MS        time for each robots.txt fetch, 1 to ${MAX_TIMER_MS} (default 10000)
  --cache FILE        keep the cache in FILE between runs: read at the start if it exists,
                      written every --checkpoint ms while fetching, at the end, and on
                      SIGINT/SIGTERM/SIGHUP; each write replaces FILE whole (a temporary file
                      renamed over it; a symbolic link's target) under FILE.lock, merging what
                      FILE holds then; FILE is read and written one checksummed record at a
                      time, a damaged record is skipped; a FILE that is no cache (or an old
                      JSON one over 64 MiB) is renamed FILE.corrupt-<time>, the run starts empty
  --checkpoint MS     how often the cache is written while fetching (default 60000)
  --strict            exit with 1 when any line was skipped (after printing the allowed URLs)
${STORE_HELP}

example: robots-wasm filter --agent ExampleBot --cache robots-cache ${examplePath('urls.txt')}`;

const BLOCK_BYTES = 1 << 16;
const BATCH_LINES = 256;
const BATCHES_IN_FLIGHT = 16;

/** Lines of one block: the URLs to decide, where each line is in `bytes`, and their origins. */
interface Batch {
  bytes: Buffer;
  /** Start and end (without the line end) of each line in `bytes`. */
  spans: number[];
  urls: string[];
  origins: Set<string>;
  /** The input's bytes up to the end of the batch's last line: how far the run is once it is written. */
  inputEnd: number;
}

/** The most characters of a skipped line quoted on stderr. */
const QUOTED_CHARS = 200;

/** Lines that are not absolute http(s) URLs: there is no robots.txt to ask, so they are skipped. */
class Skips {
  count = 0;
  #first = '';

  add(line: number, url: string): void {
    if (this.count++ > 0) return;
    const quoted = url.length > QUOTED_CHARS ? `${url.slice(0, QUOTED_CHARS)}...` : url;
    this.#first = `first at line ${line}: ${JSON.stringify(quoted)}`;
  }

  /** The line filter prints on stderr at the end, '' when nothing was skipped. */
  message(): string {
    if (this.count === 0) return '';
    const what = this.count === 1 ? '1 line skipped (not an absolute http(s) URL)' : `${this.count} lines skipped (not absolute http(s) URLs)`;
    return `${what}, ${this.#first}`;
  }
}

/** Cuts the input's blocks into batches, counting lines (for the skipped ones) and bytes (for progress). */
class Batcher {
  readonly skips = new Skips();
  /** Lines and bytes of the input before the next block. */
  line = 0;
  offset = 0;

  /** The lines of a block, in batches of up to BATCH_LINES; blank lines and skipped ones are left out. */
  batchesOf(block: Uint8Array): Batch[] {
    const bytes = Buffer.from(block);
    const batches: Batch[] = [];
    for (let start = 0; start < bytes.length;) {
      let lf = bytes.indexOf(0x0a, start);
      if (lf < 0) lf = bytes.length;
      this.line++;
      this.#take(batches, bytes, start, lf);
      start = lf + 1;
    }
    this.offset += bytes.length;
    return batches;
  }

  /** Puts the line `bytes[start, lf)` in the last batch (or a new one), or counts it as skipped. */
  #take(batches: Batch[], bytes: Buffer, start: number, lf: number): void {
    const end = lf > start && bytes[lf - 1] === 0x0d ? lf - 1 : lf;
    if (end === start) return;
    const url = bytes.toString('utf8', start, end);
    const origin = originOf(url);
    if (origin === undefined) return this.skips.add(this.line, url);
    let batch = batches.at(-1);
    if (batch === undefined || batch.urls.length === BATCH_LINES) batches.push((batch = { bytes, spans: [], urls: [], origins: new Set(), inputEnd: 0 }));
    batch.spans.push(start, end);
    batch.urls.push(url);
    batch.origins.add(origin);
    batch.inputEnd = this.offset + lf + 1;
  }

  /** A line too long to read counts as one line. */
  skipLongLine(line: LongLine): void {
    this.line++;
    this.offset = line.offset + line.bytes + 1;
  }
}

/** The allowed lines of a decided batch, each with a LF. */
function allowedLines(batch: Batch, verdicts: Uint8Array): Buffer {
  let size = 0;
  for (let i = 0; i < verdicts.length; i++) if (verdicts[i] === 1) size += batch.spans[2 * i + 1] - batch.spans[2 * i] + 1;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (let i = 0; i < verdicts.length; i++) {
    if (verdicts[i] !== 1) continue;
    at += batch.bytes.copy(out, at, batch.spans[2 * i], batch.spans[2 * i + 1]);
    out[at++] = 0x0a;
  }
  return out;
}

/** Writes decided batches in input order, each as soon as it and those before it are decided. */
class OrderedOutput {
  /** Rejects when a batch fails (a write, mostly), so that reading stops waiting for input. */
  readonly failed: Promise<never>;
  readonly #fail: (error: unknown) => void;
  readonly #pending: Promise<void>[] = [];
  #last: Promise<void> = Promise.resolve();
  /** The results already reported: each fetch is reported once. */
  readonly #reported = new WeakSet<RobotsFetchResult>();
  kept = 0;

  constructor(readonly cache: RobotsCache, readonly progress: Progress) {
    let fail: (error: unknown) => void = () => undefined;
    this.failed = new Promise<never>((_, reject) => (fail = reject));
    this.failed.catch(() => undefined);
    this.#fail = fail;
  }

  /** Starts deciding a batch; waits while BATCHES_IN_FLIGHT batches are not written yet. */
  async add(batch: Batch): Promise<void> {
    // The origins' results come from the same fetches as the verdicts (get() shares them) and
    // are reported as they arrive: a batch waiting for its turn keeps its verdicts, no file.
    const reported = Promise.all([...batch.origins].map((origin) => this.cache.get(origin).then((r) => this.#report(r))));
    const decided = Promise.all([this.cache.checkMany(batch.urls), reported]);
    this.#last = Promise.all([this.#last, decided]).then(([, [verdicts]]) => {
      this.kept += verdicts.reduce((n, v) => n + v, 0);
      // Progress counts decided lines, not lines read: reading runs ahead by the batches in flight.
      this.progress.update(batch.inputEnd, this.kept);
      return write(allowedLines(batch, verdicts));
    });
    this.#last.catch(this.#fail);
    this.#pending.push(this.#last);
    while (this.#pending.length > BATCHES_IN_FLIGHT) await this.#pending.shift();
  }

  /** Waits until every batch is written. */
  async done(): Promise<void> {
    await this.#last;
  }

  #report(r: RobotsFetchResult): void {
    if (this.#reported.has(r)) return;
    this.#reported.add(r);
    reportAccess(r);
  }
}

/** What a run could not decide: lines too long to read, and lines skipped as no URL. */
interface Tally {
  unchecked: number;
  skipped: number;
}

/** Decides every line of the input; says at the end how many lines were skipped. */
async function run(cache: RobotsCache, input: ReturnType<typeof inputBlocks>): Promise<Tally> {
  const progress = new Progress(input.size);
  const output = new OrderedOutput(cache, progress);
  const batcher = new Batcher();
  let unchecked = 0;
  for (let next; !(next = await Promise.race([input.blocks.next(), output.failed])).done;) {
    const item = next.value;
    if (item instanceof Uint8Array) {
      for (const batch of batcher.batchesOf(item)) await output.add(batch);
      continue;
    }
    unchecked++;
    batcher.skipLongLine(item);
    warn(describeLongLine(item));
  }
  await output.done();
  progress.done();
  const skipped = batcher.skips.message();
  if (skipped !== '') warn(skipped);
  return { unchecked, skipped: batcher.skips.count };
}

/** The exit code of a run: 1 when a line was too long, or with --strict when a line was skipped. */
function exitCode(tally: Tally, strict: boolean): number {
  return tally.unchecked > 0 || (strict && tally.skipped > 0) ? 1 : 0;
}

/** Runs `robots-wasm filter`; resolves with the exit code. */
export async function filter(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    agent: { type: 'string' }, 'user-agent': { type: 'string' }, mode: { type: 'string' }, concurrency: { type: 'string' },
    timeout: { type: 'string' }, cache: { type: 'string' }, checkpoint: { type: 'string' }, strict: { type: 'boolean' }, ...STORE_OPTIONS,
  });
  if (values.help) return (await write(`${FILTER_HELP}\n`), 0);
  const agent = agentValue(values);
  if (positionals.length > 1) throw new UsageError(`unexpected argument: ${positionals[1]}`);
  const options: RobotsCacheOptions = {
    agent, userAgent: stringValue(values, 'user-agent'), mode: modeOf(values),
    concurrency: integerValue(values, 'concurrency', 32), timeoutMs: integerValue(values, 'timeout', 10_000),
  };
  const checkpointMs = integerValue(values, 'checkpoint', 60_000);
  const store = await openStore(values);
  try {
    return await filterWith(store === undefined ? options : { ...options, store, onStoreEvent: reportStoreEvent }, positionals[0], values, checkpointMs);
  } finally {
    await store?.close();
  }
}

/** filter() once its options are read: runs with or without a cache file. */
async function filterWith(options: RobotsCacheOptions, inputPath: string | undefined, values: Record<string, unknown>, checkpointMs: number): Promise<number> {
  const empty = await asUsage(() => new RobotsCache(options));
  const input = inputBlocks(inputPath, BLOCK_BYTES);
  const cachePath = stringValue(values, 'cache');
  const strict = values.strict === true;
  if (cachePath === undefined) return exitCode(await run(empty, input), strict);
  const { file, cache } = await CacheFile.open(cachePath, options);
  const stop = file.keep(cache, checkpointMs);
  // The cache is written even when the run fails (say, stdout is full): what was fetched is kept.
  const outcome = await run(cache, input).then((tally) => ({ tally }), (error: unknown) => ({ error }));
  stop();
  const saved = await file.close(cache).then(() => true, (error: Error) => (warn(error.message), false));
  // A reader that closed the pipe (`... | head`) ends the run: no error, unless saving failed.
  const closed = 'error' in outcome && outcome.error instanceof OutputError && outcome.error.closed;
  if ('error' in outcome && !closed) throw outcome.error;
  if (!saved) return 1;
  return 'tally' in outcome ? exitCode(outcome.tally, strict) : 0;
}
