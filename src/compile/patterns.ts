// Rule values -> normalised patterns, through the kernel's normalisation (assembly/normalize.ts),
// so URLs and patterns are normalised by the same code.

import type { Mode } from '../robots/options.js';
import { kernel } from '../wasm/kernel.js';
import { asciiString } from '../wasm/strings.js';

const NORMALIZE_PATTERN_RFC = 1;
const NORMALIZE_PATTERN_GOOGLE = 2;

/** A byte range of a rule value in `bytes`. */
export interface ValueRange {
  valueStart: number;
  valueEnd: number;
}

/**
 * The normalised pattern of each value: in RFC mode percent-encoding is normalised as for
 * URLs ('*' stays a wildcard, a final '$' the anchor); in google mode %xx is uppercased and
 * bytes >= 0x80 are escaped, as the reference does.
 */
export function normalizePatterns(bytes: Uint8Array, ranges: readonly ValueRange[], mode: Mode): string[] {
  if (ranges.length === 0) return [];
  let lo = Infinity;
  let hi = 0;
  for (const r of ranges) {
    lo = Math.min(lo, r.valueStart);
    hi = Math.max(hi, r.valueEnd);
  }
  let longest = 0;
  for (const r of ranges) longest = Math.max(longest, r.valueEnd - r.valueStart);
  const k = kernel();
  const inputSize = hi - lo;
  const src = k.scratch(inputSize + 3 * longest + 16);
  const dst = src + inputSize;
  k.u8.set(bytes.subarray(lo, hi), src);
  const how = mode === 'rfc' ? NORMALIZE_PATTERN_RFC : NORMALIZE_PATTERN_GOOGLE;
  const patterns: string[] = [];
  for (const r of ranges) {
    const n = k.fn.normalizePattern(src + r.valueStart - lo, r.valueEnd - r.valueStart, dst, how);
    patterns.push(asciiString(k.u8, dst, dst + n));
  }
  return patterns;
}
