// Authenticated store values (a fleet key): each value is stored behind an HMAC-SHA256 tag over
// the key it is stored under and its text, so that only a holder of the fleet key writes values
// the fleet accepts, and each only under its own key. Web Crypto (globalThis.crypto.subtle)
// computes the tags: the same code runs in Node, browsers, Deno and Bun, and no hash is ours.

/** The first word of a signed value. */
const TAG_WORD = 'hmac-sha256';

/** What signing adds before a value: the word, a space, the tag in hex, a line end. */
export const SIGNED_HEADER_LENGTH = TAG_WORD.length + 1 + 64 + 1;

/** The shortest key taken: a shorter one could be guessed. */
const MIN_KEY_BYTES = 16;

const encoder = new TextEncoder();

type SubtleKey = Awaited<ReturnType<typeof globalThis.crypto.subtle.importKey>>;

/** The bytes a tag covers: a domain word, the store key (its length first, so no split is ambiguous), the value. */
function signedBytes(key: string, value: string): Uint8Array {
  return encoder.encode(`robots-wasm-store/1\n${key.length}:${key}\n${value}`);
}

/** Bytes as lowercase hex. */
function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

/** 32 bytes from 64 lowercase hex digits, or undefined for anything else. */
function tagBytes(hex: string): Uint8Array | undefined {
  if (!/^[0-9a-f]{64}$/.test(hex)) return undefined;
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/** The key bytes of a `key` option (a string's UTF-8, or the bytes given); a TypeError for anything else or too few bytes. */
export function checkKey(secret: unknown): Uint8Array {
  const bytes = typeof secret === 'string' ? encoder.encode(secret) : secret instanceof Uint8Array ? Uint8Array.from(secret) : undefined;
  if (bytes === undefined || bytes.length < MIN_KEY_BYTES) {
    throw new TypeError(`robots-wasm: key must be a string or Uint8Array of at least ${MIN_KEY_BYTES} bytes (32 random bytes are best)`);
  }
  return bytes;
}

/** Signs values with a fleet key and opens the values signed with it. */
export class ValueSigner {
  readonly #key: Promise<SubtleKey>;

  /** `secret`: the fleet key, a string (its UTF-8 bytes) or bytes; at least 16 bytes. */
  constructor(secret: string | Uint8Array) {
    const bytes = checkKey(secret);
    if (globalThis.crypto?.subtle === undefined) throw new TypeError('robots-wasm: a store key needs Web Crypto (globalThis.crypto.subtle)');
    this.#key = globalThis.crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    // A failure surfaces in the store call that awaits the key, not as an unhandled rejection.
    this.#key.catch(() => undefined);
  }

  /** `value` as stored under `key`: its tag, then the value. */
  async sign(key: string, value: string): Promise<string> {
    const tag = await globalThis.crypto.subtle.sign('HMAC', await this.#key, signedBytes(key, value));
    return `${TAG_WORD} ${toHex(new Uint8Array(tag))}\n${value}`;
  }

  /** The value of a stored `signed` under `key`, or undefined when its tag is missing or wrong. */
  async open(key: string, signed: string): Promise<string | undefined> {
    const headerEnd = SIGNED_HEADER_LENGTH - 1;
    if (!signed.startsWith(`${TAG_WORD} `) || signed.charCodeAt(headerEnd) !== 0x0a) return undefined;
    const tag = tagBytes(signed.slice(TAG_WORD.length + 1, headerEnd));
    if (tag === undefined) return undefined;
    const value = signed.slice(SIGNED_HEADER_LENGTH);
    return (await globalThis.crypto.subtle.verify('HMAC', await this.#key, tag, signedBytes(key, value))) ? value : undefined;
  }
}
