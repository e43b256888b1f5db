// The bytes a robots.txt body is parsed from: strings become UTF-8, the parsing limit of
// RFC 9309 2.5 is applied (a line cut by the limit is dropped, so a truncated rule never
// applies), and in RFC mode a UTF-16 body (detected by its BOM) is re-encoded as UTF-8, which
// 2.2.2 allows ("bridge encoding mismatches").

import type { ResolvedParseOptions } from './options.js';
import { kernel } from '../wasm/kernel.js';

export type RobotsBody = string | Uint8Array | ArrayBuffer;

export interface PreparedBody {
  /**
   * The bytes that are parsed. For a string body, a view of the kernel's scratch block where
   * it was encoded: valid until the next use of the scratch block.
   */
  bytes: Uint8Array;
  /** Bytes of the body as given (after UTF-8 encoding of a string). */
  originalLength: number;
  /** True when bytes past the limit were ignored. */
  truncated: boolean;
}

const encoder = new TextEncoder();

/**
 * Bytes a caller needs free in the scratch block after a body of at most `bodyBytes` bytes
 * (prepareBody).
 */
export type BodyRoom = (bodyBytes: number) => number;

/**
 * Normalises the caller's body to bytes (a string: encoded into the kernel's scratch block,
 * with room(longest encoding) bytes free above the longest encoding); anything else than
 * text or bytes is a TypeError.
 */
function bodyBytes(body: RobotsBody, room: BodyRoom): Uint8Array {
  if (typeof body === 'string') {
    // Encoding into memory that is already there beats encode(), which allocates and zeroes a
    // buffer the size of the body first; and with room for what the caller does next in the
    // block, the body is read where it is.
    return kernel().encodeText(body, room(body.length * 3));
  }
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  const got = body === null ? 'null' : typeof body;
  throw new TypeError(`robots-wasm: the robots.txt body must be a string, Uint8Array or ArrayBuffer, got ${got}`);
}

function utf16ToUtf8(bytes: Uint8Array): Uint8Array | undefined {
  if (bytes.length < 2) return undefined;
  let encoding: 'utf-16le' | 'utf-16be' | undefined;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) encoding = 'utf-16le';
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) encoding = 'utf-16be';
  if (encoding === undefined) return undefined;
  return encoder.encode(new TextDecoder(encoding).decode(bytes.subarray(2)));
}

/** Length of the longest prefix of `bytes` within `limit` that does not end inside a line. */
export function cutAtLimit(bytes: Uint8Array, limit: number): number {
  if (bytes.length <= limit) return bytes.length;
  const next = bytes[limit];
  if (next === 0x0a || next === 0x0d) return limit;
  for (let i = limit - 1; i >= 0; i--) {
    if (bytes[i] === 0x0a || bytes[i] === 0x0d) return i + 1;
  }
  return 0;
}

/**
 * Applies encoding and the parsing limit. A string body is encoded into the kernel's scratch
 * block with room(3 bytes per UTF-16 unit) bytes free above its longest encoding: what the
 * caller's next use of the block needs, so that the block need not move, and the body with it.
 */
export function prepareBody(body: RobotsBody, options: ResolvedParseOptions, room: BodyRoom = () => 0): PreparedBody {
  let bytes = bodyBytes(body, room);
  const originalLength = bytes.length;
  if (options.mode === 'rfc') bytes = utf16ToUtf8(bytes) ?? bytes;
  const keep = cutAtLimit(bytes, options.maxBytes);
  return {
    bytes: keep === bytes.length ? bytes : bytes.subarray(0, keep),
    originalLength,
    truncated: keep < bytes.length,
  };
}
