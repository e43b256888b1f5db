// What two threads can do on this host with no pool at all: two worker threads that each
// check their own copy of a batch, started together. The pool's target (two threads at least
// 1.7x one) holds only as far as the host lets two threads run at full speed at once, and on
// the two vCPUs of the Intel host of the earlier runs it often did not: two processes
// checking the same 1M-URL batch at once ran at 0.78x (checkLines) and 0.9x (checkMany) of
// one alone, and two threads got 0.9x to 2.3x one thread's work done from one round to the
// next. The pool's figures are read against this pair, measured in the same rounds, and
// against one of its threads alone (the calling thread's work, done on a worker thread).

import { Worker } from 'node:worker_threads';

export type PairTask = 'checkLines' | 'checkMany';

/** Two worker threads, each holding its own matcher and its own copy of the batch. */
export class IndependentPair {
  readonly #workers: Worker[];
  readonly #ready: Promise<void>;

  /** `body`, `agent`, `count` and `seed` as the calling thread built its batch (bench/inputs.ts). */
  constructor(body: string, agent: string, count: number, seed: number) {
    this.#workers = [0, 1].map(() => new Worker(new URL('./parallel-ceiling-worker.js', import.meta.url), { workerData: { body, agent, count, seed } }));
    this.#ready = Promise.all(this.#workers.map((worker) => this.#reply(worker))).then(() => undefined);
  }

  /** Resolves when both threads have built their batch (measure nothing before: they keep both CPUs busy). */
  ready(): Promise<void> {
    return this.#ready;
  }

  /** Runs `task` once in both threads at the same time (or, with `alone`, in the first only); resolves when they are done. */
  async run(task: PairTask, alone = false): Promise<void> {
    await this.#ready;
    await Promise.all((alone ? this.#workers.slice(0, 1) : this.#workers).map((worker) => {
      const done = this.#reply(worker);
      worker.postMessage(task);
      return done;
    }));
  }

  /** Stops both threads. */
  async close(): Promise<void> {
    await Promise.all(this.#workers.map((worker) => worker.terminate()));
  }

  #reply(worker: Worker): Promise<void> {
    return new Promise((resolve, reject) => {
      const onError = (error: Error) => reject(error);
      worker.once('error', onError);
      worker.once('message', () => {
        worker.off('error', onError);
        resolve();
      });
    });
  }
}
