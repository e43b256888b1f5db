// The default transport where there is node:http (Node, Deno, Bun): one GET over node:http
// or node:https, with the body decoded strictly. The platform fetch decodes gzip, deflate and
// br leniently: a compressed stream cut short ends as if it were whole, so a robots.txt cut
// after "Disallow: /" and before its Allow lines, or inside the stream's header (an empty
// file), would read as a good file. Here a body that does not decode to its end is an error,
// which the access method reads as a failed download (unreachable).

import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { PassThrough, pipeline, Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import type { HttpGet } from './http.js';

/** Content codings decoded here; a response with another is passed on as it came, as fetch does. */
const DECODERS: Record<string, (source: Readable) => Readable> = {
  gzip: (source) => pipeline(source, createGunzip(), ignore),
  'x-gzip': (source) => pipeline(source, createGunzip(), ignore),
  br: (source) => pipeline(source, createBrotliDecompress(), ignore),
  deflate: inflated,
};

// pipeline reports errors by destroying the last stream, whose reader sees them: nothing to add.
function ignore(): void {}

/**
 * "deflate" is zlib-wrapped by the standard (RFC 9110 8.4.1.2), but some servers send it raw:
 * the first byte tells (a zlib header's low nibble is 8, the deflate method).
 */
function inflated(source: Readable): Readable {
  const out = new PassThrough();
  let started = false;
  source.once('data', (first: Buffer) => {
    started = true;
    source.pause();
    source.unshift(first);
    pipeline(source, (first[0] & 0x0f) === 8 ? createInflate() : createInflateRaw(), out, ignore);
  });
  // An empty body is a stream that never started.
  source.once('end', () => started || out.destroy(new Error('unexpected end of file')));
  source.once('error', (error) => started || out.destroy(error));
  return out;
}

/** The codings of a Content-Encoding header, in the order they were applied. */
function codings(header: string | undefined): string[] {
  if (header === undefined) return [];
  return header.split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '' && c !== 'identity');
}

/** The decoded body of `response`: a stream that errors unless every coding ends cleanly. */
function decodedBody(response: IncomingMessage): Readable {
  const applied = codings(response.headers['content-encoding']);
  if (!applied.every((c) => Object.hasOwn(DECODERS, c))) return response;
  // Codings are undone last first.
  return applied.reverse().reduce((stream, coding) => DECODERS[coding](stream), response as Readable);
}

/** Whether a status carries no body (RFC 9110 6.4.1). */
function hasNoBody(status: number): boolean {
  return status === 204 || status === 304 || (status >= 100 && status < 200);
}

/**
 * GET `url` over node:http(s): the response's status, headers and strictly decoded body.
 * Rejects like fetch() does when no response arrives (network, DNS, TLS, abort).
 */
export const defaultGet: HttpGet = (url, init) =>
  new Promise((resolve, reject) => {
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(target, {
      method: 'GET',
      headers: { 'accept-encoding': 'gzip, deflate, br', ...init.headers },
      signal: init.signal,
    });
    request.on('error', reject);
    request.on('response', (response) => {
      const headers = new Headers();
      for (let i = 0; i + 1 < response.rawHeaders.length; i += 2) {
        try {
          headers.append(response.rawHeaders[i], response.rawHeaders[i + 1]);
        } catch {
          // A header the Headers class refuses is one no rule depends on.
        }
      }
      const status = response.statusCode ?? 0;
      if (hasNoBody(status)) response.resume();
      const body = hasNoBody(status) ? null : (Readable.toWeb(decodedBody(response)) as ReadableStream<Uint8Array>);
      resolve({ status, headers, body });
    });
    request.end();
  });
