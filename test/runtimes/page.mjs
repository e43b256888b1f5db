// The browser page of the runtime tests: imports robots-wasm by name (bundled like an
// application's code) and leaves its answers, as JSON, where the harness reads them. `?init`
// awaits init() first; `?worker` runs the checks in a module worker instead. The robots.txt
// fetched is the page's own origin's.
import * as lib from 'robots-wasm';
import { runChecks } from './checks.mjs';

const params = new URLSearchParams(location.search);

function inWorker() {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    worker.onmessage = ({ data }) => (data.error === undefined ? resolve(data.json) : reject(new Error(data.error)));
    worker.onerror = (event) => reject(new Error(`worker: ${event.message}`));
    worker.postMessage({ init: params.has('init') });
  });
}

window.robotsAnswers = params.has('worker') ? inWorker() : runChecks(lib, { init: params.has('init'), origin: location.origin }).then((answers) => JSON.stringify(answers));
