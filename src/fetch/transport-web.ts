// The default transport where there is no node:http (browsers, web workers, edge runtimes):
// the platform fetch. It decodes compressed bodies leniently (see transport-node.ts), and a
// page may not see redirects: there `redirect: 'manual'` yields an opaque response, so the
// request is sent again letting the browser follow them.

import type { HttpGet } from './http.js';

/** GET `url` with the platform fetch. */
export const defaultGet: HttpGet = async (url, init) => {
  const response = await fetch(url, init);
  if (response.type !== 'opaqueredirect') return response;
  return fetch(url, { ...init, redirect: 'follow' });
};

/**
 * The platform fetch cannot be told to use a proxy: a proxyUrl is refused here rather than
 * ignored, which would send the requests from this runtime's own address.
 */
export function proxiedGet(proxy: URL): HttpGet {
  throw new TypeError(`robots-wasm: proxyUrl needs node:http (Node, Deno, Bun); this runtime's fetch cannot send requests through the proxy at ${proxy.host}`);
}
