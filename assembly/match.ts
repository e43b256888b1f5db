// The matching kernel: one walk of the compiled radix trie per path (literal rules), plus the
// wildcard rules hanging off the trie nodes the walk passes. Rules are numbered by strength
// (longest pattern first, allow before disallow, then file order), so "the best match" is
// simply the smallest number seen. The table layout is documented in src/compile/table.ts.

import {
  FILTER_FIRST_BYTES, FILTER_FIRST_HI, FILTER_FIRST_LO, FILTER_KEY_COUNT, FILTER_KEYS_OFF, FILTER_SECOND_HI,
  FILTER_SECOND_LO, FILTER_SINGLE_HI, FILTER_SINGLE_LO, HDR_FILTER_OFF, HDR_ROOT_OFF, HDR_RULES_OFF, KEY_LEN,
  KEY_POOL_OFF, KEY_SIZE, MAX_FILTER_KEYS, NO_KEY, NO_RULE, NODE_CHILD_COUNT, NODE_END_RULE, NODE_FIXED_SIZE,
  NODE_LABEL_LEN, NODE_LABEL_OFF, NODE_PREFIX_RULE, NODE_WILD_COUNT, NODE_WILD_OFF, RULE_ALLOW_BIT,
  RULE_LEN_SHIFT, RULE_PAT_LEN_KIND, RULE_PAT_OFF, RULE_SIZE, WILD_KEY, WILD_SIZE, WILD_STRENGTH,
} from '../src/compile/layout';
import { indexOfSegment } from './scan';

// Which filter keys occur in the current path: one bit per key (u32 words), filled by findKeys().
const OCCURRED = memory.data(MAX_FILTER_KEYS / 8);

// @ts-ignore: decorator
@inline function u32At(p: usize): u32 {
  return load<u32>(p);
}

/**
 * Does the pattern tail pat[from, patLen) - which starts with '*' - match path[pos, len)?
 * Greedy leftmost placement of each '*'-separated segment is exact (each placement leaves the
 * most room for the rest) and never backtracks; with a final '$' the last segment must be a
 * suffix of the path at or after the point the others reached.
 */
export function wildcardTailMatches(pat: usize, from: i32, patLen: i32, path: usize, pos: i32, len: i32): bool {
  const anchored = load<u8>(pat + patLen - 1) == 0x24;
  const end = anchored ? patLen - 1 : patLen;
  let i = from;
  let p = pos;
  while (true) {
    while (i < end && load<u8>(pat + i) == 0x2a) i++;
    if (i == end) return true; // trailing '*' (and '$') absorbs the rest of the path
    let j = i;
    while (j < end && load<u8>(pat + j) != 0x2a) j++;
    const segLen = j - i;
    if (j == end) {
      if (anchored) {
        return len - segLen >= p && memory.compare(path + len - segLen, pat + i, segLen) == 0;
      }
      return indexOfSegment(path, p, len, pat + i, segLen) >= 0;
    }
    const found = indexOfSegment(path, p, len, pat + i, segLen);
    if (found < 0) return false;
    p = found + segLen;
    i = j;
  }
}

/** 0xff in each lane whose byte is in the set the two nibble tables describe, 0 elsewhere. */
// @ts-ignore: decorator
@inline function inSet(v: v128, lo: v128, hi: v128): v128 {
  const classes = v128.and(v128.swizzle(lo, v128.and(v, i8x16.splat(0x0f))), v128.swizzle(hi, i8x16.shr_u(v, 4)));
  return i8x16.ne(classes, i8x16.splat(0));
}

/**
 * Marks in OCCURRED every filter key that occurs in path[from, len). Candidate positions are
 * those whose byte may start a key and whose next byte may follow it (or that may be a
 * one-byte key), found 16 at a time; only there are keys compared.
 */
function findKeys(table: usize, filter: usize, path: usize, from: i32, len: i32): void {
  const keyCount = <i32>u32At(filter + FILTER_KEY_COUNT);
  memory.fill(OCCURRED, 0, <usize>((keyCount + 31) >>> 5) << 2);
  const keys = table + <usize>u32At(filter + FILTER_KEYS_OFF);
  const firstBytes = filter + FILTER_FIRST_BYTES;
  const firstLo = v128.load(filter + FILTER_FIRST_LO);
  const firstHi = v128.load(filter + FILTER_FIRST_HI);
  const secondLo = v128.load(filter + FILTER_SECOND_LO);
  const secondHi = v128.load(filter + FILTER_SECOND_HI);
  const singleLo = v128.load(filter + FILTER_SINGLE_LO);
  const singleHi = v128.load(filter + FILTER_SINGLE_HI);
  for (let i = from; i < len; i += 16) {
    const v = v128.load(path + i);
    const pair = v128.and(inSet(v, firstLo, firstHi), inSet(v128.load(path + i + 1), secondLo, secondHi));
    let m = i8x16.bitmask(v128.or(pair, inSet(v, singleLo, singleHi)));
    if (len - i < 16) m &= (1 << (len - i)) - 1;
    while (m != 0) {
      const at = i + ctz(m);
      m &= m - 1;
      const c = load<u8>(path + at);
      // Keys are sorted by first byte: find the run that starts with c.
      let lo = 0;
      let hi = keyCount;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (load<u8>(firstBytes + mid) < c) lo = mid + 1;
        else hi = mid;
      }
      for (let k = lo; k < keyCount && load<u8>(firstBytes + k) == c; k++) {
        const key = keys + <usize>k * KEY_SIZE;
        const keyLen = <i32>u32At(key + KEY_LEN);
        if (at + keyLen > len) continue;
        const keyAt = table + <usize>u32At(key + KEY_POOL_OFF);
        let j = 1;
        while (j < keyLen && load<u8>(path + at + j) == load<u8>(keyAt + j)) j++;
        if (j == keyLen) {
          const word = OCCURRED + (<usize>(k >>> 5) << 2);
          store<u32>(word, load<u32>(word) | (<u32>1 << (k & 31)));
        }
      }
    }
  }
}

function findChild(node: usize, c: u8): usize {
  const count = <i32>u32At(node + NODE_CHILD_COUNT);
  const bytes = node + NODE_FIXED_SIZE;
  const offsets = bytes + ((count + 3) & ~3);
  if (count <= 8) {
    for (let k = 0; k < count; k++) {
      if (load<u8>(bytes + k) == c) return <usize>u32At(offsets + (k << 2));
    }
    return 0;
  }
  let lo = 0;
  let hi = count - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const b = load<u8>(bytes + mid);
    if (b == c) return <usize>u32At(offsets + (mid << 2));
    if (b < c) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0;
}

/** Strength number of the best rule matching the `len`-byte path at `path`, or NO_RULE. */
export function bestRule(table: usize, path: usize, len: i32): u32 {
  let best: u32 = NO_RULE;
  const rootOff = u32At(table + HDR_ROOT_OFF);
  if (rootOff == 0) return best;
  const rules = table + <usize>u32At(table + HDR_RULES_OFF);
  const filterOff = u32At(table + HDR_FILTER_OFF);
  let keysFound = false;
  let node = table + <usize>rootOff;
  let pos = 0;
  while (true) {
    const prefixRule = u32At(node + NODE_PREFIX_RULE);
    if (prefixRule < best) best = prefixRule;
    if (pos == len) {
      const endRule = u32At(node + NODE_END_RULE);
      if (endRule < best) best = endRule;
    }
    const wildCount = <i32>u32At(node + NODE_WILD_COUNT);
    if (wildCount != 0) {
      const list = table + <usize>u32At(node + NODE_WILD_OFF);
      for (let k = 0; k < wildCount; k++) {
        const entry = list + <usize>k * WILD_SIZE;
        const r = u32At(entry + WILD_STRENGTH);
        if (r >= best) break; // lists are sorted by strength
        const key = u32At(entry + WILD_KEY);
        if (key != NO_KEY) {
          if (!keysFound) {
            // Keys found from here on cover every deeper wildcard rule too.
            findKeys(table, table + <usize>filterOff, path, pos, len);
            keysFound = true;
          }
          if (((load<u32>(OCCURRED + (<usize>(key >>> 5) << 2)) >>> (key & 31)) & 1) == 0) continue;
        }
        const rule = rules + <usize>r * RULE_SIZE;
        const pat = table + <usize>u32At(rule + RULE_PAT_OFF);
        const patLen = <i32>(u32At(rule + RULE_PAT_LEN_KIND) >>> RULE_LEN_SHIFT);
        if (wildcardTailMatches(pat, pos, patLen, path, pos, len)) {
          best = r;
          break;
        }
      }
    }
    if (pos == len) break;
    const childOff = findChild(node, load<u8>(path + pos));
    if (childOff == 0) break;
    const child = table + childOff;
    const labelLen = <i32>u32At(child + NODE_LABEL_LEN);
    if (pos + labelLen > len) break;
    const label = table + <usize>u32At(child + NODE_LABEL_OFF);
    let j = 1;
    while (j < labelLen && load<u8>(path + pos + j) == load<u8>(label + j)) j++;
    if (j < labelLen) break;
    pos += labelLen;
    node = child;
  }
  return best;
}

/** 1 when rule number `r` (or no rule) allows, 0 when it disallows. */
export function verdictOf(table: usize, r: u32): u8 {
  if (r == NO_RULE) return 1;
  const rules = table + <usize>u32At(table + HDR_RULES_OFF);
  return <u8>(u32At(rules + <usize>r * RULE_SIZE + RULE_PAT_LEN_KIND) & RULE_ALLOW_BIT);
}
