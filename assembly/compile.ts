// rules -> compiled table: writes the flat byte image the matcher (match.ts) walks. The
// format - every structure, field by field - is the listing in src/wasm/abi.ts; a change to it
// needs the matching change in match.ts and in validate.ts, which checks a loaded image.
//
// The compiler works in an arena the caller provides (compileWorkBytes() bytes, or more when
// it asks) and writes the table at `out` (compileTableBytes() bytes, or more when it asks); it
// allocates nothing itself.

import { COMPILE_SHORT_OF_TABLE, COMPILE_SHORT_OF_WORK } from '../src/wasm/abi';
import { startArena } from './compile/arena';
import { placeLinear, placeParts, writeImage, writeLinear } from './compile/image';
import { orderKeys } from './compile/key-order';
import { chooseKeys } from './compile/keys';
import { inputBytes, normalizePatterns, useInput } from './compile/patterns';
import { findShapes, storeSegments, wildRules } from './compile/shapes';
import { orderByStrength, STRENGTH_SLOTS_PER_RULE, STRENGTH_SLOTS_SLACK } from './compile/strength';
import { buildTrie } from './compile/trie';

// The compiler runs in phases, one file each under assembly/compile/, in this order; a phase
// hands the next what it exports (arrays in the work area, arena.ts), which only it writes:
//   1. patterns.ts  normalizePatterns: the patterns normalised, per input number (patOff,
//                   patLen, ruleAllow, ruleLine, ruleDerived; google mode's index.htm rules)
//   2. strength.ts  orderByStrength: the strength numbers (strengthPat: the input number of
//                   each; litPtr: its pattern; poolOut: its place in the pool)
//   3. shapes.ts    findShapes: per strength number, its shape (SHAPE_*), literal part
//                   (litLen, litKey) and anchor, and each wildcard rule's literal segments
//                   (segFirst; segPtr, segLen, segOwner per segment)
//   4. keys.ts      chooseKeys: the filter's keys and the one each keyed rule hangs off
//                   (keySeg, keyLens, segKey, ruleHome)
//      key-order.ts orderKeys: each key's gate, the lazy keys, the filter's order of keys and
//                   its buckets (keyOrder, rank, gateOf, pairOf, multiKeys, passKeys, ...)
//   5. trie.ts      buildTrie: the radix trie over the literal parts (node* arrays, wildList,
//                   root)
//   6. image.ts     placeParts: where each part goes (nodes.ts placeNodes, filter.ts
//                   filterBytes), so the table's size
//   7. image.ts     writeImage: the table (nodes.ts writeNodes, filter.ts writeFilter)
// sort.ts sorts for phases 2 to 6.

/** Below this many wildcard rules, trying each one directly is cheaper than a filter pass. */
const FILTER_MIN_RULES = 2;

/**
 * Work bytes per literal segment of a wildcard rule: its address, length, rule and key, the sort
 * of segments by their bytes, and what a key made of it takes (order, gate, rules, bucket work,
 * automaton input).
 */
const WORK_PER_SEGMENT = 160;

/** Literal segments the work area has room for per rule: a rule with more asks for more. */
const SEGMENTS_PER_RULE = 2;

// The sizes below are f64: for a large enough input an i32 would wrap, and the caller would
// hand the compiler too small an area instead of refusing the input.

/**
 * Work area the compiler needs for `rules` rules whose values hold `bytes` bytes in all, when
 * their wildcard rules have a literal segment or two each; compileTable asks for more
 * (COMPILE_SHORT_OF_WORK) when they have more.
 */
export function compileWorkBytes(rules: f64, bytes: f64): f64 {
  return baseWorkBytes(rules, bytes) + SEGMENTS_PER_RULE * <f64>WORK_PER_SEGMENT * rules;
}

/** The work area but for what each literal segment needs (WORK_PER_SEGMENT). */
function baseWorkBytes(rules: f64, bytes: f64): f64 {
  return 8 * bytes + <f64>(640 + 4 * STRENGTH_SLOTS_PER_RULE) * rules + <f64>(4096 + 4 * STRENGTH_SLOTS_SLACK);
}

/**
 * Table size that is enough for `rules` rules whose values hold `bytes` bytes in all, unless
 * their wildcard rules have many literal segments or need automata: compileTable asks for more
 * (COMPILE_SHORT_OF_TABLE) then.
 */
export function compileTableBytes(rules: f64, bytes: f64): f64 {
  return 6 * bytes + 512 * rules + 1024;
}

/** What compileTable needed when it answered COMPILE_SHORT_OF_WORK or COMPILE_SHORT_OF_TABLE. */
let needed: f64 = 0;

/** Bytes of work area or table the last compileTable call found too few (see its answer). */
export function compileNeed(): f64 {
  return needed;
}

/**
 * Compiles the `ruleCount` rules of `groupCount` groups (the input of src/wasm/abi.ts: the
 * kept values from offset `base` at `body`, the rules' words at `words`, u32s when `wide` and
 * u16s otherwise, the groups at `groups`) into a table at `out` (`outBytes` bytes); returns its size. `work` holds `workBytes` bytes,
 * at least compileWorkBytes(). When either is too small for these rules, it writes nothing and
 * answers COMPILE_SHORT_OF_WORK or COMPILE_SHORT_OF_TABLE, with compileNeed() bytes needed.
 * `linear`: phases 1 and 2 only, then a linear table (FLAG_LINEAR), which a matcher uses
 * until it has checked enough URLs to repay the full table's compile.
 */
export function compileTable(
  body: usize, base: u32, words: usize, wide: bool, groups: usize, groupCount: i32, ruleCount: i32, rfc: bool, work: usize, workBytes: usize,
  out: usize, outBytes: usize, linear: bool,
): i32 {
  useInput(body, base, words, wide, groups, groupCount);
  const totalIn = inputBytes();
  if (compileWorkBytes(ruleCount, totalIn) > <f64>workBytes) {
    needed = compileWorkBytes(ruleCount, totalIn);
    return COMPILE_SHORT_OF_WORK;
  }
  startArena(work, workBytes);
  const m = normalizePatterns(ruleCount, rfc, totalIn);
  orderByStrength(m, ruleCount);
  let total: i32;
  if (linear) {
    total = placeLinear(m);
  } else {
    const capacity = SEGMENTS_PER_RULE * ruleCount;
    const segments = findShapes(m, capacity);
    if (segments > capacity) {
      // The arrays findShapes took stay taken.
      const workNeeded = baseWorkBytes(ruleCount, totalIn) + <f64>WORK_PER_SEGMENT * segments + 12 * <f64>capacity;
      if (workNeeded > <f64>workBytes) {
        needed = workNeeded;
        return COMPILE_SHORT_OF_WORK;
      }
      storeSegments(m, segments);
    }
    chooseKeys(m, wildRules >= FILTER_MIN_RULES);
    orderKeys();
    buildTrie(m);
    total = placeParts(m);
  }
  if (<u32>total > <u32>outBytes) {
    needed = <f64><u32>total;
    return COMPILE_SHORT_OF_TABLE;
  }
  if (linear) writeLinear(out, total, m, rfc);
  else writeImage(out, total, m, rfc);
  return total;
}
