// Phase 6, layout: where each part of the table goes - header, rules, kinds, pool, nodes
// (nodes.ts), filter (filter.ts) - and so its size. Phase 7, write: the table itself.

import {
  CHILD_OFFSET_MASK, FLAG_LINEAR, FLAG_RFC, FLAG_WIDE_CHILDREN, HDR_FILTER_OFF, HDR_FLAGS, HDR_KINDS_OFF, HDR_MAGIC, HDR_POOL_LEN,
  HDR_POOL_OFF, HDR_ROOT_OFF, HDR_RULE_COUNT, HDR_RULES_OFF, HDR_TOTAL_LEN, HEADER_SIZE, RULE_KIND_ALLOW_BIT, RULE_KIND_DERIVED_BIT,
  LINEAR_HEAD_BYTES, LINEAR_HEAD_MASK, LINEAR_HEAD_SIZE, RULE_LINE, RULE_PAT_END, RULE_SIZE, TABLE_MAGIC,
} from '../../src/wasm/abi';
import { getU32 } from '../words';
import { filterBytes, writeFilter } from './filter';
import { keyCount } from './keys';
import { placeNodes, rootOffset, writeNodes } from './nodes';
import { norm, patLen, patOff, ruleAllow, ruleDerived, ruleLine } from './patterns';
import { poolLength, poolOut, strengthPat } from './strength';
import { nodeCount } from './trie';

// Where the parts go (table offsets).
let rulesOffset = 0;
let kindsOffset = 0;
let poolOffset = 0;
let filterOffset = 0;

/** Places every part of the table of `m` rules; returns its size. */
export function placeParts(m: i32): i32 {
  rulesOffset = HEADER_SIZE;
  kindsOffset = rulesOffset + m * RULE_SIZE;
  poolOffset = kindsOffset + m;
  let cursor = placeNodes((poolOffset + poolLength + 3) & ~3);
  filterOffset = keyCount > 0 ? cursor : 0;
  if (keyCount > 0) cursor += filterBytes();
  return cursor;
}

/** Places a linear table of `m` rules (header, rules, kinds, pool, literal heads); returns its size. */
export function placeLinear(m: i32): i32 {
  rulesOffset = HEADER_SIZE;
  kindsOffset = rulesOffset + m * RULE_SIZE;
  poolOffset = kindsOffset + m;
  // The heads take the filter's place (HDR_FILTER_OFF): a linear table has no filter. A table
  // of no rules is its header alone.
  filterOffset = m == 0 ? 0 : (poolOffset + poolLength + 7) & ~7;
  return m == 0 ? (poolOffset + poolLength + 3) & ~3 : filterOffset + m * LINEAR_HEAD_SIZE;
}

/** Writes the linear table of `m` rules, `total` bytes (placeLinear), at `out`. */
export function writeLinear(out: usize, total: i32, m: i32, rfc: bool): void {
  memory.fill(out, 0, <usize>total);
  writeHeader(out, total, m, rfc, false, true);
  writeRules(out, m);
  writeHeads(out, m);
}

/** Each rule's literal head (LINEAR_HEAD_SIZE in src/wasm/abi.ts), from its pattern in the pool. */
function writeHeads(out: usize, m: i32): void {
  for (let k = 0; k < m; k++) {
    const pat = out + poolOffset + getU32(poolOut, k);
    const len = <i32>getU32(patLen, getU32(strengthPat, k));
    let literal = 0;
    while (literal < len && literal < 8 && load<u8>(pat + literal) != 0x2a && !(literal == len - 1 && load<u8>(pat + literal) == 0x24)) literal++;
    // The load reads past a short pattern (into the pool or the zeroed heads): masked out.
    const mask = literal == 8 ? <u64>-1 : (<u64>1 << (<u64>literal << 3)) - 1;
    const head = out + filterOffset + <usize>k * LINEAR_HEAD_SIZE;
    store<u64>(head + LINEAR_HEAD_BYTES, load<u64>(pat) & mask);
    store<u64>(head + LINEAR_HEAD_MASK, mask);
  }
}

/** Writes the table of `m` rules, `total` bytes (placeParts), at `out`. */
export function writeImage(out: usize, total: i32, m: i32, rfc: bool): void {
  memory.fill(out, 0, <usize>total);
  // Offsets past CHILD_OFFSET_MASK leave no room for a label length in a child entry.
  const wide = total > CHILD_OFFSET_MASK;
  writeHeader(out, total, m, rfc, wide, false);
  writeRules(out, m);
  writeNodes(out, poolOffset, wide);
  if (keyCount > 0) writeFilter(out, filterOffset, poolOffset, m);
}

function writeHeader(out: usize, total: i32, m: i32, rfc: bool, wide: bool, linear: bool): void {
  store<u32>(out + HDR_MAGIC, TABLE_MAGIC);
  store<u32>(out + HDR_TOTAL_LEN, total);
  store<u32>(out + HDR_FLAGS, (rfc ? FLAG_RFC : 0) | (wide ? FLAG_WIDE_CHILDREN : 0) | (linear ? FLAG_LINEAR : 0));
  store<u32>(out + HDR_RULE_COUNT, m);
  store<u32>(out + HDR_RULES_OFF, rulesOffset);
  // nodeCount is the last full compile's: a linear table has no trie.
  store<u32>(out + HDR_ROOT_OFF, !linear && nodeCount > 0 ? rootOffset() : 0);
  store<u32>(out + HDR_POOL_OFF, poolOffset);
  store<u32>(out + HDR_POOL_LEN, poolLength);
  store<u32>(out + HDR_FILTER_OFF, filterOffset);
  store<u32>(out + HDR_KINDS_OFF, kindsOffset);
}

/** The rules in strength order, their kinds, and their patterns in the pool. */
function writeRules(out: usize, m: i32): void {
  for (let k = 0; k < m; k++) {
    const rule = getU32(strengthPat, k);
    const at = out + rulesOffset + <usize>k * RULE_SIZE;
    const len = getU32(patLen, rule);
    store<u32>(at + RULE_PAT_END, poolOffset + getU32(poolOut, k) + len);
    store<u32>(at + RULE_LINE, getU32(ruleLine, rule));
    store<u8>(out + kindsOffset + k, (getU32(ruleDerived, rule) != 0 ? RULE_KIND_DERIVED_BIT : 0) | (getU32(ruleAllow, rule) != 0 ? RULE_KIND_ALLOW_BIT : 0));
    memory.copy(out + poolOffset + getU32(poolOut, k), norm + getU32(patOff, rule), len);
  }
}
