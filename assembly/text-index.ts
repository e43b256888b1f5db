// A text index over one path: its suffix array, and a wavelet matrix over the suffix array,
// so that "the leftmost (or rightmost) start of a key in [lo, hi]" costs O(m log n + log n)
// for an m-byte key in an n-byte text, whatever the text. The matcher builds one for the path
// being checked only once that path's searches have cost more than a budget linear in the path
// (match.ts, INDEX_SEARCH_WORK_PER_BYTE); ordinary checks never build one.
//
// Memory (textIndexBytes): the suffix array, 4 bytes a byte; the wavelet matrix, L levels of
// n bits and a rank sample per 256 bits (L = bits of n - 1, 4.5 bytes per 32 bits), about
// 0.14 L bytes a byte; and 8 bytes a byte of building room, which SA-IS and then the matrix's
// levels use. All of it lies in the area the caller gives, which the index owns until the next
// build; nothing is kept between builds but the area's contents.
//
// Bounds:
// - SA-IS (Nong, Zhang and Chan; the no-sentinel form of AtCoder Library's sa_is) is O(n): each
//   level does O(n) induced-sorting passes and recurses on at most n / 2 LMS substrings. Its
//   room: n type bytes and a bucket array per level, the reduced string and its suffix array
//   kept in the suffix array's own two halves; the levels together need at most 6n + small.
// - A key's suffix-array interval is two binary searches: O(m log n) byte comparisons.
// - Range successor / predecessor in the wavelet matrix is O(L) rank queries, each O(1)
//   (a sample and at most four popcounts): the descent follows the target value's bits, and
//   remembers only the deepest level where it could have turned to a larger (smaller) branch;
//   if the descent fails, the answer is the least (greatest) value below that branch, one more
//   descent. Values branching deeper share a longer prefix with the target, so they lie
//   closer to it than any branching shallower: the deepest branch is the right one.

/** Bytes of the wavelet matrix's bits per level: (n >> 8) + 1 blocks of 256 bits and a u32 rank sample each. */
// @ts-ignore: decorator
@inline function levelBytesOf(n: u64): u64 {
  return ((n >> 8) + 1) * 36;
}

/** Levels of the wavelet matrix over values [0, n): the bits of n - 1 (at least 1). */
// @ts-ignore: decorator
@inline function levelsOf(n: u64): i32 {
  return n <= 2 ? 1 : 64 - <i32>clz(n - 1);
}

// @ts-ignore: decorator
@inline function align16(n: u64): u64 {
  return (n + 15) & ~(<u64>15);
}

/** Bytes of the area buildTextIndex needs for an `n`-byte text. */
export function textIndexBytes(n: u64): u64 {
  return align16(4 * n) + <u64>levelsOf(n) * align16(levelBytesOf(n)) + 2 * align16(4 * n) + 4096;
}

// The index built last.
let text: usize = 0;
let textLen: i32 = 0;
let sa: usize = 0;
let levels: i32 = 0;
let levelData: usize = 0;
let levelStride: usize = 0;
/** Zeros of each level (at most 32 levels). */
const ZEROS = memory.data(4 * 32);

/** Builds the index of text[0, n) in `area` (textIndexBytes(n) bytes). */
export function buildTextIndex(t: usize, n: i32, area: usize): void {
  text = t;
  textLen = n;
  sa = area;
  levels = levelsOf(<u64>n);
  levelStride = <usize>align16(levelBytesOf(<u64>n));
  levelData = sa + <usize>align16(4 * <u64>n);
  const room = levelData + <usize>levels * levelStride;
  if (n > 0) suffixArray<u8>(t, n, 255, sa, room);
  buildWavelet(n, room);
}

// ---------------------------------------------------------------------------------------------
// SA-IS. `s` holds n characters of type T in [0, upper]; the suffix array goes to `out`; `room`
// is free memory for the types, the bucket array and the recursion.

// @ts-ignore: decorator
@inline function charAt<T>(s: usize, i: i32): i32 {
  return <i32>load<T>(s + (<usize>i << alignof<T>()));
}

// @ts-ignore: decorator
@inline function at(a: usize, i: i32): i32 {
  return load<i32>(a + (<usize>i << 2));
}

// @ts-ignore: decorator
@inline function put(a: usize, i: i32, v: i32): void {
  store<i32>(a + (<usize>i << 2), v);
}

/** Whether suffix i is an LMS suffix (S-type, after an L-type one); `ls` holds a type byte per position (1: S). */
// @ts-ignore: decorator
@inline function isLms(ls: usize, i: i32): bool {
  return i > 0 && load<u8>(ls + i) != 0 && load<u8>(ls + i - 1) == 0;
}

/** Writes each character's bucket start (`ends` false) or end (true) to bkt[0, upper + 1]. */
function buckets<T>(s: usize, n: i32, upper: i32, bkt: usize, ends: bool): void {
  memory.fill(bkt, 0, (<usize>upper + 2) << 2);
  for (let i = 0; i < n; i++) {
    const c = charAt<T>(s, i) + 1;
    put(bkt, c, at(bkt, c) + 1);
  }
  let sum = 0;
  for (let c = 0; c <= upper + 1; c++) {
    sum += at(bkt, c);
    put(bkt, c, sum);
  }
  // bkt[c] is now the end of bucket c - 1: a start is the previous bucket's end.
  if (ends) memory.copy(bkt, bkt + 4, (<usize>upper + 1) << 2);
}

/**
 * Induced sorting: the LMS suffixes at their buckets' ends (those found in text order, or with
 * `sorted` the m sorted ones in out[0, m)), then the L-type suffixes from the buckets' starts,
 * then the S-type ones from their ends. The suffix n - 1 comes first: the virtual sentinel's.
 */
function induce<T>(s: usize, n: i32, upper: i32, out: usize, ls: usize, bkt: usize, sorted: bool, m: i32): void {
  buckets<T>(s, n, upper, bkt, true);
  if (sorted) {
    memory.fill(out + (<usize>m << 2), 0xff, <usize>(n - m) << 2);
    // In place: a sorted LMS suffix's slot is at or after its rank.
    for (let i = m - 1; i >= 0; i--) {
      const j = at(out, i);
      put(out, i, -1);
      const c = charAt<T>(s, j);
      put(bkt, c, at(bkt, c) - 1);
      put(out, at(bkt, c), j);
    }
  } else {
    memory.fill(out, 0xff, <usize>n << 2);
    for (let i = 1; i < n; i++) {
      if (!isLms(ls, i)) continue;
      const c = charAt<T>(s, i);
      put(bkt, c, at(bkt, c) - 1);
      put(out, at(bkt, c), i);
    }
  }
  buckets<T>(s, n, upper, bkt, false);
  const last = charAt<T>(s, n - 1);
  put(out, at(bkt, last), n - 1);
  put(bkt, last, at(bkt, last) + 1);
  for (let i = 0; i < n; i++) {
    const v = at(out, i) - 1;
    if (v < 0 || load<u8>(ls + v) != 0) continue;
    const c = charAt<T>(s, v);
    put(out, at(bkt, c), v);
    put(bkt, c, at(bkt, c) + 1);
  }
  buckets<T>(s, n, upper, bkt, true);
  for (let i = n - 1; i >= 0; i--) {
    const v = at(out, i) - 1;
    if (v < 0 || load<u8>(ls + v) == 0) continue;
    const c = charAt<T>(s, v);
    put(bkt, c, at(bkt, c) - 1);
    put(out, at(bkt, c), v);
  }
}

/** The suffix array of s[0, n) (characters in [0, upper]) in out[0, n). */
function suffixArray<T>(s: usize, n: i32, upper: i32, out: usize, room: usize): void {
  if (n == 1) {
    put(out, 0, 0);
    return;
  }
  if (n == 2) {
    const first = charAt<T>(s, 0) < charAt<T>(s, 1) ? 0 : 1;
    put(out, 0, first);
    put(out, 1, 1 - first);
    return;
  }
  const ls = room;
  const bkt = <usize>align16(<u64>(room + <usize>n));
  const next = <usize>align16(<u64>(bkt + ((<usize>upper + 2) << 2)));
  store<u8>(ls + n - 1, 0);
  for (let i = n - 2; i >= 0; i--) {
    const a = charAt<T>(s, i);
    const b = charAt<T>(s, i + 1);
    store<u8>(ls + i, a == b ? load<u8>(ls + i + 1) : <u8>(a < b));
  }
  induce<T>(s, n, upper, out, ls, bkt, false, 0);
  let m = 0;
  for (let i = 0; i < n; i++) {
    const v = at(out, i);
    if (isLms(ls, v)) put(out, m++, v);
  }
  if (m == 0) return;
  const names = nameLms<T>(s, n, ls, out, m);
  // The reduced string (an LMS substring's name per LMS suffix, in text order) in out's tail,
  // its suffix array in out's head: m <= n / 2, so they do not meet.
  const reduced = out + (<usize>(n - m) << 2);
  if (names == m) {
    for (let i = 0; i < m; i++) put(out, at(reduced, i), i);
  } else {
    suffixArray<i32>(reduced, m, names - 1, out, next);
  }
  let j = n - m;
  for (let i = 1; i < n; i++) if (isLms(ls, i)) put(out, j++, i);
  for (let i = 0; i < m; i++) put(out, i, at(reduced, at(out, i)));
  induce<T>(s, n, upper, out, ls, bkt, true, m);
}

/** The position of the next LMS suffix after `i`, or n. */
function nextLms(ls: usize, n: i32, i: i32): i32 {
  let j = i + 1;
  while (j < n && !isLms(ls, j)) j++;
  return j;
}

/**
 * Names the m LMS substrings sorted in out[0, m) (equal substrings, equal names) and leaves the
 * names, in text order, in out[n - m, n); returns how many names there are. A name goes to
 * out[m + position / 2] first: LMS positions are at least two apart.
 */
function nameLms<T>(s: usize, n: i32, ls: usize, out: usize, m: i32): i32 {
  memory.fill(out + (<usize>m << 2), 0xff, <usize>(n - m) << 2);
  let name = 0;
  let prev = -1;
  let prevEnd = 0;
  for (let i = 0; i < m; i++) {
    const pos = at(out, i);
    const end = nextLms(ls, n, pos);
    if (prev >= 0 && !sameLms<T>(s, n, prev, prevEnd, pos, end)) name++;
    put(out, m + (pos >> 1), name);
    prev = pos;
    prevEnd = end;
  }
  let j = n - 1;
  for (let i = n - 1; i >= m; i--) {
    const v = at(out, i);
    if (v >= 0) put(out, j--, v);
  }
  return name + 1;
}

/** Whether the LMS substrings s[a, aEnd] and s[b, bEnd] (ends included; n: past the text) are equal. */
function sameLms<T>(s: usize, n: i32, a: i32, aEnd: i32, b: i32, bEnd: i32): bool {
  if (aEnd - a != bEnd - b || aEnd == n || bEnd == n) return false;
  for (let k = 0; k <= aEnd - a; k++) if (charAt<T>(s, a + k) != charAt<T>(s, b + k)) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// The wavelet matrix over the suffix array: level l holds bit L - 1 - l of each value, the
// values ordered by a stable partition on the bits of the levels above (zeros first).

// @ts-ignore: decorator
@inline function levelAt(l: i32): usize {
  return levelData + <usize>l * levelStride;
}

/** Ones among the first i bits of level l. */
// @ts-ignore: decorator
@inline function rank1(l: i32, i: i32): i32 {
  const words = levelAt(l);
  const block = i >> 8;
  let r = load<i32>(words + (((<usize>textLen >> 8) + 1) << 5) + (<usize>block << 2));
  const first = block << 2;
  const word = i >> 6;
  for (let w = first; w < word; w++) r += <i32>popcnt(load<u64>(words + (<usize>w << 3)));
  return r + <i32>popcnt(load<u64>(words + (<usize>word << 3)) & ((<u64>1 << <u64>(i & 63)) - 1));
}

/** Builds the levels from the suffix array; `room` holds two arrays of n values while it does. */
function buildWavelet(n: i32, room: usize): void {
  let from = room;
  let to = room + <usize>align16(4 * <u64>n);
  memory.copy(from, sa, <usize>n << 2);
  const blocks = (n >> 8) + 1;
  for (let l = 0; l < levels; l++) {
    const words = levelAt(l);
    const bit = <u32>(levels - 1 - l);
    memory.fill(words, 0, <usize>blocks << 5);
    let ones = 0;
    let acc: u64 = 0;
    for (let i = 0; i < n; i++) {
      const b = (<u32>at(from, i) >>> bit) & 1;
      acc |= <u64>b << <u64>(i & 63);
      ones += b;
      if ((i & 63) == 63) {
        store<u64>(words + (<usize>(i >> 6) << 3), acc);
        acc = 0;
      }
    }
    if ((n & 63) != 0) store<u64>(words + (<usize>(n >> 6) << 3), acc);
    const zeros = n - ones;
    store<i32>(ZEROS + (<usize>l << 2), zeros);
    let z = 0;
    let o = zeros;
    for (let i = 0; i < n; i++) {
      const v = at(from, i);
      if (((<u32>v >>> bit) & 1) == 0) put(to, z++, v);
      else put(to, o++, v);
    }
    const ranks = words + (<usize>blocks << 5);
    let r = 0;
    for (let b = 0; b < blocks; b++) {
      store<i32>(ranks + (<usize>b << 2), r);
      for (let w = 0; w < 4; w++) r += <i32>popcnt(load<u64>(words + (<usize>(b * 4 + w) << 3)));
    }
    const swap = from;
    from = to;
    to = swap;
  }
}

/**
 * The least value >= x (`forward`), or the greatest <= x, among the suffix array's values in
 * [s, e), or -1.
 */
function nearestValue(s: i32, e: i32, x: i32, forward: bool): i32 {
  let altLevel = -1;
  let altS = 0;
  let altE = 0;
  let altPrefix = 0;
  for (let l = 0; l < levels && s < e; l++) {
    const shift = levels - 1 - l;
    const r1s = rank1(l, s);
    const r1e = rank1(l, e);
    const zeros = load<i32>(ZEROS + (<usize>l << 2));
    const bit = (x >> shift) & 1;
    // The other branch holds larger values than x's when its bit is 0, smaller when it is 1:
    // the deepest one on the wanted side is where to turn if the descent dies.
    const otherS = bit == 0 ? zeros + r1s : s - r1s;
    const otherE = bit == 0 ? zeros + r1e : e - r1e;
    if ((bit == 0) == forward && otherS < otherE) {
      altLevel = l + 1;
      altS = otherS;
      altE = otherE;
      altPrefix = ((x >> shift) ^ 1) << shift;
    }
    if (bit == 0) {
      s -= r1s;
      e -= r1e;
    } else {
      s = zeros + r1s;
      e = zeros + r1e;
    }
  }
  if (s < e) return x;
  return altLevel < 0 ? -1 : extreme(altLevel, altS, altE, altPrefix, !forward);
}

/** The least (or with `greatest` the greatest) value of the non-empty range [s, e) of level `from`, whose higher bits are `prefix`. */
function extreme(from: i32, s: i32, e: i32, prefix: i32, greatest: bool): i32 {
  for (let l = from; l < levels; l++) {
    const r1s = rank1(l, s);
    const r1e = rank1(l, e);
    const hasOnes = r1s < r1e;
    const hasZeros = s - r1s < e - r1e;
    if (greatest ? hasOnes : !hasZeros) {
      const zeros = load<i32>(ZEROS + (<usize>l << 2));
      s = zeros + r1s;
      e = zeros + r1e;
      prefix |= 1 << (levels - 1 - l);
    } else {
      s -= r1s;
      e -= r1e;
    }
  }
  return prefix;
}

// ---------------------------------------------------------------------------------------------
// Queries.

/** The key's bytes against the suffix at `pos`: < 0 when the suffix sorts first, 0 when it starts with the key. */
// @ts-ignore: decorator
@inline function compareSuffix(pos: i32, key: usize, m: i32): i32 {
  const room = textLen - pos;
  const c = memory.compare(text + <usize>pos, key, room < m ? room : m);
  return c != 0 ? c : room < m ? -1 : 0;
}

/** The first suffix-array index whose suffix sorts after the key (`after`) or at or after it. */
function boundOf(key: usize, m: i32, after: bool): i32 {
  let lo = 0;
  let hi = textLen;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareSuffix(at(sa, mid), key, m);
    if (c < 0 || (after && c == 0)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The leftmost (or with `last` the rightmost) start in [lo, hi] of the `m` bytes at `key` in the
 * indexed text, or -1.
 */
export function textIndexFind(key: usize, m: i32, lo: i32, hi: i32, last: bool): i32 {
  if (hi > textLen - m) hi = textLen - m;
  if (lo < 0) lo = 0;
  if (lo > hi || m <= 0) return -1;
  const l = boundOf(key, m, false);
  const r = boundOf(key, m, true);
  if (l >= r) return -1;
  const v = nearestValue(l, r, last ? hi : lo, !last);
  return v >= lo && v <= hi ? v : -1;
}

/** The leftmost start in [lo, hi] of the `m` bytes at `key` in the indexed text, or -1. */
// @ts-ignore: decorator
@inline export function textIndexFirst(key: usize, m: i32, lo: i32, hi: i32): i32 {
  return textIndexFind(key, m, lo, hi, false);
}

/** The rightmost start in [lo, hi] of the `m` bytes at `key` in the indexed text, or -1. */
// @ts-ignore: decorator
@inline export function textIndexLast(key: usize, m: i32, lo: i32, hi: i32): i32 {
  return textIndexFind(key, m, lo, hi, true);
}
