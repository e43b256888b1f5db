// URL -> path+params+query, the way the reference implementation does it (no URL parser):
// a leading "//" is skipped; "://" is the scheme separator only when it comes before the
// first '/', '?' or ';'; the path runs from the first '/', '?' or ';' after the authority to
// the first '#'. The results are left in globals because a function returns one value.

import { byteClass, CLASS_PATH_END } from './bytes';

/** Offset of the first path byte within the URL. */
export let pathStart: i32 = 0;
/** Offset just past the last path byte. */
export let pathEnd: i32 = 0;
/** The path is "/" followed by [pathStart, pathEnd): true when it starts with '?' or ';', or is empty. */
export let pathNeedsSlash: bool = false;

function setNoPath(): void {
  pathStart = 0;
  pathEnd = 0;
  pathNeedsSlash = true;
}

/** Locates the path of the `len`-byte URL at `url`; `cutAtNul` reproduces the reference's C-string cut. */
export function findPath(url: usize, len: i32, cutAtNul: bool): void {
  let searchStart = 0;
  if (len >= 2 && load<u8>(url) == 0x2f && load<u8>(url + 1) == 0x2f) searchStart = 2;

  let early = searchStart;
  while (early < len && (byteClass(load<u8>(url + early)) & CLASS_PATH_END) == 0) early++;
  if (early == len) {
    setNoPath();
    return;
  }
  let start = early;
  // The first "://" can only precede the first '/', '?' or ';' if its own '/' is that byte.
  if (
    load<u8>(url + early) == 0x2f && early - 1 >= searchStart && load<u8>(url + early - 1) == 0x3a &&
    early + 1 < len && load<u8>(url + early + 1) == 0x2f
  ) {
    start = early + 2;
    while (start < len && (byteClass(load<u8>(url + start)) & CLASS_PATH_END) == 0) start++;
    if (start == len) {
      setNoPath();
      return;
    }
  }
  // A '#' before the path start means there is no path.
  for (let i = searchStart; i < start; i++) {
    if (load<u8>(url + i) == 0x23) {
      setNoPath();
      return;
    }
  }
  let end = start;
  if (cutAtNul) {
    while (end < len) {
      const c = load<u8>(url + end);
      if (c == 0x23 || c == 0) break;
      end++;
    }
  } else {
    while (end < len && load<u8>(url + end) != 0x23) end++;
  }
  pathStart = start;
  pathEnd = end;
  pathNeedsSlash = load<u8>(url + start) != 0x2f;
}
