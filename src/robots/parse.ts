// bytes -> lines: the one robots.txt line parser. It knows nothing about matching; it reports
// every physical line (what kind of directive, where its key and value are, and what was odd
// about it) to a callback. The matcher's group builder and the linter both consume it.
//
// Line handling follows the reference implementation (../docs in the README): LF, CR and CRLF
// end a line, a leading (prefix of a) UTF-8 BOM is skipped, a NUL ends the line's content,
// '#' starts a comment, ASCII whitespace around key and value is dropped, key and value split
// at the first ':' (or, leniently, at whitespace when the line is exactly two words), and
// keys are recognised case-insensitively by prefix, with the common misspellings.

import type { Mode } from './options.js';

export type DirectiveKind = 'user-agent' | 'allow' | 'disallow' | 'sitemap' | 'unknown';

/**
 * Keys of records that are not part of RFC 9309 but are known to be used by some crawlers
 * (the reference's reporter calls them "unused"; the linter reports them as such).
 */
export const EXTENSION_KEYS: ReadonlySet<string> = new Set([
  'clean-param', 'content-signal', 'content-usage', 'crawl-delay', 'domain', 'host', 'noarchive', 'nofollow',
  'noindex', 'request-rate', 'revisit-after', 'visit-time',
]);

/** The reference keeps only this many bytes of a line (google mode only). */
export const GOOGLE_MAX_LINE_BYTES = 16_663;

/** One physical line, as reported to the callback. The object is reused: copy what you keep. */
export interface RobotsLine {
  /** 1-based line number (CRLF counts as one line end). */
  number: number;
  /** The directive on the line, or null for blank, comment-only and unparseable lines. */
  kind: DirectiveKind | null;
  /** Byte range of the whole line (without its line end) in the parsed body. */
  start: number;
  end: number;
  /** Byte ranges of the key and the value (whitespace-trimmed); meaningful when kind is set. */
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
  /** The key was recognised through an accepted misspelling (`useragent`, `dissallow`, ...). */
  typo: boolean;
  /** The key and value were separated by whitespace instead of ':'. */
  missingColon: boolean;
  hasComment: boolean;
  /** Nothing but a comment. */
  isComment: boolean;
  /** Nothing at all (whitespace only). */
  isEmpty: boolean;
  /** Longer than the reference's line buffer (google mode cuts it). */
  tooLong: boolean;
  /** Not empty, not a comment, yet no key/value could be read from it. */
  unparseable: boolean;
}

interface KeySpelling {
  bytes: Uint8Array;
  kind: DirectiveKind;
  typo: boolean;
}

const encoder = new TextEncoder();

// Checked in this order, by case-insensitive prefix, as the reference does.
const KEY_SPELLINGS: KeySpelling[] = (
  [
    ['user-agent', 'user-agent', false],
    ['useragent', 'user-agent', true],
    ['user agent', 'user-agent', true],
    ['allow', 'allow', false],
    ['disallow', 'disallow', false],
    ['dissallow', 'disallow', true],
    ['dissalow', 'disallow', true],
    ['disalow', 'disallow', true],
    ['diasllow', 'disallow', true],
    ['disallaw', 'disallow', true],
    ['sitemap', 'sitemap', false],
    ['site-map', 'sitemap', true],
  ] as const
).map(([text, kind, typo]) => ({ bytes: encoder.encode(text), kind, typo }));

/** ASCII whitespace as C's isspace() sees it. */
export function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

function startsWithIgnoreCase(bytes: Uint8Array, start: number, end: number, lower: Uint8Array): boolean {
  if (end - start < lower.length) return false;
  for (let i = 0; i < lower.length; i++) {
    let c = bytes[start + i];
    if (c >= 0x41 && c <= 0x5a) c += 32;
    if (c !== lower[i]) return false;
  }
  return true;
}

/** Length of the leading UTF-8 BOM, or of the prefix of one, that the reference skips. */
export function bomPrefixLength(bytes: Uint8Array): number {
  if (bytes.length > 0 && bytes[0] === 0xef) {
    if (bytes.length > 1 && bytes[1] === 0xbb) return bytes.length > 2 && bytes[2] === 0xbf ? 3 : 2;
    return 1;
  }
  return 0;
}

/**
 * Splits `bytes` into lines and reports each to `onLine`; returns the number of lines
 * (a body ending in a line end has one more, empty, line, as in the reference).
 */
export function parseLines(bytes: Uint8Array, mode: Mode, onLine: (line: RobotsLine) => void): number {
  const line: RobotsLine = {
    number: 0, kind: null, start: 0, end: 0, keyStart: 0, keyEnd: 0, valueStart: 0, valueEnd: 0,
    typo: false, missingColon: false, hasComment: false, isComment: false, isEmpty: false, tooLong: false,
    unparseable: false,
  };
  const n = bytes.length;
  const cap = mode === 'google' ? GOOGLE_MAX_LINE_BYTES : Infinity;
  let start = bomPrefixLength(bytes);
  let number = 0;
  for (;;) {
    let end = start;
    while (end < n && bytes[end] !== 0x0a && bytes[end] !== 0x0d) end++;
    line.number = ++number;
    line.start = start;
    line.tooLong = end - start > cap;
    line.end = line.tooLong ? start + cap : end;
    readLine(bytes, line);
    onLine(line);
    if (end >= n) break;
    start = bytes[end] === 0x0d && end + 1 < n && bytes[end + 1] === 0x0a ? end + 2 : end + 1;
  }
  return number;
}

function readLine(bytes: Uint8Array, line: RobotsLine): void {
  line.kind = null;
  line.typo = line.missingColon = line.hasComment = line.isComment = line.isEmpty = line.unparseable = false;
  line.keyStart = line.keyEnd = line.valueStart = line.valueEnd = line.start;

  // Content ends at a NUL (the reference works on C strings) or where a comment starts.
  let contentEnd = line.start;
  while (contentEnd < line.end) {
    const c = bytes[contentEnd];
    if (c === 0) break;
    if (c === 0x23) {
      line.hasComment = true;
      break;
    }
    contentEnd++;
  }
  let s = line.start;
  let e = contentEnd;
  while (s < e && isSpace(bytes[s])) s++;
  while (e > s && isSpace(bytes[e - 1])) e--;
  if (s === e) {
    if (line.hasComment) line.isComment = true;
    else line.isEmpty = true;
    return;
  }

  let sep = s;
  while (sep < e && bytes[sep] !== 0x3a) sep++;
  let valueStart: number;
  if (sep < e) {
    valueStart = sep + 1;
  } else {
    // No colon: accept "key value" when the line is exactly two words.
    sep = s;
    while (sep < e && bytes[sep] !== 0x20 && bytes[sep] !== 0x09) sep++;
    if (sep === e) {
      line.unparseable = true;
      return;
    }
    valueStart = sep;
    while (bytes[valueStart] === 0x20 || bytes[valueStart] === 0x09) valueStart++;
    for (let i = valueStart; i < e; i++) {
      if (bytes[i] === 0x20 || bytes[i] === 0x09) {
        line.unparseable = true;
        return;
      }
    }
    line.missingColon = true;
  }
  let keyEnd = sep;
  while (keyEnd > s && isSpace(bytes[keyEnd - 1])) keyEnd--;
  if (keyEnd === s) {
    line.missingColon = false;
    line.unparseable = true;
    return;
  }
  while (valueStart < e && isSpace(bytes[valueStart])) valueStart++;

  line.keyStart = s;
  line.keyEnd = keyEnd;
  line.valueStart = valueStart;
  line.valueEnd = e;
  line.kind = 'unknown';
  for (const spelling of KEY_SPELLINGS) {
    if (startsWithIgnoreCase(bytes, s, keyEnd, spelling.bytes)) {
      line.kind = spelling.kind;
      line.typo = spelling.typo;
      break;
    }
  }
}
