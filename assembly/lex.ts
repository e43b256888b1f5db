// bytes -> lines: the one robots.txt line reader. For every physical line it writes a record
// (layout in src/robots/directives.ts): which directive the line holds, where its key and
// value are, and what was odd about it. It knows nothing about groups or matching; the group
// builder and the linter both read its records (src/robots/parse.ts).
//
// Line handling follows the reference implementation: LF, CR and CRLF end a line, a leading
// (prefix of a) UTF-8 BOM is skipped, a NUL ends the line's content, '#' starts a comment,
// ASCII whitespace around key and value is dropped, key and value split at the first ':' (or,
// leniently, at whitespace when the line is exactly two words). Keys are recognised as
// DIRECTIVE_TABLE says: the reference's by case-insensitive prefix, with its misspellings.

import {
  DIRECTIVE_NONE, DIRECTIVE_TABLE, DIRECTIVE_UNKNOWN, DIRECTIVE_USER_AGENT, LINE_AGENT,
  LINE_AGENT_GLOBAL,
  LINE_DIRECTIVE_FLAGS, LINE_END, LINE_FLAG_HAS_COMMENT, LINE_FLAG_IS_COMMENT, LINE_FLAG_IS_EMPTY,
  LINE_FLAG_MISSING_COLON, LINE_FLAG_TOO_LONG, LINE_FLAG_TYPO, LINE_FLAG_UNPARSEABLE, LINE_KEY_END, LINE_KEY_START,
  LINE_SIZE, LINE_START, LINE_VALUE_END, LINE_VALUE_START, MAX_DIRECTIVE_SPELLINGS, MAX_SPELLING_BYTES,
  PRODUCT_TOKEN_BYTES, PRODUCT_TOKEN_DIGITS,
} from '../src/robots/directives';
import { groupLine } from './groups';
import { firstNotOf, firstOf, SET_BLANK, SET_SPACE } from './scan';

/** Where the next lexLines call continues: the first byte of the next line, or -1 when done. */
export let lexResume: i32 = 0;
/** Lines read since the body's first (lexLines). */
let linesRead: u32 = 0;

// @ts-ignore: decorator
@inline function isSpace(c: u32): bool {
  return c == 0x20 || (c >= 0x09 && c <= 0x0d);
}

// A product token's bytes, by class (filled by initLexBytes): [A-Za-z_-] in both modes, and
// digits in rfc mode, where a token cut at its first digit would merge Agent1's group with
// Agent2's. A user-agent line tests its token's bytes against the mode's mask: one load a byte.
const TOKEN_CLASSES = memory.data(256);
const TOKEN_LETTER: u8 = 1;
const TOKEN_DIGIT: u8 = 2;
/**
 * The TOKEN_CLASSES of the mode being lexed, set by lexLines: a global rather than a parameter,
 * which would hold one more register through lexLines' line loop.
 */
let tokenMask: u8 = TOKEN_LETTER;

// The spellings of DIRECTIVE_TABLE (src/robots/directives.ts), in its order, filled by
// initLexBytes: KEY_SIZE bytes each, KEY_RESULT (the directive id | LINE_FLAG_TYPO for a
// misspelling), KEY_MATCH, KEY_LENGTH, then the spelling, lowercase (for MATCH_LOOSE, without
// its separators).
const KEY_RESULT = 0;
const KEY_MATCH = 4;
const KEY_LENGTH = 5;
const KEY_TEXT = 6;
const KEY_SIZE: usize = KEY_TEXT + MAX_SPELLING_BYTES;
const KEYS = memory.data(<i32>KEY_SIZE * MAX_DIRECTIVE_SPELLINGS);
const MATCH_PREFIX: u8 = 0;
const MATCH_WHOLE: u8 = 1;
const MATCH_LOOSE: u8 = 2;

// Which spellings a key starting with each byte may match, one u64 a byte: bit i for KEYS
// entry i, so classifyKey tries only those, in table order. Most lines of an HTML page sent
// as robots.txt start with no spelling's byte, and cost one load.
const KEYS_BY_BYTE = memory.data(256 * 8);

// @ts-ignore: decorator
@inline function lowerAscii(c: u32): u32 {
  return c - 0x41 < 26 ? c + 32 : c;
}

// @ts-ignore: decorator
@inline function isKeySeparator(c: u32): bool {
  return c == 0x2d || c == 0x5f || c == 0x20;
}

/**
 * Whether the key buf[start, end) is the spelling text[0, n) as `match` reads it.
 */
function keyMatches(buf: usize, start: i32, end: i32, text: usize, n: i32, match: u8): bool {
  if (match == MATCH_LOOSE) {
    let k = 0;
    for (let i = start; i < end; i++) {
      const c = lowerAscii(load<u8>(buf + i));
      if (isKeySeparator(c)) continue;
      if (k >= n || c != <u32>load<u8>(text + k)) return false;
      k++;
    }
    return k == n;
  }
  if (match == MATCH_WHOLE ? end - start != n : end - start < n) return false;
  // Eight bytes a step, lowercased by setting bit 5: a spelling holds lowercase letters, '-'
  // and ' ', and only CR and NUL, which no key holds, would also become '-' or ' '.
  let i = 0;
  for (; i + 8 <= n; i += 8) {
    if ((load<u64>(buf + start + i) | 0x2020202020202020) != load<u64>(text + i)) return false;
  }
  for (; i < n; i++) {
    if ((<u32>load<u8>(buf + start + i) | 0x20) != <u32>load<u8>(text + i)) return false;
  }
  return true;
}

/** Directive id (and LINE_FLAG_TYPO) of the key buf[start, end): its first matching spelling. */
function classifyKey(buf: usize, start: i32, end: i32): u32 {
  let candidates = load<u64>(KEYS_BY_BYTE + (<usize>load<u8>(buf + start) << 3));
  while (candidates != 0) {
    const at = KEYS + <usize>ctz(candidates) * KEY_SIZE;
    candidates &= candidates - 1;
    if (keyMatches(buf, start, end, at + KEY_TEXT, <i32>load<u8>(at + KEY_LENGTH), load<u8>(at + KEY_MATCH))) {
      return load<u32>(at + KEY_RESULT);
    }
  }
  return DIRECTIVE_UNKNOWN;
}

/** Index of the first `c` in DIRECTIVE_TABLE[from, end), or end. */
function tableFind(c: i32, from: i32, end: i32): i32 {
  while (from < end && DIRECTIVE_TABLE.charCodeAt(from) != c) from++;
  return from;
}

/** Adds the spelling DIRECTIVE_TABLE[from, to) (spaces around it dropped) to KEYS, as entry `index`. */
function addSpelling(index: i32, from: i32, to: i32, result: u32, match: u8): void {
  from = firstNotSpace(from, to);
  to = lastNotSpaceEnd(from, to);
  const at = KEYS + <usize>index * KEY_SIZE;
  let n = 0;
  for (let i = from; i < to && n < MAX_SPELLING_BYTES; i++) {
    const c = lowerAscii(<u32>DIRECTIVE_TABLE.charCodeAt(i));
    if (match == MATCH_LOOSE && isKeySeparator(c)) continue;
    store<u8>(at + KEY_TEXT + <usize>n, <u8>c);
    n++;
  }
  store<u32>(at + KEY_RESULT, result);
  store<u8>(at + KEY_MATCH, match);
  store<u8>(at + KEY_LENGTH, <u8>n);
  // The bytes a matching key may start with: the spelling's first letter in either case, and
  // for MATCH_LOOSE a separator.
  const bit = <u64>1 << <u64>index;
  const first = <u32>load<u8>(at + KEY_TEXT);
  for (let c: u32 = 0; c < 256; c++) {
    if (lowerAscii(c) == first || (match == MATCH_LOOSE && isKeySeparator(c))) {
      store<u64>(KEYS_BY_BYTE + (<usize>c << 3), load<u64>(KEYS_BY_BYTE + (<usize>c << 3)) | bit);
    }
  }
}

/**
 * Fills KEYS and KEYS_BY_BYTE from DIRECTIVE_TABLE: each line `name | kind | match |
 * misspellings` is the next directive id; its name and misspellings are entries, in order.
 */
function initKeys(): void {
  const length = DIRECTIVE_TABLE.length;
  let id: u32 = 0;
  let count = 0;
  for (let line = 0; line < length; ) {
    const end = tableFind(0x0a, line, length);
    const name = tableFind(0x7c, line, end);
    const kind = tableFind(0x7c, name + 1, end);
    const how = tableFind(0x7c, kind + 1, end);
    if (how < end) {
      id++;
      const nameFrom = firstNotSpace(line, name);
      store<u32>(NAME_SPANS + (<usize>id << 3), nameFrom);
      store<u32>(NAME_SPANS + (<usize>id << 3) + 4, lastNotSpaceEnd(nameFrom, name));
      // `prefix`, `whole` or `loose`: told apart by their first letter.
      const first = DIRECTIVE_TABLE.charCodeAt(firstNotSpace(kind + 1, how));
      const match = first == 0x6c ? MATCH_LOOSE : first == 0x77 ? MATCH_WHOLE : MATCH_PREFIX;
      if (count < MAX_DIRECTIVE_SPELLINGS) addSpelling(count++, line, name, id, match);
      for (let from = how + 1; from < end; ) {
        const comma = tableFind(0x2c, from, end);
        if (firstNotSpace(from, comma) < comma && count < MAX_DIRECTIVE_SPELLINGS) addSpelling(count++, from, comma, id | LINE_FLAG_TYPO, match);
        from = comma + 1;
      }
    }
    line = end + 1;
  }
  directiveCount = id;
}

// Where each directive's name lies in DIRECTIVE_TABLE, by id (from, to: two u32s), as initKeys
// found them, and how many directives there are.
const NAME_SPANS = memory.data(256 * 8);
let directiveCount: u32 = 0;

/** The directive id of DIRECTIVE_TABLE's line named `name`, or DIRECTIVE_NONE when none is (after initKeys). */
export function directiveNamed(name: string): u32 {
  for (let id: u32 = 1; id <= directiveCount; id++) {
    if (tableSpells(<i32>load<u32>(NAME_SPANS + (<usize>id << 3)), <i32>load<u32>(NAME_SPANS + (<usize>id << 3) + 4), name)) return id;
  }
  return DIRECTIVE_NONE;
}

/** Whether DIRECTIVE_TABLE[from, to) is `name` (compared in place: the kernel allocates nothing). */
function tableSpells(from: i32, to: i32, name: string): bool {
  if (to - from != name.length) return false;
  for (let i = 0; i < name.length; i++) if (DIRECTIVE_TABLE.charCodeAt(from + i) != name.charCodeAt(i)) return false;
  return true;
}

/** Index of the first byte of DIRECTIVE_TABLE[from, end) that is not a space, or end. */
function firstNotSpace(from: i32, end: i32): i32 {
  while (from < end && DIRECTIVE_TABLE.charCodeAt(from) == 0x20) from++;
  return from;
}

/** The end of DIRECTIVE_TABLE[from, to) without its trailing spaces. */
function lastNotSpaceEnd(from: i32, to: i32): i32 {
  while (to > from && DIRECTIVE_TABLE.charCodeAt(to - 1) == 0x20) to--;
  return to;
}

/** Length of the leading UTF-8 BOM, or of the prefix of one, that the reference skips. */
function bomPrefix(buf: usize, len: i32): i32 {
  if (len == 0 || load<u8>(buf) != 0xef) return 0;
  if (len == 1 || load<u8>(buf + 1) != 0xbb) return 1;
  return len > 2 && load<u8>(buf + 2) == 0xbf ? 3 : 2;
}

// What scanLine found: the line's end (its CR or LF, or the buffer end), and the first '#' or
// NUL and the first ':' before it (or the line end when there is none).
let lineEndAt: i32 = 0;
let contentEndAt: i32 = 0;
let colonAt: i32 = 0;

// 16 copies each of LF, CR, '#' and ':', loaded into registers once per line (a v128 constant
// is rebuilt at every use, even inside a loop: see scan.ts).
const LINE_BYTES = memory.data(64);
const LINE_LF = LINE_BYTES;
const LINE_CR = LINE_BYTES + 16;
const LINE_HASH = LINE_BYTES + 32;
const LINE_COLON = LINE_BYTES + 48;

/** Fills LINE_BYTES, the key table and TOKEN_CLASSES (called once, before anything is lexed). */
export function initLexBytes(): void {
  for (let i = 0; i < PRODUCT_TOKEN_BYTES.length; i++) store<u8>(TOKEN_CLASSES + <usize>PRODUCT_TOKEN_BYTES.charCodeAt(i), TOKEN_LETTER);
  for (let i = 0; i < PRODUCT_TOKEN_DIGITS.length; i++) store<u8>(TOKEN_CLASSES + <usize>PRODUCT_TOKEN_DIGITS.charCodeAt(i), TOKEN_DIGIT);
  memory.fill(LINE_LF, 0x0a, 16);
  memory.fill(LINE_CR, 0x0d, 16);
  memory.fill(LINE_HASH, 0x23, 16);
  memory.fill(LINE_COLON, 0x3a, 16);
  initKeys();
}

/**
 * One pass over the line starting at `start`: a robots.txt body can be megabytes of HTML, so
 * the line's bytes are read once for all the bytes looked for, not once for each. Most
 * 32-byte steps of a long line hold none of them, and cost one test.
 */
function scanLine(buf: usize, start: i32, len: i32): void {
  const lf = v128.load(LINE_LF);
  const cr = v128.load(LINE_CR);
  const hash = v128.load(LINE_HASH);
  const colon = v128.load(LINE_COLON);
  const nul = i8x16.splat(0);
  let hashes = -1;
  let colons = -1;
  let i = start;
  // 32 bytes a step: one branch per step instead of per 16 bytes (the guard after every input
  // covers the over-read).
  for (; i < len; i += 32) {
    const v = v128.load(buf + i);
    const w = v128.load(buf + i + 16);
    const endsV = v128.or(i8x16.eq(v, lf), i8x16.eq(v, cr));
    const endsW = v128.or(i8x16.eq(w, lf), i8x16.eq(w, cr));
    const hashV = v128.or(i8x16.eq(v, hash), i8x16.eq(v, nul));
    const hashW = v128.or(i8x16.eq(w, hash), i8x16.eq(w, nul));
    const colonV = i8x16.eq(v, colon);
    const colonW = i8x16.eq(w, colon);
    const any = i8x16.bitmask(v128.or(v128.or(endsV, hashV), colonV)) | i8x16.bitmask(v128.or(v128.or(endsW, hashW), colonW));
    if (any == 0) continue;
    if (hashes < 0) {
      const m = i8x16.bitmask(hashV) | (i8x16.bitmask(hashW) << 16);
      if (m != 0) hashes = i + ctz(m);
    }
    if (colons < 0) {
      const m = i8x16.bitmask(colonV) | (i8x16.bitmask(colonW) << 16);
      if (m != 0) colons = i + ctz(m);
    }
    const ends = i8x16.bitmask(endsV) | (i8x16.bitmask(endsW) << 16);
    if (ends != 0) {
      i += ctz(ends);
      break;
    }
  }
  const end = i < len ? i : len;
  lineEndAt = end;
  contentEndAt = hashes >= 0 && hashes < end ? hashes : end;
  colonAt = colons >= 0 && colons < end ? colons : end;
}

/**
 * Writes the record of the line buf[start, end) (already cut to the line cap) at `rec`; its
 * content ends at `contentEnd` ('#', NUL or `end`), and its first ':' is at `colon` (or at or
 * past `contentEnd` when there is none before it).
 */
function readLine(buf: usize, start: i32, end: i32, contentEnd: i32, colon: i32, flags: u32, rec: usize, keysOnly: bool): void {
  store<u32>(rec + LINE_START, start);
  store<u32>(rec + LINE_END, end);
  store<u32>(rec + LINE_KEY_START, start);
  store<u32>(rec + LINE_KEY_END, start);
  store<u32>(rec + LINE_VALUE_START, start);
  store<u32>(rec + LINE_VALUE_END, start);
  store<u32>(rec + LINE_AGENT, 0);

  // Content ends at a NUL (the reference works on C strings) or where a comment starts.
  if (contentEnd < end && load<u8>(buf + contentEnd) == 0x23) flags |= LINE_FLAG_HAS_COMMENT;
  // Most lines start with their key: the scan's setup is paid only for those that do not.
  let s = start < contentEnd && !isSpace(load<u8>(buf + start)) ? start : firstNotOf(buf, start, contentEnd, SET_SPACE);
  // With `keysOnly` the group builder alone reads the record: a line whose first byte starts
  // no spelling and no record key (a letter) is nothing to it, whatever else it holds.
  if (keysOnly && s < contentEnd && !mayStartKey(load<u8>(buf + s))) {
    store<u32>(rec + LINE_DIRECTIVE_FLAGS, DIRECTIVE_NONE);
    return;
  }
  let e = contentEnd;
  while (e > s && isSpace(load<u8>(buf + e - 1))) e--;
  if (s == e) {
    flags |= (flags & LINE_FLAG_HAS_COMMENT) != 0 ? LINE_FLAG_IS_COMMENT : LINE_FLAG_IS_EMPTY;
    store<u32>(rec + LINE_DIRECTIVE_FLAGS, DIRECTIVE_NONE | flags);
    return;
  }

  // No ':' lies before s: the bytes there are whitespace.
  let sep = colon < e ? colon : e;
  let valueStart: i32;
  if (sep < e) {
    valueStart = sep + 1;
  } else {
    // No colon: accept "key value" when the line is exactly two words.
    sep = firstOf(buf, s, e, SET_BLANK);
    if (sep == e) {
      store<u32>(rec + LINE_DIRECTIVE_FLAGS, DIRECTIVE_NONE | flags | LINE_FLAG_UNPARSEABLE);
      return;
    }
    valueStart = sep;
    while (load<u8>(buf + valueStart) == 0x20 || load<u8>(buf + valueStart) == 0x09) valueStart++;
    if (firstOf(buf, valueStart, e, SET_BLANK) < e) {
      store<u32>(rec + LINE_DIRECTIVE_FLAGS, DIRECTIVE_NONE | flags | LINE_FLAG_UNPARSEABLE);
      return;
    }
    flags |= LINE_FLAG_MISSING_COLON;
  }
  let keyEnd = sep;
  while (keyEnd > s && isSpace(load<u8>(buf + keyEnd - 1))) keyEnd--;
  if (keyEnd == s) {
    store<u32>(rec + LINE_DIRECTIVE_FLAGS, DIRECTIVE_NONE | (flags & ~LINE_FLAG_MISSING_COLON) | LINE_FLAG_UNPARSEABLE);
    return;
  }
  while (valueStart < e && isSpace(load<u8>(buf + valueStart))) valueStart++;

  const kind = classifyKey(buf, s, keyEnd);
  store<u32>(rec + LINE_DIRECTIVE_FLAGS, kind | flags);
  store<u32>(rec + LINE_KEY_START, s);
  store<u32>(rec + LINE_KEY_END, keyEnd);
  store<u32>(rec + LINE_VALUE_START, valueStart);
  store<u32>(rec + LINE_VALUE_END, e);
  if ((kind & 0xff) == DIRECTIVE_USER_AGENT) {
    // `*` alone or followed by whitespace names every agent; otherwise the product token is
    // the longest prefix of token bytes (`Googlebot/2.1` -> `Googlebot`).
    if (load<u8>(buf + valueStart) == 0x2a && (e - valueStart == 1 || isSpace(load<u8>(buf + valueStart + 1)))) {
      store<u32>(rec + LINE_AGENT, LINE_AGENT_GLOBAL);
    } else {
      store<u32>(rec + LINE_AGENT, tokenBytes(buf, valueStart, e, tokenMask));
    }
  }
}

/** Whether a key starting with `c` may be a directive's (KEYS_BY_BYTE) or a record's (a letter). */
// @ts-ignore: decorator
@inline function mayStartKey(c: u32): bool {
  return (c | 0x20) - 0x61 < 26 || load<u64>(KEYS_BY_BYTE + (<usize>c << 3)) != 0;
}

/** How many bytes of buf[start, end) from `start` are product-token bytes of `mask`'s classes. */
// @ts-ignore: decorator
@inline function tokenBytes(buf: usize, start: i32, end: i32, mask: u8): i32 {
  let t = start;
  while (t < end && (load<u8>(TOKEN_CLASSES + <usize>load<u8>(buf + t)) & mask) != 0) t++;
  return t - start;
}

/**
 * Reads lines of buf[0, len) from `from` (0 for the first call) into at most `maxLines`
 * records, `stride` bytes apart from `out` (0: each written over the last); returns how many
 * were written and leaves the next start in lexResume (-1 once the last line was read). `cap`
 * > 0 keeps only that many bytes of a line (google mode); `digits` != 0 lets a user-agent
 * line's product token hold digits (rfc mode). `build` != 0: each record also goes to the
 * group builder (assembly/groups.ts, started by groupsBegin), as it is written; a line it has
 * no room for ends the call before it (groupsFull says so), and the next call starts there.
 */
export function lexLines(buf: usize, len: i32, from: i32, cap: i32, digits: i32, out: usize, maxLines: i32, stride: i32, build: i32): i32 {
  if (from == 0) linesRead = 0;
  let start = from == 0 ? bomPrefix(buf, len) : from;
  tokenMask = digits != 0 ? TOKEN_LETTER | TOKEN_DIGIT : TOKEN_LETTER;
  let count = 0;
  while (count < maxLines) {
    scanLine(buf, start, len);
    const end = lineEndAt;
    let flags: u32 = 0;
    let cut = end;
    let contentEnd = contentEndAt;
    if (cap > 0 && end - start > cap) {
      cut = start + cap;
      flags = LINE_FLAG_TOO_LONG;
      if (contentEnd > cut) contentEnd = cut;
    }
    const record = out + <usize>count * <usize>stride;
    readLine(buf, start, cut, contentEnd, colonAt, flags, record, stride == 0 && build != 0);
    // A line the group builder has no room for is read again once the caller made room.
    if (build != 0 && !groupLine(buf, record, linesRead + 1)) break;
    count++;
    linesRead++;
    if (end >= len) {
      lexResume = -1;
      return count;
    }
    start = load<u8>(buf + end) == 0x0d && end + 1 < len && load<u8>(buf + end + 1) == 0x0a ? end + 2 : end + 1;
  }
  lexResume = start;
  return count;
}
