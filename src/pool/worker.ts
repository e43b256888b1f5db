// A RobotsPool worker (bundled into a string by scripts/build-worker.mjs): holds the tables it was sent (as Matchers over its own WebAssembly
// instance, under the table budget of the thread that started the pool) and answers jobs:
// buffers of lines, or packed URLs.

import { parentPort, workerData } from 'node:worker_threads';
import { checkPacked, matcherFromImage, type Matcher } from '../matcher.js';
import { adoptWasmModule } from '../wasm/kernel.js';
import { setTableBudget, wasmMemoryStats } from '../wasm/tables.js';
import type { WorkerRequest, WorkerResponse, WorkerSetup } from './protocol.js';

const setup = workerData as WorkerSetup;
adoptWasmModule(setup.module);
setTableBudget(setup.tableBudget);

const tables = new Map<number, Matcher>();
const port = parentPort!;

port.on('message', (request: WorkerRequest) => {
  if (request.type === 'drop') {
    tables.get(request.table)?.dispose();
    tables.delete(request.table);
    return;
  }
  if (request.type === 'stats') {
    port.postMessage({ type: 'stats', job: request.job, tables: tables.size, memory: wasmMemoryStats() } satisfies WorkerResponse);
    return;
  }
  let response: WorkerResponse;
  try {
    let matcher = tables.get(request.table);
    if (matcher === undefined) {
      if (request.image === undefined) throw new Error(`table ${request.table} was never sent to this worker`);
      // The transferred image is this worker's own: kept without a copy, to make the table again from.
      matcher = matcherFromImage(request.image);
      tables.set(request.table, matcher);
    }
    const { batch } = request;
    if ('lines' in batch) {
      response = { type: 'verdicts', job: request.job, verdicts: matcher.checkLines(batch.lines) };
    } else {
      response = { type: 'verdicts', job: request.job, verdicts: checkPacked(matcher, batch), spent: batch };
    }
  } catch (error) {
    response = { type: 'error', job: request.job, message: error instanceof Error ? error.message : String(error) };
  }
  const transfer: ArrayBuffer[] = [];
  if (response.type === 'verdicts') {
    transfer.push(response.verdicts.buffer as ArrayBuffer);
    if (response.spent !== undefined) transfer.push(response.spent.bytes.buffer as ArrayBuffer, response.spent.spans.buffer as ArrayBuffer);
  }
  port.postMessage(response, transfer);
});
