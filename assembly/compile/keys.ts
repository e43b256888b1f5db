// Phase 4a, keys: the filter's keys are the distinct literal segments of the wildcard rules
// (numbered in byte order: "key numbers"), and each such rule hangs off one of its keys, its
// home, which a path must hold for the rule to be visited at all.

import { MAX_FILTER_KEYS, MAX_KEY_LEN, NO_KEY, SEGMENTS_KEYS } from '../../src/wasm/abi';
import { getU32, getU64, setU32, setU64 } from '../words';
import { take } from './arena';
import { segFirst, segLen, segOwner, segPtr, shape, SHAPE_WILD } from './shapes';
import { byPrefixed, bytePrefix, sortPrefixed } from './sort';

// What this phase hands on.
/** Keys (at most MAX_FILTER_KEYS). */
export let keyCount = 0;
/** Per key: a segment with its bytes. */
export let keySeg: usize = 0;
/** Per key: its length. */
export let keyLens: usize = 0;
/** Per key: how many rules hang off it. */
export let keyHomes: usize = 0;
/** Per segment: its key, or NO_KEY. */
export let segKey: usize = 0;
/** Per strength number: the key its rule hangs off, or NO_KEY (not a wildcard rule, or not keyed). */
export let ruleHome: usize = 0;
/** Rules that hang off a key. */
export let keyedRules = 0;
/** Bytes of the segment records of the keyed rules with more than one segment. */
export let recordBytes = 0;

/** Per key: how many rules hold it (betterHome). */
let keyRules: usize = 0;
/** Per segment: its first 8 bytes (bytePrefix, u64 each). */
let segPrefix: usize = 0;

/** Before a key's first segment: no strength number. */
const NO_OWNER: u32 = 0xffffffff;

/** A rule whose segments all fit keys, before chooseHomes picks its key. */
const HOME_PENDING: u32 = 0xfffffffe;

// @ts-ignore: decorator
@inline export function keyBytes(key: u32): usize {
  return <usize>getU32(segPtr, getU32(keySeg, key));
}

// @ts-ignore: decorator
@inline export function keyLength(key: u32): u32 {
  return getU32(keyLens, key);
}

/**
 * The keys of the `m` rules and the key each keyed rule hangs off; none when `filtered` is
 * false (too few wildcard rules for a filter).
 */
export function chooseKeys(m: i32, filtered: bool): void {
  ruleHome = take(<usize>m << 2);
  for (let k = 0; k < m; k++) setU32(ruleHome, k, NO_KEY);
  keyCount = 0;
  keyedRules = 0;
  recordBytes = 0;
  if (!filtered) return;
  distinctSegments(m);
  chooseHomes(m);
}

/** Whether every literal segment of rule `k` fits a key (the key record keeps u16 lengths). */
function segmentsFitKeys(k: i32): bool {
  for (let s = getU32(segFirst, k); s < getU32(segFirst, k + 1); s++) if (getU32(segLen, s) > <u32>MAX_KEY_LEN) return false;
  return true;
}

/**
 * The keys: the segments of the wildcard rules whose segments all fit a key, sorted by their
 * bytes, one key per run of equal ones; segKey, and how many rules hold each key. Marks those
 * rules HOME_PENDING.
 */
function distinctSegments(m: i32): void {
  const segCount = <i32>getU32(segFirst, m);
  segKey = take(<usize>segCount << 2);
  segPrefix = take(<usize>segCount << 3);
  const items = take(<usize>segCount << 3);
  let n = 0;
  for (let k = 0; k < m; k++) {
    if (getU32(shape, k) != SHAPE_WILD || !segmentsFitKeys(k)) continue;
    setU32(ruleHome, k, HOME_PENDING);
    for (let s = getU32(segFirst, k); s < getU32(segFirst, k + 1); s++) {
      store<u64>(segPrefix + (<usize>s << 3), bytePrefix(<usize>getU32(segPtr, s), getU32(segLen, s)));
      setU64(items, n++, s);
    }
  }
  sortPrefixed(items, take(<usize>segCount << 3), n, segPrefix, segLen, segPtr);
  keySeg = take(<usize>n << 2);
  keyLens = take(<usize>n << 2);
  keyRules = take(<usize>n << 2);
  keyHomes = take(<usize>n << 2);
  let owner = NO_OWNER;
  for (let i = 0; i < n; i++) {
    const s = <u32>getU64(items, i);
    if (i == 0 || byPrefixed(segPrefix, segLen, segPtr, <u32>getU64(items, i - 1), s) != 0) {
      if (keyCount == MAX_FILTER_KEYS) {
        // The rules of the segments left are not keyed.
        for (; i < n; i++) setU32(segKey, <u32>getU64(items, i), NO_KEY);
        break;
      }
      setU32(keySeg, keyCount, s);
      setU32(keyLens, keyCount, getU32(segLen, s));
      setU32(keyRules, keyCount, 0);
      setU32(keyHomes, keyCount, 0);
      keyCount++;
      owner = NO_OWNER;
    }
    setU32(segKey, s, keyCount - 1);
    // The stable sort keeps a key's segments in rule order: each rule counts once.
    if (getU32(segOwner, s) != owner) {
      owner = getU32(segOwner, s);
      setU32(keyRules, keyCount - 1, getU32(keyRules, keyCount - 1) + 1);
    }
  }
}

/**
 * Whether key `a` is a better key for a rule to hang off than key `b`: one the pass looks for
 * (two or more bytes) rather than a one-byte key most paths hold; then one fewer rules hold, so
 * that the rules visited when a key occurs are few whatever else they share; then the longer.
 */
function betterHome(a: u32, b: u32): bool {
  const lenA = keyLength(a);
  const lenB = keyLength(b);
  if ((lenA >= 2) != (lenB >= 2)) return lenA >= 2;
  const rulesA = getU32(keyRules, a);
  const rulesB = getU32(keyRules, b);
  if (rulesA != rulesB) return rulesA < rulesB;
  return lenA > lenB;
}

/** The home of each HOME_PENDING rule: its best key, or NO_KEY when a segment has none. */
function chooseHomes(m: i32): void {
  for (let k = 0; k < m; k++) {
    if (getU32(ruleHome, k) != HOME_PENDING) continue;
    const first = getU32(segFirst, k);
    const end = getU32(segFirst, k + 1);
    let home = NO_KEY;
    for (let s = first; s < end; s++) {
      const key = getU32(segKey, s);
      if (key == NO_KEY) {
        home = NO_KEY;
        break;
      }
      if (home == NO_KEY || betterHome(key, home)) home = key;
    }
    setU32(ruleHome, k, home);
    if (home == NO_KEY) continue;
    setU32(keyHomes, home, getU32(keyHomes, home) + 1);
    keyedRules++;
    if (end - first > 1) recordBytes += SEGMENTS_KEYS + 4 * <i32>(end - first);
  }
}
