// rules -> compiled table: writes the flat byte image the matcher (match.ts) walks. This
// comment is the one description of the format; the offsets are the constants of
// src/compile/layout.ts, which the TypeScript side reads too.
//
// All integers are little-endian u32; every offset is relative to the start of the table,
// so the image is position-independent (toBytes/fromBytes are plain copies, but for the
// checksum).
//
//   header (HEADER_SIZE bytes)
//     magic "RWT8" | total length | flags (FLAG_RFC: normalise URLs, /robots.txt allowed;
//     FLAG_WIDE_CHILDREN: child entries are plain offsets, in a table too large for them)
//     rule count | rules offset | root node offset (0: no rules) | pool offset | pool length
//     filter offset (0: none) | kinds offset | checksum: CRC-32C (checksum.ts) of the whole
//     image with this field read as zeros. The compiler leaves it 0: only an exported image
//     needs it, so toBytes writes it into the copy it returns, and fromBytes checks it before
//     validate.ts checks the structure (a flipped bit that leaves every offset in range would
//     still change verdicts).
//   rules: RULE_SIZE bytes each, ordered by strength: longest pattern first, allow before
//     disallow at equal length, then file order. A rule's index in this order is its
//     "strength number": of all rules matching a path, the smallest number decides.
//     pattern end offset | line (the caller maps a line back to its rule). A rule's pattern
//     starts where the previous rule's ends; rule 0's starts at the pool offset.
//   kinds: one byte per rule, by strength number: KIND_ALLOW_BIT | KIND_DERIVED_BIT (derived:
//     made by google mode's index.htm rule)
//   pool: the normalised patterns, concatenated in strength order (ASCII: normalisation
//     escapes every other byte), padded to 4
//   nodes: a radix trie over the literal part of each pattern (up to its first '*', and
//     without a final '$'). A node's label is the run of pattern bytes leading to it from its
//     parent, stored as an offset into the pool (labels are substrings of patterns). The
//     root's label is empty, or "/" when every non-empty literal part starts with '/' and the
//     empty one has no wildcard list: every path starts with '/', so the walk starts after the
//     root's label, a node lower, with one step fewer per path. The "/"
//     root then holds the empty literal's prefix rule and keyed rules too (its end rule, "$",
//     matches no path), and keys are looked for from the path's start when it has keyed rules.
//     label offset | label length << NODE_LABEL_SHIFT | NODE_DENSE | NODE_HAS_* bits | child
//     count (a dense node: its span) | child area (node.ts: a first byte and an entry per byte
//     of the span, or an index of first bytes then the entries in first-byte order; an entry
//     is the child's offset | its label length, up to 254, << 24, 255 when longer) | the fields
//     the bits name, in this order: prefix rule, end rule, wildcard list length << 1 | keyed
//     bit | wildcard list. The child area comes first, at a fixed offset, and an entry holds
//     the child's label length, so that a walk looks up the next child while the node's
//     fields are still being read. Most nodes hold one rule or none, so absent fields take no
//     room.
//     - prefix rule: strongest rule that matches every path passing the node: its literal
//       part is the node's path and nothing or only '*' (and a final '$') follows
//     - end rule: strongest rule "this node's path + $" (matches when the path ends here)
//     - wildcard list: strength numbers (WILD_SIZE each), ascending, of the
//       rules whose literal part ends here and whose remainder has a literal segment after a
//       '*', when they are not reached through the filter; only rules on the walked path are
//       ever tried
//     - keyed: some of this node's wildcard rules are reached through the filter instead
//     - children sorted by first byte
//   filter (when the table has FILTER_MIN_RULES or more wildcard rules): the keys are the
//     distinct literal segments of the wildcard rules (the runs of bytes between the '*'s after
//     the literal part, before a final '$'), all of them: a rule can match only a path that
//     holds every one. One SIMD pass over a path finds which keys occur, and where each first
//     and last starts. A rule hangs off one of its keys (not off a trie node): one of two or more
//     bytes where it has one, then the one fewest rules hold, then the longest; it is visited
//     only when that key occurs, and tried only when all its keys occur, matched in full
//     (literal part included), from the first node on the walk that has keyed rules. A key is
//     looked for only where its gate - its least common byte pair ("/filters/" -> "lt", not
//     "/f": paths are full of '/') - occurs. Keys no rule hangs off that most paths hold (one
//     byte, such as a '/' between two segments, or a gate with a '/': "/?") are "lazy", at most
//     MAX_LAZY_KEYS: the pass does not look for them, a rule that needs one does.
//     key count | keys offset | bucket bits (| FILTER_EXACT_GATES) | buckets offset | first
//     one-byte key | first lazy key | automata offset (0: none) | gate tables: nibble tables
//     (16 + 16 bytes each) for the first and the second gate bytes of keys of two or more bytes
//     or, when those keys have at most two distinct gate pairs (FILTER_EXACT_GATES), the pairs
//     themselves, each byte 16 times: the first pair's first and second byte, then the second
//     pair's (the first's again when there is only one), which a scan compares exactly in fewer
//     steps and with no cross-pair false candidates | only when the pass looks for one-byte
//     keys, their nibble tables | buckets: (1 << bits) + 1 key indices, about four buckets per
//     key of two or more bytes (the gate pairs hash to buckets; bucket b holds
//     keys[buckets[b], buckets[b + 1])) | keys: KEY_SIZE each (pool offset, length, gate
//     offset, gate pair, rules offset, rule count, bytes shared with the previous key of its
//     run), by bucket, within a bucket by gate offset and then in byte order (a run: keys with
//     one gate offset, all anchored at the same path position for a given candidate, so a
//     scan can skip by shared prefix), then the one-byte keys the pass looks for in byte order
//     (a scan finds one by binary search), then the lazy keys in byte order | each key's
//     rules, ascending strength: strength number, and literal length << 2 | KEY_RULE_ANCHORED
//     when the key is the rule's one segment, else the offset of its segment record |
//     KEY_RULE_RECORD | segment records: literal length << 1 | anchored, segment count, the
//     key index of each segment in pattern order | automata, when the pass can give up (a
//     bucket can cost a candidate more than FILTER_WORK_PER_BYTE) and the filter has more than
//     AUTOMATA_MIN_KEYS keys the pass looks for: the forward and the backward automaton over
//     them (layout in automaton.ts)
//
// Cost per path: one walk down the trie (bounded by the path length, independent of the
// number of literal rules), plus, when the walk reaches wildcard rules, one key pass (linear)
// and the rules that hang off the keys that occur, in strength order and only while they could
// still beat the best match found. A rule visited costs O(1) per segment until every segment
// is known to occur and the literal part and the anchor to agree; placing a segment then costs
// O(1), or a search only when it must be found again after its first occurrence. The bound is
// stated in full at the top of match.ts.
//
// The compiler works in an arena the caller provides (compileWorkBytes() bytes, or more when
// it asks) and writes the table at `out` (compileTableBytes() bytes, or more when it asks); it
// allocates nothing itself. An
// image loaded with Matcher.fromBytes is checked against this format by validate.ts: a change
// here needs the matching check there.

import { COMPILE_SHORT_OF_TABLE, COMPILE_SHORT_OF_WORK } from '../src/compile/layout';
import { startArena } from './compile/arena';
import { placeParts, writeImage } from './compile/image';
import { orderKeys } from './compile/key-order';
import { chooseKeys } from './compile/keys';
import { inputBytes, normalizePatterns } from './compile/patterns';
import { findShapes, storeSegments, wildRules } from './compile/shapes';
import { orderByStrength, STRENGTH_SLOTS_PER_RULE, STRENGTH_SLOTS_SLACK } from './compile/strength';
import { buildTrie } from './compile/trie';
export { initByteScores } from './compile/key-order';

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
 * Compiles `ruleCount` rules (RULE_IN_SIZE records at `rulesIn`, values in body[0, bodyLen))
 * into a table at `out` (`outBytes` bytes); returns its size. `work` holds `workBytes` bytes,
 * at least compileWorkBytes(). When either is too small for these rules, it writes nothing and
 * answers COMPILE_SHORT_OF_WORK or COMPILE_SHORT_OF_TABLE, with compileNeed() bytes needed.
 */
export function compileTable(body: usize, rulesIn: usize, ruleCount: i32, rfc: bool, work: usize, workBytes: usize, out: usize, outBytes: usize): i32 {
  const totalIn = inputBytes(rulesIn, ruleCount);
  if (compileWorkBytes(ruleCount, totalIn) > <f64>workBytes) {
    needed = compileWorkBytes(ruleCount, totalIn);
    return COMPILE_SHORT_OF_WORK;
  }
  startArena(work, workBytes);
  const m = normalizePatterns(body, rulesIn, ruleCount, rfc, totalIn);
  orderByStrength(m, ruleCount);
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
  const total = placeParts(m);
  if (<u32>total > <u32>outBytes) {
    needed = <f64><u32>total;
    return COMPILE_SHORT_OF_TABLE;
  }
  writeImage(out, total, m, rfc);
  return total;
}
