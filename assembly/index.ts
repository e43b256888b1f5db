// Exports of the WebAssembly module: integers and pointers only. Memory is owned by the
// TypeScript side (src/wasm/memory.ts); nothing here allocates. Scans read up to 63 bytes
// past an input's end: the heap never hands out the last HEAP_GUARD bytes of memory, so such
// reads stay in bounds, and the bytes read are masked out.

import {
  HDR_FLAGS, HDR_RULES_OFF, FLAG_RFC, LINES_REPORT, LINES_VERDICTS, PATH_REFERENCE, PATH_RFC, RESULT_ROBOTS_TXT, RULE_LINE,
  RULE_SIZE,
} from '../src/compile/layout';
import { initClasses } from './bytes';
import {
  findPath, findRequestPath, FORM_AS_IS, FORM_NORMALIZE, FORM_NORMALIZE_SLASH, FORM_RESOLVE_URL, FORM_SLASH, mapPathStops,
  pathEnd, pathNeedsSlash, pathStart, urlEnd,
} from './path';
import { normalizeInto, NORMALIZE_URL_FETCH, NORMALIZE_URL_RFC } from './normalize';
import { resolvePath, resolveUrl } from './url';
import { bestRule, mapKeyGates, verdictOf } from './match';
export { keyFilterCount } from './match';
import { initScanSets, mapBytes } from './scan';
import { initLexBytes, lexResume } from './lex';
import { initChecksumTables } from './checksum';
import { initByteScores } from './compile';
export { validateTable, validateWorkBytes } from './validate';
export { tableChecksum } from './checksum';
export { utf8FromUtf16 } from './utf16';

const ROBOTS_TXT = memory.data<u8>([47, 114, 111, 98, 111, 116, 115, 46, 116, 120, 116]); // "/robots.txt"

/** First byte the TypeScript allocator may hand out. */
export function heapBase(): usize {
  initClasses();
  initScanSets();
  initLexBytes();
  initChecksumTables();
  initByteScores();
  return (__heap_base + 15) & ~15;
}

/**
 * The deciding rule for the URL at buf[start, ...) (ending at `limit`, or with `lines` at the
 * next LF): its strength number, -1 when no rule matches, -2 when the path is /robots.txt
 * (always allowed in RFC mode). Leaves the URL's end in urlEnd. The path matched is the request
 * path (path.ts) with `request` (normalised when `rfc`, in fetch form otherwise), else the
 * reference's. `scratch` needs urlScratchBytes(length) (4 * length + 8).
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
    path = buf + pathStart;
    len = pathEnd - pathStart;
    if (pathNeedsSlash) path = slashFirst(path, len++, scratch);
    else if (mapped) gatesAt = pathStart;
  }
  return <i32>bestRule(table, path, len, gatesAt);
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

/** Writes '/' and the `len` bytes at `path` to `scratch`, and returns it. */
// @ts-ignore: decorator
@inline function slashFirst(path: usize, len: i32, scratch: usize): usize {
  store<u8>(scratch, 0x2f);
  memory.copy(scratch + 1, path, len);
  return scratch;
}

/**
 * Maps buf[0, len) for the `mapped` checks that follow: its path stops and its key gates, in
 * 2 * mapBytes(len) bytes at `maps` (bufferMapsBytes in src/wasm/kernel.ts); returns where the
 * maps end.
 */
// @ts-ignore: decorator
@inline function mapBuffer(table: usize, buf: usize, len: i32, lines: bool, request: bool, maps: usize): usize {
  const size = <usize>mapBytes(len);
  mapPathStops(buf, len, request, lines, maps);
  mapKeyGates(table, buf, len, maps + size);
  return maps + 2 * size;
}

/** The deciding rule for the `urlLen`-byte URL at `url` (see decide). */
export function checkOne(table: usize, url: usize, urlLen: i32, fetched: bool, scratch: usize): i32 {
  const rfc = isRfc(table);
  return fetched || rfc ? decide(table, url, 0, urlLen, false, false, true, rfc, scratch) : decide(table, url, 0, urlLen, false, false, false, false, scratch);
}

// @ts-ignore: decorator
@inline function verdict(table: usize, r: i32): u8 {
  return r == RESULT_ROBOTS_TXT ? 1 : verdictOf(table, <u32>r);
}

/** The verdict (1 allow, 0 disallow) for the `urlLen`-byte URL at `url`: checkOne, without the rule. */
export function verdictOne(table: usize, url: usize, urlLen: i32, fetched: bool, scratch: usize): u8 {
  return verdict(table, checkOne(table, url, urlLen, fetched, scratch));
}

/**
 * Verdicts (1 allow, 0 disallow) for `count` URLs stored in base[0, bytes); `spans` holds a
 * (offset from base, length) pair of u32 per URL; `fetched` as for decide. `scratch` needs
 * urlScratchBytes(longest), plus bufferMapsBytes(bytes) for the maps of the buffer.
 */
export function checkSpans(table: usize, base: usize, bytes: i32, spans: usize, count: i32, out: usize, fetched: bool, scratch: usize): void {
  const rfc = isRfc(table);
  if (fetched || rfc) spansLoop(table, base, bytes, spans, count, out, true, rfc, scratch);
  else spansLoop(table, base, bytes, spans, count, out, false, false, scratch);
}

// @ts-ignore: decorator
@inline function spansLoop(table: usize, base: usize, bytes: i32, spans: usize, count: i32, out: usize, request: bool, rfc: bool, scratch: usize): void {
  // Mapped like a buffer of lines (see path.ts): a URL's path scan ends on a branch otherwise.
  scratch = mapBuffer(table, base, bytes, false, request, scratch);
  for (let i = 0; i < count; i++) {
    const s = spans + (<usize>i << 3);
    const start = <i32>load<u32>(s);
    const r = decide(table, base, start, start + <i32>load<u32>(s + 4), false, true, request, rfc, scratch);
    store<u8>(out + i, verdict(table, r));
  }
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
 * a final line without LF counts) and writes, by `mode` (LINES_* in layout.ts): a verdict byte
 * per line, the allowed lines themselves, or a report line per non-blank line. Returns the
 * number of lines, or for LINES_FILTER / LINES_REPORT the bytes written. `out` needs a byte per
 * line, len + 1, or len + REPORT_EXTRA_BYTES per line; `scratch` urlScratchBytes(longest line),
 * plus bufferMapsBytes(len) for the maps of the lines.
 */
export function checkLines(table: usize, buf: usize, len: i32, out: usize, scratch: usize, mode: i32): i32 {
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
            const rule = table + <usize>load<u32>(table + HDR_RULES_OFF) + <usize>r * RULE_SIZE;
            at += writeDecimal(at, load<u32>(rule + RULE_LINE));
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

/** Normalises one pattern (see normalize.ts for `how`); `dst` needs 3 * len bytes. */
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

export { lexLines } from './lex';
export { compileNeed, compileTable, compileTableBytes, compileWorkBytes } from './compile';
export { lastIndexOfSegment, nibbleTables, twoWaySearch, twoWaySearchBackward } from './scan';

/** Where the next lexLines call continues, or -1 when the last line was read. */
export function lexNext(): i32 {
  return lexResume;
}
