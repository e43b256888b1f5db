// Moving text between JS strings and WebAssembly memory.

const latin1 = new TextDecoder('latin1');

/** Bytes that are all below 0x80 as a string (one char per byte). */
export function asciiString(bytes: Uint8Array, start: number, end: number): string {
  if (end - start <= 32) {
    let text = '';
    for (let i = start; i < end; i++) text += String.fromCharCode(bytes[i]);
    return text;
  }
  return latin1.decode(bytes.subarray(start, end));
}
