// The matching kernel: one walk of the compiled radix trie per path (literal rules), plus the
// wildcard rules hanging off the trie nodes the walk passes. Rules are numbered by strength
// (longest pattern first, allow before disallow, then file order), so "the best match" is
// simply the smallest number seen. The table layout is documented in src/compile/table.ts.

import {
  HDR_ROOT_OFF, HDR_RULES_OFF, NO_RULE,
  NODE_CHILD_COUNT, NODE_END_RULE, NODE_FIXED_SIZE, NODE_LABEL_LEN, NODE_LABEL_OFF, NODE_PREFIX_RULE,
  NODE_WILD_COUNT, NODE_WILD_OFF, RULE_ALLOW_BIT, RULE_LEN_SHIFT, RULE_PAT_LEN_KIND, RULE_PAT_OFF, RULE_SIZE,
} from '../src/compile/layout';

// @ts-ignore: decorator
@inline function u32At(p: usize): u32 {
  return load<u32>(p);
}

/** Leftmost index >= from where the `segLen` bytes at `seg` occur in path[from, len), or -1. */
function indexOf(path: usize, from: i32, len: i32, seg: usize, segLen: i32): i32 {
  const first = load<u8>(seg);
  const last = len - segLen;
  for (let p = from; p <= last; p++) {
    if (load<u8>(path + p) != first) continue;
    let k = 1;
    while (k < segLen && load<u8>(path + p + k) == load<u8>(seg + k)) k++;
    if (k == segLen) return p;
  }
  return -1;
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
      return indexOf(path, p, len, pat + i, segLen) >= 0;
    }
    const found = indexOf(path, p, len, pat + i, segLen);
    if (found < 0) return false;
    p = found + segLen;
    i = j;
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
        const r = u32At(list + (k << 2));
        if (r >= best) break; // lists are sorted by strength
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
    if (labelLen > 1 && memory.compare(path + pos + 1, label + 1, labelLen - 1) != 0) break;
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
