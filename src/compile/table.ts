// rules -> compiled table: the kernel's compiler (assembly/compile.ts; the format is
// src/wasm/abi.ts) normalises the patterns and writes the table straight into the block a
// matcher will own. This module hands back what the table is made from; src/matcher.ts wraps
// it in a Matcher.

import { COMPILE_SHORT_OF_WORK, RULE_IN_ALLOW, RULE_IN_END, RULE_IN_LINE, RULE_IN_SIZE, RULE_IN_START } from '../wasm/abi.js';
import type { KeptValues, RuleRecord } from '../robots/groups.js';
import type { Mode } from '../robots/options.js';
import { kernel, type Kernel } from '../wasm/kernel.js';
import { alignUp } from '../wasm/memory.js';
import { allocTable, type TableSource } from '../wasm/tables.js';

/**
 * The table source of rules whose values are ranges of `values` (RobotsStructure.values): it
 * compiles them whenever the table is needed. In google mode an Allow ending in /index.htm...
 * also gets the reference's directory variant (flagged derived). The source keeps the three
 * arguments (no copy) to compile the table again if the table budget evicts it. It compiles
 * the linear table (FLAG_LINEAR in src/wasm/abi.ts) until upgrade(), when there are at most
 * LINEAR_MAX_RULES rules: most matchers check too few URLs to repay the full table's compile
 * (src/matcher.ts decides when).
 */
export function compiledRules(values: KeptValues, rules: readonly RuleRecord[], mode: Mode): TableSource {
  return new CompiledRules(values, rules, mode);
}

/**
 * Most rules a linear table holds: a linear check tries every rule, so past this many a few
 * checks, or one long path, would cost more than the full table's bounded walk.
 */
export const LINEAR_MAX_RULES = 256;

class CompiledRules implements TableSource {
  constructor(
    private readonly values: KeptValues,
    private readonly rules: readonly RuleRecord[],
    private readonly mode: Mode,
  ) {
    this.linear = rules.length <= LINEAR_MAX_RULES;
    // The table may be compiled only at the first check (src/matcher.ts): a file too large to
    // compile is still refused here, when its matcher is asked for.
    this.extent = extentOf(rules);
    requireFits(rules, this.extent);
  }

  linear: boolean;
  private readonly extent: Extent;

  build(): number {
    return compileTable(this.values, this.rules, this.extent, this.mode, this.linear);
  }

  upgrade(): void {
    this.linear = false;
  }
}

/** Compiles the rules into a new table block (from allocTable) and returns its address. */
function compileTable(values: KeptValues, rules: readonly RuleRecord[], extent: Extent, mode: Mode, linear: boolean): number {
  const { lo, valueBytes } = extent;
  const k = kernel();
  const n = rules.length;
  const slice = extent.hi - lo;
  const inputSize = slice + 4 + n * RULE_IN_SIZE;
  // Enough for most files; rules with many literal segments, or a filter with automata, need
  // more, which the kernel says (and then this compiles again).
  let workSize = k.fn.compileWorkBytes(n, valueBytes);
  let tableSize = k.fn.compileTableBytes(n, valueBytes);
  for (;;) {
    // Refused before anything is allocated: the memory never shrinks once grown.
    requireFits(rules, extent, workSize, tableSize);
    const table = allocTable(tableSize);
    let size: number;
    try {
      // The input and the compiler's work area live in the reusable scratch block: a heap
      // block of their own per compile costs an alloc and a free.
      size = k.withScratch(inputSize + workSize, (scratch) => compileInto(k, scratch, values, rules, lo, slice, inputSize, workSize, table, tableSize, mode, linear));
    } catch (error) {
      k.heap.free(table);
      throw error;
    }
    if (size >= 0) {
      k.heap.shrink(table, size);
      return table;
    }
    k.heap.free(table);
    if (size === COMPILE_SHORT_OF_WORK) workSize = k.fn.compileNeed();
    else tableSize = k.fn.compileNeed();
  }
}

/** Where the rules' values lie in the kept values, and how many bytes they hold in all. */
interface Extent {
  lo: number;
  hi: number;
  valueBytes: number;
}

function extentOf(rules: readonly RuleRecord[]): Extent {
  let lo = Infinity;
  let hi = 0;
  let valueBytes = 0;
  for (const r of rules) {
    lo = Math.min(lo, r.valueStart);
    hi = Math.max(hi, r.valueEnd);
    valueBytes += r.valueEnd - r.valueStart;
  }
  if (rules.length === 0) lo = hi = 0;
  return { lo, hi, valueBytes };
}

/** Throws when compiling the rules needs more than the WebAssembly memory limit (sizes: the first try's by default). */
function requireFits(rules: readonly RuleRecord[], { lo, hi, valueBytes }: Extent, workSize?: number, tableSize?: number): void {
  const k = kernel();
  const n = rules.length;
  const need = (tableSize ?? k.fn.compileTableBytes(n, valueBytes)) + hi - lo + 4 + n * RULE_IN_SIZE + (workSize ?? k.fn.compileWorkBytes(n, valueBytes));
  if (need > k.heap.limit) {
    throw new RangeError(`robots-wasm: compiling ${n} rules of ${valueBytes} bytes needs ${need} bytes, more than the WebAssembly memory limit of ${k.heap.limit} bytes (setWasmMemoryLimit)`);
  }
}

/**
 * One compileTable call: the rules' values and records go into `scratch`, followed by the
 * work area; returns the table size or the kernel's COMPILE_SHORT_OF_* answer.
 */
function compileInto(
  k: Kernel, scratch: number, values: KeptValues, rules: readonly RuleRecord[], lo: number, slice: number, inputSize: number,
  workSize: number, table: number, tableSize: number, mode: Mode, linear: boolean,
): number {
  const n = rules.length;
  if (typeof values === 'string') k.writeString(values.slice(lo, lo + slice), scratch, 'latin1');
  else k.u8.set(values.subarray(lo, lo + slice), scratch);
  // Rule records start 4-aligned (the scratch block is 16-aligned) for a Uint32Array view.
  const rulesAt = scratch + alignUp(slice, 4);
  const words = new Uint32Array(k.u8.buffer, rulesAt, n * (RULE_IN_SIZE / 4));
  for (let i = 0, at = 0; i < n; i++, at += RULE_IN_SIZE / 4) {
    const r = rules[i];
    words[at + RULE_IN_START / 4] = r.valueStart - lo;
    words[at + RULE_IN_END / 4] = r.valueEnd - lo;
    words[at + RULE_IN_LINE / 4] = r.line;
    words[at + RULE_IN_ALLOW / 4] = r.allow ? 1 : 0;
  }
  return k.fn.compileTable(scratch, rulesAt, n, mode === 'rfc' ? 1 : 0, scratch + inputSize, workSize, table, tableSize, linear ? 1 : 0);
}
