// Instructions executed per WebAssembly function while a script runs: a deterministic cost
// figure for kernel changes on a machine whose timings drift by tens of percent (a developer
// tool; needs valgrind, which the library itself never does).
//
// usage: node scripts/wasm-instructions.mjs [--per N] script.mjs [args...]
//
// The script runs under callgrind, in a node with Liftoff off (every function compiled by
// TurboFan at instantiation, so compilation is not mixed into the loop being measured) and
// printing the machine code it generates; the instruction addresses of the callgrind profile
// are mapped back to the functions of that code, and the functions to their names in
// build/robots.wat (the module imports nothing, so its function indices are the order of
// its functions). Counts are divided by --per (e.g. the number of URLs checked). Compare two
// builds by their difference between two workload sizes: start-up and warm-up cancel out.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
let per = 1;
if (args[0] === '--per') {
  per = Number(args[1]);
  args.splice(0, 2);
}
if (args.length === 0 || !(per > 0)) {
  console.error('usage: node scripts/wasm-instructions.mjs [--per N] script.mjs [args...]');
  process.exit(2);
}

const root = fileURLToPath(new URL('..', import.meta.url));
const names = [...readFileSync(join(root, 'build/robots.wat'), 'utf8').matchAll(/^ \(func \$(\S+)/gm)].map((m) => m[1]);
const dir = mkdtempSync(join(tmpdir(), 'wasm-instructions-'));
const profile = join(dir, 'callgrind.out');
const run = spawnSync(
  'valgrind',
  ['--tool=callgrind', '--smc-check=all-non-file', '--dump-instr=yes', `--callgrind-out-file=${profile}`,
    process.execPath, '--no-liftoff', '--print-wasm-code', ...args],
  { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] },
);
if (run.error || run.status !== 0) {
  console.error(run.error?.message ?? run.stderr.split('\n').slice(-5).join('\n'));
  rmSync(dir, { recursive: true, force: true });
  process.exit(1);
}

// Function address ranges from the code listing: a "name: ..." line, then one line per
// instruction, "0x<address> <offset> <bytes> <mnemonic>"; a body starts at offset 0. Code that
// is not a module function (wrappers, stubs) gets a range too, so that it is not counted as
// the function listed before it.
const ranges = [];
let index = -1;
for (const line of run.stdout.split('\n')) {
  if (line.startsWith('name: ')) {
    const named = /^name: wasm-function\[(\d+)\]$/.exec(line);
    index = named ? Number(named[1]) : -1;
    continue;
  }
  const instruction = /^0x([0-9a-f]+)\s+([0-9a-f]+)\s/.exec(line);
  if (!instruction) continue;
  const address = parseInt(instruction[1], 16);
  if (parseInt(instruction[2], 16) === 0) ranges.push({ index, start: address, end: address + 16 });
  else if (ranges.length > 0) {
    // The safepoint table after the code lists addresses inside it again, in its own order.
    const range = ranges[ranges.length - 1];
    range.end = Math.max(range.end, address + 16);
  }
}
ranges.sort((a, b) => a.start - b.start);

// Callgrind's per-instruction costs: "positions: instr line", so each cost line is
// "<address> <line> <Ir>", an address being absolute (0x...), relative (+n, -n) or the same (*);
// the line after "calls=" is an inclusive call cost, not the caller's own.
const counts = new Map();
let total = 0;
let last = 0;
let skipNext = false;
for (const line of readFileSync(profile, 'utf8').split('\n')) {
  if (line.startsWith('calls=')) {
    skipNext = true;
    continue;
  }
  const first = line[0];
  if (first === undefined || !'0123456789+-*'.includes(first)) continue;
  const [position, , cost] = line.split(' ');
  if (position === '*') {
    // same address
  } else if (first === '+' || first === '-') {
    const delta = Number(position.slice(1));
    last = first === '+' ? last + delta : last - delta;
  } else {
    last = Number(position);
  }
  if (skipNext) {
    skipNext = false;
    continue;
  }
  if (cost === undefined) continue;
  const ir = Number(cost);
  total += ir;
  let lo = 0;
  let hi = ranges.length - 1;
  let found;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ranges[mid].start <= last) {
      found = ranges[mid];
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  if (found && found.index >= 0 && last < found.end) counts.set(found.index, (counts.get(found.index) ?? 0) + ir);
}
rmSync(dir, { recursive: true, force: true });

const rows = [...counts].sort((a, b) => b[1] - a[1]);
const wasm = rows.reduce((sum, [, ir]) => sum + ir, 0);
const format = (ir) => (ir / per).toFixed(1).padStart(14);
console.log(`${format(total)}  all instructions${per === 1 ? '' : ` / ${per}`}`);
console.log(`${format(wasm)}  in WebAssembly`);
for (const [index, ir] of rows) if (ir / wasm >= 0.001) console.log(`${format(ir)}  ${names[index] ?? `wasm-function[${index}]`}`);
