// Options shared by everything that parses robots.txt.

/** `rfc` follows RFC 9309; `google` reproduces Google's open-source matcher byte for byte. */
export type Mode = 'rfc' | 'google';

/** RFC 9309 2.5 asks for a parsing limit of at least 500 KiB. */
export const DEFAULT_MAX_BYTES = 512_000;

export interface ParseOptions {
  /** Matching semantics; default `rfc`. */
  mode?: Mode;
  /** Bytes of the body that are parsed (RFC 9309 2.5); default 512,000. A line cut by the limit is dropped. */
  maxBytes?: number;
}

export interface ResolvedParseOptions {
  mode: Mode;
  maxBytes: number;
}

/** Checks caller options and fills defaults; misuse is a TypeError that names the option. */
export function resolveParseOptions(options: ParseOptions | undefined): ResolvedParseOptions {
  if (options === undefined || options === null) return { mode: 'rfc', maxBytes: DEFAULT_MAX_BYTES };
  if (typeof options !== 'object') throw new TypeError(`robots-wasm: options must be an object, got ${typeof options}`);
  const mode = options.mode ?? 'rfc';
  if (mode !== 'rfc' && mode !== 'google') {
    throw new TypeError(`robots-wasm: mode must be 'rfc' or 'google', got ${JSON.stringify(mode)}`);
  }
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (typeof maxBytes !== 'number' || !(maxBytes >= 0) || (!Number.isInteger(maxBytes) && maxBytes !== Infinity)) {
    throw new TypeError(`robots-wasm: maxBytes must be a non-negative integer or Infinity, got ${String(maxBytes)}`);
  }
  return { mode, maxBytes };
}
