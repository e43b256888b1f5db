// Getting many JS strings into WebAssembly memory fast. Each URL of a batch is encoded into
// its own fixed slot through a view created once (creating a view per URL costs more than
// encoding it); a URL too long for its slot goes to an overflow area. The region is allocated
// once per thread, so batches of any size run in constant memory.

import { requireString } from '../args.js';
import type { Kernel } from './kernel.js';

/** URLs per kernel call. */
export const BATCH_SLOTS = 2048;
const SLOT_BYTES = 256;
/** Bytes per URL a packed job starts with room for (it grows if they are longer). */
const PACK_GUESS_BYTES = 96;
/** Room for URLs longer than a slot, per batch; a URL longer than this is checked alone. */
export const OVERFLOW_BYTES = 64 * 1024;

const encoder = new TextEncoder();

/** Where one batch lives: slot i at base + i * SLOT_BYTES, then overflow, spans, verdicts, scratch. */
export class BatchArea {
  readonly base: number;
  readonly overflowAt: number;
  readonly spansAt: number;
  readonly outAt: number;
  readonly scratchAt: number;
  private views: Uint8Array[] = [];
  private spans: Uint32Array | undefined;
  private buffer: ArrayBuffer | undefined;

  constructor(private readonly kernel: Kernel) {
    const slots = BATCH_SLOTS * SLOT_BYTES;
    // Normalisation writes up to 3 bytes per input byte (plus a leading '/') into the scratch.
    const size = slots + OVERFLOW_BYTES + BATCH_SLOTS * 8 + BATCH_SLOTS + 3 * OVERFLOW_BYTES + 16;
    this.base = kernel.heap.alloc(size);
    this.overflowAt = this.base + slots;
    this.spansAt = this.overflowAt + OVERFLOW_BYTES;
    this.outAt = this.spansAt + BATCH_SLOTS * 8;
    this.scratchAt = this.outAt + BATCH_SLOTS;
  }

  private refresh(): void {
    const buffer = this.kernel.u8.buffer as ArrayBuffer;
    if (buffer === this.buffer) return;
    this.buffer = buffer;
    this.views = Array.from({ length: BATCH_SLOTS }, (_, i) => new Uint8Array(buffer, this.base + i * SLOT_BYTES, SLOT_BYTES));
    this.spans = new Uint32Array(buffer, this.spansAt, BATCH_SLOTS * 2);
  }

  /**
   * Encodes urls[from, to) into the batch until it is full; returns how many were encoded
   * (0 when urls[from] alone is longer than the overflow area). Throws a TypeError for a
   * non-string.
   */
  fill(urls: readonly string[], from: number, to = urls.length): number {
    this.refresh();
    const views = this.views;
    const spans = this.spans!;
    const limit = Math.min(to - from, BATCH_SLOTS);
    let overflowUsed = 0;
    for (let n = 0; n < limit; n++) {
      const url = urls[from + n];
      requireString(url, 'url');
      const result = encoder.encodeInto(url, views[n]);
      if (result.read === url.length) {
        spans[2 * n] = n * SLOT_BYTES;
        spans[2 * n + 1] = result.written;
        continue;
      }
      const room = url.length * 3;
      if (overflowUsed + room > OVERFLOW_BYTES) return n;
      const at = this.overflowAt + overflowUsed;
      const { written } = encoder.encodeInto(url, this.kernel.u8.subarray(at, at + room));
      spans[2 * n] = at - this.base;
      spans[2 * n + 1] = written;
      overflowUsed += written;
    }
    return limit;
  }

  /**
   * urls[from, to) as one compact UTF-8 buffer and their (offset, length) spans in it: the
   * form in which a batch crosses to a worker thread, written into the buffers of `reuse`
   * when they are large enough. Throws a TypeError for a non-string.
   */
  pack(urls: readonly string[], from: number, to: number, reuse?: PackedUrls): PackedUrls {
    const count = to - from;
    // A job's buffers, handed back by the worker that checked it, are written over: a new
    // buffer of this size costs about a tenth of the packing in allocation alone.
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
      const count = this.fill(urls, i, to);
      if (count === 0) {
        // Longer than the overflow area: encoded on its own.
        const one = encoder.encode(urls[i]);
        spans[2 * (i - from)] = used;
        spans[2 * (i - from) + 1] = one.length;
        append(one);
        i++;
        continue;
      }
      const dst = this.kernel.scratch(BATCH_SLOTS * SLOT_BYTES + OVERFLOW_BYTES);
      const written = this.kernel.fn.packSpans(this.base, this.spansAt, count, dst, used);
      spans.set(new Uint32Array(this.kernel.u8.buffer, this.spansAt, count * 2), 2 * (i - from));
      append(this.kernel.u8.subarray(dst, dst + written));
      i += count;
    }
    return { bytes: bytes.subarray(0, used), spans };
  }
}

/** URLs encoded one after another, with a (byte offset, byte length) pair per URL. */
export interface PackedUrls {
  bytes: Uint8Array;
  spans: Uint32Array;
}
