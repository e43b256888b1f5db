// Exports of the WebAssembly module: integers and pointers only. Memory is owned by the
// TypeScript side (src/wasm/memory.ts); nothing here allocates. Scans read up to 63 bytes
// past an input's end: the heap never hands out the last HEAP_GUARD bytes of memory, so such
// reads stay in bounds, and the bytes read are masked out.
//
// The table format is the kernel's own (src/wasm/abi.ts): TypeScript reads nothing of a table
// but through the accessors below, and sizes the scratch of a call by the *Bytes exports, in
// the style of a lexer that hands its caller numbers, not structures.

import {
  FLAG_RFC, HDR_CHECKSUM, HDR_FLAGS, HDR_KINDS_OFF, HDR_MAGIC, HDR_POOL_OFF, HDR_RULE_COUNT, HDR_RULES_OFF, HDR_TOTAL_LEN,
  HEADER_SIZE, IMAGE_BAD_LENGTH, IMAGE_NOT_A_TABLE, IMAGE_OK, IMAGE_OTHER_VERSION, LINES_REPORT, LINES_VERDICTS,
  PATH_REFERENCE, PATH_RFC, RESULT_OVER_LIMIT, RESULT_ROBOTS_TXT, RULE_LINE, VERDICT_OVER_LIMIT, RULE_PAT_END, RULE_SIZE, TABLE_MAGIC,
} from '../src/wasm/abi';
import { initClasses } from './bytes';
import {
  findPath, findRequestPath, FORM_AS_IS, FORM_NORMALIZE, FORM_NORMALIZE_SLASH, FORM_RESOLVE_PATH, FORM_RESOLVE_URL, FORM_SLASH,
  mapPathStops, pathEnd, pathNeedsSlash, pathStart, referenceAmbiguous, urlEnd,
} from './path';
import { decideReadings, decidingReading, readingChoicesOf, readingCount, resetReadings } from './readings';
import { normalizeInto, NORMALIZE_URL_FETCH, NORMALIZE_URL_RFC } from './normalize';
import { resolvePath, resolveUrl } from './url';
import { beginLinear, bestRule, indexWanted, linearSpent, mapKeyGates, setTextIndexArea, verdictOf } from './match';
import { buildTextIndex, textIndexBytes, textIndexFind as findInTextIndex } from './text-index';
export { keyFilterCount } from './match';
import { initScanSets, mapBytes } from './scan';
import { directiveNamed, initLexBytes, lexResume } from './lex';
import { initGroups } from './groups';
import { initChecksumTables, tableChecksum } from './checksum';
import { initByteScores } from './compile/key-order';
export { validateTable, validateWorkBytes } from './validate';
export { bytesChecksum, tableChecksum } from './checksum';
export { utf8FromUtf16 } from './utf16';

const ROBOTS_TXT = memory.data<u8>([47, 114, 111, 98, 111, 116, 115, 46, 116, 120, 116]); // "/robots.txt"

/** First byte the TypeScript allocator may hand out. */
export function heapBase(): usize {
  initClasses();
  initScanSets();
  initLexBytes();
  initGroups(directiveNamed('crawl-delay'), directiveNamed('content-usage'));
  initChecksumTables();
  initByteScores();
  // A cache line's alignment: where the heap starts then does not move with the size of the
  // static data, and neither do the blocks SIMD loads read.
  return (__heap_base + 63) & ~63;
}

/**
 * The deciding rule for the URL at buf[start, ...) (ending at `limit`, or with `lines` at the
 * next LF): its strength number, -1 when no rule matches, -2 when the path is /robots.txt
 * (always allowed in RFC mode). Leaves the URL's end in urlEnd. The path matched is the request
 * path (path.ts) with `request` (normalised when `rfc`, in fetch form otherwise), else the
 * reference's. `scratch` needs urlScratchBytes(length).
 */
// decide, findPath and bestRule are inlined into the loops that call them (checkLines,
// checkSpans): compiled wasm keeps no value in a register across a call, so each call cost
// its caller's loop spills and reloads. Each loop is inlined twice, with `request` a constant:
// the reading it does not use folds away, and leaves fewer values for registers.
// @ts-ignore: decorator
@inline function decide(table: usize, buf: usize, start: i32, limit: i32, lines: bool, mapped: bool, request: bool, rfc: bool, scratch: usize): i32 {
  let path: usize;
  let len: i32;
  // Where the path lies in the mapped buffer, while it is the URL's own bytes (see mapKeyGates).
  let gatesAt = -1;
  if (request) {
    const form = findRequestPath(buf, start, limit, lines, mapped);
    // A URL clients may send otherwise (readings.ts): in google mode, bytes they may encode too.
    if (form >= FORM_RESOLVE_PATH || (!rfc && form >= FORM_NORMALIZE)) return decideReadings(table, buf + start, lineLength(buf, start, lines), rfc, false, scratch);
    path = buf + pathStart;
    len = pathEnd - pathStart;
    if (form == FORM_AS_IS) {
      if (mapped) gatesAt = pathStart;
    } else {
      len = rewritePath(form, path, len, scratch, rfc);
      path = scratch;
    }
    if (rfc && len == 11 && memory.compare(path, ROBOTS_TXT, 11) == 0) return RESULT_ROBOTS_TXT;
  } else {
    findPath(buf, start, limit, lines, mapped);
    if (referenceAmbiguous) return decideReadings(table, buf + start, lineLength(buf, start, lines), false, true, scratch);
    path = buf + pathStart;
    len = pathEnd - pathStart;
    if (pathNeedsSlash) path = slashFirst(path, len++, scratch);
    else if (mapped) gatesAt = pathStart;
  }
  return <i32>bestRule(table, path, len, gatesAt);
}

/** Bytes of the URL at buf[start, urlEnd), without the CR that ends its line with `lines`. */
// @ts-ignore: decorator
@inline function lineLength(buf: usize, start: i32, lines: bool): i32 {
  const end = urlEnd;
  return lines && end > start && load<u8>(buf + end - 1) == 0x0d ? end - 1 - start : end - start;
}

/**
 * Writes the request path that findRequestPath found at `path` (`len` bytes) in form `form`
 * (not FORM_AS_IS) to `scratch`, normalised when `rfc`, and returns its length.
 */
function rewritePath(form: i32, path: usize, len: i32, scratch: usize, rfc: bool): i32 {
  if (form == FORM_SLASH) {
    slashFirst(path, len, scratch);
    return len + 1;
  }
  if (form == FORM_NORMALIZE || form == FORM_NORMALIZE_SLASH) {
    const o = form == FORM_NORMALIZE_SLASH ? 1 : 0;
    store<u8>(scratch, 0x2f);
    return o + normalizeInto(path, len, scratch + o, rfc ? NORMALIZE_URL_RFC : NORMALIZE_URL_FETCH);
  }
  return form == FORM_RESOLVE_URL ? resolveUrl(path, len, scratch, rfc) : resolvePath(path, len, scratch, rfc);
}

/** Whether the table was compiled for RFC mode. */
// @ts-ignore: decorator
@inline function isRfc(table: usize): bool {
  return (load<u32>(table + HDR_FLAGS) & FLAG_RFC) != 0;
}

/** The rule record of strength number `r`. */
// @ts-ignore: decorator
@inline function ruleAt(table: usize, r: u32): usize {
  return table + <usize>load<u32>(table + HDR_RULES_OFF) + <usize>r * RULE_SIZE;
}

/** Writes '/' and the `len` bytes at `path` to `scratch`, and returns it. */
// @ts-ignore: decorator
@inline function slashFirst(path: usize, len: i32, scratch: usize): usize {
  store<u8>(scratch, 0x2f);
  memory.copy(scratch + 1, path, len);
  return scratch;
}

/**
 * Maps buf[0, len) for the `mapped` checks that follow: its path stops and its key gates, in
 * 2 * mapBytes(len) bytes at `maps`; returns where the maps end.
 */
// @ts-ignore: decorator
@inline function mapBuffer(table: usize, buf: usize, len: i32, lines: bool, request: bool, maps: usize): usize {
  const size = <usize>mapBytes(len);
  mapPathStops(buf, len, request, lines, maps);
  mapKeyGates(table, buf, len, maps + size);
  return maps + 2 * size;
}

/**
 * The deciding rule for the `urlLen`-byte URL at `url` (see decide), or RESULT_OVER_LIMIT when a
 * linear table's check passed `linearLimit` (see beginLinear; linearWork() tells its work).
 */
export function checkOne(table: usize, url: usize, urlLen: i32, fetched: bool, scratch: usize, linearLimit: i32): i32 {
  beginLinear(linearLimit);
  resetReadings();
  const rfc = isRfc(table);
  return fetched || rfc ? decide(table, url, 0, urlLen, false, false, true, rfc, scratch) : decide(table, url, 0, urlLen, false, false, false, false, scratch);
}

// @ts-ignore: decorator
@inline function verdict(table: usize, r: i32): u8 {
  return r == RESULT_ROBOTS_TXT ? 1 : verdictOf(table, <u32>r);
}

/** The verdict (1 allow, 0 disallow, VERDICT_OVER_LIMIT) for the `urlLen`-byte URL at `url`: checkOne, without the rule. */
export function verdictOne(table: usize, url: usize, urlLen: i32, fetched: bool, scratch: usize, linearLimit: i32): u8 {
  const r = checkOne(table, url, urlLen, fetched, scratch, linearLimit);
  return r == RESULT_OVER_LIMIT ? <u8>VERDICT_OVER_LIMIT : verdict(table, r);
}

/**
 * Verdicts (1 allow, 0 disallow) for `count` URLs stored in base[0, bytes); `spans` holds a
 * (offset from base, length) pair of u32 per URL; `fetched` as for decide. `scratch` needs
 * checkSpansScratchBytes(bytes, longest). Returns `count`, or -1 when a linear table's checks
 * passed `linearLimit` (see checkOne): then the verdicts written are to be ignored.
 */
export function checkSpans(table: usize, base: usize, bytes: i32, spans: usize, count: i32, out: usize, fetched: bool, scratch: usize, linearLimit: i32): i32 {
  beginLinear(linearLimit);
  const rfc = isRfc(table);
  if (fetched || rfc) return spansLoop(table, base, bytes, spans, count, out, true, rfc, scratch);
  return spansLoop(table, base, bytes, spans, count, out, false, false, scratch);
}

// @ts-ignore: decorator
@inline function spansLoop(table: usize, base: usize, bytes: i32, spans: usize, count: i32, out: usize, request: bool, rfc: bool, scratch: usize): i32 {
  // Mapped like a buffer of lines (see path.ts): a URL's path scan ends on a branch otherwise.
  scratch = mapBuffer(table, base, bytes, false, request, scratch);
  for (let i = 0; i < count; i++) {
    const s = spans + (<usize>i << 3);
    const start = <i32>load<u32>(s);
    const r = decide(table, base, start, start + <i32>load<u32>(s + 4), false, true, request, rfc, scratch);
    if (r == RESULT_OVER_LIMIT) return -1;
    store<u8>(out + i, verdict(table, r));
  }
  return count;
}

const ALLOW_TAB = memory.data<u8>([97, 108, 108, 111, 119, 9]); // "allow\t"
const DISALLOW_TAB = memory.data<u8>([100, 105, 115, 97, 108, 108, 111, 119, 9]); // "disallow\t"

/** Non-blank lines the last LINES_FILTER / LINES_REPORT call disallowed. */
let disallowedLines: i32 = 0;

/** Writes `n` in decimal at `at`; returns the bytes written. */
function writeDecimal(at: usize, n: u32): i32 {
  let digits = 1;
  for (let rest = n / 10; rest != 0; rest /= 10) digits++;
  for (let i = digits - 1; i >= 0; i--) {
    store<u8>(at + i, <u8>(0x30 + n % 10));
    n /= 10;
  }
  return digits;
}

/**
 * Checks the newline-separated URLs in buf[0, len) (a CR before the LF is part of the line end;
 * a final line without LF counts) and writes, by `mode` (LINES_* in src/wasm/abi.ts): a verdict
 * byte per line, the allowed lines themselves, or a report line per non-blank line. Returns the
 * number of lines, or for LINES_FILTER / LINES_REPORT the bytes written; -1 when a linear
 * table's checks passed `linearLimit` (see checkOne). `out` needs checkLinesOutBytes(len, mode)
 * bytes, `scratch` checkLinesScratchBytes(len).
 */
export function checkLines(table: usize, buf: usize, len: i32, out: usize, scratch: usize, mode: i32, linearLimit: i32): i32 {
  beginLinear(linearLimit);
  return isRfc(table) ? linesLoop(table, buf, len, out, scratch, mode, true) : linesLoop(table, buf, len, out, scratch, mode, false);
}

// @ts-ignore: decorator
@inline function linesLoop(table: usize, buf: usize, len: i32, out: usize, scratch: usize, mode: i32, rfc: bool): i32 {
  scratch = mapBuffer(table, buf, len, true, rfc, scratch);
  let count = 0;
  let at: usize = out;
  let disallowed = 0;
  let start = 0;
  while (start < len) {
    const r = decide(table, buf, start, len, true, true, rfc, rfc, scratch);
    if (r == RESULT_OVER_LIMIT) return -1;
    const lineEnd = urlEnd;
    if (mode == LINES_VERDICTS) {
      store<u8>(out + count, verdict(table, r));
    } else {
      let end = lineEnd;
      if (end > start && load<u8>(buf + end - 1) == 0x0d) end--;
      if (end > start) {
        const allowed = verdict(table, r) == 1;
        if (!allowed) disallowed++;
        if (mode == LINES_REPORT) {
          if (allowed) memory.copy(at, ALLOW_TAB, 6), (at += 6);
          else memory.copy(at, DISALLOW_TAB, 9), (at += 9);
        }
        if (allowed || mode == LINES_REPORT) {
          memory.copy(at, buf + start, end - start);
          at += end - start;
          if (!allowed) {
            store<u8>(at++, 9);
            at += writeDecimal(at, load<u32>(ruleAt(table, r) + RULE_LINE));
          }
          store<u8>(at++, 0x0a);
        }
      }
    }
    count++;
    start = lineEnd + 1;
  }
  disallowedLines = disallowed;
  return mode == LINES_VERDICTS ? count : <i32>(at - out);
}

/** Non-blank lines the last LINES_FILTER / LINES_REPORT checkLines call disallowed. */
export function linesDisallowed(): i32 {
  return disallowedLines;
}

/** Linear work (src/wasm/abi.ts, LINEAR_FREE_RULES) the last check call did on a linear table. */
export function linearWork(): i32 {
  return linearSpent;
}

/** Normalises one pattern (see normalize.ts for `how`); `dst` needs normalizePatternBytes(len). */
export function normalizePattern(src: usize, len: i32, dst: usize, how: i32): i32 {
  return normalizeInto(src, len, dst, how);
}

/**
 * Writes the path of a URL the way a check sees it to `dst` (4 * len + 8 bytes) and returns
 * its length: the reference's (PATH_REFERENCE), the request path normalised for RFC mode
 * (PATH_RFC), or the request path in fetch form (PATH_FETCH).
 */
export function pathOf(url: usize, len: i32, how: i32, dst: usize): i32 {
  if (how == PATH_REFERENCE) {
    findPath(url, 0, len, false, false);
    const n = pathEnd - pathStart;
    if (pathNeedsSlash) return slashFirst(url + pathStart, n, dst), n + 1;
    memory.copy(dst, url + pathStart, n);
    return n;
  }
  const form = findRequestPath(url, 0, len, false, false);
  const n = pathEnd - pathStart;
  if (form != FORM_AS_IS) return rewritePath(form, url + pathStart, n, dst, how == PATH_RFC);
  memory.copy(dst, url + pathStart, n);
  return n;
}

/**
 * The reading that decided the last checkOne (src/wasm/abi.ts: READING_ONE when the URL has one
 * reading, READING_REFERENCE, or an index among the READING_COUNT readings).
 */
export function lastReading(): i32 {
  return decidingReading;
}

/** How many distinct readings the URL of the last checkOne had. */
export function lastReadingCount(): i32 {
  return readingCount;
}

/**
 * Writes reading `reading` (an index, or READING_REFERENCE) of the `len`-byte URL at `url` to
 * `dst` (4 * len + 8 bytes), normalised for RFC mode when `rfc`, and returns its length.
 */
export function readingOf(url: usize, len: i32, reading: i32, rfc: bool, dst: usize): i32 {
  if (reading >= 0) return resolveUrl(url, len, dst, rfc, readingChoicesOf(reading));
  return pathOf(url, len, PATH_REFERENCE, dst);
}

export { lexLines } from './lex';
export { groupsBegin, groupsFinish, groupsFull, groupsFullNeed, groupsRegions, groupsTokenBytes, groupsUsed, groupsValueBytes, groupsWide } from './groups';
export { compileNeed, compileTable, compileTableBytes, compileWorkBytes } from './compile';
export { lastIndexOfSegment, nibbleTables, twoWaySearch, twoWaySearchBackward } from './scan';

/** Where the next lexLines call continues, or -1 when the last line was read. */
export function lexNext(): i32 {
  return lexResume;
}

// Sizes: the scratch and output a call needs, so that its caller allocates without knowing how
// the kernel uses them. In f64: a size may pass 2 GiB (and then the allocation is refused),
// where i32 arithmetic would wrap.

/**
 * Scratch bytes to resolve and normalise a `len`-byte URL (url.ts): up to three bytes per
 * byte, and above them the URL with its tabs and newlines removed.
 */
export function urlScratchBytes(len: f64): f64 {
  return 4 * len + 8;
}

/** mapBytes (scan.ts) of a buffer of any size: past 1 GiB, `len` itself, more than enough and no wrap. */
function mapBytesOf(len: f64): f64 {
  return len < 0x40000000 ? <f64>mapBytes(<i32>len) : len;
}

/** The `scratch` checkSpans needs for `bytes` bytes of URLs, the longest `longest` bytes: the maps, then urlScratchBytes. */
export function checkSpansScratchBytes(bytes: f64, longest: f64): f64 {
  return 2 * mapBytesOf(bytes) + urlScratchBytes(longest);
}

/** The `scratch` checkLines needs for a `len`-byte buffer (a line may be all of it). */
export function checkLinesScratchBytes(len: f64): f64 {
  return 2 * mapBytesOf(len) + urlScratchBytes(len);
}

/** Bytes LINES_REPORT adds to a line at most: "disallow\t", "\t", 10 digits, "\n". */
const REPORT_EXTRA_BYTES = 21;

/**
 * The `out` checkLines needs for a `len`-byte buffer in `mode`: a byte per line (at most len + 1
 * lines), the allowed lines, or the lines with what a report adds to each.
 */
export function checkLinesOutBytes(len: f64, mode: i32): f64 {
  return mode == LINES_REPORT ? len + REPORT_EXTRA_BYTES * (len + 1) : len + 1;
}

/** The `dst` normalizePattern needs for a `len`-byte pattern: an escape is 3 bytes. */
export function normalizePatternBytes(len: f64): f64 {
  return 3 * len;
}

/** The `dst` utf8FromUtf16 needs for `units` UTF-16 units: 3 bytes a unit, and what it writes past them. */
export function utf8FromUtf16Bytes(units: f64): f64 {
  return 3 * units + 32;
}

// Text indexes (assembly/text-index.ts): a check whose searches pass their budget builds one
// over its path, in an area the caller gives; without room, it gives up as a linear check
// does, and textIndexWanted() says how much the caller is to give before asking again.

/** Bytes of text index area the last check call wanted and lacked (it gave up); 0 when none. */
export function textIndexWanted(): f64 {
  return <f64>indexWanted;
}

/** Gives the check calls that follow `bytes` bytes at `area` for text indexes (0: none). */
export function textIndexArea(area: usize, bytes: f64): void {
  setTextIndexArea(area, <u64>bytes);
}

/** Bytes of the area a text index of an `n`-byte text needs. */
export function textIndexAreaBytes(n: f64): f64 {
  return <f64>textIndexBytes(<u64>n);
}

/** Builds the text index of text[0, n) in `area` (textIndexAreaBytes(n)): for tests of the index. */
export function textIndexBuild(text: usize, n: i32, area: usize): void {
  buildTextIndex(text, n, area);
}

/** The leftmost (`last` 0) or rightmost start in [lo, hi] of key[0, m) in the text indexed last, or -1. */
export function textIndexFind(key: usize, m: i32, lo: i32, hi: i32, last: bool): i32 {
  return findInTextIndex(key, m, lo, hi, last);
}

// Tables: what a caller may know of one, read here so that the format stays the kernel's.

/** Bytes of the table (its image). */
export function tableSize(table: usize): u32 {
  return load<u32>(table + HDR_TOTAL_LEN);
}

/** 1 when the table was compiled for RFC mode, 0 for google mode. */
export function tableMode(table: usize): i32 {
  return isRfc(table) ? 1 : 0;
}

/** Rules that can decide: strength numbers run from 0 to this. */
export function tableRuleCount(table: usize): u32 {
  return load<u32>(table + HDR_RULE_COUNT);
}

/** The 1-based line of rule `r` (a strength number). */
export function ruleLine(table: usize, r: u32): u32 {
  return load<u32>(ruleAt(table, r) + RULE_LINE);
}

/** The RULE_KIND_* bits of rule `r`. */
export function ruleKind(table: usize, r: u32): u32 {
  return load<u8>(table + <usize>load<u32>(table + HDR_KINDS_OFF) + r);
}

/** Where rule `r`'s normalised pattern (ASCII) starts, as an offset from the table. */
export function rulePatternStart(table: usize, r: u32): u32 {
  // A pattern starts where the previous rule's ends, the first at the pool.
  return r == 0 ? load<u32>(table + HDR_POOL_OFF) : load<u32>(ruleAt(table, r - 1) + RULE_PAT_END);
}

/** Where rule `r`'s normalised pattern ends, as an offset from the table. */
export function rulePatternEnd(table: usize, r: u32): u32 {
  return load<u32>(ruleAt(table, r) + RULE_PAT_END);
}

// Images: a table as bytes, for another thread or process.

/** Bytes of an image's header: what imageStatus reads. */
export function imageHeaderBytes(): i32 {
  return HEADER_SIZE;
}

/**
 * What the first `available` bytes (at most imageHeaderBytes()) at `header` of a `length`-byte
 * image say: IMAGE_OK, or why it cannot be loaded (IMAGE_* in src/wasm/abi.ts).
 */
export function imageStatus(header: usize, available: i32, length: u32): i32 {
  const magic = available < HEADER_SIZE ? 0 : load<u32>(header + HDR_MAGIC);
  if (magic != TABLE_MAGIC) return (magic & 0xffffff) == (TABLE_MAGIC & 0xffffff) ? IMAGE_OTHER_VERSION : IMAGE_NOT_A_TABLE;
  return load<u32>(header + HDR_TOTAL_LEN) == length ? IMAGE_OK : IMAGE_BAD_LENGTH;
}

/** The format version (a character code) of the image whose header is at `header`. */
export function imageVersion(header: usize): u32 {
  return load<u32>(header + HDR_MAGIC) >>> 24;
}

/** The format version (a character code) of the tables this kernel writes and reads. */
export function tableVersion(): u32 {
  return TABLE_MAGIC >>> 24;
}

/**
 * Writes the checksum of the `size`-byte table at `table` into its header, as an image
 * carries it; the matcher never reads the field, so the table answers as before.
 */
export function sealTable(table: usize, size: u32): void {
  store<u32>(table + HDR_CHECKSUM, tableChecksum(table, size));
}

/** Whether the checksum in the header of the `size`-byte image at `table` is its own. */
export function tableSealed(table: usize, size: u32): bool {
  return tableChecksum(table, size) == load<u32>(table + HDR_CHECKSUM);
}
