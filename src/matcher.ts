// Matcher: one agent's merged group compiled into a table in WebAssembly memory, and every
// way of asking it for verdicts. The table is the kernel's: its format is src/wasm/abi.ts, and
// what this module knows of a table it asks the kernel's accessor exports.
//
// The public surface is the class's public members. What the library's own modules need
// besides (RobotsTxt, the CLI, RobotsPool and its workers, RobotsCache) are the functions at
// the end of this file, which reach the class's private members through `internal`; no entry
// point re-exports them.

import {
  IMAGE_BAD_LENGTH, IMAGE_OK, IMAGE_OTHER_VERSION, LINES_FILTER, LINES_REPORT, LINES_VERDICTS, RESULT_NO_MATCH,
  RESULT_OVER_LIMIT, RESULT_ROBOTS_TXT, VERDICT_OVER_LIMIT, RULE_KIND_ALLOW_BIT, RULE_KIND_DERIVED_BIT, TABLE_BAD_FILTER, TABLE_BAD_HEADER, TABLE_BAD_NODES,
  TABLE_BAD_RULES, TABLE_OK,
} from './wasm/abi.js';
import type { Mode } from './robots/options.js';
import { requireString } from './args.js';
import { concatBytes, lineChunkEnd } from './bytes.js';
import { batchArea, type PackedUrls } from './wasm/batch.js';
import { kernel } from './wasm/kernel.js';
import { lastDecidingReading, type DecidingReading } from './url/path.js';
import { alignUp } from './wasm/memory.js';
import { asciiString } from './wasm/strings.js';
import { admit, allocTable, linearArea, release, resident, TableBlock, touch, type TableSource } from './wasm/tables.js';

/** The rule that decided a verdict. */
export interface DecidingRule {
  kind: 'allow' | 'disallow';
  /** The pattern (as compiled: normalised, in the table's mode). */
  pattern: string;
  /** 1-based line in the robots.txt file. */
  line: number;
}

/** A verdict and the rule behind it (null when no rule matched, or for /robots.txt in RFC mode). */
export interface Explanation {
  allowed: boolean;
  rule: DecidingRule | null;
  /**
   * When clients send the URL in more than one way (a dot segment, a '\\', an empty query):
   * the request-target that decided, the first one disallowed, or when all are allowed the URL
   * standard's (google mode: robots.cc's).
   */
  reading?: DecidingReading;
}

/** A compiled rule as stored in the table (internal: RobotsTxt maps it back to the file). */
export interface TableRuleInfo {
  /** 1-based line of the rule in the file: one rule per line, so it names the rule. */
  line: number;
  allow: boolean;
  derived: boolean;
  pattern: string;
}

/** A table image, loaded without validation: it was validated when the matcher was made. */
class TableImage implements TableSource {
  constructor(private readonly image: Uint8Array) {}

  build(): number {
    const ptr = allocTable(this.image.length);
    kernel().u8.set(this.image, ptr);
    return ptr;
  }
}

/**
 * A matcher answers from its linear table (FLAG_LINEAR) until what the linear table has cost
 * beyond what the full one would have reaches what compiling the full one costs, and then
 * compiles the full one: so a matcher never pays more than twice the cheaper of the two
 * choices, whatever its use, and a matcher of few checks pays no compile it cannot repay.
 *
 * Costs are counted in linear work, a unit being one rule tried by a linear check. The kernel
 * counts what each linear check does (src/wasm/abi.ts, LINEAR_FREE_RULES): the rules it tried
 * past the first few, each match it began past a rule's literal head, and the bytes its
 * wildcard searches read; it gives up on a check once the work passes the budget left, or
 * what one check of the table should cost, and the full table answers that check. Against it:
 * - compiling the full table costs FULL_COMPILE_WORK plus FULL_COMPILE_RULE_WORK a rule
 *   (linearBudget);
 * - making the linear table again, after another matcher's took the linear area, costs
 *   REMAKE_WORK plus REMAKE_RULE_WORK a rule (linearRemakeWork).
 * Their ratios are those `npm run bench -- linear` measures on real files (bench/README.md,
 * "Linear budget"), which also compares the checks the budget allows with those that repay
 * the full compile.
 */
const FULL_COMPILE_WORK = 800;
const FULL_COMPILE_RULE_WORK = 200;
const REMAKE_WORK = 160;
const REMAKE_RULE_WORK = 50;

/** The kernel's limit argument: the linear work a call may do (an i32). */
const MAX_LINEAR_LIMIT = 0x7fffffff;

/** The linear work of making a linear table of `rules` rules again (see FULL_COMPILE_WORK). */
function linearRemakeWork(rules: number): number {
  return REMAKE_WORK + REMAKE_RULE_WORK * rules;
}

/** The linear work a matcher of `rules` rules does before it compiles the full table: that compile's cost (see FULL_COMPILE_WORK). */
export function linearBudget(rules: number): number {
  return FULL_COMPILE_WORK + FULL_COMPILE_RULE_WORK * rules;
}

/** checkLines of more bytes than this makes the full table first. */
export const LINES_LINEAR_BYTES = 4096;

// checkLines copies its input into WASM memory this many bytes at a time, so memory stays
// bounded whatever the input size.
export const CHUNK_BYTES = 256 * 1024;

/** The part of a table image validateTable found damaged, by its code. */
const DAMAGED_PARTS: Record<number, string> = {
  [TABLE_BAD_HEADER]: 'header',
  [TABLE_BAD_RULES]: 'rules',
  [TABLE_BAD_NODES]: 'trie nodes',
  [TABLE_BAD_FILTER]: 'key filter',
};

/** The private members the internal functions below use; set by Matcher's static block. */
interface Internal {
  make(source: TableSource, ptr: number): Matcher;
  table(matcher: Matcher): number;
  checkOne(matcher: Matcher, url: string, fetched: boolean, verdict: boolean): number;
  checkRangeInto(matcher: Matcher, urls: readonly string[], from: number, to: number, out: Uint8Array, fetched: boolean): void;
  lines(matcher: Matcher, bytes: Uint8Array, mode: number): { output: Uint8Array; disallowed: number };
  linesTo(matcher: Matcher, bytes: Uint8Array, mode: number, sink: (output: Uint8Array) => void): number;
  whenDisposed(matcher: Matcher, hook: () => void): void;
  heldBytes(matcher: Matcher): number;
  linearLeft(matcher: Matcher): number;
}

let internal: Internal;

/**
 * One agent's merged group compiled into a table in WebAssembly memory: verdicts one at a
 * time, by the array or from a buffer of lines, and the table as a portable byte image.
 */
export class Matcher {
  /** The table's block; evicted (ptr 0) when the budget needed the room, and then made again. */
  readonly #block = new TableBlock();
  /** Size of the table made last (it stays when the matcher is disposed). */
  #size: number;
  /** Linear work the linear table may still do (linearBudget); Infinity once the table is the full one. */
  #linearLeft: number;
  /** What the table is made from; undefined once disposed. */
  #source: TableSource | undefined;
  /** Whether the source has no rules: every URL is allowed, and verdicts need no table. */
  readonly #allowsAll: boolean;
  #onDispose: (() => void)[] | undefined;

  static {
    internal = {
      make: (source, ptr) => new Matcher(source, ptr),
      table: (matcher) => matcher.#table(),
      checkOne: (matcher, url, fetched, verdict) => matcher.#checkOne(url, fetched, verdict),
      checkRangeInto: (matcher, urls, from, to, out, fetched) => matcher.#checkRangeInto(urls, from, to, out, fetched),
      lines: (matcher, bytes, mode) => matcher.#lines(bytes, mode),
      linesTo: (matcher, bytes, mode, sink) => matcher.#linesTo(bytes, mode, sink),
      whenDisposed: (matcher, hook) => (matcher.#onDispose ??= []).push(hook),
      heldBytes: (matcher) => matcher.#block.bytes,
      linearLeft: (matcher) => matcher.#linearLeft,
    };
  }

  /** `ptr`: the table source built, or 0 to build it at its first use. */
  private constructor(source: TableSource, ptr: number) {
    this.#source = source;
    this.#allowsAll = source.rules === 0;
    this.#linearLeft = source.linear === true ? linearBudget(source.rules ?? 0) : Infinity;
    this.#size = 0;
    if (ptr !== 0) {
      this.#size = kernel().fn.tableSize(ptr) >>> 0;
      admit(this.#block, ptr, this);
    }
  }

  /**
   * Loads a table image made by `toBytes()` (in this or another thread or process) without
   * re-parsing. Throws a TypeError when the bytes are not such an image, when they were
   * damaged (their checksum does not match), or when matching would read outside them (every
   * offset and count is checked).
   */
  static fromBytes(bytes: Uint8Array): Matcher {
    if (!(bytes instanceof Uint8Array)) throw new TypeError('robots-wasm: Matcher.fromBytes expects a Uint8Array');
    // A copy (slice() of a Buffer would be a view): the caller may reuse its array, and the
    // table is made again from it after an eviction.
    return matcherFromImage(new Uint8Array(bytes));
  }

  /**
   * The table's address: the linear table in the thread's linear area (made there again if
   * another matcher's is there), or the full table, made again first if it was evicted, and
   * marked most recently used.
   */
  #table(): number {
    if (this.#linearLeft !== Infinity) return linearArea.owner === this.#block ? linearArea.ptr : this.#linearTable();
    const block = this.#block;
    return block === resident.newest ? block.ptr : this.#resume();
  }

  /** Makes the linear table in the linear area; making it again counts as linear work. */
  #linearTable(): number {
    const source = this.#liveSource();
    const made = this.#size !== 0;
    if (made) {
      this.#charge(linearRemakeWork(source.rules ?? 0));
      if (this.#linearLeft === Infinity) return this.#table();
    }
    const ptr = source.build(linearArea);
    linearArea.owner = this.#block;
    this.#size = kernel().fn.tableSize(ptr) >>> 0;
    return ptr;
  }

  #resume(): number {
    const source = this.#liveSource();
    const block = this.#block;
    if (block.ptr === 0) {
      admit(block, source.build(), this);
      this.#size = kernel().fn.tableSize(block.ptr) >>> 0;
    } else {
      touch(block);
    }
    return block.ptr;
  }

  /** The table source; throws once the matcher is disposed. */
  #liveSource(): TableSource {
    const source = this.#source;
    if (source === undefined) throw new Error('robots-wasm: this matcher was disposed');
    return source;
  }

  /** Counts `work` more linear work (see LINEAR_FREE_RULES): past the budget, the full table replaces the linear one. */
  #charge(work: number): void {
    if ((this.#linearLeft -= work) < 0) this.#upgrade();
  }

  /** Whether the matcher answers from its linear table (until its budget is spent). */
  get #linear(): boolean {
    return this.#linearLeft !== Infinity;
  }

  /** The limit of a kernel check call: the linear work left, or none for the full table. */
  #limit(): number {
    return this.#linear ? Math.min(Math.floor(this.#linearLeft), MAX_LINEAR_LIMIT) : MAX_LINEAR_LIMIT;
  }

  /**
   * Charges a kernel call on the linear table `table` the work it reports, and says whether the
   * call gave up (`answer` RESULT_OVER_LIMIT or a negative count): then the full table, now made,
   * must answer it.
   */
  #gaveUp(table: number, gaveUp: boolean): boolean {
    if (table !== linearArea.ptr || !this.#linear) return false;
    this.#charge(kernel().fn.linearWork());
    if (gaveUp && this.#linear) this.#upgrade();
    return gaveUp;
  }

  /** Drops the linear table: the next #table() makes the full one, as after an eviction. */
  #upgrade(): void {
    if (this.#linearLeft === Infinity && this.#source?.linear !== true) return;
    this.#linearLeft = Infinity;
    // The full table is made at the next use; byteLength makes it when asked.
    this.#size = 0;
    if (linearArea.owner === this.#block) linearArea.owner = null;
    const source = this.#source;
    if (source === undefined) return; // #table() says it was disposed
    source.upgrade?.();
    release(this.#block);
  }

  /**
   * Frees the table now (and RobotsPool workers' copies of it) instead of when the table budget
   * or garbage collection would; the matcher is unusable afterwards.
   */
  dispose(): void {
    if (this.#source === undefined) return;
    this.#source = undefined;
    release(this.#block);
    if (linearArea.owner === this.#block) linearArea.owner = null;
    const hooks = this.#onDispose;
    this.#onDispose = undefined;
    if (hooks !== undefined) for (const hook of hooks) hook();
  }

  /** True once dispose() was called. */
  get disposed(): boolean {
    return this.#source === undefined;
  }

  /**
   * Size of the compiled table in bytes: the linear table's until the matcher has checked
   * enough URLs to make the full one (toBytes() makes it at once).
   */
  get byteLength(): number {
    if (this.#size === 0 && this.#source !== undefined) this.#table();
    return this.#size;
  }

  /** The semantics the table was compiled for. */
  get mode(): Mode {
    return kernel().fn.tableMode(this.#table()) === 1 ? 'rfc' : 'google';
  }

  /** Number of rules that can decide (non-empty patterns, index.htm variants included). */
  get ruleCount(): number {
    return kernel().fn.tableRuleCount(this.#table()) >>> 0;
  }

  /** The self-contained table image, for worker threads or storage; see Matcher.fromBytes. */
  toBytes(): Uint8Array {
    // Only full tables leave the thread: validateTable refuses linear ones.
    this.#upgrade();
    const ptr = this.#table();
    const k = kernel();
    k.fn.sealTable(ptr, this.#size);
    return k.u8.slice(ptr, ptr + this.#size);
  }

  /** checkOne of the kernel for `url`: the deciding rule's number, or with `verdict` 1 (allowed) or 0. */
  #checkOne(url: string, fetched: boolean, verdict: boolean): number {
    requireString(url, 'url');
    if (verdict && this.#allowsAll) {
      this.#liveSource();
      return 1;
    }
    // The table first: making it again uses the scratch block the URL is encoded into.
    const table = this.#table();
    const answer = kernel().checkUrl(table, url, fetched, verdict, this.#limit());
    if (!this.#gaveUp(table, answer === (verdict ? VERDICT_OVER_LIMIT : RESULT_OVER_LIMIT))) return answer;
    return kernel().checkUrl(this.#table(), url, fetched, verdict, MAX_LINEAR_LIMIT);
  }

  /** May the agent fetch `url` (a full URL or a path)? */
  isAllowed(url: string): boolean {
    return this.#checkOne(url, false, true) === 1;
  }

  /** The verdict for `url` and the compiled rule that decided it. */
  explain(url: string): Explanation {
    const r = this.#checkOne(url, false, false);
    const reading = lastDecidingReading(url, this.mode);
    if (r === RESULT_NO_MATCH || r === RESULT_ROBOTS_TXT) return withReading({ allowed: true, rule: null }, reading);
    const rule = compiledRule(this, r);
    return withReading({ allowed: rule.allow, rule: { kind: rule.allow ? 'allow' : 'disallow', pattern: rule.pattern, line: rule.line } }, reading);
  }

  /** Verdicts for many URLs: 1 = allowed, 0 = disallowed, in the same order. */
  checkMany(urls: readonly string[]): Uint8Array {
    if (!Array.isArray(urls)) throw new TypeError('robots-wasm: checkMany expects an array of strings');
    const out = new Uint8Array(urls.length);
    this.#checkRangeInto(urls, 0, urls.length, out, false);
    return out;
  }

  /** checkMany for urls[from, to) of a matcher without rules: each one allowed, once known to be a string. */
  #allowRange(urls: readonly string[], from: number, to: number, out: Uint8Array): void {
    this.#liveSource();
    for (let i = from; i < to; i++) requireString(urls[i], 'url');
    out.fill(1, from, to);
  }

  /** checkMany for urls[from, to), with the verdicts written to out[from, to). */
  #checkRangeInto(urls: readonly string[], from: number, to: number, out: Uint8Array, fetched: boolean): void {
    if (this.#allowsAll) return this.#allowRange(urls, from, to, out);
    const k = kernel();
    const batch = batchArea();
    let i = from;
    while (i < to) {
      const count = batch.fill(urls, i, to);
      if (count === 0) {
        // One URL longer than a whole batch: checked alone with a scratch block of its size.
        out[i] = this.#checkOne(urls[i], fetched, true);
        i++;
        continue;
      }
      let table = this.#table();
      const spans = (limit: number) => k.fn.checkSpans(table, batch.bytesAt, batch.filledBytes, batch.spansAt, count, batch.outAt, fetched ? 1 : 0, batch.scratchAt, limit);
      const done = k.withIndexRoom(() => spans(this.#limit()));
      if (this.#gaveUp(table, done < 0)) {
        table = this.#table();
        k.withIndexRoom(() => spans(MAX_LINEAR_LIMIT));
      }
      k.releaseScratch();
      copyVerdicts(k.u8, batch.outAt, count, out, i);
      i += count;
    }
  }

  /**
   * Verdicts for a buffer of newline-separated URLs (LF or CRLF), one per line; a final line
   * without a line end counts. Splitting, path extraction, normalisation and matching all
   * happen in WebAssembly.
   */
  checkLines(bytes: Uint8Array): Uint8Array {
    return this.#lines(bytes, LINES_VERDICTS).output;
  }

  #lines(bytes: Uint8Array, mode: number): { output: Uint8Array; disallowed: number } {
    const parts: Uint8Array[] = [];
    const disallowed = this.#linesTo(bytes, mode, (output) => parts.push(output.slice()));
    return { output: concatBytes(parts), disallowed };
  }

  /** checkLines by chunks: each chunk's output goes to `sink` as a view of kernel memory. */
  #linesTo(bytes: Uint8Array, mode: number, sink: (output: Uint8Array) => void): number {
    if (!(bytes instanceof Uint8Array)) throw new TypeError('robots-wasm: checkLines expects a Uint8Array');
    // Past LINES_LINEAR_BYTES the full compile is small beside checking the lines.
    if (this.#linear && bytes.length > LINES_LINEAR_BYTES) this.#upgrade();
    let disallowed = 0;
    let start = 0;
    while (start < bytes.length) {
      const end = lineChunkEnd(bytes, start, CHUNK_BYTES);
      // The table first, outside the scratch block: the sink may have made tables, and the
      // budget evicted this one to make room, and a linear table that gave up is made again as
      // the full one; either is made before the chunk is written to the scratch block.
      const chunkDisallowed = this.#linesChunk(this.#table(), bytes.subarray(start, end), mode, sink);
      if (chunkDisallowed < 0) continue;
      disallowed += chunkDisallowed;
      start = end;
    }
    return disallowed;
  }

  /**
   * checkLines of one chunk from `table`: its output to `sink`, and the number of lines it
   * disallowed; or -1, with nothing written, when the linear table gave up on it.
   */
  #linesChunk(table: number, chunk: Uint8Array, mode: number, sink: (output: Uint8Array) => void): number {
    const k = kernel();
    // One block: the lines | the output | the kernel's scratch.
    const outAt = alignUp(chunk.length, 4);
    const scratchAt = outAt + k.fn.checkLinesOutBytes(chunk.length, mode);
    return k.withScratch(scratchAt + k.fn.checkLinesScratchBytes(chunk.length), (at) => {
      k.u8.set(chunk, at);
      const n = k.withIndexRoom(() => k.fn.checkLines(table, at, chunk.length, at + outAt, at + scratchAt, mode, this.#limit()));
      if (this.#gaveUp(table, n < 0)) return -1;
      const disallowed = k.fn.linesDisallowed();
      sink(k.u8.subarray(at + outAt, at + outAt + n));
      return disallowed;
    });
  }

}

/** `explanation`, with the reading that decided it when there is one. */
export function withReading(explanation: Explanation, reading: DecidingReading | undefined): Explanation {
  if (reading !== undefined) explanation.reading = reading;
  return explanation;
}

/** Verdicts a batch wrote at memory[at, at + count), copied to out[to...]. */
function copyVerdicts(memory: Uint8Array, at: number, count: number, out: Uint8Array, to: number): void {
  // A few verdicts (a host's handful of URLs) cost less copied one by one than through a view.
  if (count > 16) out.set(memory.subarray(at, at + count), to);
  else for (let j = 0; j < count; j++) out[to + j] = memory[at + j];
}

// Internal: for the library's own modules, not re-exported by any entry point.

/** The linear work the matcher's linear table may still do (linearBudget, less what its checks did); Infinity once its table is the full one. */
export function linearWorkLeft(matcher: Matcher): number {
  return internal.linearLeft(matcher);
}

/** Bytes of WebAssembly memory the matcher's table holds: its resident full table's, 0 for a linear one (the linear area's) or an evicted one. */
export function heldTableBytes(matcher: Matcher): number {
  return internal.heldBytes(matcher);
}

/**
 * A matcher over the table `source` builds, and builds again whenever it was evicted: at its
 * first use when that is a linear table, so that a first batch past the linear budget
 * compiles only the full one; now otherwise.
 */
export function matcherOf(source: TableSource): Matcher {
  return internal.make(source, source.linear === true ? 0 : source.build());
}

/**
 * Matcher.fromBytes of an image that nobody else will write to (a pool worker's transferred
 * copy), kept as it is to make the table again from.
 */
export function matcherFromImage(image: Uint8Array): Matcher {
  const k = kernel();
  // The header is checked before a table block is taken: taking one may evict tables.
  const headerBytes = k.fn.imageHeaderBytes();
  const refused = k.withScratch(headerBytes, (at) => {
    const available = Math.min(image.length, headerBytes);
    k.u8.set(image.subarray(0, available), at);
    const status = k.fn.imageStatus(at, available, image.length);
    if (status === IMAGE_OK) return undefined;
    if (status === IMAGE_BAD_LENGTH) return 'robots-wasm: compiled table is truncated or has trailing bytes';
    if (status !== IMAGE_OTHER_VERSION) return 'robots-wasm: not a compiled robots-wasm table (bad magic)';
    // A stored image from another release of the library.
    const version = String.fromCharCode(k.fn.imageVersion(at));
    return `robots-wasm: table image of format version ${version}, this version reads ${String.fromCharCode(k.fn.tableVersion())}: compile it again from its robots.txt`;
  });
  if (refused !== undefined) throw new TypeError(refused);
  const source = new TableImage(image);
  const ptr = source.build();
  // Damage that leaves every offset in range still changes verdicts: the checksum refuses it
  // first.
  if (k.fn.tableSealed(ptr, image.length) === 0) {
    k.heap.free(ptr);
    throw new TypeError('robots-wasm: compiled table is damaged (checksum)');
  }
  // A crafted image can carry a valid checksum: the kernel must never follow an offset out of it.
  const damaged = k.withScratch(k.fn.validateWorkBytes(image.length), (work) => k.fn.validateTable(ptr, image.length, work));
  if (damaged !== TABLE_OK) {
    k.heap.free(ptr);
    throw new TypeError(`robots-wasm: compiled table is damaged (${DAMAGED_PARTS[damaged] ?? 'unknown'})`);
  }
  return internal.make(source, ptr);
}

/**
 * The strength number of the deciding rule for `url`, RESULT_NO_MATCH, or RESULT_ROBOTS_TXT.
 * `fetched`: match the path a fetch of `url` requests in google mode too (RFC mode always does).
 */
export function decide(matcher: Matcher, url: string, fetched = false): number {
  return internal.checkOne(matcher, url, fetched, false);
}

/** The compiled rule with strength number `r`. */
export function compiledRule(matcher: Matcher, r: number): TableRuleInfo {
  const table = internal.table(matcher);
  const k = kernel();
  const kind = k.fn.ruleKind(table, r);
  return {
    line: k.fn.ruleLine(table, r) >>> 0,
    allow: (kind & RULE_KIND_ALLOW_BIT) !== 0,
    derived: (kind & RULE_KIND_DERIVED_BIT) !== 0,
    pattern: asciiString(k.u8, table + (k.fn.rulePatternStart(table, r) >>> 0), table + (k.fn.rulePatternEnd(table, r) >>> 0)),
  };
}

/** Calls `hook` when the matcher is disposed (RobotsPool drops its workers' copies of the table then). */
export function whenDisposed(matcher: Matcher, hook: () => void): void {
  internal.whenDisposed(matcher, hook);
}

/** RobotsCache's isAllowed for a URL about to be fetched: matched as the path the fetch requests in either mode. */
export function isAllowedAsFetched(matcher: Matcher, url: string): boolean {
  return internal.checkOne(matcher, url, true, true) === 1;
}

/** RobotsCache's checkMany for URLs about to be fetched (see isAllowedAsFetched). */
export function checkManyAsFetched(matcher: Matcher, urls: readonly string[]): Uint8Array {
  const out = new Uint8Array(urls.length);
  internal.checkRangeInto(matcher, urls, 0, urls.length, out, true);
  return out;
}

/** checkMany for urls[from, to), with the verdicts written to out[from, to): what RobotsPool checks on the calling thread. */
export function checkRangeInto(matcher: Matcher, urls: readonly string[], from: number, to: number, out: Uint8Array): void {
  internal.checkRangeInto(matcher, urls, from, to, out, false);
}

/** Verdicts for URLs packed by BatchArea.pack, the same answers as checkMany: the form in which RobotsPool workers receive checkMany batches. */
export function checkPacked(matcher: Matcher, { bytes, spans }: PackedUrls): Uint8Array {
  const table = internal.table(matcher);
  const k = kernel();
  const count = spans.length >>> 1;
  let longest = 0;
  for (let i = 1; i < spans.length; i += 2) if (spans[i] > longest) longest = spans[i];
  // One block: the URLs | their spans | the verdicts | the kernel's scratch.
  const spansAt = alignUp(bytes.length, 8);
  const outAt = spansAt + count * 8;
  const scratchAt = outAt + count;
  return k.withScratch(scratchAt + k.fn.checkSpansScratchBytes(bytes.length, longest), (at) => {
    k.u8.set(bytes, at);
    new Uint32Array(k.u8.buffer, at + spansAt, count * 2).set(spans);
    // Only full tables leave their thread: no linear limit applies.
    k.withIndexRoom(() => k.fn.checkSpans(table, at, bytes.length, at + spansAt, count, at + outAt, 0, at + scratchAt, MAX_LINEAR_LIMIT));
    return k.u8.slice(at + outAt, at + outAt + count);
  });
}

/**
 * The CLI's check command: the allowed lines of `bytes` (`filter`), or per non-blank line
 * "allow<TAB>url" / "disallow<TAB>url<TAB>rule line", each LF-terminated, with the number of
 * non-blank lines disallowed.
 */
export function reportLines(matcher: Matcher, bytes: Uint8Array, filter: boolean): { output: Uint8Array; disallowed: number } {
  return internal.lines(matcher, bytes, filter ? LINES_FILTER : LINES_REPORT);
}

/**
 * The CLI's check command writing to a file: reportLines, with each chunk's output handed to
 * `sink` as a view of WebAssembly memory, valid only until `sink` returns: no copy of it is
 * made. Returns the number of non-blank lines disallowed.
 */
export function reportLinesTo(matcher: Matcher, bytes: Uint8Array, filter: boolean, sink: (output: Uint8Array) => void): number {
  return internal.linesTo(matcher, bytes, filter ? LINES_FILTER : LINES_REPORT, sink);
}
