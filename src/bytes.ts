// Byte-buffer helpers shared by the batch paths (src/matcher.ts, src/pool/pool.ts).

/** The parts, concatenated (the part itself when there is one). */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Where a chunk of at most about `size` bytes starting at `start` ends: just after the last LF
 * within the size, so no line is split (or after the first LF past it, for one longer line).
 */
export function lineChunkEnd(bytes: Uint8Array, start: number, size: number): number {
  const end = Math.min(bytes.length, start + size);
  if (end === bytes.length) return end;
  const lastLf = bytes.lastIndexOf(0x0a, end - 1);
  if (lastLf >= start) return lastLf + 1;
  const nextLf = bytes.indexOf(0x0a, end);
  return nextLf < 0 ? bytes.length : nextLf + 1;
}
