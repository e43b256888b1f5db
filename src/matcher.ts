// Matcher: one agent's merged group compiled into a table in WebAssembly memory, and every
// way of asking it for verdicts. The table format is documented in assembly/compile.ts.

import {
  FLAG_RFC, HDR_CHECKSUM, HDR_FLAGS, HDR_KINDS_OFF, HDR_MAGIC, HDR_POOL_OFF, HDR_RULE_COUNT, HDR_RULES_OFF, HDR_TOTAL_LEN, HEADER_SIZE,
  KIND_ALLOW_BIT, KIND_DERIVED_BIT, LINES_FILTER, LINES_REPORT, LINES_VERDICTS, REPORT_EXTRA_BYTES, RESULT_NO_MATCH,
  RESULT_ROBOTS_TXT, RULE_LINE, RULE_PAT_END, RULE_SIZE, TABLE_MAGIC,
  TABLE_BAD_FILTER, TABLE_BAD_HEADER, TABLE_BAD_NODES, TABLE_BAD_RULES, TABLE_OK,
} from './compile/layout.js';
import type { Mode } from './robots/options.js';
import { requireString } from './args.js';
import { concatBytes, lineChunkEnd } from './bytes.js';
import { bufferMapsBytes, kernel, SCRATCH_KEPT_BYTES, urlScratchBytes } from './wasm/kernel.js';
import { alignUp } from './wasm/memory.js';
import { asciiString } from './wasm/strings.js';
import { admit, allocTable, release, resident, TableBlock, touch } from './wasm/tables.js';
import type { PackedUrls } from './wasm/batch.js';

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
}

/** A compiled rule as stored in the table (internal: RobotsTxt maps it back to the file). */
export interface TableRuleInfo {
  /** 1-based line of the rule in the file: one rule per line, so it names the rule. */
  line: number;
  allow: boolean;
  derived: boolean;
  pattern: string;
}

/**
 * What a matcher's table is made from, kept in JS so that the table can be made again after
 * the budget evicted it (src/wasm/tables.ts). Internal.
 */
export interface TableSource {
  /** Writes the table into a new block from allocTable and returns the block's address. */
  build(): number;
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

/**
 * One agent's merged group compiled into a table in WebAssembly memory: verdicts one at a
 * time, by the array or from a buffer of lines, and the table as a portable byte image.
 */
export class Matcher {
  /** The table's block; evicted (ptr 0) when the budget needed the room, and then made again. */
  readonly #block = new TableBlock();
  readonly #size: number;
  /** What the table is made from; undefined once disposed. */
  #source: TableSource | undefined;
  #onDispose: (() => void)[] | undefined;

  private constructor(source: TableSource, ptr: number) {
    this.#source = source;
    this.#size = kernel().dv.getUint32(ptr + HDR_TOTAL_LEN, true);
    admit(this.#block, ptr, this);
  }

  /**
   * Internal: a matcher over the table `source` builds now, and again whenever it was evicted.
   * @internal
   */
  static build(source: TableSource): Matcher {
    return new Matcher(source, source.build());
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
    return Matcher.fromImage(new Uint8Array(bytes));
  }

  /**
   * Internal: fromBytes of an image that nobody else will write to (a pool worker's
   * transferred copy), kept as it is to make the table again from.
   * @internal
   */
  static fromImage(image: Uint8Array): Matcher {
    const view = new DataView(image.buffer, image.byteOffset, image.byteLength);
    const magic = image.length < HEADER_SIZE ? 0 : view.getUint32(HDR_MAGIC, true);
    if (magic !== TABLE_MAGIC) {
      // "RWT" and a format version: a stored image from another release of the library.
      if ((magic & 0xffffff) === (TABLE_MAGIC & 0xffffff)) {
        const version = String.fromCharCode(magic >>> 24);
        throw new TypeError(`robots-wasm: table image of format version ${version}, this version reads ${String.fromCharCode(TABLE_MAGIC >>> 24)}: compile it again from its robots.txt`);
      }
      throw new TypeError('robots-wasm: not a compiled robots-wasm table (bad magic)');
    }
    if (view.getUint32(HDR_TOTAL_LEN, true) !== image.length) {
      throw new TypeError('robots-wasm: compiled table is truncated or has trailing bytes');
    }
    const source = new TableImage(image);
    const ptr = source.build();
    const k = kernel();
    // Damage that leaves every offset in range still changes verdicts: the checksum refuses
    // it first.
    if (k.fn.tableChecksum(ptr, image.length) >>> 0 !== view.getUint32(HDR_CHECKSUM, true)) {
      k.heap.free(ptr);
      throw new TypeError('robots-wasm: compiled table is damaged (checksum)');
    }
    // A crafted image can carry a valid checksum: the kernel must never follow an offset out
    // of it.
    const damaged = k.fn.validateTable(ptr, image.length, k.scratch(k.fn.validateWorkBytes(image.length)));
    k.trimScratch(SCRATCH_KEPT_BYTES);
    if (damaged !== TABLE_OK) {
      k.heap.free(ptr);
      throw new TypeError(`robots-wasm: compiled table is damaged (${DAMAGED_PARTS[damaged] ?? 'unknown'})`);
    }
    return new Matcher(source, ptr);
  }

  /** The table's address: made again first if it was evicted, and marked most recently used. */
  #table(): number {
    const block = this.#block;
    return block === resident.newest ? block.ptr : this.#resume();
  }

  #resume(): number {
    const source = this.#source;
    if (source === undefined) throw new Error('robots-wasm: this matcher was disposed');
    const block = this.#block;
    if (block.ptr === 0) admit(block, source.build(), this);
    else touch(block);
    return block.ptr;
  }

  /**
   * Frees the table now (and RobotsPool workers' copies of it) instead of when the table budget
   * or garbage collection would; the matcher is unusable afterwards.
   */
  dispose(): void {
    if (this.#source === undefined) return;
    this.#source = undefined;
    release(this.#block);
    const hooks = this.#onDispose;
    this.#onDispose = undefined;
    if (hooks !== undefined) for (const hook of hooks) hook();
  }

  /**
   * Internal: calls `hook` when the matcher is disposed (RobotsPool drops its workers' copies
   * of the table then).
   * @internal
   */
  whenDisposed(hook: () => void): void {
    (this.#onDispose ??= []).push(hook);
  }

  /** True once dispose() was called. */
  get disposed(): boolean {
    return this.#source === undefined;
  }

  /** Size of the compiled table in bytes. */
  get byteLength(): number {
    return this.#size;
  }

  /** The semantics the table was compiled for. */
  get mode(): Mode {
    return (kernel().dv.getUint32(this.#table() + HDR_FLAGS, true) & FLAG_RFC) !== 0 ? 'rfc' : 'google';
  }

  /** Number of rules that can decide (non-empty patterns, index.htm variants included). */
  get ruleCount(): number {
    return kernel().dv.getUint32(this.#table() + HDR_RULE_COUNT, true);
  }

  /** The self-contained table image, for worker threads or storage; see Matcher.fromBytes. */
  toBytes(): Uint8Array {
    const ptr = this.#table();
    const k = kernel();
    const image = k.u8.slice(ptr, ptr + this.#size);
    // Over the table, which the copy equals, with the checksum field read as zeros.
    new DataView(image.buffer).setUint32(HDR_CHECKSUM, k.fn.tableChecksum(ptr, this.#size) >>> 0, true);
    return image;
  }

  /**
   * Internal: the strength number of the deciding rule for `url`, RESULT_NO_MATCH, or
   * RESULT_ROBOTS_TXT. `fetched`: match the path a fetch of `url` requests in google mode too
   * (RFC mode always does).
   */
  decide(url: string, fetched = false): number {
    return this.#checkOne(url, fetched, false);
  }

  /** checkOne of the kernel for `url`: the deciding rule's number, or with `verdict` 1 (allowed) or 0. */
  #checkOne(url: string, fetched: boolean, verdict: boolean): number {
    requireString(url, 'url');
    const table = this.#table();
    const k = kernel();
    const length = k.encodeUrl(url);
    const check = verdict ? k.fn.verdictOne : k.fn.checkOne;
    const result = check(table, k.urlAt, length, fetched ? 1 : 0, k.urlScratchAt);
    // A huge URL's scratch is not kept.
    k.trimScratch(SCRATCH_KEPT_BYTES);
    return result;
  }

  /** The kind byte (KIND_* bits) of the rule with strength number `r`. */
  #kindOf(r: number): number {
    const table = this.#table();
    const k = kernel();
    return k.u8[table + k.dv.getUint32(table + HDR_KINDS_OFF, true) + r];
  }

  /** Internal: the compiled rule with strength number `r`. */
  rule(r: number): TableRuleInfo {
    const table = this.#table();
    const k = kernel();
    const rules = table + k.dv.getUint32(table + HDR_RULES_OFF, true);
    // A pattern starts where the previous rule's ends (the first at the pool).
    const start = table + k.dv.getUint32(r === 0 ? table + HDR_POOL_OFF : rules + (r - 1) * RULE_SIZE + RULE_PAT_END, true);
    const end = table + k.dv.getUint32(rules + r * RULE_SIZE + RULE_PAT_END, true);
    const kind = this.#kindOf(r);
    return {
      line: k.dv.getUint32(rules + r * RULE_SIZE + RULE_LINE, true),
      allow: (kind & KIND_ALLOW_BIT) !== 0,
      derived: (kind & KIND_DERIVED_BIT) !== 0,
      pattern: asciiString(k.u8, start, end),
    };
  }

  /** May the agent fetch `url` (a full URL or a path)? */
  isAllowed(url: string): boolean {
    return this.#checkOne(url, false, true) === 1;
  }

  /**
   * Internal (RobotsCache): isAllowed for a URL about to be fetched, matched as the path the
   * fetch requests in either mode.
   * @internal
   */
  isAllowedAsFetched(url: string): boolean {
    return this.#checkOne(url, true, true) === 1;
  }

  /** The verdict for `url` and the compiled rule that decided it. */
  explain(url: string): Explanation {
    const r = this.decide(url);
    if (r === RESULT_NO_MATCH || r === RESULT_ROBOTS_TXT) return { allowed: true, rule: null };
    const rule = this.rule(r);
    return { allowed: rule.allow, rule: { kind: rule.allow ? 'allow' : 'disallow', pattern: rule.pattern, line: rule.line } };
  }

  /** Verdicts for many URLs: 1 = allowed, 0 = disallowed, in the same order. */
  checkMany(urls: readonly string[]): Uint8Array {
    if (!Array.isArray(urls)) throw new TypeError('robots-wasm: checkMany expects an array of strings');
    const out = new Uint8Array(urls.length);
    this.checkRangeInto(urls, 0, urls.length, out);
    return out;
  }

  /**
   * Internal (RobotsCache): checkMany for URLs about to be fetched (see isAllowedAsFetched).
   * @internal
   */
  checkManyAsFetched(urls: readonly string[]): Uint8Array {
    const out = new Uint8Array(urls.length);
    this.checkRangeInto(urls, 0, urls.length, out, true);
    return out;
  }

  /**
   * checkMany for urls[from, to), with the verdicts written to out[from, to). Internal: what
   * RobotsPool checks on the calling thread while its workers are busy.
   * @internal
   */
  checkRangeInto(urls: readonly string[], from: number, to: number, out: Uint8Array, fetched = false): void {
    const table = this.#table();
    const k = kernel();
    const batch = k.batch();
    let i = from;
    while (i < to) {
      const count = batch.fill(urls, i, to);
      if (count === 0) {
        // One URL longer than a whole batch: checked alone with a scratch block of its size.
        out[i] = this.#checkOne(urls[i], fetched, true);
        i++;
        continue;
      }
      k.fn.checkSpans(table, batch.bytesAt, batch.filledBytes, batch.spansAt, count, batch.outAt, fetched ? 1 : 0, batch.scratchAt);
      out.set(k.u8.subarray(batch.outAt, batch.outAt + count), i);
      i += count;
    }
  }

  /**
   * Verdicts for URLs packed by BatchArea.pack: the same answers as checkMany. Internal: the
   * form in which RobotsPool workers receive checkMany batches.
   * @internal
   */
  checkPacked({ bytes, spans }: PackedUrls): Uint8Array {
    const table = this.#table();
    const k = kernel();
    const count = spans.length >>> 1;
    let longest = 0;
    for (let i = 1; i < spans.length; i += 2) if (spans[i] > longest) longest = spans[i];
    // urls | spans | verdicts | maps of the urls and normalisation scratch, each with scan slack
    const bytesAt = k.scratch(bytes.length + count * 9 + bufferMapsBytes(bytes.length) + urlScratchBytes(longest) + 128);
    const spansAt = alignUp(bytesAt + bytes.length + 32, 8);
    const outAt = spansAt + count * 8;
    k.u8.set(bytes, bytesAt);
    new Uint32Array(k.u8.buffer, spansAt, count * 2).set(spans);
    k.fn.checkSpans(table, bytesAt, bytes.length, spansAt, count, outAt, 0, outAt + count + 32);
    const verdicts = k.u8.slice(outAt, outAt + count);
    k.trimScratch(CHUNK_BYTES * 8);
    return verdicts;
  }

  /**
   * Verdicts for a buffer of newline-separated URLs (LF or CRLF), one per line; a final line
   * without a line end counts. Splitting, path extraction, normalisation and matching all
   * happen in WebAssembly.
   */
  checkLines(bytes: Uint8Array): Uint8Array {
    return this.#lines(bytes, LINES_VERDICTS).output;
  }

  /**
   * Internal (the CLI's check command): the allowed lines of `bytes` (`filter`), or per
   * non-blank line "allow<TAB>url" / "disallow<TAB>url<TAB>rule line", each LF-terminated,
   * with the number of non-blank lines disallowed.
   */
  reportLines(bytes: Uint8Array, filter: boolean): { output: Uint8Array; disallowed: number } {
    return this.#lines(bytes, filter ? LINES_FILTER : LINES_REPORT);
  }

  /**
   * Internal (the CLI's check command, writing to a file): reportLines, with each chunk's
   * output handed to `sink` as a view of WebAssembly memory, valid only until `sink` returns:
   * no copy of it is made. Returns the number of non-blank lines disallowed.
   */
  reportLinesTo(bytes: Uint8Array, filter: boolean, sink: (output: Uint8Array) => void): number {
    return this.#linesTo(bytes, filter ? LINES_FILTER : LINES_REPORT, sink);
  }

  #lines(bytes: Uint8Array, mode: number): { output: Uint8Array; disallowed: number } {
    const parts: Uint8Array[] = [];
    const disallowed = this.#linesTo(bytes, mode, (output) => parts.push(output.slice()));
    return { output: concatBytes(parts), disallowed };
  }

  /** checkLines by chunks: each chunk's output goes to `sink` as a view of kernel memory. */
  #linesTo(bytes: Uint8Array, mode: number, sink: (output: Uint8Array) => void): number {
    if (!(bytes instanceof Uint8Array)) throw new TypeError('robots-wasm: checkLines expects a Uint8Array');
    let table = this.#table();
    const k = kernel();
    let disallowed = 0;
    let start = 0;
    while (start < bytes.length) {
      const end = lineChunkEnd(bytes, start, CHUNK_BYTES);
      const size = end - start;
      // Output room by mode (assembly/index.ts): a byte per line (at most size + 1 lines), the
      // allowed lines, or the lines with what a report adds to each.
      const outBytes = mode === LINES_REPORT ? size + REPORT_EXTRA_BYTES * (size + 1) : size + 1;
      // buffer | output | maps of the lines and normalisation scratch, each with scan slack
      const bufAt = k.scratch(size + outBytes + bufferMapsBytes(size) + urlScratchBytes(size) + 128);
      const outAt = alignUp(bufAt + size + 32, 4);
      k.u8.set(bytes.subarray(start, end), bufAt);
      const n = k.fn.checkLines(table, bufAt, size, outAt, outAt + outBytes + 32, mode);
      disallowed += k.fn.linesDisallowed();
      sink(k.u8.subarray(outAt, outAt + n));
      start = end;
      // The sink may have made tables, and the budget evicted this one to make room: then it
      // is made again here, before the next chunk is written to the scratch block.
      if (start < bytes.length) table = this.#table();
    }
    k.trimScratch(SCRATCH_KEPT_BYTES);
    return disallowed;
  }
}
