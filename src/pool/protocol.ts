// Messages between RobotsPool (src/pool/pool.ts) and its workers (src/pool/worker.ts).

/** Calling thread -> worker. */
export type WorkerRequest =
  | {
      type: 'checkLines';
      job: number;
      table: number;
      /** The table image, when this worker does not hold table `table` yet. */
      image?: Uint8Array;
      bytes: Uint8Array;
    }
  | { type: 'drop'; table: number };

/** Worker -> calling thread. */
export type WorkerResponse =
  | { type: 'verdicts'; job: number; verdicts: Uint8Array }
  | { type: 'error'; job: number; message: string };
