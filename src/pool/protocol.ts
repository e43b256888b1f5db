// Messages between RobotsPool (src/pool/pool.ts) and its workers (src/pool/worker.ts).

import type { PackedUrls } from '../wasm/batch.js';
import type { WasmMemoryStats } from '../wasm/tables.js';

/** What a worker starts with (its workerData). */
export interface WorkerSetup {
  /** The table budget of the thread that started the pool (setTableBudget). */
  tableBudget: number;
  /** The kernel's compiled module, so that the worker does not compile it again. */
  module: WebAssembly.Module;
}

/** Calling thread -> worker. */
export type WorkerRequest =
  | {
      type: 'check';
      job: number;
      table: number;
      /** The table image, when this worker does not hold table `table` yet. */
      image?: Uint8Array;
      batch: WorkerBatch;
    }
  | { type: 'drop'; table: number }
  | { type: 'stats'; job: number };

/** What to check: a buffer of lines (checkLines), or URLs packed with their spans (checkMany). */
export type WorkerBatch = { lines: Uint8Array } | PackedUrls;

/** Worker -> calling thread. */
export type WorkerResponse =
  | {
      type: 'verdicts';
      job: number;
      verdicts: Uint8Array;
      /** A checkMany job's own buffers, handed back for the next job to be packed into. */
      spent?: PackedUrls;
    }
  | ({ type: 'stats'; job: number } & WorkerStats)
  | { type: 'error'; job: number; message: string };

/** A worker's tables: the copies it holds, and its WebAssembly memory with those resident. */
export interface WorkerStats {
  /** Tables it was sent and still holds (resident, or evicted and made again when used). */
  tables: number;
  memory: WasmMemoryStats;
}
