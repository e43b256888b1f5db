// One URL, several request-targets: clients disagree on what to send for a URL whose path holds
// a dot segment, a '\\', an empty query, a tab, or (google mode, which compares bytes as
// written) bytes a WHATWG parser percent-encodes. Each way a family of clients reads a URL is a
// reading (src/wasm/abi.ts, READING_*); a URL is allowed only if every distinct reading of it
// is, so no client's request escapes the rules. path.ts sends here only the URLs whose readings
// may differ; nearly every real URL has one reading and never comes here.
//
// Readings are told apart by the READ_* choices they make, and a choice only matters when the
// URL holds what it is about (readingChoices): two readings that differ only in choices the
// URL gives no hold to write the same bytes, and the second is not checked.

import {
  READ_BACKSLASH, READ_DOTS, READ_EMPTY_QUERY, READ_ENCODED_DOTS, READ_ENCODING_MASK, READ_LAST_HASH, READ_TABS, READ_TRAILING_BLANKS, READING_AS_WRITTEN, READING_BROWSER,
  READING_COUNT, READING_CURL, READING_NODE20, READING_NODE20_AS_WRITTEN, READING_ONE, READING_REFERENCE, READING_REQUESTS, READING_UNDICI,
  READING_URLLIB, READING_WGET, READING_WHATWG, RESULT_OVER_LIMIT, RESULT_ROBOTS_TXT,
} from '../src/wasm/abi';
import { byteClass, CLASS_ENCODE, CLASS_READINGS_DIFFER } from './bytes';
import { bestRule, verdictOf } from './match';
import { findPath, pathEnd, pathNeedsSlash, pathStart, restoreUrlEnd, urlEnd } from './path';
import { resolveUrl } from './url';

/** The readings, in the order a check tries them: the URL standard's first. */
const READINGS = memory.data<i32>([
  READING_WHATWG, READING_NODE20, READING_UNDICI, READING_BROWSER, READING_CURL, READING_WGET, READING_REQUESTS, READING_URLLIB,
  READING_AS_WRITTEN, READING_NODE20_AS_WRITTEN,
]);

const ROBOTS_TXT = memory.data<u8>([47, 114, 111, 98, 111, 116, 115, 46, 116, 120, 116]); // "/robots.txt"

/** The reading that decided the last check (checkOne): an index into the readings, READING_REFERENCE, or READING_ONE. */
export let decidingReading: i32 = READING_ONE;
/** How many distinct readings the last URL checked had (the reference's counted in google mode). */
export let readingCount: i32 = 1;

/** The READ_* choices of reading `i` (0 to READING_COUNT - 1). */
// @ts-ignore: decorator
@inline export function readingChoicesOf(i: i32): i32 {
  return load<i32>(READINGS + (<usize>i << 2));
}

/**
 * The READ_* choices that can change how the `len`-byte URL at `url` is read: READ_DOTS for a
 * dot segment in its path (READ_ENCODED_DOTS too when one is spelt with "%2e"), READ_BACKSLASH
 * for a '\\', READ_EMPTY_QUERY for a '?' followed by '#' or the end, READ_TABS for a tab, LF
 * or CR (which, removed, can make a dot segment: all the dot choices then), READ_LAST_HASH for
 * a second '#', READ_TRAILING_BLANKS for a space or control that ends it, and in google mode the encoding for a byte some client encodes or a '%' (RFC
 * mode normalises both alike). A choice it cannot change leaves every reading's bytes the same.
 */
function readingChoices(url: usize, len: i32, rfc: bool): i32 {
  let choices = 0;
  let inPath = true;
  let hashes = 0;
  // Controls and spaces around a URL are not part of it for any reading (url.ts).
  let from = 0;
  while (from < len && load<u8>(url + from) <= 0x20) from++;
  if (len > from && load<u8>(url + len - 1) <= 0x20) choices |= READ_TRAILING_BLANKS;
  while (len > from && load<u8>(url + len - 1) <= 0x20) len--;
  for (let i = from; i < len; i++) {
    const c = <u32>load<u8>(url + i);
    if (inPath && (c == 0x2f || c == 0x5c)) choices |= dotSegmentAfter(url, i + 1, len);
    if (c == 0x3f || c == 0x23) inPath = false;
    if (c == 0x23 && ++hashes == 2) choices |= READ_LAST_HASH;
    if (c == 0x5c) choices |= READ_BACKSLASH;
    if (c == 0x3f && (i + 1 == len || load<u8>(url + i + 1) == 0x23 || load<u8>(url + i + 1) <= 0x20)) choices |= READ_EMPTY_QUERY;
    if (c == 0x09 || c == 0x0a || c == 0x0d) choices |= READ_DOTS | READ_ENCODED_DOTS | READ_TABS;
    if (!rfc && encodedOtherwise(c)) choices |= READ_ENCODING_MASK;
  }
  return choices;
}

/** Whether some client's encoding (READ_ENCODING_*) writes the byte `c` otherwise than another's. */
// @ts-ignore: decorator
@inline export function encodedOtherwise(c: u32): bool {
  return (byteClass(c) & (CLASS_READINGS_DIFFER | CLASS_ENCODE)) != 0 || c == 0x25 || c == 0x5b || c == 0x5d;
}

/**
 * READ_DOTS when the segment at url[from, ...) (up to '/', '\\', '?', '#' or the end) is "." or
 * "..", READ_DOTS | READ_ENCODED_DOTS when a dot of it is spelt "%2e"; else 0.
 */
function dotSegmentAfter(url: usize, from: i32, len: i32): i32 {
  let dots = 0;
  let encoded = false;
  let i = from;
  while (i < len) {
    const c = load<u8>(url + i);
    if (c == 0x2e) {
      i++;
    } else if (c == 0x25 && i + 2 < len && load<u8>(url + i + 1) == 0x32 && (load<u8>(url + i + 2) | 0x20) == 0x65) {
      i += 3;
      encoded = true;
    } else {
      if (c != 0x2f && c != 0x5c && c != 0x3f && c != 0x23) return 0;
      break;
    }
    if (++dots > 2) return 0;
  }
  if (dots == 0) return 0;
  return encoded ? READ_DOTS | READ_ENCODED_DOTS : READ_DOTS;
}

/** The deciding rule for `len` bytes of path at `path`: bestRule's, or RESULT_ROBOTS_TXT (RFC mode). */
function checkPath(table: usize, path: usize, len: i32, rfc: bool): i32 {
  if (rfc && len == 11 && memory.compare(path, ROBOTS_TXT, 11) == 0) return RESULT_ROBOTS_TXT;
  return <i32>bestRule(table, path, len, -1);
}

/** Whether the answer `r` of checkPath disallows. */
// @ts-ignore: decorator
@inline function disallows(table: usize, r: i32): bool {
  return r >= 0 && verdictOf(table, <u32>r) == 0;
}

/**
 * The deciding rule for the `len`-byte URL at `url` read every distinct way: the first reading
 * that disallows decides, else the first reading's rule (the URL standard's, or with
 * `reference` the reference's own reading, which google mode tries first). RESULT_OVER_LIMIT
 * when a linear table's check gave up. `scratch`: urlScratchBytes(len).
 */
export function decideReadings(table: usize, url: usize, len: i32, rfc: bool, reference: bool, scratch: usize): i32 {
  const choices = readingChoices(url, len, rfc);
  readingCount = distinctReadings(choices) + (reference ? 1 : 0);
  let first = RESULT_OVER_LIMIT;
  let checked = 0;
  if (reference) {
    // The reference's reading of the URL alone; the buffer's scan goes on from where it ends.
    const end = urlEnd;
    findPath(url, 0, len, false, false);
    restoreUrlEnd(end);
    let path = url + pathStart;
    let n = pathEnd - pathStart;
    if (pathNeedsSlash) {
      store<u8>(scratch, 0x2f);
      memory.copy(scratch + 1, path, n++);
      path = scratch;
    }
    first = checkPath(table, path, n, false);
    checked = 1;
    if (first == RESULT_OVER_LIMIT || disallows(table, first)) return decided(READING_REFERENCE, first);
  }
  for (let i = 0; i < READING_COUNT; i++) {
    if (readBefore(i, choices)) continue;
    const r = checkPath(table, scratch, resolveUrl(url, len, scratch, rfc, readingChoicesOf(i)), rfc);
    checked++;
    if (r == RESULT_OVER_LIMIT || disallows(table, r)) return decided(i, r);
    if (checked == 1) first = r;
  }
  return decided(reference ? READING_REFERENCE : 0, first);
}

/**
 * Whether a reading before reading `i` makes the same choices as it, as far as `choices`
 * (readingChoices) matter: then it reads the URL the same way.
 */
function readBefore(i: i32, choices: i32): bool {
  const own = readingChoicesOf(i) & choices;
  for (let j = 0; j < i; j++) if ((readingChoicesOf(j) & choices) == own) return true;
  return false;
}

/** The readings that differ in a choice of `choices` (readingChoices): the distinct ones. */
function distinctReadings(choices: i32): i32 {
  let count = 0;
  for (let i = 0; i < READING_COUNT; i++) if (!readBefore(i, choices)) count++;
  return count;
}

/** Records that reading `reading` decided, and returns `r`. */
// @ts-ignore: decorator
@inline function decided(reading: i32, r: i32): i32 {
  decidingReading = reading;
  return r;
}

/** Starts a check whose URL may have one reading only. */
export function resetReadings(): void {
  decidingReading = READING_ONE;
  readingCount = 1;
}
