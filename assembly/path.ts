// URL -> path+params+query, the way the reference implementation does it (no URL parser):
// a leading "//" is skipped; "://" is the scheme separator only when it comes before the
// first '/', '?' or ';'; the path runs from the first '/', '?' or ';' after the authority to
// the first '#'. The same pass tells whether the path needs RFC normalisation. The results
// are left in globals because a function returns one value.

import { findByte, findDelimiter, findHashOrNul, findRfcSpecial } from './scan';

/** Offset of the first path byte within the URL. */
export let pathStart: i32 = 0;
/** Offset just past the last path byte. */
export let pathEnd: i32 = 0;
/** The path is "/" followed by [pathStart, pathEnd): true when it starts with '?' or ';', or is empty. */
export let pathNeedsSlash: bool = false;
/** RFC mode: the path holds bytes that normalisation changes ('%', '*', '$', non-ASCII, ...). */
export let pathNeedsNormalization: bool = false;

function setNoPath(): void {
  pathStart = 0;
  pathEnd = 0;
  pathNeedsSlash = true;
  pathNeedsNormalization = false;
}

/**
 * Locates the path of the `len`-byte URL at `url`. Google mode (`rfc` false) ends the path at
 * a NUL byte too, as the reference's C strings do.
 */
export function findPath(url: usize, len: i32, rfc: bool): void {
  let searchStart = 0;
  if (len >= 2 && load<u16>(url) == 0x2f2f) searchStart = 2;

  // A '#' before the path start means there is no path: stop at it too.
  const early = findDelimiter(url, searchStart, len);
  if (early == len || load<u8>(url + early) == 0x23) {
    setNoPath();
    return;
  }
  let start = early;
  // The first "://" can only precede the first '/', '?' or ';' if its own '/' is that byte.
  if (
    load<u8>(url + early) == 0x2f && early - 1 >= searchStart && load<u8>(url + early - 1) == 0x3a &&
    early + 1 < len && load<u8>(url + early + 1) == 0x2f
  ) {
    start = findDelimiter(url, early + 2, len);
    if (start == len || load<u8>(url + start) == 0x23) {
      setNoPath();
      return;
    }
  }
  pathStart = start;
  pathNeedsSlash = load<u8>(url + start) != 0x2f;
  if (!rfc) {
    pathEnd = findHashOrNul(url, start, len);
    pathNeedsNormalization = false;
    return;
  }
  const special = findRfcSpecial(url, start, len);
  if (special == len || load<u8>(url + special) == 0x23) {
    pathEnd = special;
    pathNeedsNormalization = false;
  } else {
    pathEnd = findByte(url, special, len, 0x23);
    pathNeedsNormalization = true;
  }
}
