// Text <-> bytes conversions beyond UTF-8 (TextEncoder/TextDecoder): Latin-1, UTF-16LE and
// base64. Node's Buffer does each natively and is used where the runtime has one; elsewhere
// (browsers) portable loops give the same bytes. TextDecoder('latin1') is not one of them: the
// Encoding Standard reads that label as windows-1252, which differs for 0x80-0x9F.

// `typeof` reads an undeclared global without throwing.
const native: typeof Buffer | undefined = typeof Buffer === 'function' ? Buffer : undefined;

/** Chars per String.fromCharCode call: far below any engine's argument limit. */
const CHARS_PER_CALL = 8192;

function charsOf(bytes: Uint8Array | Uint16Array, start: number, end: number): string {
  const parts: string[] = [];
  for (let at = start; at < end; at += CHARS_PER_CALL) {
    parts.push(String.fromCharCode.apply(null, bytes.subarray(at, Math.min(end, at + CHARS_PER_CALL)) as unknown as number[]));
  }
  return parts.join('');
}

/** A string of chars below 0x100 as one byte per char. */
export function latin1Bytes(text: string): Uint8Array {
  if (native !== undefined) return native.from(text, 'latin1');
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/** The bytes as base64 (with padding). */
export function toBase64(bytes: Uint8Array): string {
  if (native !== undefined) return native.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64');
  return btoa(charsOf(bytes, 0, bytes.length));
}

/** The bytes of base64 the package wrote itself (the embedded binary): decoded, not checked. */
export function base64Bytes(text: string): Uint8Array {
  return native !== undefined ? native.from(text, 'base64') : latin1Bytes(atob(text));
}

/**
 * The bytes of a base64 string, or undefined when it is not canonical base64 (what toBase64
 * writes): a value that decodes leniently must not pass for data.
 */
export function fromBase64(text: string): Uint8Array | undefined {
  let bytes: Uint8Array;
  try {
    bytes = base64Bytes(text);
  } catch {
    return undefined;
  }
  return toBase64(bytes) === text ? bytes : undefined;
}

/** Writes strings into, and reads them from, a fixed block of bytes: one byte per char, or two per UTF-16 unit. */
export interface StringWriter {
  write(text: string, at: number, encoding: 'latin1' | 'utf16le'): void;
  /** The bytes [start, end) as a string; 'utf16le' keeps unpaired surrogates. */
  read(start: number, end: number, encoding: 'latin1' | 'utf16le'): string;
}

/** A StringWriter over the whole of `buffer` (Node's Buffer when there is one). */
export function stringWriter(buffer: ArrayBufferLike): StringWriter {
  if (native !== undefined) {
    const view = native.from(buffer);
    return { write: (text, at, encoding) => void view.write(text, at, encoding), read: (start, end, encoding) => view.toString(encoding, start, end) };
  }
  const u8 = new Uint8Array(buffer);
  return {
    write(text, at, encoding) {
      if (encoding === 'latin1') {
        for (let i = 0; i < text.length; i++) u8[at + i] = text.charCodeAt(i);
        return;
      }
      for (let i = 0; i < text.length; i++) {
        const unit = text.charCodeAt(i);
        u8[at + 2 * i] = unit & 0xff;
        u8[at + 2 * i + 1] = unit >>> 8;
      }
    },
    read(start, end, encoding) {
      if (encoding === 'latin1') return charsOf(u8, start, end);
      const units = new Uint16Array((end - start) >>> 1);
      for (let i = 0; i < units.length; i++) units[i] = u8[start + 2 * i] | (u8[start + 2 * i + 1] << 8);
      return charsOf(units, 0, units.length);
    },
  };
}
