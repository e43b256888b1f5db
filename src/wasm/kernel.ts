// The WebAssembly kernel of this thread: the embedded module, compiled once per process and
// instantiated once per thread, its memory, the heap that owns that memory, and the scratch
// block that kernel calls reuse (taken and given back through withScratch).

import { WASM_BASE64 } from './binary.generated.js';
import { alignUp, Heap } from './memory.js';
import { base64Bytes, stringWriter, type StringWriter } from '../encoding.js';

/**
 * The module's exports (integers and pointers only; see assembly/index.ts). An address is a
 * u32 but comes back as a signed i32: read a returned address with `>>> 0`.
 */
export interface KernelExports {
  memory: WebAssembly.Memory;
  heapBase(): number;
  checkOne(table: number, url: number, urlLen: number, fetched: number, scratch: number, linearLimit: number): number;
  verdictOne(table: number, url: number, urlLen: number, fetched: number, scratch: number, linearLimit: number): number;
  /** `count`, or -1 when a linear table gave up (RESULT_OVER_LIMIT). */
  checkSpans(table: number, base: number, bytes: number, spans: number, count: number, out: number, fetched: number, scratch: number, linearLimit: number): number;
  checkLines(table: number, buf: number, len: number, out: number, scratch: number, mode: number, linearLimit: number): number;
  linesDisallowed(): number;
  /** Linear work the last check call did on a linear table (src/wasm/abi.ts, LINEAR_FREE_RULES). */
  linearWork(): number;
  /** The reading that decided the last checkOne (READING_* in src/wasm/abi.ts), and how many distinct ones its URL had. */
  lastReading(): number;
  lastReadingCount(): number;
  readingOf(url: number, len: number, reading: number, rfc: number, dst: number): number;
  utf8FromUtf16(units: number, ends: number, count: number, dst: number, spans: number, offset: number): number;
  normalizePattern(src: number, len: number, dst: number, how: number): number;
  pathOf(url: number, len: number, how: number, dst: number): number;
  lexLines(buf: number, len: number, from: number, cap: number, digits: number, out: number, maxLines: number, stride: number, build: number): number;
  lexNext(): number;
  groupsBegin(mode: number, body: number): void;
  groupsRegions(words: number, rules: number, groups: number, tokenGroups: number, records: number, tokens: number, tokenBytes: number, others: number, otherBytes: number): void;
  /** Bytes of the structure's words (a u32, read with `>>> 0`). */
  groupsFinish(): number;
  groupsValueBytes(): number;
  groupsTokenBytes(): number;
  /** The region the last line did not fit (1 rules, 2 groups, 3 token groups, 4 records, 5 tokens, 6 others), or 0. */
  groupsFull(): number;
  groupsFullNeed(): number;
  groupsUsed(which: number): number;
  /** 1 when groupsFinish wrote u32 words, 0 for u16 words. */
  groupsWide(): number;
  compileTable(body: number, base: number, words: number, wide: number, groups: number, groupCount: number, ruleCount: number, rfc: number, work: number, workBytes: number, out: number, outBytes: number, linear: number): number;
  compileNeed(): number;
  compileWorkBytes(rules: number, bytes: number): number;
  compileTableBytes(rules: number, bytes: number): number;
  validateTable(table: number, size: number, work: number): number;
  validateWorkBytes(size: number): number;
  /** A u32, which reaches JS as a signed i32: `>>> 0` it. */
  tableChecksum(table: number, size: number): number;
  /** CRC-32C of bytes; a u32, which reaches JS as a signed i32: `>>> 0` it. */
  bytesChecksum(at: number, len: number): number;
  /** Writes the checksum an image carries into the table's header; the matcher never reads it. */
  sealTable(table: number, size: number): void;
  /** 1 when the checksum in an image's header is its own. */
  tableSealed(table: number, size: number): number;
  imageHeaderBytes(): number;
  /** IMAGE_* (src/wasm/abi.ts) of an image's first `available` bytes. */
  imageStatus(header: number, available: number, length: number): number;
  imageVersion(header: number): number;
  tableVersion(): number;
  tableSize(table: number): number;
  /** 1 RFC mode, 0 google mode. */
  tableMode(table: number): number;
  tableRuleCount(table: number): number;
  ruleLine(table: number, r: number): number;
  /** RULE_KIND_* bits (src/wasm/abi.ts). */
  ruleKind(table: number, r: number): number;
  /** Offsets from the table. */
  rulePatternStart(table: number, r: number): number;
  rulePatternEnd(table: number, r: number): number;
  urlScratchBytes(len: number): number;
  checkSpansScratchBytes(bytes: number, longest: number): number;
  checkLinesScratchBytes(len: number): number;
  checkLinesOutBytes(len: number, mode: number): number;
  utf8FromUtf16Bytes(units: number): number;
  normalizePatternBytes(len: number): number;
  nibbleTables(members: number, lo: number, hi: number): void;
  twoWaySearch(haystack: number, from: number, haystackLen: number, needle: number, needleLen: number): number;
  twoWaySearchBackward(haystack: number, from: number, haystackLen: number, needle: number, needleLen: number): number;
  lastIndexOfSegment(haystack: number, from: number, haystackLen: number, needle: number, needleLen: number): number;
  keyFilterCount(which: number): number;
  /** Bytes of text index area the last check call wanted and lacked (it then gave up); 0 when none. */
  textIndexWanted(): number;
  textIndexArea(area: number, bytes: number): void;
  textIndexAreaBytes(n: number): number;
  textIndexBuild(text: number, n: number, area: number): void;
  textIndexFind(key: number, m: number, lo: number, hi: number, last: number): number;
}

let compiledModule: WebAssembly.Module | undefined;

/** The compiled WebAssembly.Module (compiled synchronously on first use unless init() did it). */
export function wasmModule(): WebAssembly.Module {
  compiledModule ??= new WebAssembly.Module(base64Bytes(WASM_BASE64));
  return compiledModule;
}

/**
 * Internal (pool workers): uses a module compiled by another thread, so that a worker neither
 * compiles the binary again nor carries a copy of it.
 */
export function adoptWasmModule(module: WebAssembly.Module): void {
  compiledModule ??= module;
}

let initializing: Promise<void> | undefined;

/**
 * Compiles and instantiates the WebAssembly kernel asynchronously; later calls return the same
 * promise. Without it the first use compiles synchronously, which a browser's main thread may
 * refuse for large modules or a CSP may forbid: await it once before using the library there.
 * @example
 * import { init, RobotsTxt } from 'robots-wasm';
 * await init();
 * const robots = RobotsTxt.parse('User-agent: *\nDisallow: /private\n');
 * console.log(robots.isAllowed('https://example.com/private/x', 'ExampleBot')); // → false
 */
export function init(): Promise<void> {
  initializing ??= instantiate().catch((error: unknown) => {
    initializing = undefined;
    throw error;
  });
  return initializing;
}

async function instantiate(): Promise<void> {
  if (threadKernel !== undefined) return;
  compiledModule ??= await WebAssembly.compile(base64Bytes(WASM_BASE64));
  const instance = await WebAssembly.instantiate(compiledModule, {});
  threadKernel ??= new Kernel(instance);
}

const encoder = new TextEncoder();

/** Bytes utf8FromUtf16 may read past the last unit (assembly/utf16.ts), rounded up. */
const UTF16_OVERREAD_BYTES = 64;

/**
 * Scratch a call leaves in place for the next one: more than a checkLines report chunk
 * (matcher.ts) needs, so that the calls that share the block do not take turns growing and
 * freeing it; a larger block is given back after its call.
 */
export const SCRATCH_KEPT_BYTES = 8 << 20;

/** One instance of the kernel with its heap and a reusable scratch block. */
export class Kernel {
  readonly fn: KernelExports;
  readonly heap: Heap;
  /** View over the whole memory; replaced whenever the memory grows. */
  u8: Uint8Array;
  /** The same memory as 32-bit words (word i at address 4i); replaced with u8. */
  u32: Uint32Array;
  dv: DataView;
  private scratchPtr = 0;
  private scratchSize = 0;
  /** The text index area the kernel was given (textIndexArea), and its size. */
  #indexPtr = 0;
  #indexSize = 0;
  /** Where the last single-URL call had its URL (tests check where blocks lie). */
  urlAt = 0;
  /** The longest URL (UTF-16 units) the scratch block has room for; 0 once the block or memory changed. */
  #urlUnits = 0;
  /**
   * A view of the whole scratch block, kept while the block stays. When the memory grows, its
   * old buffer is detached and a view of it has length 0, so scratchView makes a new one.
   */
  #scratchView: Uint8Array | undefined;
  /** Writes strings into, and reads them from, the whole memory; replaced when the memory grows. */
  #writer: StringWriter | undefined;

  constructor(instance: WebAssembly.Instance) {
    this.fn = instance.exports as unknown as KernelExports;
    this.u8 = new Uint8Array(this.fn.memory.buffer);
    this.u32 = new Uint32Array(this.fn.memory.buffer);
    this.dv = new DataView(this.fn.memory.buffer);
    this.heap = new Heap(this.fn.memory, this.fn.heapBase() >>> 0, () => this.refreshViews());
  }

  private refreshViews(): void {
    this.u8 = new Uint8Array(this.fn.memory.buffer);
    this.u32 = new Uint32Array(this.fn.memory.buffer);
    this.dv = new DataView(this.fn.memory.buffer);
    this.#writer = undefined;
    this.#urlUnits = 0;
  }

  /**
   * Writes `text` at `at` by one call: 'latin1' one byte per char (chars that are bytes),
   * 'utf16le' two bytes per UTF-16 unit. The caller has made room for it.
   */
  writeString(text: string, at: number, encoding: 'latin1' | 'utf16le'): void {
    this.#writer ??= stringWriter(this.fn.memory.buffer);
    this.#writer.write(text, at, encoding);
  }

  /** The memory [start, end) as a string: 'latin1' one char per byte, 'utf16le' one per two bytes. */
  readString(start: number, end: number, encoding: 'latin1' | 'utf16le'): string {
    this.#writer ??= stringWriter(this.fn.memory.buffer);
    return this.#writer.read(start, end, encoding);
  }

  /**
   * Calls `use` with the address of a scratch block of at least `size` bytes, valid until the
   * next use of the block (a kernel call that `use` makes may reuse it); afterwards gives the
   * block back when it grew past SCRATCH_KEPT_BYTES, so that one huge input keeps no memory.
   */
  withScratch<T>(size: number, use: (at: number) => T): T {
    const at = this.scratch(size);
    try {
      return use(at);
    } finally {
      this.releaseScratch();
    }
  }

  /**
   * A reusable block of at least `size` bytes, valid until the next use of the block, and not
   * given back afterwards: withScratch is the usual way in.
   */
  scratch(size: number): number {
    if (size > this.scratchSize) {
      // Doubling saves reallocations of a block that is kept; a larger one is given back after
      // its call, and a doubled one could pass the memory limit where `size` alone does not.
      const grown = Math.max(size, 4096, Math.min(this.scratchSize * 2, SCRATCH_KEPT_BYTES));
      this.#free();
      // Only a block that was handed out is recorded: alloc may throw at the memory limit.
      this.scratchPtr = this.heap.alloc(grown);
      this.scratchSize = grown;
    }
    return this.scratchPtr;
  }

  /**
   * The scratch block (at least `size` bytes) as a view starting at its first byte, valid
   * until the next call of scratch(): what a single string is encoded into, since making a
   * view costs more than encoding a URL.
   */
  scratchView(size: number): Uint8Array {
    const at = this.scratch(size);
    let view = this.#scratchView;
    if (view === undefined || view.byteOffset !== at || view.length !== this.scratchSize) {
      view = new Uint8Array(this.u8.buffer, at, this.scratchSize);
      this.#scratchView = view;
    }
    return view;
  }

  /**
   * `text` as UTF-8 at the start of the scratch block, with `room` bytes free above its longest
   * encoding (3 bytes a UTF-16 unit, aligned to 8); a view of it, valid until the next use of
   * the block. Written as UTF-16 and transcoded by the kernel: TextEncoder takes longer over a
   * long text, and bytes are what encodeInto would write.
   */
  encodeText(text: string, room: number): Uint8Array {
    const units = text.length;
    // The UTF-16 units, their end and span go above the UTF-8 (which may run past 3 bytes a
    // unit by what utf8FromUtf16Bytes allows): in the room, or past it when it is smaller.
    const unitsAt = alignUp(this.fn.utf8FromUtf16Bytes(units), 16);
    const endAt = unitsAt + alignUp(2 * units + UTF16_OVERREAD_BYTES, 16);
    const spanAt = endAt + 8;
    const view = this.scratchView(Math.max(alignUp(3 * units, 8) + room, spanAt + 8));
    const at = view.byteOffset;
    this.writeString(text, at + unitsAt, 'utf16le');
    this.u32[(at + endAt) >>> 2] = units;
    return view.subarray(0, this.fn.utf8FromUtf16(at + unitsAt, at + endAt, 1, at, at + spanAt, 0));
  }

  /**
   * checkOne (or with `verdict`, verdictOne) of the table at `table` for `url`, within
   * `linearLimit` (see checkOne in assembly/index.ts): the URL is encoded into the scratch
   * block, with the room the kernel needs to resolve it above it.
   */
  checkUrl(table: number, url: string, fetched: boolean, verdict: boolean, linearLimit: number): number {
    const length = this.#encodeUrl(url);
    const check = verdict ? this.fn.verdictOne : this.fn.checkOne;
    // withIndexRoom written out: a closure per check would cost the hottest path.
    const scratch = this.urlAt + url.length * 3;
    let result = check(table, this.urlAt, length, fetched ? 1 : 0, scratch, linearLimit);
    while (this.#growIndexArea()) result = check(table, this.urlAt, length, fetched ? 1 : 0, scratch, linearLimit);
    this.releaseScratch();
    return result;
  }

  /**
   * The result of the check call `call`, made again while it gave up for want of text index
   * room (textIndexWanted) with that room given: the room stays for the calls that follow until
   * releaseScratch. Past the memory limit, a RangeError. (A linear table's checks never want it.)
   */
  withIndexRoom(call: () => number): number {
    let result = call();
    while (this.#growIndexArea()) result = call();
    return result;
  }

  /** After a check call that wanted text index room: gives the kernel that room; whether it did. */
  #growIndexArea(): boolean {
    const wanted = this.fn.textIndexWanted();
    if (wanted <= this.#indexSize) return false;
    this.#freeIndexArea();
    this.#indexPtr = this.heap.alloc(wanted);
    this.#indexSize = wanted;
    this.fn.textIndexArea(this.#indexPtr, wanted);
    return true;
  }

  #freeIndexArea(): void {
    if (this.#indexSize === 0) return;
    this.fn.textIndexArea(0, 0);
    this.heap.free(this.#indexPtr);
    this.#indexPtr = 0;
    this.#indexSize = 0;
  }

  /** The kernel's pathOf `url` (PATH_* in src/wasm/abi.ts), copied out. */
  urlPath(url: string, how: number): Uint8Array {
    const length = this.#encodeUrl(url);
    const at = this.urlAt + url.length * 3;
    const path = this.u8.slice(at, at + this.fn.pathOf(this.urlAt, length, how, at));
    this.releaseScratch();
    return path;
  }

  /** The kernel's readingOf `url` (an index, or READING_REFERENCE), copied out. */
  readingPath(url: string, reading: number, rfc: boolean): Uint8Array {
    const length = this.#encodeUrl(url);
    const at = this.urlAt + url.length * 3;
    const path = this.u8.slice(at, at + this.fn.readingOf(this.urlAt, length, reading, rfc ? 1 : 0, at));
    this.releaseScratch();
    return path;
  }

  /**
   * Encodes `url` as UTF-8 at urlAt (the scratch block) and returns its length; the kernel's
   * room to resolve it starts at urlAt + 3 * url.length. The kernel is asked for the size only
   * when a URL is longer than the block was sized for: a single check is short enough that an
   * export call per URL would show in it.
   */
  #encodeUrl(url: string): number {
    let view = this.#scratchView;
    if (url.length > this.#urlUnits || view === undefined) {
      const room = url.length * 3; // the longest UTF-8 of url.length UTF-16 units
      view = this.scratchView(room + this.fn.urlScratchBytes(room));
      this.#urlUnits = url.length;
    }
    this.urlAt = view.byteOffset;
    return encoder.encodeInto(url, view).written;
  }

  /**
   * Gives back a scratch block, or text index area, that grew past SCRATCH_KEPT_BYTES (after one
   * huge input): what withScratch does afterwards, for the callers that take the block with
   * scratch().
   */
  releaseScratch(): void {
    if (this.scratchSize > SCRATCH_KEPT_BYTES) this.#free();
    if (this.#indexSize > SCRATCH_KEPT_BYTES) this.#freeIndexArea();
  }

  #free(): void {
    if (this.scratchSize === 0) return;
    this.heap.free(this.scratchPtr);
    this.scratchPtr = 0;
    this.scratchSize = 0;
    this.#urlUnits = 0;
  }
}

let threadKernel: Kernel | undefined;

/**
 * Caps this thread's WebAssembly memory at `bytes` (default 2 GiB): compiling a table or
 * checking a batch that would need more throws a RangeError instead of growing further. The
 * memory never shrinks, so a limit below its current size only stops further growth.
 */
export function setWasmMemoryLimit(bytes: number): void {
  if (typeof bytes !== 'number' || !Number.isInteger(bytes) || bytes < 1 << 20 || bytes > 2 ** 32) {
    throw new TypeError(`robots-wasm: the memory limit must be an integer from 1 MiB to 4 GiB, got ${String(bytes)}`);
  }
  kernel().heap.limit = bytes;
}

/** This thread's kernel, created on first use. */
export function kernel(): Kernel {
  threadKernel ??= new Kernel(new WebAssembly.Instance(wasmModule(), {}));
  return threadKernel;
}

/** CRC-32C of `bytes` (the kernel's, which also checks table images). */
export function crc32c(bytes: Uint8Array): number {
  const k = kernel();
  return k.withScratch(Math.max(bytes.length, 1), (at) => {
    k.u8.set(bytes, at);
    return k.fn.bytesChecksum(at, bytes.length) >>> 0;
  });
}
