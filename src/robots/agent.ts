// Product tokens (RFC 9309 2.2.1): the part of a user-agent that names a group.

import type { Mode } from './options.js';

function isTokenByte(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x2d || c === 0x5f;
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
 * The product token of an agent string: its longest [A-Za-z_-] prefix, as the reference
 * reduces `Googlebot/2.1` to `Googlebot` (whitespace around the string is ignored).
 */
export function productToken(agent: string): string {
  const text = agent.trim();
  let i = 0;
  while (i < text.length && isTokenByte(text.charCodeAt(i))) i++;
  return text.slice(0, i);
}

/**
 * True when `agent` is a product token a crawler may obey rules for: non-empty and made of
 * A-Z, a-z, '_' and '-' only (RFC 9309 2.2.1).
 */
export function isValidProductToken(agent: string): boolean {
  if (agent.length === 0) return false;
  for (let i = 0; i < agent.length; i++) if (!isTokenByte(agent.charCodeAt(i))) return false;
  return true;
}

/**
 * The key under which a caller's agent finds its groups, or undefined when it can only
 * fall back to `*`. Google mode compares the caller's string as given (so `Googlebot/2.1`
 * names no group); RFC mode compares its product token.
 */
export function agentKey(agent: string, mode: Mode): string | undefined {
  if (mode === 'google') return asciiLower(agent);
  const token = productToken(agent);
  return token.length > 0 ? asciiLower(token) : undefined;
}
