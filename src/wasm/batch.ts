// Getting many JS strings into WebAssembly memory fast. A batch of URLs is joined into one
// string and written into memory as UTF-16 by one call; the kernel turns it into UTF-8 and
// finds where each URL starts (assembly/utf16.ts): a call per URL (TextEncoder.encodeInto)
// costs more than matching it. The region is allocated once per thread, so batches of any size
// run in constant memory.
//
// A batch is as long as V8 allows a string to be without moving it to its large-object space:
// the joined string is a new string, and up to 64 Ki UTF-16 units it is a bump allocation in
// the young generation, while past that it is a large-object allocation, which joining and
// writing pay for many times over; a shorter batch pays the per-call cost more often.

import { requireString } from '../args.js';
import { kernel, type Kernel } from './kernel.js';
import { alignUp } from './memory.js';

/** URLs per kernel call, at most: enough that the length limit below usually ends a batch. */
export const BATCH_URLS = 2048;
/**
 * UTF-16 units per batch, 4 Ki short of the 64 Ki at which V8 allocates a two-byte string in
 * its large-object space (see above); a URL longer than this is checked alone.
 */
export const BATCH_UNITS = 60 * 1024;
/** Bytes per URL a packed job starts with room for (it grows if they are longer). */
const PACK_GUESS_BYTES = 96;

const encoder = new TextEncoder();
const join = Array.prototype.join;

/**
 * Where one batch lives: its UTF-16 units, the unit where each URL ends, the UTF-8 bytes and
 * each URL's (offset, length) span in them, a verdict byte per URL, and normalisation scratch.
 */
export class BatchArea {
  readonly unitsAt: number;
  readonly endsAt: number;
  readonly bytesAt: number;
  readonly spansAt: number;
  readonly outAt: number;
  readonly scratchAt: number;
  /** UTF-8 bytes of the URLs the last fill() encoded. */
  filledBytes = 0;
  private ends: Uint32Array | undefined;
  private buffer: ArrayBuffer | undefined;

  constructor(private readonly kernel: Kernel) {
    // The transcoder reads past the units (harmless: the bytes it reads are masked out), and
    // its output needs utf8FromUtf16Bytes; the scratch is checkSpans' for a batch whose every
    // URL may be as long as the batch.
    const unitsBytes = BATCH_UNITS * 2;
    const utf8Bytes = kernel.fn.utf8FromUtf16Bytes(BATCH_UNITS);
    const scratchBytes = kernel.fn.checkSpansScratchBytes(utf8Bytes, utf8Bytes);
    const size = unitsBytes + BATCH_URLS * 4 + utf8Bytes + BATCH_URLS * 8 + BATCH_URLS + scratchBytes;
    this.unitsAt = kernel.heap.alloc(size);
    this.endsAt = this.unitsAt + unitsBytes;
    this.bytesAt = this.endsAt + BATCH_URLS * 4;
    this.spansAt = alignUp(this.bytesAt + utf8Bytes, 8);
    this.outAt = this.spansAt + BATCH_URLS * 8;
    this.scratchAt = this.outAt + BATCH_URLS;
  }

  private refresh(): void {
    const buffer = this.kernel.u8.buffer as ArrayBuffer;
    if (buffer === this.buffer) return;
    this.buffer = buffer;
    this.ends = new Uint32Array(buffer, this.endsAt, BATCH_URLS);
  }

  /**
   * Encodes urls[from, to) as UTF-8 into the batch until it is full, with spans whose offsets
   * start at `offset`; returns how many were encoded (0 when urls[from] alone is longer than
   * BATCH_UNITS). Throws a TypeError for a non-string, or when the URLs read differently the
   * second time (an array with getters).
   */
  fill(urls: readonly string[], from: number, to = urls.length, offset = 0): number {
    this.refresh();
    const ends = this.ends!;
    const limit = Math.min(to - from, BATCH_URLS);
    let units = 0;
    let n = 0;
    for (; n < limit; n++) {
      const url = urls[from + n];
      requireString(url, 'url');
      const next = units + url.length;
      if (next > BATCH_UNITS) break;
      units = next;
      ends[n] = units;
    }
    if (n === 0) return 0;
    // Joined by Array#join, which writes one flat string; a rope (+=) is flattened into one by
    // the write as well, after a node per URL that the garbage collector then has to clear.
    const text = join.call(from === 0 && n === urls.length ? urls : urls.slice(from, from + n), '');
    // The join reads the URLs again: an array whose getters answer differently would overrun
    // the units region.
    if (text.length !== units) throw new TypeError('robots-wasm: the urls array changed while it was read');
    this.kernel.writeString(text, this.unitsAt, 'utf16le');
    this.filledBytes = this.kernel.fn.utf8FromUtf16(this.unitsAt, this.endsAt, n, this.bytesAt, this.spansAt, offset);
    return n;
  }

  /**
   * urls[from, to) as one compact UTF-8 buffer and their (offset, length) spans in it: the
   * form in which a batch crosses to a worker thread, written into the buffers of `reuse`
   * when they are large enough. Throws a TypeError for a non-string.
   */
  pack(urls: readonly string[], from: number, to: number, reuse?: PackedUrls): PackedUrls {
    const count = to - from;
    // A job's buffers, handed back by the worker that checked it, are written over: a new
    // buffer of this size is an allocation (zeroed, outside the JS heap) the packing would
    // pay for again and again.
    const spans = reuse !== undefined && reuse.spans.buffer.byteLength >= count * 8
      ? new Uint32Array(reuse.spans.buffer, 0, count * 2)
      : new Uint32Array(count * 2);
    // One buffer for the job, grown when URLs turn out longer than guessed: slicing each
    // kernel batch out and joining the slices copied every byte twice more.
    let bytes = reuse !== undefined && reuse.bytes.buffer.byteLength >= count * PACK_GUESS_BYTES
      ? new Uint8Array(reuse.bytes.buffer)
      : new Uint8Array(count * PACK_GUESS_BYTES);
    let used = 0;
    const append = (part: Uint8Array) => {
      if (used + part.length > bytes.length) {
        const grown = new Uint8Array(Math.max(bytes.length * 2, used + part.length));
        grown.set(bytes.subarray(0, used));
        bytes = grown;
      }
      bytes.set(part, used);
      used += part.length;
    };
    for (let i = from; i < to; ) {
      const count = this.fill(urls, i, to, used);
      if (count === 0) {
        // Longer than a batch: encoded on its own.
        const one = encoder.encode(urls[i]);
        spans[2 * (i - from)] = used;
        spans[2 * (i - from) + 1] = one.length;
        append(one);
        i++;
        continue;
      }
      spans.set(new Uint32Array(this.kernel.u8.buffer, this.spansAt, count * 2), 2 * (i - from));
      append(this.kernel.u8.subarray(this.bytesAt, this.bytesAt + this.filledBytes));
      i += count;
    }
    return { bytes: bytes.subarray(0, used), spans };
  }
}

let threadBatch: BatchArea | undefined;

/** This thread's batch area (allocated on first use, and kept). */
export function batchArea(): BatchArea {
  threadBatch ??= new BatchArea(kernel());
  return threadBatch;
}

/** URLs encoded one after another, with a (byte offset, byte length) pair per URL. */
export interface PackedUrls {
  bytes: Uint8Array;
  spans: Uint32Array;
}
