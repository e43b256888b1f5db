// rules -> compiled table: the kernel's compiler (assembly/compile.ts; the format is
// src/wasm/abi.ts) normalises the patterns and writes the table straight into the block a
// matcher will own. This module hands back what the table is made from; src/matcher.ts wraps
// it in a Matcher.

import { COMPILE_SHORT_OF_WORK, GROUP_IN_END, GROUP_IN_FIRST, GROUP_IN_SIZE } from '../wasm/abi.js';
import { RULE_WORDS } from '../robots/layout.js';
import { groupRuleEnd, groupRuleStart, ruleValueStart, ruleWordsText, type KeptValues, type RobotsStructure } from '../robots/structure.js';
import type { Mode } from '../robots/options.js';
import { kernel, type Kernel } from '../wasm/kernel.js';
import { alignUp } from '../wasm/memory.js';
import { OWN_BLOCK, type TablePlace, type TableSource } from '../wasm/tables.js';

/**
 * The table source of the rules of `groups` (group numbers of `structure`, ascending): it
 * compiles them whenever the table is needed. In google mode an Allow ending in /index.htm...
 * also gets the reference's directory variant (flagged derived). The source keeps the three
 * arguments (no copy) to compile the table again if the table budget evicts it. It compiles
 * the linear table (FLAG_LINEAR in src/wasm/abi.ts) until upgrade(): most matchers check too
 * few URLs to repay the full table's compile (src/matcher.ts decides when).
 */
export function compiledRules(structure: RobotsStructure, groups: readonly number[], mode: Mode): TableSource {
  return new CompiledRules(structure, groups, mode);
}

// Its own Extent's fields rather than an Extent object: one object fewer for each matcher a
// cache keeps.
class CompiledRules implements TableSource, Extent {
  linear = true;
  readonly lo: number;
  readonly hi: number;
  readonly valueBytes: number;
  readonly rules: number;
  readonly firstRule: number;
  readonly endRule: number;

  constructor(
    private readonly structure: RobotsStructure,
    private readonly groups: readonly number[],
    private readonly mode: Mode,
  ) {
    ({ lo: this.lo, hi: this.hi, valueBytes: this.valueBytes, rules: this.rules, firstRule: this.firstRule, endRule: this.endRule } = extentOf(structure, groups));
    // The table may be compiled only at the first check (src/matcher.ts): a file too large to
    // compile is still refused here, when its matcher is asked for.
    requireFits(this);
  }

  build(place: TablePlace = OWN_BLOCK): number {
    return compileTable(this.structure, this.groups, this, this.mode, this.linear, place);
  }

  upgrade(): void {
    this.linear = false;
  }
}

/** Compiles the rules into a block of `place` and returns its address. */
function compileTable(structure: RobotsStructure, groups: readonly number[], extent: Extent, mode: Mode, linear: boolean, place: TablePlace): number {
  const { valueBytes, rules: n } = extent;
  const k = kernel();
  const inputSize = inputBytes(extent, groups.length);
  // Enough for most files; rules with many literal segments, or a filter with automata, need
  // more, which the kernel says (and then this compiles again).
  let workSize = k.fn.compileWorkBytes(n, valueBytes);
  let tableSize = k.fn.compileTableBytes(n, valueBytes);
  for (;;) {
    // Refused before anything is allocated: the memory never shrinks once grown.
    requireFits(extent, workSize, tableSize);
    const table = place.take(tableSize);
    let size: number;
    try {
      // The input and the compiler's work area live in the reusable scratch block: a heap
      // block of their own per compile costs an alloc and a free.
      size = k.withScratch(inputSize + workSize, (scratch) => compileInto(k, scratch, structure, groups, extent, inputSize, workSize, table, tableSize, mode, linear));
    } catch (error) {
      place.drop(table);
      throw error;
    }
    if (size >= 0) {
      place.keep(table, size);
      return table;
    }
    place.drop(table);
    if (size === COMPILE_SHORT_OF_WORK) workSize = k.fn.compileNeed();
    else tableSize = k.fn.compileNeed();
  }
}

/**
 * Where the rules' values lie in the kept values, how many bytes they hold in all, how many
 * rules there are, and the rules [firstRule, endRule) the groups' rules are among.
 */
interface Extent {
  lo: number;
  hi: number;
  valueBytes: number;
  rules: number;
  firstRule: number;
  endRule: number;
}

function extentOf(structure: RobotsStructure, groups: readonly number[]): Extent {
  let lo = Infinity;
  let hi = 0;
  let valueBytes = 0;
  let rules = 0;
  let firstRule = Infinity;
  let endRule = 0;
  // A group's rules' values are back to back (RobotsStructure).
  for (const g of groups) {
    const first = groupRuleStart(structure, g);
    const end = groupRuleEnd(structure, g);
    if (first === end) continue;
    const start = ruleValueStart(structure, first);
    const stop = ruleValueStart(structure, end);
    lo = Math.min(lo, start);
    hi = Math.max(hi, stop);
    valueBytes += stop - start;
    rules += end - first;
    firstRule = Math.min(firstRule, first);
    endRule = Math.max(endRule, end);
  }
  if (rules === 0) lo = hi = firstRule = endRule = 0;
  return { lo, hi, valueBytes, rules, firstRule, endRule };
}

/**
 * Bytes of the compiler's input (src/wasm/abi.ts): the values, the rules' words and the groups,
 * each 4-aligned; the words counted at their widest.
 */
function inputBytes({ lo, hi, firstRule, endRule }: Extent, groups: number): number {
  return alignUp(hi - lo, 4) + alignUp(4 * (RULE_WORDS * (endRule - firstRule) + 1), 4) + groups * GROUP_IN_SIZE;
}

/** Bytes of a word of the structure. */
function wordBytes(structure: RobotsStructure): number {
  return structure.wide ? 4 : 2;
}

/** Throws when compiling the rules needs more than the WebAssembly memory limit (sizes: the first try's by default). */
function requireFits(extent: Extent, workSize?: number, tableSize?: number): void {
  const k = kernel();
  const { valueBytes, rules: n } = extent;
  // The groups are at most the rules they hold, and one more.
  const input = inputBytes(extent, extent.endRule - extent.firstRule + 1);
  const need = (tableSize ?? k.fn.compileTableBytes(n, valueBytes)) + input + (workSize ?? k.fn.compileWorkBytes(n, valueBytes));
  if (need > k.heap.limit) {
    throw new RangeError(`robots-wasm: compiling ${n} rules of ${valueBytes} bytes needs ${need} bytes, more than the WebAssembly memory limit of ${k.heap.limit} bytes (setWasmMemoryLimit)`);
  }
}

/**
 * One compileTable call: the rules' values, their words and the groups go into `scratch`
 * (src/wasm/abi.ts), followed by the work area; returns the table size or the kernel's
 * COMPILE_SHORT_OF_* answer.
 */
function compileInto(
  k: Kernel, scratch: number, structure: RobotsStructure, groups: readonly number[], extent: Extent, inputSize: number,
  workSize: number, table: number, tableSize: number, mode: Mode, linear: boolean,
): number {
  const { lo, hi, firstRule, endRule, rules: n } = extent;
  const values: KeptValues = structure.values;
  if (typeof values === 'string') k.writeString(values.slice(lo, hi), scratch, 'latin1');
  else k.u8.set(values.subarray(lo, hi), scratch);
  // The words start 4-aligned (the scratch block is 16-aligned).
  const wordsAt = scratch + alignUp(hi - lo, 4);
  k.writeString(ruleWordsText(structure, firstRule, endRule), wordsAt, 'utf16le');
  // The groups, written through the kernel's word view of the memory: a view of their own
  // would be an allocation per compile.
  const groupsAt = alignUp(wordsAt + wordBytes(structure) * (RULE_WORDS * (endRule - firstRule) + 1), 4);
  const words = k.u32;
  let at = groupsAt / 4;
  for (const g of groups) {
    words[at + GROUP_IN_FIRST / 4] = groupRuleStart(structure, g) - firstRule;
    words[at + GROUP_IN_END / 4] = groupRuleEnd(structure, g) - firstRule;
    at += GROUP_IN_SIZE / 4;
  }
  return k.fn.compileTable(scratch, lo, wordsAt, structure.wide ? 1 : 0, groupsAt, groups.length, n, mode === 'rfc' ? 1 : 0, scratch + inputSize, workSize, table, tableSize, linear ? 1 : 0);
}
