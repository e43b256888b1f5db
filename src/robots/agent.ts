// Product tokens (RFC 9309 2.2.1): the part of a user-agent that names a group.
//
// The RFC's ABNF allows letters, '_' and '-' only, and the reference cuts a token at its first
// other byte, digits included, so `Agent1` and `Agent2` both name `Agent`'s group. Real crawler
// names carry digits (MJ12bot, 008), and merging unrelated groups is worse than any reading of
// the ABNF, so rfc mode reads a token as the longest run of [A-Za-z0-9_-]; google mode keeps
// the reference's cut. The kernel's line reader (assembly/lex.ts) reads a file's tokens the
// same way, from the same definition of a token byte (directives.ts).

import { PRODUCT_TOKEN_BYTES, PRODUCT_TOKEN_DIGITS } from './directives.js';
import type { Mode } from './options.js';

const TOKEN_LETTER = 1;
const TOKEN_DIGIT = 2;
/** Token classes of the ASCII chars; every other char is in none. */
const TOKEN_CLASSES = new Uint8Array(128);
for (const c of PRODUCT_TOKEN_BYTES) TOKEN_CLASSES[c.charCodeAt(0)] = TOKEN_LETTER;
for (const c of PRODUCT_TOKEN_DIGITS) TOKEN_CLASSES[c.charCodeAt(0)] = TOKEN_DIGIT;

function isTokenByte(c: number, digits: boolean): boolean {
  return c < 128 && (TOKEN_CLASSES[c] & (digits ? TOKEN_LETTER | TOKEN_DIGIT : TOKEN_LETTER)) !== 0;
}

/** ASCII-only lowercase: Unicode case mapping could turn a non-ASCII letter into an ASCII one. */
export function asciiLower(text: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) {
      out += text.slice(from, i) + String.fromCharCode(c + 32);
      from = i + 1;
    }
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * The product token of an agent string as `mode` reads it (whitespace around the string is
 * ignored): in `rfc` mode (the default, as for parsing) its longest [A-Za-z0-9_-] prefix
 * (`MJ12bot/1.7` -> `MJ12bot`), in `google` mode its longest [A-Za-z_-] prefix, as the
 * reference reduces a file's `Googlebot/2.1` to `Googlebot` (and `MJ12bot` to `MJ`).
 */
export function productToken(agent: string, mode: Mode = 'rfc'): string {
  const text = agent.trim();
  const digits = mode !== 'google';
  let i = 0;
  while (i < text.length && isTokenByte(text.charCodeAt(i), digits)) i++;
  return text.slice(0, i);
}

/**
 * True when `agent` is a product token a crawler may obey rules for: non-empty and made of
 * A-Z, a-z, '_' and '-' only (RFC 9309 2.2.1; the reference's IsValidUserAgentToObey).
 */
export function isValidProductToken(agent: string): boolean {
  if (agent.length === 0) return false;
  for (let i = 0; i < agent.length; i++) if (!isTokenByte(agent.charCodeAt(i), false)) return false;
  return true;
}

/**
 * The key under which a caller's agent finds its groups, or undefined when it can only
 * fall back to `*`. Google mode compares the caller's string as given (so `Googlebot/2.1`
 * names no group); RFC mode compares its product token.
 */
export function agentKey(agent: string, mode: Mode): string | undefined {
  // A crawler asks with a few agent strings, file after file: each one's key is worked out once.
  const known = KNOWN_KEYS[mode];
  if (known.has(agent)) return known.get(agent);
  let key: string | undefined;
  if (mode === 'google') {
    key = asciiLower(agent);
  } else {
    const token = productToken(agent, 'rfc');
    key = token.length > 0 ? asciiLower(token) : undefined;
  }
  if (agent.length > KNOWN_AGENT_LENGTH) return key;
  if (known.size >= KNOWN_AGENTS) known.clear();
  known.set(agent, key);
  return key;
}

/**
 * agentKey's answers by mode, for up to KNOWN_AGENTS agent strings of at most
 * KNOWN_AGENT_LENGTH chars (all forgotten when more come).
 */
const KNOWN_KEYS: Record<Mode, Map<string, string | undefined>> = { rfc: new Map(), google: new Map() };
const KNOWN_AGENTS = 64;
const KNOWN_AGENT_LENGTH = 256;
