/**
 * Reference oracle: a deliberately simple, plain-TypeScript model of how Google's
 * open-source robots.txt matcher (robots.cc) decides "may agent X fetch URL Y".
 *
 * It is a TEST ORACLE and benchmark baseline, kept independent of src/ on purpose:
 * nothing here may import from the implementation under test, so that differential
 * tests compare two separately written models. Clarity beats speed throughout.
 *
 * Everything works on bytes (Uint8Array), never on JS strings, because the
 * reference compares octets and its quirks (BOM prefix, NUL cuts, line cap,
 * %-escaping of bytes >= 0x80) are all byte-level.
 *
 * Modes:
 *  - 'google': the reference behaviour, quirks included
 *    (see shared/docs/google-semantics.md).
 *  - 'rfc' (default): the same, except where RFC 9309 says otherwise
 *    (agent product token, percent-encoding normalisation, /robots.txt always
 *    allowed, no line cap, no index.htm quirk), and with the path a WHATWG URL
 *    parser gives for the URL (what a fetch requests) instead of the
 *    reference's path extraction.
 */

export type OracleMode = 'google' | 'rfc';

const DEFAULT_MAX_BYTES = 512000;
/** The reference keeps this many bytes of a line (buffer of 2083*8 incl. the NUL). */
const GOOGLE_MAX_LINE_BYTES = 16663;

const CR = 0x0d;
const LF = 0x0a;
const NUL = 0x00;
const SPACE = 0x20;
const TAB = 0x09;
const HASH = 0x23;
const COLON = 0x3a;
const PERCENT = 0x25;
const STAR = 0x2a;
const DOLLAR = 0x24;
const SLASH = 0x2f;
const QUESTION = 0x3f;
const SEMICOLON = 0x3b;
const APOSTROPHE = 0x27;
const BACKSLASH = 0x5c;

const BOM = [0xef, 0xbb, 0xbf];

const encoder = new TextEncoder();

function toBytes(input: string | Uint8Array): Uint8Array {
  return typeof input === 'string' ? encoder.encode(input) : input;
}

function ascii(text: string): Uint8Array {
  return encoder.encode(text);
}

// ---------------------------------------------------------------------------
// Small byte helpers
// ---------------------------------------------------------------------------

/** C isspace() in the "C" locale: space, \t, \n, \v, \f, \r. */
function isAsciiSpace(b: number): boolean {
  return b === SPACE || (b >= 0x09 && b <= 0x0d);
}

function isSpaceOrTab(b: number): boolean {
  return b === SPACE || b === TAB;
}

function isHexDigit(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);
}

function hexValue(b: number): number {
  if (b <= 0x39) return b - 0x30;
  if (b <= 0x46) return b - 0x41 + 10;
  return b - 0x61 + 10;
}

function asciiLower(b: number): number {
  return b >= 0x41 && b <= 0x5a ? b + 0x20 : b;
}

function asciiUpper(b: number): number {
  return b >= 0x61 && b <= 0x7a ? b - 0x20 : b;
}

/** Product-token characters: [A-Za-z_-]. */
/** [A-Za-z_-], and in rfc mode digits too (the reference stops a token at its first digit). */
function isTokenChar(b: number, mode: OracleMode): boolean {
  return (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x5f || b === 0x2d || (mode === 'rfc' && b >= 0x30 && b <= 0x39);
}

/** RFC 3986 unreserved: A-Z a-z 0-9 - . _ ~ */
function isUnreserved(b: number): boolean {
  return (
    (b >= 0x41 && b <= 0x5a) ||
    (b >= 0x61 && b <= 0x7a) ||
    (b >= 0x30 && b <= 0x39) ||
    b === 0x2d ||
    b === 0x2e ||
    b === 0x5f ||
    b === 0x7e
  );
}

function indexOfByte(bytes: Uint8Array, b: number, from = 0): number {
  for (let i = from; i < bytes.length; i++) if (bytes[i] === b) return i;
  return -1;
}

function indexOfAny(bytes: Uint8Array, set: readonly number[], from = 0): number {
  for (let i = from; i < bytes.length; i++) if (set.includes(bytes[i]!)) return i;
  return -1;
}

function indexOfSeq(bytes: Uint8Array, seq: Uint8Array, from = 0): number {
  outer: for (let i = from; i + seq.length <= bytes.length; i++) {
    for (let j = 0; j < seq.length; j++) if (bytes[i + j] !== seq[j]) continue outer;
    return i;
  }
  return -1;
}

function lastIndexOfByte(bytes: Uint8Array, b: number): number {
  for (let i = bytes.length - 1; i >= 0; i--) if (bytes[i] === b) return i;
  return -1;
}

/** The reference treats lines/paths as C strings: everything from the first NUL is gone. */
function cutAtNul(bytes: Uint8Array): Uint8Array {
  const nul = indexOfByte(bytes, NUL);
  return nul < 0 ? bytes : bytes.subarray(0, nul);
}

function trimAsciiSpace(bytes: Uint8Array): Uint8Array {
  let start = 0;
  let end = bytes.length;
  while (start < end && isAsciiSpace(bytes[start]!)) start++;
  while (end > start && isAsciiSpace(bytes[end - 1]!)) end--;
  return bytes.subarray(start, end);
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array, at = 0): boolean {
  if (at + prefix.length > bytes.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}

function startsWithIgnoreCase(bytes: Uint8Array, prefix: string): boolean {
  const p = ascii(prefix);
  if (p.length > bytes.length) return false;
  for (let i = 0; i < p.length; i++) if (asciiLower(bytes[i]!) !== asciiLower(p[i]!)) return false;
  return true;
}

function equalsIgnoreAsciiCase(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (asciiLower(a[i]!) !== asciiLower(b[i]!)) return false;
  return true;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  let total = 0;
  for (const p of parts) total += p.length;
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Collects bytes; '%XX' is pushed as three bytes with uppercase hex. */
class ByteWriter {
  private readonly bytes: number[] = [];
  push(b: number): void {
    this.bytes.push(b);
  }
  pushEscaped(b: number): void {
    const hex = '0123456789ABCDEF';
    this.bytes.push(PERCENT, hex.charCodeAt(b >> 4), hex.charCodeAt(b & 0x0f));
  }
  result(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

// ---------------------------------------------------------------------------
// Body → lines
// ---------------------------------------------------------------------------

/**
 * Apply the parsing size limit. A line cut in the middle by the limit is dropped
 * entirely, since its tail is unknown and a half rule could change the meaning.
 */
function limitBody(body: Uint8Array, maxBytes: number): Uint8Array {
  if (body.length <= maxBytes) return body;
  const kept = body.subarray(0, maxBytes);
  const next = body[maxBytes]!;
  if (next === CR || next === LF) return kept;
  let lastEnd = -1;
  for (let i = kept.length - 1; i >= 0; i--) {
    if (kept[i] === CR || kept[i] === LF) {
      lastEnd = i;
      break;
    }
  }
  return kept.subarray(0, lastEnd + 1);
}

/** Number of leading bytes that form a prefix of the UTF-8 BOM. */
function bomPrefixLength(body: Uint8Array): number {
  let n = 0;
  while (n < BOM.length && n < body.length && body[n] === BOM[n]) n++;
  return n;
}

/**
 * Split into lines: LF, CR and CRLF each end one line; the text after the
 * last line end is a line too. Lines are cut at NUL (C strings) and, in
 * google mode, to the reference's fixed line buffer.
 */
function splitLines(body: Uint8Array, mode: OracleMode): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let start = bomPrefixLength(body);
  let i = start;
  while (i < body.length) {
    const b = body[i]!;
    if (b !== CR && b !== LF) {
      i++;
      continue;
    }
    lines.push(body.subarray(start, i));
    // CRLF is one line ending, not two.
    i += b === CR && body[i + 1] === LF ? 2 : 1;
    start = i;
  }
  lines.push(body.subarray(start));
  return lines.map((line) => {
    const capped = mode === 'google' ? line.subarray(0, GOOGLE_MAX_LINE_BYTES) : line;
    return cutAtNul(capped);
  });
}

// ---------------------------------------------------------------------------
// Line → key/value
// ---------------------------------------------------------------------------

interface KeyValue {
  key: Uint8Array;
  value: Uint8Array;
}

/** Google's key/value split, including the "key value" form without a colon. */
function splitKeyValue(rawLine: Uint8Array): KeyValue | null {
  const hash = indexOfByte(rawLine, HASH);
  const line = trimAsciiSpace(hash < 0 ? rawLine : rawLine.subarray(0, hash));

  let sepStart = indexOfByte(line, COLON);
  let valueStart = sepStart + 1;
  if (sepStart < 0) {
    // People forget the colon; accept exactly two space/tab-separated tokens.
    sepStart = indexOfAny(line, [SPACE, TAB]);
    if (sepStart < 0) return null;
    valueStart = sepStart;
    while (valueStart < line.length && isSpaceOrTab(line[valueStart]!)) valueStart++;
    if (indexOfAny(line, [SPACE, TAB], valueStart) >= 0) return null;
  }

  const key = trimAsciiSpace(line.subarray(0, sepStart));
  if (key.length === 0) return null;
  const value = trimAsciiSpace(line.subarray(valueStart));
  return { key, value };
}

type KeyKind = 'user-agent' | 'allow' | 'disallow' | 'sitemap' | 'unknown';

/** Case-insensitive prefix match, in the reference's order, with its accepted typos. */
function classifyKey(key: Uint8Array): KeyKind {
  const any = (prefixes: string[]): boolean => prefixes.some((p) => startsWithIgnoreCase(key, p));
  if (any(['user-agent', 'useragent', 'user agent'])) return 'user-agent';
  if (any(['allow'])) return 'allow';
  if (any(['disallow', 'dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw'])) return 'disallow';
  if (any(['sitemap', 'site-map'])) return 'sitemap';
  return 'unknown';
}

// ---------------------------------------------------------------------------
// Escaping / normalisation of patterns and paths
// ---------------------------------------------------------------------------

function isPercentTriplet(bytes: Uint8Array, i: number): boolean {
  return (
    bytes[i] === PERCENT &&
    i + 2 < bytes.length &&
    isHexDigit(bytes[i + 1]!) &&
    isHexDigit(bytes[i + 2]!)
  );
}

/** Google's MaybeEscapePattern: uppercase %xx, escape bytes >= 0x80, nothing else. */
function googleEscapePattern(value: Uint8Array): Uint8Array {
  const out = new ByteWriter();
  for (let i = 0; i < value.length; i++) {
    const b = value[i]!;
    if (isPercentTriplet(value, i)) {
      out.push(PERCENT);
      out.push(asciiUpper(value[i + 1]!));
      out.push(asciiUpper(value[i + 2]!));
      i += 2;
    } else if (b >= 0x80) {
      out.pushEscaped(b);
    } else {
      out.push(b);
    }
  }
  return out.result();
}

/** Bytes that may not appear raw in a normalised URI path. */
function mustEncode(b: number): boolean {
  if (b >= 0x80 || b <= 0x20 || b === 0x7f || b === HASH) return true;
  // " < > [ \ ] ^ ` { | }: '[' and ']' are reserved, and some clients send them encoded
  return [0x22, 0x3c, 0x3e, 0x5b, 0x5c, 0x5d, 0x5e, 0x60, 0x7b, 0x7c, 0x7d].includes(b);
}

/**
 * RFC 3986 §6.2.2-style normalisation used by rfc mode, so that equivalent
 * URIs compare equal (RFC 9309 §2.2.2, Figure 4). For patterns, '*' stays a
 * wildcard and a final '$' stays the end anchor; in paths both are literal
 * and get encoded (RFC 9309 §2.2.3, Figure 6).
 */
function rfcNormalise(bytes: Uint8Array, isPattern: boolean): Uint8Array {
  const out = new ByteWriter();
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === PERCENT) {
      if (isPercentTriplet(bytes, i)) {
        const v = hexValue(bytes[i + 1]!) * 16 + hexValue(bytes[i + 2]!);
        if (isUnreserved(v)) out.push(v);
        else out.pushEscaped(v);
        i += 2;
      } else {
        out.pushEscaped(PERCENT);
      }
    } else if (b === STAR) {
      if (isPattern) out.push(STAR);
      else out.pushEscaped(STAR);
    } else if (b === DOLLAR) {
      if (isPattern && i === bytes.length - 1) out.push(DOLLAR);
      else out.pushEscaped(DOLLAR);
    } else if (b === APOSTROPHE && i > indexOfByte(bytes, QUESTION) && indexOfByte(bytes, QUESTION) >= 0) {
      // A WHATWG client sends a query's ' as %27; a pattern's query is read the same way.
      out.pushEscaped(b);
    } else if (mustEncode(b)) {
      out.pushEscaped(b);
    } else {
      out.push(b);
    }
  }
  return out.result();
}

// ---------------------------------------------------------------------------
// URL → path
// ---------------------------------------------------------------------------

const PATH_STARTERS = [SLASH, QUESTION, SEMICOLON];
const SCHEME_SEP = ascii('://');

/** Google's GetPathParamsQuery on bytes: not a URL parser, just a few searches. */
export function referencePath(url: Uint8Array): Uint8Array {
  const searchStart = url.length >= 2 && url[0] === SLASH && url[1] === SLASH ? 2 : 0;

  // "://" is only a scheme separator if no path/params/query started before it.
  const earlyPath = indexOfAny(url, PATH_STARTERS, searchStart);
  let schemeEnd = indexOfSeq(url, SCHEME_SEP, searchStart);
  if (earlyPath >= 0 && schemeEnd >= 0 && earlyPath < schemeEnd) schemeEnd = -1;
  const authorityStart = schemeEnd < 0 ? searchStart : schemeEnd + 3;

  const pathStart = indexOfAny(url, PATH_STARTERS, authorityStart);
  if (pathStart < 0) return ascii('/');

  const hash = indexOfByte(url, HASH, searchStart);
  if (hash >= 0 && hash < pathStart) return ascii('/');
  const path = url.subarray(pathStart, hash < 0 ? url.length : hash);
  return path[0] === SLASH ? path.slice() : concat(ascii('/'), path);
}

/**
 * How one family of HTTP clients turns a URL into the request-target it sends (the kernel's
 * readings, written here again from the client behaviour they stand for): which dot segments
 * it resolves (none, literal "." and "..", or with "%2e" spellings too), whether '\\' is a '/',
 * whether an empty query's '?' is sent, whether tabs and newlines are sent percent-encoded
 * rather than removed, whether the fragment starts at the last '#' rather than the first, and
 * how it percent-encodes (what google mode, which compares bytes as written, sees).
 */
export interface ClientReading {
  dots: 'none' | 'literal' | 'all';
  backslash: boolean;
  emptyQuery: boolean;
  tabs: boolean;
  lastHash: boolean;
  /** Spaces and controls that end the URL are kept (and encoded). */
  trailingBlanks?: boolean;
  encoding: 'whatwg' | 'ada2' | 'browser' | 'raw' | 'wget' | 'requests';
}

const STANDARD = { dots: 'all', backslash: true, emptyQuery: false, tabs: false, lastHash: false } as const;

/**
 * Node 24+ (and the URL standard), Node 20/22, Node 24+'s fetch, Chromium, curl, wget, Python
 * requests, Python urllib, curl --path-as-is, and Node 20/22 where their parser leaves a path as
 * written.
 */
export const CLIENT_READINGS: readonly ClientReading[] = [
  { ...STANDARD, encoding: 'whatwg' },
  { ...STANDARD, encoding: 'ada2' },
  { ...STANDARD, emptyQuery: true, encoding: 'whatwg' },
  { ...STANDARD, emptyQuery: true, encoding: 'browser' },
  { dots: 'literal', backslash: false, emptyQuery: true, tabs: false, lastHash: false, encoding: 'raw' },
  { dots: 'literal', backslash: false, emptyQuery: true, tabs: true, lastHash: false, trailingBlanks: true, encoding: 'wget' },
  { dots: 'literal', backslash: false, emptyQuery: false, tabs: true, lastHash: false, encoding: 'requests' },
  { dots: 'none', backslash: false, emptyQuery: true, tabs: false, lastHash: true, encoding: 'raw' },
  { dots: 'none', backslash: false, emptyQuery: true, tabs: false, lastHash: false, encoding: 'raw' },
  { ...STANDARD, dots: 'none', encoding: 'ada2' },
];

/**
 * The path and query a WHATWG URL parser gives for `url` (new URL(url).pathname + search),
 * written out step by step on bytes: tab/LF/CR removed, C0 and space trimmed, the scheme,
 * '\\' as '/' for http(s)-like URLs, the authority skipped, dot segments removed segment by
 * segment, the fragment and an empty query dropped. Input without a scheme is a path when it
 * starts with a slash (one or two, or a '\\'), and otherwise a host as the reference reads it.
 * Percent-encoding is left to rfcNormalise. `reading`: another client's way instead (see
 * ClientReading).
 */
export function requestPath(url: Uint8Array, reading: ClientReading = CLIENT_READINGS[1]!): Uint8Array {
  let bytes = reading.tabs ? Array.from(url) : Array.from(url).filter((b) => b !== TAB && b !== LF && b !== CR);
  while (bytes.length > 0 && bytes[0]! <= SPACE) bytes.shift();
  while (!reading.trailingBlanks && bytes.length > 0 && bytes[bytes.length - 1]! <= SPACE) bytes.pop();
  const colon = bytes.indexOf(COLON);
  const isSchemeByte = (b: number, i: number) => /[A-Za-z]/.test(String.fromCharCode(b)) || (i > 0 && /[0-9+.-]/.test(String.fromCharCode(b)));
  const scheme = colon > 0 && bytes.slice(0, colon).every(isSchemeByte) ? [asText(bytes.slice(0, colon + 1)), asText(bytes.slice(0, colon))] : null;
  const isSlash = (b: number | undefined, special: boolean) => b === SLASH || (special && b === BACKSLASH);
  let special = true;
  let rest: number[];
  if (scheme && ['http', 'https', 'ws', 'wss', 'ftp'].includes(scheme[1]!.toLowerCase())) {
    rest = bytes.slice(scheme[0].length);
    while (isSlash(rest[0], true)) rest.shift();
    rest = afterAuthority(rest, true);
  } else if (scheme && startsWithText(bytes.slice(scheme[0].length), '//')) {
    special = false;
    rest = afterAuthority(bytes.slice(scheme[0].length + 2), false);
  } else if (isSlash(bytes[0], true) || bytes[0] === QUESTION || bytes[0] === HASH) {
    rest = bytes;
  } else {
    rest = afterAuthority(bytes, true);
  }
  const hash = reading.lastHash ? rest.lastIndexOf(HASH) : rest.indexOf(HASH);
  if (hash >= 0) rest = rest.slice(0, hash);
  const question = rest.indexOf(QUESTION);
  const pathPart = question >= 0 ? rest.slice(0, question) : rest;
  // An empty query is none for new URL(...).search: "/a?" is "/a".
  const query = question >= 0 && (reading.emptyQuery || question < rest.length - 1) ? rest.slice(question) : [];
  const separator = special && reading.backslash;
  // Segments after the leading slash; a separator is '/' (and '\\' when the reading says so).
  const segments: number[][] = [[]];
  for (let i = isSlash(pathPart[0], separator) ? 1 : 0; i < pathPart.length; i++) {
    if (isSlash(pathPart[i], separator)) segments.push([]);
    else segments[segments.length - 1]!.push(pathPart[i]!);
  }
  const out: number[][] = [];
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    // The dot segments are "." and "..", with any dot written %2e or %2E where the reading says so.
    const text = segment.length > 6 ? '' : String.fromCharCode(...segment);
    const word = reading.dots === 'all' ? text.toLowerCase().replaceAll('%2e', '.') : reading.dots === 'literal' ? text : '';
    if (word === '..') {
      out.pop();
      if (last) out.push([]);
    } else if (word === '.') {
      if (last) out.push([]);
    } else {
      out.push(segment);
    }
  });
  return Uint8Array.from([SLASH, ...out.flatMap((segment, i) => (i === 0 ? segment : [SLASH, ...segment])), ...query]);
}

/** Bytes a WHATWG parser percent-encodes in an http(s) URL's path, and in its query (Ada 2.9's sets: '^' not in the path's). */
function fetchEncodes(b: number, inQuery: boolean): boolean {
  if (b <= SPACE || b >= 0x7f || b === 0x22 || b === 0x3c || b === 0x3e) return true;
  return inQuery ? b === APOSTROPHE : b === 0x60 || b === 0x7b || b === 0x7d;
}

/** A request path as the reading's client percent-encodes it (google mode). */
function clientEncoded(path: Uint8Array, encoding: ClientReading['encoding']): Uint8Array {
  if (encoding === 'raw') return path;
  const out = new ByteWriter();
  const question = indexOfByte(path, QUESTION);
  for (let i = 0; i < path.length; i++) {
    const b = path[i]!;
    const inQuery = question >= 0 && i > question;
    if (encoding === 'wget' || encoding === 'requests') {
      if (isPercentTriplet(path, i)) {
        const v = hexValue(path[i + 1]!) * 16 + hexValue(path[i + 2]!);
        // requests' decoding of unreserved escapes is robots.cc's other byte: rfc mode's alone.
        if (encoding === 'wget') path.subarray(i, i + 3).forEach((x) => out.push(x));
        else out.pushEscaped(v);
        i += 2;
      } else if (b === PERCENT || mustEncode(b) || (encoding === 'requests' && (b === 0x5b || b === 0x5d))) {
        out.pushEscaped(b);
      } else {
        out.push(b);
      }
      continue;
    }
    const caret = encoding !== 'ada2' && !inQuery && b === 0x5e;
    const pipe = encoding === 'browser' && !inQuery && b === 0x7c;
    if (fetchEncodes(b, inQuery) || caret || pipe) out.pushEscaped(b);
    else out.push(b);
  }
  return out.result();
}

function asText(bytes: number[]): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 4096) text += String.fromCharCode(...bytes.slice(i, i + 4096));
  return text;
}

function startsWithText(bytes: number[], prefix: string): boolean {
  return String.fromCharCode(...bytes.slice(0, prefix.length)) === prefix;
}

/** The bytes from where the authority at the start of `bytes` ends. */
function afterAuthority(bytes: number[], special: boolean): number[] {
  const end = bytes.findIndex((b) => b === SLASH || b === QUESTION || b === HASH || (special && b === BACKSLASH));
  return end < 0 ? [] : bytes.slice(end);
}

// ---------------------------------------------------------------------------
// Pattern matching
// ---------------------------------------------------------------------------

/**
 * Google's matcher: track the sorted set of path positions reachable after each
 * pattern byte. Anchored at path[0]; otherwise a prefix match. No backtracking.
 */
export function positionSetMatches(path: Uint8Array, pattern: Uint8Array): boolean {
  let positions: number[] = [0];
  for (let k = 0; k < pattern.length; k++) {
    const p = pattern[k]!;
    if (p === DOLLAR && k === pattern.length - 1) {
      return positions[positions.length - 1] === path.length;
    }
    if (p === STAR) {
      // Any run of bytes: every position from the smallest reachable one onwards.
      const from = positions[0]!;
      positions = [];
      for (let i = from; i <= path.length; i++) positions.push(i);
    } else {
      positions = positions.filter((i) => i < path.length && path[i] === p).map((i) => i + 1);
      if (positions.length === 0) return false;
    }
  }
  return true;
}

// ---------------------------------------------------------------------------
// Parsed robots.txt (agent-specific) and the decision state machine
// ---------------------------------------------------------------------------

/**
 * What the state machine needs from one line, already resolved for the agent:
 * a user-agent line (global? specific?) or a rule with its prepared pattern.
 */
type Directive =
  | { kind: 'agent'; global: boolean; specific: boolean }
  | { kind: 'allow' | 'disallow'; pattern: Uint8Array };

/** Robots.txt user-agent value: '*' alone or followed by whitespace is the global group. */
function isGlobalAgentValue(value: Uint8Array): boolean {
  return value.length >= 1 && value[0] === STAR && (value.length === 1 || isAsciiSpace(value[1]!));
}

/** Longest prefix of token characters: the product token. */
function productToken(value: Uint8Array, mode: OracleMode): Uint8Array {
  let end = 0;
  while (end < value.length && isTokenChar(value[end]!, mode)) end++;
  return value.subarray(0, end);
}

/**
 * The caller's agent as it is compared with robots.txt tokens. Google compares the
 * caller's string verbatim; rfc mode compares product tokens (RFC 9309 §2.2.1).
 */
function callerAgentToken(agent: string, mode: OracleMode): Uint8Array {
  const bytes = ascii(agent);
  return mode === 'google' ? bytes : productToken(trimAsciiSpace(bytes), mode);
}

function agentDirective(value: Uint8Array, caller: Uint8Array, mode: OracleMode): Directive {
  if (isGlobalAgentValue(value)) return { kind: 'agent', global: true, specific: false };
  const token = productToken(value, mode);
  // In rfc mode an empty token (on either side) names nobody.
  const comparable = mode === 'google' || (token.length > 0 && caller.length > 0);
  const specific = comparable && equalsIgnoreAsciiCase(token, caller);
  return { kind: 'agent', global: false, specific };
}

function parseDirectives(body: Uint8Array, agent: string, mode: OracleMode, maxBytes: number): Directive[] {
  const caller = callerAgentToken(agent, mode);
  const directives: Directive[] = [];
  for (const line of splitLines(limitBody(body, maxBytes), mode)) {
    const kv = splitKeyValue(line);
    if (kv === null) continue;
    const kind = classifyKey(kv.key);
    if (kind === 'user-agent') {
      directives.push(agentDirective(kv.value, caller, mode));
    } else if (kind === 'allow' || kind === 'disallow') {
      const pattern = mode === 'google' ? googleEscapePattern(kv.value) : rfcNormalise(kv.value, true);
      directives.push({ kind, pattern });
    }
    // Sitemap and unknown keys never affect the decision, nor end a group.
  }
  return directives;
}

/** Best matching priority per slot; -1 means "nothing matched". */
interface Priorities {
  allowSpecific: number;
  disallowSpecific: number;
  allowGlobal: number;
  disallowGlobal: number;
}

const INDEX_HTM = ascii('/index.htm');

/**
 * Google-only: an Allow for ".../index.htm..." that did not match is retried as
 * ".../$", so it also allows the directory URL itself. Returns null if not applicable.
 */
function indexHtmFallback(pattern: Uint8Array): Uint8Array | null {
  const slash = lastIndexOfByte(pattern, SLASH);
  if (slash < 0 || !startsWith(pattern, INDEX_HTM, slash)) return null;
  return concat(pattern.subarray(0, slash + 1), ascii('$'));
}

/** Priority of a rule for this path: its pattern's byte length if it matches, else -1. */
function rulePriority(
  rule: { kind: 'allow' | 'disallow'; pattern: Uint8Array },
  path: Uint8Array,
  mode: OracleMode,
): number {
  if (positionSetMatches(path, rule.pattern)) return rule.pattern.length;
  if (mode === 'google' && rule.kind === 'allow') {
    const fallback = indexHtmFallback(rule.pattern);
    if (fallback !== null && positionSetMatches(path, fallback)) return fallback.length;
  }
  return -1;
}

/** Replays the reference's group state machine over the directives for one path. */
function decide(directives: Directive[], path: Uint8Array, mode: OracleMode): boolean {
  let seenGlobal = false;
  let seenSpecific = false;
  let everSeenSpecific = false;
  let seenSeparator = false;
  const prio: Priorities = { allowSpecific: -1, disallowSpecific: -1, allowGlobal: -1, disallowGlobal: -1 };

  for (const d of directives) {
    if (d.kind === 'agent') {
      // A user-agent line after a rule starts a new group.
      if (seenSeparator) seenGlobal = seenSpecific = seenSeparator = false;
      if (d.global) seenGlobal = true;
      if (d.specific) seenSpecific = everSeenSpecific = true;
      continue;
    }
    if (!seenGlobal && !seenSpecific) continue; // rules outside any group
    seenSeparator = true;
    const p = rulePriority(d, path, mode);
    if (p < 0) continue;
    if (d.kind === 'allow') {
      if (seenSpecific) prio.allowSpecific = Math.max(prio.allowSpecific, p);
      else prio.allowGlobal = Math.max(prio.allowGlobal, p);
    } else {
      if (seenSpecific) prio.disallowSpecific = Math.max(prio.disallowSpecific, p);
      else prio.disallowGlobal = Math.max(prio.disallowGlobal, p);
    }
  }
  return decisionFromPriorities(prio, everSeenSpecific);
}

/** Longest match wins, ties go to allow; an agent's own group hides '*'. */
function decisionFromPriorities(p: Priorities, everSeenSpecific: boolean): boolean {
  if (p.allowSpecific > 0 || p.disallowSpecific > 0) return !(p.disallowSpecific > p.allowSpecific);
  if (everSeenSpecific) return true;
  if (p.allowGlobal > 0 || p.disallowGlobal > 0) return !(p.disallowGlobal > p.allowGlobal);
  return true;
}

const ROBOTS_TXT = ascii('/robots.txt');

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && startsWith(a, b);
}

/** What `reading`'s client requests for `url`, as `mode` compares it (rfc mode: normalised). */
export function clientTarget(url: Uint8Array, reading: ClientReading, mode: OracleMode): Uint8Array {
  const path = requestPath(url, reading);
  return mode === 'rfc' ? rfcNormalise(path, false) : clientEncoded(path, reading.encoding);
}

/** A request-target as `mode` compares it with the patterns: normalised in rfc mode, as sent in google mode. */
export function comparableTarget(target: Uint8Array, mode: OracleMode): Uint8Array {
  return mode === 'rfc' ? rfcNormalise(target, false) : target;
}

/**
 * URL → the paths the patterns are compared with, per mode: every client's request-target
 * (CLIENT_READINGS), normalised in rfc mode; in google mode a path is the reference's reading
 * alone, and a URL that and the targets, as written or in fetch form by the client. With
 * `fetched` (RobotsCache, google mode), the targets without the reference's reading.
 */
export function comparablePaths(url: Uint8Array, mode: OracleMode, fetched = false): Uint8Array[] {
  if (mode === 'rfc') return CLIENT_READINGS.map((reading) => clientTarget(url, reading, mode));
  // Google keeps the path in a C string; rfc mode encodes NUL instead.
  const reference = cutAtNul(referencePath(url));
  if (!fetched && url[0] === SLASH) return [reference];
  const targets = CLIENT_READINGS.map((reading) => clientTarget(url, reading, mode));
  return fetched ? targets : [reference, ...targets];
}

// ---------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------

/** Parse once for one agent; check many URLs. */
export class ReferenceRobots {
  private readonly directives: Directive[];
  private readonly mode: OracleMode;

  constructor(body: string | Uint8Array, agent: string, mode: OracleMode = 'rfc', maxBytes: number = DEFAULT_MAX_BYTES) {
    this.mode = mode;
    this.directives = parseDirectives(toBytes(body), agent, mode, maxBytes);
  }

  /** Whether every client's request for `url` is allowed (see comparablePaths). */
  isAllowed(url: string | Uint8Array, fetched = false): boolean {
    // Most URLs are read alike by every client: each distinct path is decided once.
    const distinct = new Map(comparablePaths(toBytes(url), this.mode, fetched).map((path) => [path.join(','), path]));
    return [...distinct.values()].every((path) => this.isPathAllowed(path));
  }

  /** Whether the rules allow `path`, compared as it is. */
  isPathAllowed(path: Uint8Array): boolean {
    // RFC 9309 §2.2.2: "/robots.txt" is implicitly allowed.
    if (this.mode === 'rfc' && bytesEqual(path, ROBOTS_TXT)) return true;
    return decide(this.directives, path, this.mode);
  }
}

/** One-shot: parse + decide. */
export function referenceIsAllowed(
  body: string | Uint8Array,
  agent: string,
  url: string | Uint8Array,
  mode: OracleMode = 'rfc',
): boolean {
  return new ReferenceRobots(body, agent, mode).isAllowed(url);
}
