// Matcher: one agent's merged group compiled into a table in WebAssembly memory, and every
// way of asking it for verdicts. The table format is documented in src/compile/table.ts.

import {
  FLAG_RFC, HDR_FLAGS, HDR_MAGIC, HDR_RULE_COUNT, HDR_RULES_OFF, HDR_TOTAL_LEN, HEADER_SIZE, RESULT_NO_MATCH,
  RESULT_ROBOTS_TXT, RULE_ALLOW_BIT, RULE_DERIVED_BIT, RULE_ID, RULE_LEN_SHIFT, RULE_LINE, RULE_PAT_LEN_KIND, RULE_PAT_OFF, RULE_SIZE, TABLE_MAGIC,
} from './compile/layout.js';
import type { Mode } from './robots/options.js';
import { kernel } from './wasm/kernel.js';
import { asciiString } from './wasm/strings.js';

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
  id: number;
  line: number;
  allow: boolean;
  derived: boolean;
  pattern: string;
}

const encoder = new TextEncoder();

// Tables of matchers that were garbage-collected without dispose() are freed here.
const finalizer = new FinalizationRegistry<number>((ptr) => kernel().heap.free(ptr));

// Batches are encoded into WASM memory this many bytes at a time, so memory stays bounded
// whatever the batch size.
const BATCH_BYTES = 256 * 1024;
const BATCH_URLS = 8192;

function checkUrl(url: unknown): asserts url is string {
  if (typeof url !== 'string') {
    throw new TypeError(`robots-wasm: url must be a string, got ${url === null ? 'null' : typeof url}`);
  }
}

/**
 * One agent's merged group compiled into a table in WebAssembly memory: verdicts one at a
 * time, by the array or from a buffer of lines, and the table as a portable byte image.
 */
export class Matcher {
  #ptr: number;
  readonly #size: number;
  readonly #token: object = {};

  private constructor(ptr: number, size: number) {
    this.#ptr = ptr;
    this.#size = size;
    finalizer.register(this, ptr, this.#token);
  }

  /** Internal: a matcher over a table image produced by buildTable. */
  static fromTable(image: Uint8Array): Matcher {
    const k = kernel();
    const ptr = k.heap.alloc(image.length);
    k.u8.set(image, ptr);
    return new Matcher(ptr, image.length);
  }

  /**
   * Loads a table image made by `toBytes()` (in this or another thread or process) without
   * re-parsing. Throws a TypeError when the bytes are not such an image.
   */
  static fromBytes(bytes: Uint8Array): Matcher {
    if (!(bytes instanceof Uint8Array)) throw new TypeError('robots-wasm: Matcher.fromBytes expects a Uint8Array');
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.length < HEADER_SIZE || view.getUint32(HDR_MAGIC, true) !== TABLE_MAGIC) {
      throw new TypeError('robots-wasm: not a compiled robots-wasm table (bad magic)');
    }
    if (view.getUint32(HDR_TOTAL_LEN, true) !== bytes.length) {
      throw new TypeError('robots-wasm: compiled table is truncated or has trailing bytes');
    }
    return Matcher.fromTable(bytes);
  }

  #table(): number {
    if (this.#ptr === 0) throw new Error('robots-wasm: this matcher was disposed');
    return this.#ptr;
  }

  /** Frees the table now instead of at garbage collection; the matcher is unusable afterwards. */
  dispose(): void {
    if (this.#ptr === 0) return;
    finalizer.unregister(this.#token);
    kernel().heap.free(this.#ptr);
    this.#ptr = 0;
  }

  /** True once dispose() was called. */
  get disposed(): boolean {
    return this.#ptr === 0;
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
    return kernel().u8.slice(ptr, ptr + this.#size);
  }

  /**
   * Internal: the strength number of the deciding rule for `url`, RESULT_NO_MATCH, or
   * RESULT_ROBOTS_TXT.
   */
  decide(url: string): number {
    checkUrl(url);
    const table = this.#table();
    const k = kernel();
    const room = url.length * 3;
    const at = k.scratch(room * 4 + 16);
    const { written } = encoder.encodeInto(url, k.u8.subarray(at, at + room));
    return k.fn.checkOne(table, at, written, at + room);
  }

  /** Internal: the compiled rule with strength number `r`. */
  rule(r: number): TableRuleInfo {
    const table = this.#table();
    const k = kernel();
    const at = table + k.dv.getUint32(table + HDR_RULES_OFF, true) + r * RULE_SIZE;
    const lenKind = k.dv.getUint32(at + RULE_PAT_LEN_KIND, true);
    const patternAt = table + k.dv.getUint32(at + RULE_PAT_OFF, true);
    return {
      id: k.dv.getUint32(at + RULE_ID, true),
      line: k.dv.getUint32(at + RULE_LINE, true),
      allow: (lenKind & RULE_ALLOW_BIT) !== 0,
      derived: (lenKind & RULE_DERIVED_BIT) !== 0,
      pattern: asciiString(k.u8, patternAt, patternAt + (lenKind >>> RULE_LEN_SHIFT)),
    };
  }

  /** May the agent fetch `url` (a full URL or a path)? */
  isAllowed(url: string): boolean {
    const r = this.decide(url);
    return r < 0 || this.rule(r).allow;
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
    const table = this.#table();
    const out = new Uint8Array(urls.length);
    const k = kernel();
    let i = 0;
    while (i < urls.length) {
      // Layout of one batch: spans (8 bytes per URL) | verdicts | URL bytes | normalisation scratch.
      const spansAt = k.scratch(BATCH_URLS * 9 + BATCH_BYTES * 4 + 64);
      const outAt = spansAt + BATCH_URLS * 8;
      const bytesAt = outAt + BATCH_URLS;
      const u8 = k.u8;
      const dv = k.dv;
      let used = 0;
      let count = 0;
      let longest = 0;
      while (i < urls.length && count < BATCH_URLS) {
        const url = urls[i];
        checkUrl(url);
        const room = url.length * 3;
        if (used + room > BATCH_BYTES) break;
        const { written } = encoder.encodeInto(url, u8.subarray(bytesAt + used, bytesAt + used + room));
        dv.setUint32(spansAt + count * 8, used, true);
        dv.setUint32(spansAt + count * 8 + 4, written, true);
        used += written;
        if (written > longest) longest = written;
        count++;
        i++;
      }
      if (count === 0) {
        // One URL longer than a batch: check it alone with a scratch block of its size.
        out[i] = this.isAllowed(urls[i]) ? 1 : 0;
        i++;
        k.trimScratch(BATCH_URLS * 9 + BATCH_BYTES * 4 + 64);
        continue;
      }
      k.fn.checkSpans(table, bytesAt, spansAt, count, outAt, bytesAt + used);
      out.set(k.u8.subarray(outAt, outAt + count), i - count);
    }
    return out;
  }

  /**
   * Verdicts for a buffer of newline-separated URLs (LF or CRLF), one per line; a final line
   * without a line end counts. Splitting, path extraction, normalisation and matching all
   * happen in WebAssembly.
   */
  checkLines(bytes: Uint8Array): Uint8Array {
    if (!(bytes instanceof Uint8Array)) throw new TypeError('robots-wasm: checkLines expects a Uint8Array');
    const table = this.#table();
    let lines = 0;
    for (let at = bytes.indexOf(0x0a); at >= 0; at = bytes.indexOf(0x0a, at + 1)) lines++;
    if (bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a) lines++;
    const out = new Uint8Array(lines);
    const k = kernel();
    let start = 0;
    let done = 0;
    while (start < bytes.length) {
      // A chunk ends after the last line end within BATCH_BYTES (or holds one longer line).
      let end = Math.min(bytes.length, start + BATCH_BYTES);
      if (end < bytes.length) {
        const lastLf = bytes.lastIndexOf(0x0a, end - 1);
        end = lastLf >= start ? lastLf + 1 : bytes.indexOf(0x0a, end) + 1 || bytes.length;
      }
      const size = end - start;
      const bufAt = k.scratch(size * 5 + 64);
      const outAt = bufAt + size;
      k.u8.set(bytes.subarray(start, end), bufAt);
      const n = k.fn.checkLines(table, bufAt, size, outAt, outAt + size + 1);
      out.set(k.u8.subarray(outAt, outAt + n), done);
      done += n;
      start = end;
    }
    k.trimScratch(BATCH_URLS * 9 + BATCH_BYTES * 4 + 64);
    return out;
  }
}
