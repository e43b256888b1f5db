// Messages between RobotsPool (src/pool/pool.ts) and its workers (src/pool/worker.ts).

import type { PackedUrls } from '../wasm/batch.js';

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
  | { type: 'drop'; table: number };

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
  | { type: 'error'; job: number; message: string };
