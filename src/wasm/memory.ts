// Who owns which bytes of the WebAssembly memory. The kernel never allocates: every table and
// scratch buffer is a block handed out here, so a dropped matcher's table can be freed and
// its space reused, and the memory stops growing once a crawler's working set is reached.
//
// Best fit (alloc takes the smallest free block that holds the request, the lowest-addressed of
// equals), over a free list kept in address order so that free merges a block with its free
// neighbours. Blocks are 16-byte aligned (tables are read with u32 loads, typed-array views
// need alignment). The last HEAP_GUARD bytes of memory are never handed out. Addresses and
// sizes are JS numbers, never 32-bit integers: memory may grow to 4 GiB, where `& ~15` would
// turn an address negative.

const PAGE = 65536;
const ALIGN = 16;
/**
 * Bytes at the end of memory never handed out: the kernel's scans read up to 63 bytes past
 * an input (assembly/path.ts), which then stays in bounds wherever the input lies.
 */
export const HEAP_GUARD = 64;

/** The most a growth step adds beyond what the allocation needs. */
const MAX_GROW_SPARE = 16 << 20;

/** Default ceiling of a thread's WebAssembly memory (see setWasmMemoryLimit). */
export const DEFAULT_MEMORY_LIMIT = 2 ** 31;

/** `n` rounded up to a multiple of `align`, by arithmetic (a bitwise mask wraps at 2 GiB). */
export function alignUp(n: number, align = ALIGN): number {
  const rest = n % align;
  return rest === 0 ? n : n + align - rest;
}

/** Bytes in use and free, for tests, benchmarks and the soak script. */
export interface HeapStats {
  /** Size of the WebAssembly memory in bytes. */
  memoryBytes: number;
  /** Bytes in live blocks. */
  usedBytes: number;
  /** Number of live blocks. */
  liveBlocks: number;
  /** Number of free blocks (fragmentation indicator). */
  freeBlocks: number;
  /** The most the memory may grow to (setWasmMemoryLimit). */
  limitBytes: number;
}

/** Allocator over a WebAssembly.Memory: alloc, free, shrink; grows the memory when nothing fits. */
export class Heap {
  private readonly memory: WebAssembly.Memory;
  private readonly onGrow: () => void;
  // Free blocks, ordered by address: starts[i] .. starts[i] + sizes[i].
  private readonly starts: number[] = [];
  private readonly sizes: number[] = [];
  private readonly live = new Map<number, number>();
  private used = 0;
  private end: number;
  /**
   * Most bytes the memory may grow to. 2 GiB by default: a crawler that needs more than that
   * has a leak, not a working set (setWasmMemoryLimit allows up to 4 GiB).
   */
  limit = DEFAULT_MEMORY_LIMIT;

  constructor(memory: WebAssembly.Memory, base: number, onGrow: () => void) {
    this.memory = memory;
    this.onGrow = onGrow;
    const start = alignUp(base);
    this.end = memory.buffer.byteLength - HEAP_GUARD;
    if (this.end > start) this.insertFree(start, this.end - start);
  }

  /**
   * A block of at least `size` bytes; may grow the memory (callers must re-read their views).
   * A size that is not a non-negative integer within the limit is a RangeError, and nothing
   * has changed.
   */
  alloc(size: number): number {
    if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`robots-wasm: cannot allocate ${String(size)} bytes of WebAssembly memory`);
    if (size > this.limit) {
      throw new RangeError(`robots-wasm: ${size} bytes asked for, more than the WebAssembly memory limit of ${this.limit} bytes (setWasmMemoryLimit)`);
    }
    const need = alignUp(Math.max(size, 1));
    // Best fit: the smallest free block that holds the request, so large free runs stay whole
    // for large tables and a long-running process does not fragment its way into growing.
    let best = -1;
    for (let i = 0; i < this.starts.length; i++) {
      const size = this.sizes[i];
      if (size >= need && (best < 0 || size < this.sizes[best])) {
        best = i;
        if (size === need) break;
      }
    }
    if (best >= 0) return this.take(best, need);
    this.grow(need);
    return this.alloc(need);
  }

  /** Returns a block to the free list. Freeing twice, or a pointer never handed out, throws. */
  free(ptr: number): void {
    const size = this.live.get(ptr);
    if (size === undefined) throw new Error(`robots-wasm: free of unknown block ${ptr}`);
    this.live.delete(ptr);
    this.used -= size;
    this.insertFree(ptr, size);
  }

  /** Gives back the tail of a block beyond `size` bytes. */
  shrink(ptr: number, size: number): void {
    const old = this.live.get(ptr);
    if (old === undefined) throw new Error(`robots-wasm: shrink of unknown block ${ptr}`);
    const keep = alignUp(Math.max(size, 1));
    if (keep >= old) return;
    this.live.set(ptr, keep);
    this.used -= old - keep;
    this.insertFree(ptr + keep, old - keep);
  }

  /** Size in bytes of a live block. */
  sizeOf(ptr: number): number {
    return this.live.get(ptr) ?? 0;
  }

  stats(): HeapStats {
    return {
      memoryBytes: this.memory.buffer.byteLength,
      usedBytes: this.used,
      liveBlocks: this.live.size,
      freeBlocks: this.starts.length,
      limitBytes: this.limit,
    };
  }

  private take(i: number, need: number): number {
    const ptr = this.starts[i];
    if (this.sizes[i] === need) {
      this.starts.splice(i, 1);
      this.sizes.splice(i, 1);
    } else {
      this.starts[i] += need;
      this.sizes[i] -= need;
    }
    this.live.set(ptr, need);
    this.used += need;
    return ptr;
  }

  private grow(need: number): void {
    // Grow by half the current size so a growing working set costs few grows, but by at most
    // MAX_GROW_SPARE past what is needed (the memory never shrinks, and a working set the table
    // budget bounds should not end with a third of the memory never used), and never past the
    // limit: then only by what is needed.
    const last = this.starts.length - 1;
    const tailFree = last >= 0 && this.starts[last] + this.sizes[last] === this.end ? this.sizes[last] : 0;
    const current = this.memory.buffer.byteLength;
    const needed = Math.ceil(Math.max(need - tailFree, PAGE) / PAGE);
    if (current + needed * PAGE > this.limit) {
      throw new RangeError(`robots-wasm: the WebAssembly memory limit of ${this.limit} bytes is reached (${current} in use, ${need} more asked for)`);
    }
    const pages = Math.max(needed, Math.min(Math.ceil(this.end / 2 / PAGE), needed + MAX_GROW_SPARE / PAGE, Math.floor((this.limit - current) / PAGE)));
    try {
      this.memory.grow(pages);
    } catch {
      throw new RangeError(`robots-wasm: WebAssembly memory cannot grow by ${pages * PAGE} bytes`);
    }
    const oldEnd = this.end;
    this.end = this.memory.buffer.byteLength - HEAP_GUARD;
    this.insertFree(oldEnd, this.end - oldEnd);
    this.onGrow();
  }

  private insertFree(ptr: number, size: number): void {
    const starts = this.starts;
    const sizes = this.sizes;
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (starts[mid] < ptr) lo = mid + 1;
      else hi = mid;
    }
    const mergesLeft = lo > 0 && starts[lo - 1] + sizes[lo - 1] === ptr;
    const mergesRight = lo < starts.length && ptr + size === starts[lo];
    if (mergesLeft && mergesRight) {
      sizes[lo - 1] += size + sizes[lo];
      starts.splice(lo, 1);
      sizes.splice(lo, 1);
    } else if (mergesLeft) {
      sizes[lo - 1] += size;
    } else if (mergesRight) {
      starts[lo] = ptr;
      sizes[lo] += size;
    } else {
      starts.splice(lo, 0, ptr);
      sizes.splice(lo, 0, size);
    }
  }
}
