// Moving text between JS strings and WebAssembly memory.

const latin1 = new TextDecoder('latin1');

/**
 * Bytes that are all below 0x80 as a string (one char per byte). Built in one piece: a string
 * grown by += is a rope, and every later search in it would flatten it again.
 */
export function asciiString(bytes: Uint8Array, start: number, end: number): string {
  if (end - start <= 64) return String.fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[]);
  return latin1.decode(bytes.subarray(start, end));
}
