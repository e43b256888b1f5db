// rules -> compiled table: the kernel's compiler (assembly/compile.ts, where the table format
// is documented) normalises the patterns and writes the table straight into the block the
// Matcher will own.

import { RULE_IN_ALLOW, RULE_IN_END, RULE_IN_LINE, RULE_IN_SIZE, RULE_IN_START } from './layout.js';
import { Matcher, type TableSource } from '../matcher.js';
import type { KeptValues } from '../robots/groups.js';
import type { Mode } from '../robots/options.js';
import { kernel, SCRATCH_KEPT_BYTES } from '../wasm/kernel.js';
import { alignUp } from '../wasm/memory.js';
import { allocTable } from '../wasm/tables.js';

/** A rule to compile: its value in the body bytes, as written. */
export interface RuleInput {
  allow: boolean;
  /** Reported back by explain: a line holds one rule, so it names the rule. */
  line: number;
  valueStart: number;
  valueEnd: number;
}

/**
 * Compiles rules whose values are ranges of `values` (RobotsStructure.values) into a matcher.
 * In google mode an Allow ending in /index.htm... also gets the reference's directory variant
 * (flagged derived). The matcher keeps the three arguments (no copy) to compile its table again
 * if the table budget evicts it.
 */
export function compileMatcher(values: KeptValues, rules: readonly RuleInput[], mode: Mode): Matcher {
  return Matcher.build(new CompiledRules(values, rules, mode));
}

/** A matcher's table source: its rules, compiled again whenever the table is needed. */
class CompiledRules implements TableSource {
  constructor(
    private readonly values: KeptValues,
    private readonly rules: readonly RuleInput[],
    private readonly mode: Mode,
  ) {}

  build(): number {
    return compileTable(this.values, this.rules, this.mode);
  }
}

/** Compiles the rules into a new table block (from allocTable) and returns its address. */
function compileTable(values: KeptValues, rules: readonly RuleInput[], mode: Mode): number {
  let lo = Infinity;
  let hi = 0;
  let valueBytes = 0;
  for (const r of rules) {
    lo = Math.min(lo, r.valueStart);
    hi = Math.max(hi, r.valueEnd);
    valueBytes += r.valueEnd - r.valueStart;
  }
  if (rules.length === 0) lo = hi = 0;
  const k = kernel();
  const n = rules.length;
  const slice = hi - lo;
  const inputSize = slice + 4 + n * RULE_IN_SIZE;
  const workSize = k.fn.compileWorkBytes(n, valueBytes);
  const tableBound = k.fn.compileTableBytes(n, valueBytes);
  // Refused before anything is allocated: the memory never shrinks once grown.
  if (tableBound + inputSize + workSize > k.heap.limit) {
    throw new RangeError(`robots-wasm: compiling ${n} rules of ${valueBytes} bytes needs ${tableBound + inputSize + workSize} bytes, more than the WebAssembly memory limit of ${k.heap.limit} bytes (setWasmMemoryLimit)`);
  }
  const table = allocTable(tableBound);
  try {
    // The input and the compiler's work area live in the reusable scratch block: a heap block
    // of their own per compile costs an alloc and a free.
    const scratch = k.scratch(inputSize + workSize);
    if (typeof values === 'string') k.writeString(values.slice(lo, hi), scratch, 'latin1');
    else k.u8.set(values.subarray(lo, hi), scratch);
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
    const size = k.fn.compileTable(scratch, rulesAt, n, mode === 'rfc' ? 1 : 0, scratch + inputSize, table);
    k.heap.shrink(table, size);
    return table;
  } catch (error) {
    k.heap.free(table);
    throw error;
  } finally {
    // A large file's work area is not kept for the next compile.
    k.trimScratch(SCRATCH_KEPT_BYTES);
  }
}
