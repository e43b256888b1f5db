// The HTTP exchange the access method (fetch.ts) needs, whichever transport sends it: the
// default of this runtime (the `#transport` import: node:http(s) where there is one, the
// platform fetch elsewhere) or a `fetch` the caller passes.

/** What the access method reads of a response: the platform fetch's Response has it too. */
export interface HttpResponse {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  readonly body: ReadableStream<Uint8Array> | null;
}

/** A GET the access method sends: what it needs of fetch(), redirects never followed. */
export type HttpGet = (url: string, init: { headers: Record<string, string>; signal: AbortSignal; redirect: 'manual' }) => Promise<HttpResponse>;
