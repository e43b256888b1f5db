// The module worker of the browser runtime test: the same checks off the main thread, where
// a page's crawler-side work would run.
import * as lib from 'robots-wasm';
import { runChecks } from './checks.mjs';

self.onmessage = async ({ data }) => {
  try {
    self.postMessage({ json: JSON.stringify(await runChecks(lib, { init: data.init, origin: self.location.origin })) });
  } catch (error) {
    self.postMessage({ error: String(error?.stack ?? error) });
  }
};
