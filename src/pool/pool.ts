// RobotsPool: verdicts for large batches on worker threads. Each worker has its own
// WebAssembly instance and receives a matcher's table once (as its byte image); batches are
// split into jobs and handed out in order. Strings never cross threads (cloning a string
// costs more than checking it, and joining them nearly as much): checkMany encodes each URL
// into WebAssembly memory the way matcher.checkMany does, packs them into one buffer with
// their spans, and the worker checks the spans.

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { integerOption } from '../args.js';
import { concatBytes, lineChunkEnd } from '../bytes.js';
import { checkRangeInto, whenDisposed, type Matcher } from '../matcher.js';
import type { WorkerBatch, WorkerRequest, WorkerResponse, WorkerSetup, WorkerStats } from './protocol.js';
import { batchArea, type PackedUrls } from '../wasm/batch.js';
import { wasmModule } from '../wasm/kernel.js';
import { WORKER_SOURCE } from './worker-source.generated.js';
import { resident } from '../wasm/tables.js';

export interface PoolOptions {
  /** Worker threads at most; default: the number of CPUs (os.availableParallelism()). */
  threads?: number;
  /**
   * CPUs the pool may keep busy, the calling thread's included: it starts at most one worker
   * fewer, since the calling thread checks URLs too; default os.availableParallelism().
   */
  cpus?: number;
  /** checkMany batches with fewer URLs run on the calling thread; default 20,000. */
  minUrls?: number;
  /** checkLines buffers with fewer bytes run on the calling thread; default 1 MiB. */
  minBytes?: number;
  /** URLs per checkMany job at most (the first and last jobs are smaller); default 65,536. */
  jobUrls?: number;
  /** Bytes per checkLines job at most (cut at line ends; the last jobs are smaller); default 2 MiB. */
  jobBytes?: number;
  /** Tables a worker keeps (least recently used are dropped); default 1,000. */
  tablesPerWorker?: number;
}

// Spent job buffers kept for reuse: a job's buffers come back as the next one is packed, so
// a few suffice, and an idle pool should not hold much memory (a job's are about 6 MiB).
const SPENT_BUFFERS_KEPT = 2;

/** checkLines jobs handed to a worker before it has finished one. */
const JOBS_OUT_PER_WORKER = 2;

/** Bytes of lines the calling thread checks itself at a time while the workers are busy, and the smallest checkLines job. */
const LOCAL_SLICE_BYTES = 128 * 1024;

/** URLs the calling thread checks itself at a time while the workers are busy. */
const LOCAL_SLICE_URLS = 4096;

/** The smallest checkMany job, and the first one's size. */
const MIN_JOB_URLS = 2048;
const FIRST_JOB_URLS = 4096;

/**
 * Size of checkMany job number `index` with `remaining` URLs left. The calling thread packs
 * a job while the workers check the ones before it, so the workers wait for the first job and
 * the calling thread waits for the last: the first jobs are small and double up to `max`
 * (workers start early), and the last ones halve (workers end soon after the packing does).
 */
export function packedJobSize(index: number, remaining: number, max: number, workers: number): number {
  const size = Math.min(max, FIRST_JOB_URLS * 2 ** index, Math.ceil(remaining / (2 * workers)));
  return Math.min(remaining, Math.max(Math.min(MIN_JOB_URLS, max), size));
}

/** A worker's answer to a request other than an error. */
type Answer = Exclude<WorkerResponse, { type: 'error' }>;

interface PendingJob {
  resolve: (answer: Answer) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  /** Tables this worker holds, least recently used first. */
  tables: Map<number, true>;
  jobs: Map<number, PendingJob>;
}

/** Checks large batches of URLs on worker threads; small batches stay on the calling thread. */
/** workerStats, set by RobotsPool's static block, which alone sees its private members. */
let statsOf: (pool: RobotsPool) => Promise<WorkerStats[]>;

export class RobotsPool {
  /** Worker threads at most (see PoolOptions.cpus for how many start). */
  readonly threads: number;
  /** Workers a batch is shared with: the calling thread keeps a CPU of its own. */
  readonly #workers: number;
  readonly #minUrls: number;
  readonly #minBytes: number;
  readonly #jobUrls: number;
  readonly #jobBytes: number;
  readonly #tablesPerWorker: number;
  readonly #slots: Slot[] = [];
  /** Buffers of checkMany jobs that workers handed back, for packing the next jobs into. */
  readonly #spentBuffers: PackedUrls[] = [];
  readonly #tableIds = new WeakMap<Matcher, number>();
  readonly #dropped = new FinalizationRegistry<number>((table) => this.#drop(table));
  #nextTable = 1;
  #nextJob = 1;
  #nextSlot = 0;
  #closed = false;

  constructor(options: PoolOptions = {}) {
    this.threads = integerOption(options.threads, 'threads', availableParallelism());
    this.#workers = Math.min(this.threads, Math.max(1, integerOption(options.cpus, 'cpus', availableParallelism()) - 1));
    this.#minUrls = integerOption(options.minUrls, 'minUrls', 20_000);
    this.#minBytes = integerOption(options.minBytes, 'minBytes', 1 << 20);
    this.#jobUrls = integerOption(options.jobUrls, 'jobUrls', 65_536);
    this.#jobBytes = integerOption(options.jobBytes, 'jobBytes', 2 << 20);
    this.#tablesPerWorker = integerOption(options.tablesPerWorker, 'tablesPerWorker', 1000);
  }

  /** Verdicts for many URLs (1 = allowed), in order; the same answers as matcher.checkMany. */
  async checkMany(matcher: Matcher, urls: readonly string[]): Promise<Uint8Array> {
    this.#check(matcher);
    if (!Array.isArray(urls)) throw new TypeError('robots-wasm: checkMany expects an array of strings');
    if (urls.length < this.#minUrls) return matcher.checkMany(urls);
    const batch = batchArea();
    const verdicts = new Uint8Array(urls.length);
    const jobs: Promise<void>[] = [];
    // The calling thread packs URLs for the whole batch: it keeps a CPU of its own, or workers
    // would take turns with it. Packing a URL costs about as much as checking it, so when every
    // worker has a job waiting the calling thread checks a slice itself.
    const workers = this.#workers;
    for (let from = 0; from < urls.length; ) {
      let to: number;
      if (this.#jobsInFlight() > workers) {
        // Every worker has a job waiting: checking a slice here adds more than queueing one.
        to = Math.min(urls.length, from + LOCAL_SLICE_URLS);
        checkRangeInto(matcher, urls, from, to, verdicts);
      } else {
        to = from + packedJobSize(jobs.length, urls.length - from, this.#jobUrls, workers);
        const packed = batch.pack(urls, from, to, this.#spentBuffers.pop());
        const at = from;
        const job = this.#submit(matcher, packed, [packed.bytes.buffer, packed.spans.buffer]).then((v) => verdicts.set(v, at));
        // Awaited after the loop; a failure before then must not count as unhandled.
        job.catch(() => undefined);
        jobs.push(job);
      }
      from = to;
      if (from < urls.length) {
        // Take in the jobs done meanwhile: their buffers are packed into next, and the count of
        // jobs in flight decides what the calling thread does next.
        await new Promise((resolve) => setImmediate(resolve));
        this.#check(matcher);
      }
    }
    await Promise.all(jobs);
    return verdicts;
  }

  /** Verdicts for a buffer of newline-separated URLs, one per line; the same answers as matcher.checkLines. */
  async checkLines(matcher: Matcher, bytes: Uint8Array): Promise<Uint8Array> {
    this.#check(matcher);
    if (!(bytes instanceof Uint8Array)) throw new TypeError('robots-wasm: checkLines expects a Uint8Array');
    if (bytes.length < this.#minBytes) return matcher.checkLines(bytes);
    // As in checkMany, the calling thread keeps a CPU of its own: it copies the jobs out, and
    // checks a slice itself whenever every worker has its jobs waiting (one worker and the
    // calling thread beat two workers and an idle calling thread in the bench's pool group).
    const workers = this.#workers;
    const parts: (Uint8Array | Promise<Uint8Array>)[] = [];
    let start = 0;
    while (start < bytes.length) {
      if (this.#jobsInFlight() >= JOBS_OUT_PER_WORKER * workers) {
        const end = lineChunkEnd(bytes, start, LOCAL_SLICE_BYTES);
        parts.push(matcher.checkLines(bytes.subarray(start, end)));
        start = end;
        // Take in the jobs done meanwhile.
        await new Promise((resolve) => setImmediate(resolve));
        this.#check(matcher);
        continue;
      }
      // Jobs shrink towards the end, so that the workers finish about when the calling thread does.
      const size = Math.min(this.#jobBytes, Math.max(LOCAL_SLICE_BYTES, Math.ceil((bytes.length - start) / (2 * (workers + 1)))));
      const end = lineChunkEnd(bytes, start, size);
      // A copy of its own to transfer: slice() of a Buffer is a view of the caller's memory,
      // and transferring its ArrayBuffer would empty the caller's Buffer (or Node's pool).
      const lines = new Uint8Array(end - start);
      lines.set(bytes.subarray(start, end));
      const job = this.#submit(matcher, { lines }, [lines.buffer]);
      // Awaited after the loop; a failure before then must not count as unhandled.
      job.catch(() => undefined);
      parts.push(job);
      start = end;
    }
    return concatBytes(await Promise.all(parts));
  }

  /** Worker threads started so far (they start on the first batch large enough to need them). */
  get startedWorkers(): number {
    return this.#slots.length;
  }

  /** Stops the workers; pending jobs are rejected. The pool cannot be used afterwards. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#spentBuffers.length = 0;
    const slots = this.#slots.splice(0);
    for (const slot of slots) this.#fail(slot, new Error('robots-wasm: the pool was closed'));
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  #check(matcher: Matcher): void {
    if (this.#closed) throw new Error('robots-wasm: the pool was closed');
    if (matcher === null || typeof matcher !== 'object' || typeof matcher.toBytes !== 'function') {
      throw new TypeError('robots-wasm: expected a Matcher');
    }
    if (matcher.disposed) throw new Error('robots-wasm: this matcher was disposed');
  }

  #submit(matcher: Matcher, batch: WorkerBatch, buffers: ArrayBufferLike[]): Promise<Uint8Array> {
    let table = this.#tableIds.get(matcher);
    if (table === undefined) {
      table = this.#nextTable++;
      this.#tableIds.set(matcher, table);
      // Workers drop their copies when the matcher is disposed, or else garbage-collected.
      this.#dropped.register(matcher, table);
      const pool = new WeakRef(this);
      const id = table;
      whenDisposed(matcher, () => {
        const live = pool.deref();
        if (live !== undefined) live.#drop(id);
      });
    }
    const slot = this.#slot();
    const job = this.#nextJob++;
    let image: Uint8Array | undefined;
    if (slot.tables.has(table)) {
      slot.tables.delete(table);
    } else {
      image = matcher.toBytes();
      if (slot.tables.size >= this.#tablesPerWorker) {
        const oldest = slot.tables.keys().next().value as number;
        slot.tables.delete(oldest);
        this.#post(slot, { type: 'drop', table: oldest });
      }
    }
    slot.tables.set(table, true);
    const transfer = image === undefined ? buffers : [...buffers, image.buffer];
    return this.#ask(slot, { type: 'check', job, table, image, batch }, transfer).then((answer) => (answer as { verdicts: Uint8Array }).verdicts);
  }

  static {
    statsOf = async (pool) => {
      const answers = await Promise.all(pool.#slots.map((slot) => pool.#ask(slot, { type: 'stats', job: pool.#nextJob++ })));
      return answers.map((answer) => {
        const { tables, memory } = answer as WorkerStats;
        return { tables, memory };
      });
    };
  }

  /** Posts a request the worker answers; the worker keeps the process alive until it has. */
  #ask(slot: Slot, request: WorkerRequest & { job: number }, transfer: readonly ArrayBufferLike[] = []): Promise<Answer> {
    return new Promise<Answer>((resolve, reject) => {
      slot.jobs.set(request.job, { resolve, reject });
      if (slot.jobs.size === 1) slot.worker.ref();
      slot.worker.postMessage(request, transfer as ArrayBuffer[]);
    });
  }

  #jobsInFlight(): number {
    let count = 0;
    for (const slot of this.#slots) count += slot.jobs.size;
    return count;
  }

  #post(slot: Slot, request: WorkerRequest): void {
    slot.worker.postMessage(request);
  }

  /** The least busy worker, started on first use. */
  #slot(): Slot {
    const workers = this.#workers;
    if (this.#slots.length < workers) {
      const setup: WorkerSetup = { tableBudget: resident.budget, module: wasmModule() };
      // From source, not a file path: a bundled application has no worker file beside it.
      const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: setup });
      worker.unref();
      const slot: Slot = { worker, tables: new Map(), jobs: new Map() };
      worker.on('message', (response: WorkerResponse) => this.#settle(slot, response));
      worker.on('error', (error) => this.#lose(slot, error));
      worker.on('exit', (code) => this.#lose(slot, new Error(`robots-wasm: a pool worker exited with code ${code}`)));
      this.#slots.push(slot);
      return slot;
    }
    // The least busy worker, the next in turn among equals.
    let slot = this.#slots[this.#nextSlot % workers];
    for (let i = 1; i < workers; i++) {
      const other = this.#slots[(this.#nextSlot + i) % workers];
      if (other.jobs.size < slot.jobs.size) slot = other;
    }
    this.#nextSlot++;
    return slot;
  }

  #settle(slot: Slot, response: WorkerResponse): void {
    const pending = slot.jobs.get(response.job);
    if (pending === undefined) return;
    slot.jobs.delete(response.job);
    // An idle worker must not keep the process alive.
    if (slot.jobs.size === 0) slot.worker.unref();
    if (response.type === 'error') {
      pending.reject(new Error(`robots-wasm: pool worker failed: ${response.message}`));
      return;
    }
    if (response.type === 'verdicts' && response.spent !== undefined && this.#spentBuffers.length < SPENT_BUFFERS_KEPT) {
      this.#spentBuffers.push(response.spent);
    }
    pending.resolve(response);
  }

  #lose(slot: Slot, error: Error): void {
    const index = this.#slots.indexOf(slot);
    if (index >= 0) this.#slots.splice(index, 1);
    this.#fail(slot, error);
  }

  #fail(slot: Slot, error: Error): void {
    for (const pending of slot.jobs.values()) pending.reject(error);
    slot.jobs.clear();
  }

  #drop(table: number): void {
    for (const slot of this.#slots) {
      if (slot.tables.delete(table)) this.#post(slot, { type: 'drop', table });
    }
  }
}

/** Internal (tests): each started worker's table copies and WebAssembly memory. */
export function workerStats(pool: RobotsPool): Promise<WorkerStats[]> {
  return statsOf(pool);
}
