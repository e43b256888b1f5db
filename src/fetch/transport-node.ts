// The default transport where there is node:http (Node, Deno, Bun): one GET over node:http
// or node:https, with the body decoded strictly. The platform fetch decodes gzip, deflate and
// br leniently: a compressed stream cut short ends as if it were whole, so a robots.txt cut
// after "Disallow: /" and before its Allow lines, or inside the stream's header (an empty
// file), would read as a good file. Here a body that does not decode to its end is an error,
// which the access method reads as a failed download (unreachable). Through a proxy
// (proxiedGet), plain-HTTP requests go to it in absolute form and https: ones in a CONNECT
// tunnel, decoded the same way.

import { request as httpRequest, type ClientRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type Socket } from 'node:net';
import { PassThrough, pipeline, Readable } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import type { HttpGet, HttpResponse } from './http.js';

type Init = Parameters<HttpGet>[1];

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

/** What the access method reads of `response`: its status, headers and strictly decoded body. */
function received(response: IncomingMessage): HttpResponse {
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
  return { status, headers, body };
}

/** Sends `request` and waits for its response; rejects like fetch() does when none arrives. */
function exchange(request: ClientRequest): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    request.on('error', reject);
    request.on('response', (response) => resolve(received(response)));
    request.end();
  });
}

/** node:http or node:https, as `url`'s scheme asks. */
function requestFor(url: URL): typeof httpRequest {
  return url.protocol === 'https:' ? httpsRequest : httpRequest;
}

/** The headers of a GET: the access method's, and the codings decoded here. */
function requestHeaders(init: Init): OutgoingHttpHeaders {
  return { 'accept-encoding': 'gzip, deflate, br', ...init.headers };
}

/**
 * GET `url` over node:http(s): the response's status, headers and strictly decoded body.
 * Rejects like fetch() does when no response arrives (network, DNS, TLS, abort).
 */
export const defaultGet: HttpGet = async (url, init) => {
  const target = new URL(url);
  return exchange(requestFor(target)(target, { method: 'GET', headers: requestHeaders(init), signal: init.signal }));
};

/** The Proxy-Authorization header of the credentials in `proxy` (Basic, RFC 7617), if it has any. */
function proxyAuthorization(proxy: URL): Record<string, string> {
  if (proxy.username === '' && proxy.password === '') return {};
  let credentials: string;
  try {
    credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  } catch {
    throw new TypeError('robots-wasm: proxyUrl has credentials that are not valid percent-encoding');
  }
  return { 'proxy-authorization': `Basic ${Buffer.from(credentials).toString('base64')}` };
}

/** Why a proxy's answer is no answer from the site: the proxy itself refused the request. */
function proxyRefusal(status: number, what: string): Error {
  return new Error(`the proxy refused ${what}: HTTP ${status}`);
}

/**
 * A plain-HTTP `target` through `proxy`: the absolute-form request-target (RFC 9112 3.2.2).
 * A 407 is the proxy's own refusal, not the site's answer, so it fails the request.
 */
async function forwarded(target: URL, proxy: URL, authorization: Record<string, string>, init: Init): Promise<HttpResponse> {
  const path = `${target.origin}${target.pathname}${target.search}`;
  const headers = { ...requestHeaders(init), host: target.host, ...authorization };
  const response = await exchange(requestFor(proxy)(proxy, { method: 'GET', path, headers, signal: init.signal }));
  if (response.status !== 407) return response;
  await response.body?.cancel().catch(() => undefined);
  throw proxyRefusal(407, `GET ${path}`);
}

/** A connection to `authority` through `proxy` (HTTP CONNECT, RFC 9110 9.3.6), once the proxy says 2xx. */
function tunnel(authority: string, proxy: URL, authorization: Record<string, string>, signal: AbortSignal): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const request = requestFor(proxy)(proxy, { method: 'CONNECT', path: authority, headers: { host: authority, ...authorization }, signal });
    request.on('error', reject);
    request.on('connect', (response: IncomingMessage, socket: Socket, head: Buffer) => {
      if (response.statusCode !== undefined && response.statusCode >= 200 && response.statusCode < 300) {
        if (head.length > 0) socket.unshift(head);
        resolve(socket);
        return;
      }
      socket.destroy();
      reject(proxyRefusal(response.statusCode ?? 0, `CONNECT ${authority}`));
    });
    request.end();
  });
}

/** An https: `target` through `proxy`: TLS to the site inside a CONNECT tunnel, verified as without a proxy. */
async function tunnelled(target: URL, proxy: URL, authorization: Record<string, string>, init: Init): Promise<HttpResponse> {
  const socket = await tunnel(`${target.hostname}:${target.port || '443'}`, proxy, authorization, init.signal);
  if (init.signal.aborted) {
    socket.destroy();
    throw init.signal.reason;
  }
  // URL keeps an IPv6 address in brackets; TLS wants it bare, and sends no server name for an address.
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  const createConnection = () => tlsConnect({ socket, host, servername: isIP(host) === 0 ? host : undefined, ALPNProtocols: ['http/1.1'] });
  return exchange(httpsRequest(target, { method: 'GET', headers: requestHeaders(init), signal: init.signal, createConnection }));
}

/**
 * GET through the HTTP(S) proxy at `proxy`, as defaultGet does without one: plain-HTTP URLs
 * in absolute form, https: ones in a CONNECT tunnel. The proxy's credentials, if `proxy` has
 * any, go to the proxy only. A 407, or a CONNECT the proxy refuses, rejects as a failed
 * connection. Throws a TypeError for credentials that cannot be decoded.
 */
export function proxiedGet(proxy: URL): HttpGet {
  const authorization = proxyAuthorization(proxy);
  return async (url, init) => {
    const target = new URL(url);
    return target.protocol === 'https:' ? tunnelled(target, proxy, authorization, init) : forwarded(target, proxy, authorization, init);
  };
}
