// URL and pattern helpers, exposed for callers and tests. They run the kernel's own code
// (assembly/path.ts, assembly/normalize.ts), so they show exactly what matching sees.

import type { Mode } from '../robots/options.js';
import { requireString } from '../args.js';
import { NORMALIZE_PATTERN_GOOGLE, NORMALIZE_PATTERN_RFC, PATH_FETCH, PATH_REFERENCE, PATH_RFC, READING_ONE, READING_REFERENCE } from '../wasm/abi.js';
import { kernel } from '../wasm/kernel.js';
import { asciiString } from '../wasm/strings.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function pathBytes(url: string, how: number): Uint8Array {
  requireString(url, 'url');
  return kernel().urlPath(url, how);
}

/**
 * The path, params and query of a URL, extracted as the reference does (no URL parsing, no
 * normalisation): `http://a.b/c?d#e` -> `/c?d`, `a.b` -> `/`.
 */
export function getPathParamsQuery(url: string): string {
  return decoder.decode(pathBytes(url, PATH_REFERENCE));
}

/**
 * The path of a URL as the matcher compares it: in RFC mode, the path and query a fetch of
 * the URL requests (tabs and newlines removed, '\\' read as '/', dot segments resolved), with
 * RFC 9309 2.2.2's percent-encoding normalisation; in google mode the raw path, cut at a NUL
 * byte.
 */
export function normalizePath(url: string, mode: Mode = 'rfc'): string {
  const bytes = pathBytes(url, mode === 'rfc' ? PATH_RFC : PATH_REFERENCE);
  if (mode === 'google') {
    const nul = bytes.indexOf(0);
    return decoder.decode(nul >= 0 ? bytes.subarray(0, nul) : bytes);
  }
  return decoder.decode(bytes);
}

/**
 * The path and query a WHATWG-conformant client (fetch, browsers) requests for `url`, as
 * `new URL(url).pathname + search` gives them for an http(s) URL, and as resolved against an
 * http origin for a path: what RobotsCache matches in google mode. Internal.
 */
export function requestPath(url: string): string {
  return decoder.decode(pathBytes(url, PATH_FETCH));
}

/**
 * A rule pattern as the matcher compares it: google mode uppercases %xx and escapes bytes
 * >= 0x80 (the reference's MaybeEscapePattern); RFC mode normalises like normalizePath.
 */
export function escapePattern(pattern: string | Uint8Array, mode: Mode = 'rfc'): string {
  const bytes = typeof pattern === 'string' ? encoder.encode(pattern) : pattern;
  if (!(bytes instanceof Uint8Array)) throw new TypeError('robots-wasm: pattern must be a string or Uint8Array');
  const k = kernel();
  return k.withScratch(bytes.length + k.fn.normalizePatternBytes(bytes.length), (at) => {
    k.u8.set(bytes, at);
    const n = k.fn.normalizePattern(at, bytes.length, at + bytes.length, mode === 'rfc' ? NORMALIZE_PATTERN_RFC : NORMALIZE_PATTERN_GOOGLE);
    return asciiString(k.u8, at + bytes.length, at + bytes.length + n);
  });
}

/**
 * The clients behind each reading of a URL (src/wasm/abi.ts, READING_*), in the kernel's order:
 * the URL standard's (fetch and http.get from Node 24 on, Deno, Bun), Node 20 and 22's, fetch
 * from Node 24 on (an empty query kept), Chromium's, curl's, wget's, Python requests',
 * Python urllib's, the path as written (curl --path-as-is), and Node 20 and 22's where their
 * URL parser leaves dot segments as written;
 * google mode also reads a URL as robots.cc does ('reference').
 */
export const READING_CLIENTS: readonly Exclude<ReadingClient, 'reference'>[] = [
  'whatwg', 'node20', 'undici', 'browser', 'curl', 'wget', 'requests', 'urllib', 'as-written', 'node20-as-written',
];

/** A family of HTTP clients that send a URL's request-target alike (see READING_CLIENTS). */
export type ReadingClient =
  | 'whatwg' | 'node20' | 'undici' | 'browser' | 'curl' | 'wget' | 'requests' | 'urllib' | 'as-written' | 'node20-as-written' | 'reference';

/** The request-target that decided a verdict, when clients send a URL in more than one way. */
export interface DecidingReading {
  /** The clients that send it. */
  client: ReadingClient;
  /** The path and query the rules were matched against, as the mode compares them. */
  path: string;
}

/**
 * The reading that decided the kernel's last single check of `url` (checkOne), or undefined
 * when the URL has one reading. Internal: Matcher and RobotsTxt add it to their explanations.
 */
export function lastDecidingReading(url: string, mode: Mode): DecidingReading | undefined {
  const k = kernel();
  const reading = k.fn.lastReading();
  if (reading === READING_ONE || k.fn.lastReadingCount() < 2) return undefined;
  const client = reading === READING_REFERENCE ? 'reference' : READING_CLIENTS[reading];
  return { client, path: decoder.decode(k.readingPath(url, reading, mode === 'rfc')) };
}
