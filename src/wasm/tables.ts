// Compiled tables resident in this thread's WebAssembly memory: a cache with a byte budget.
// A matcher keeps what its table is made from (rules or image) in JS, so a table can be
// evicted and made again. When a new table would pass the budget, the least recently used
// ones are evicted first, and their matchers rebuild them on their next use: eviction changes
// cost, never answers. So memory stays bounded whatever the caller does, even in a
// synchronous loop that never disposes and so never lets the FinalizationRegistry run.
//
// Tables are evicted only when a table block is about to be allocated (or the budget is
// lowered), never during a check: a check reads its table's address once, after which
// nothing allocates a table until it returns.
//
// The recency order is an intrusive doubly linked list of TableBlock records: a check on the
// most recently used table (a crawler checks many URLs with one matcher) costs a comparison,
// one on another table a few field writes; a Map delete and set per check cost more.

import { kernel } from './kernel.js';
import { alignUp, type HeapStats } from './memory.js';

/** Default budget of resident tables per thread (see setTableBudget). */
export const DEFAULT_TABLE_BUDGET = 256 * 2 ** 20;

/**
 * What a table is made from, kept in JS so that the table can be made again after the budget
 * evicted it: compiled rules (src/compile/table.ts) or a loaded image (src/matcher.ts).
 */
export interface TableSource {
  /** Writes the table into a block of `place` (a block of its own by default) and returns its address. */
  build(place?: TablePlace): number;
  /** Whether build() makes a linear table (FLAG_LINEAR) now; absent: never. */
  readonly linear?: boolean;
  /** Its rules, the index.htm variants of google mode left out (0: every URL is allowed). */
  readonly rules?: number;
  /** Makes build() make the full table from now on. */
  upgrade?(): void;
}

/**
 * Where a table is written: take() a block of at least `size` bytes, keep() it once the table
 * is `size` bytes, or drop() it when the compile needs another size.
 */
export interface TablePlace {
  take(size: number): number;
  keep(ptr: number, size: number): void;
  drop(ptr: number): void;
}

/** A block of its own for each table, from allocTable, shrunk to the table. */
export const OWN_BLOCK: TablePlace = {
  take: (size) => allocTable(size),
  keep: (ptr, size) => kernel().heap.shrink(ptr, size),
  drop: (ptr) => kernel().heap.free(ptr),
};

/** An area larger than this is given back when a smaller table is made in it. */
const LINEAR_AREA_KEPT_BYTES = 1 << 20;
/** The smallest block the area takes or keeps, so that small tables share one. */
const LINEAR_AREA_MIN_BYTES = 4096;

/**
 * The one block of a thread where linear tables (FLAG_LINEAR) are made, for one matcher at a
 * time (src/matcher.ts): a linear table is cheap to make again, so a matcher that has checked
 * few URLs holds no table of its own, and one that checks URL after URL finds its table still
 * there. Outside the table budget, as the scratch block is.
 */
class LinearArea implements TablePlace {
  ptr = 0;
  #capacity = 0;
  /** Whether the block was taken for more than LINEAR_AREA_KEPT_BYTES: the next smaller table takes a block of its own size. */
  #large = false;
  /** The block record of the matcher whose table the area holds, or null. */
  owner: TableBlock | null = null;

  take(size: number): number {
    if (size > this.#capacity || (this.#large && size <= LINEAR_AREA_KEPT_BYTES)) {
      if (this.ptr !== 0) kernel().heap.free(this.ptr);
      this.ptr = 0;
      this.#capacity = 0;
      this.owner = null;
      const capacity = Math.max(size, LINEAR_AREA_MIN_BYTES);
      this.ptr = allocEvicting(capacity);
      this.#capacity = capacity;
      this.#large = size > LINEAR_AREA_KEPT_BYTES;
    }
    return this.ptr;
  }

  /**
   * A large block was taken with room for the largest table the rules could make: what the
   * table does not use is given back at once, not at the next smaller table.
   */
  keep(ptr: number, size: number): void {
    const kept = Math.max(size, LINEAR_AREA_MIN_BYTES);
    if (!this.#large || kept >= this.#capacity) return;
    kernel().heap.shrink(ptr, kept);
    this.#capacity = kept;
  }

  drop(): void {}
}

/** This thread's linear area. */
export const linearArea = new LinearArea();

/** A matcher's table block while it is resident (ptr 0 while not), and its place in the recency order. */
export class TableBlock {
  ptr = 0;
  /** Heap bytes of the block, counted against the budget. */
  bytes = 0;
  newer: TableBlock | null = null;
  older: TableBlock | null = null;
}

/** This thread's resident tables, most recently used first. */
class Residency {
  newest: TableBlock | null = null;
  oldest: TableBlock | null = null;
  bytes = 0;
  count = 0;
  evictions = 0;
  budget = DEFAULT_TABLE_BUDGET;
}

/** This thread's resident tables (module state, as the kernel is: each thread has its own). */
export const resident = new Residency();

// Tables of matchers collected without dispose() are freed here. The block is also the
// unregister token: eviction unregisters it, so that a synchronous loop over a million dropped
// matchers does not pile up a million registry cells.
const finalizer = new FinalizationRegistry<TableBlock>((block) => release(block));

function unlink(block: TableBlock): void {
  const { newer, older } = block;
  if (newer === null) resident.newest = older;
  else newer.older = older;
  if (older === null) resident.oldest = newer;
  else older.newer = newer;
  block.newer = null;
  block.older = null;
}

function linkNewest(block: TableBlock): void {
  const newest = resident.newest;
  block.older = newest;
  if (newest === null) resident.oldest = block;
  else newest.newer = block;
  resident.newest = block;
}

/** Frees `block`'s table now (dispose, or its matcher was collected); nothing when it is not resident. */
export function release(block: TableBlock): void {
  if (block.ptr === 0) return;
  finalizer.unregister(block);
  unlink(block);
  kernel().heap.free(block.ptr);
  resident.bytes -= block.bytes;
  resident.count--;
  block.ptr = 0;
  block.bytes = 0;
}

function evictOldest(): boolean {
  const oldest = resident.oldest;
  if (oldest === null) return false;
  release(oldest);
  resident.evictions++;
  return true;
}

/**
 * A block of `size` bytes for a new table. The least recently used tables are evicted first
 * until the resident ones and this one fit the budget (one table larger than the whole budget
 * is still made), and more when the memory limit is reached. Not resident until admit().
 */
export function allocTable(size: number): number {
  const need = alignUp(size);
  while (resident.bytes + need > resident.budget && evictOldest());
  return allocEvicting(size);
}

/** A block of `size` bytes, the least recently used tables evicted while the memory limit refuses it. */
function allocEvicting(size: number): number {
  const heap = kernel().heap;
  for (;;) {
    try {
      return heap.alloc(size);
    } catch (error) {
      if (!(error instanceof RangeError) || size > heap.limit || !evictOldest()) throw error;
    }
  }
}

/**
 * Makes the table at `ptr` (a block from allocTable) resident as the most recently used, and
 * frees it if `owner` is garbage-collected while it is.
 */
export function admit(block: TableBlock, ptr: number, owner: object): void {
  block.ptr = ptr;
  block.bytes = kernel().heap.sizeOf(ptr);
  linkNewest(block);
  resident.bytes += block.bytes;
  resident.count++;
  finalizer.register(owner, block, block);
}

/** Marks a resident table as the most recently used. */
export function touch(block: TableBlock): void {
  if (block === resident.newest) return;
  unlink(block);
  linkNewest(block);
}

/**
 * Sets how many bytes of this thread's WebAssembly memory compiled tables may hold (default
 * 256 MiB). Past it, the least recently used tables are evicted, now and whenever a new one
 * is made; a matcher whose table was evicted makes it again on its next use.
 */
export function setTableBudget(bytes: number): void {
  if (typeof bytes !== 'number' || !Number.isInteger(bytes) || bytes < 0 || bytes > 2 ** 32) {
    throw new TypeError(`robots-wasm: the table budget must be an integer from 0 to 4 GiB, got ${String(bytes)}`);
  }
  resident.budget = bytes;
  while (resident.bytes > bytes && evictOldest());
}

/** This thread's WebAssembly memory, and what its compiled tables hold of it. */
export interface WasmMemoryStats extends HeapStats {
  /** Bytes of the resident compiled tables. */
  tableBytes: number;
  /** The most they may hold (setTableBudget). */
  tableBudget: number;
  /** Compiled tables resident. */
  residentTables: number;
  /** Tables evicted so far to stay within the budget (each made again when next used). */
  evictions: number;
}

/** Size of this thread's WebAssembly memory, how much of it is in use, and by compiled tables. */
export function wasmMemoryStats(): WasmMemoryStats {
  return {
    ...kernel().heap.stats(),
    tableBytes: resident.bytes,
    tableBudget: resident.budget,
    residentTables: resident.count,
    evictions: resident.evictions,
  };
}
