// npm run soak [-- --files N --keep K --every E --release MODES --budget BYTES]: a crawler's
// lifetime in one process. Parses N different robots.txt files (default 1,000,000: real files
// from test/fixtures/corpus and bench/data, each mutated so no two are alike), compiles a
// matcher for each and checks URLs whose verdicts are known (rules of its own that each file
// gets), in one of these modes:
//
//   dispose       keeps the last K matchers (default 1,000), disposes each one it lets go
//   gc            keeps the last K, only drops the others: the FinalizationRegistry frees their
//                 tables after a garbage collection (the loop yields every 1,000 files)
//   mixed         keeps the last K, half disposed and half dropped
//   none          RobotsTxt.parse(body).isAllowed(url, agent): nothing kept, nothing disposed,
//                 one synchronous loop (no finalizer can run)
//   drop-matcher  RobotsTxt.parse(body).matcher(agent), checked and dropped, synchronously
//
// Prints WebAssembly memory, the tables' share of it, and RSS every E files. A wrong verdict
// stops the run. With no --release, it runs mixed, none and drop-matcher, each in a process of
// its own (memory never shrinks, so one mode's would carry into the next), and fails when a
// mode's memory grows over the second half of its run, or a mode without dispose holds more
// than the table budget (--budget, default 256 MiB) and the fixed areas. test/soak.test.ts runs
// 20,000 files of dispose and gc, and 50,000 of none and drop-matcher with an 8 MiB budget.

import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { getHeapSpaceStatistics } from 'node:v8';
import { RobotsTxt, setTableBudget, wasmMemoryStats } from '../dist/index.js';
import { random } from './corpus-check.mjs';

const encoder = new TextEncoder();

/** The real files the soak mutates: the bundled ones under 32 KB (larger ones would only slow it down). */
export function baseFiles() {
  const dirs = [new URL('../test/fixtures/corpus/', import.meta.url), new URL('../bench/data/', import.meta.url)];
  const files = [];
  for (const dir of dirs) {
    for (const name of readdirSync(dir)) {
      const url = new URL(name, dir);
      if (name.endsWith('.md') || statSync(url).size > 32_000) continue;
      files.push(readFileSync(url, 'latin1').split('\n'));
    }
  }
  return files;
}

/**
 * File number `i`: a real file with lines dropped, duplicated and cut, and rules of its own for
 * its soakbot agent and for `*`, whose verdicts knownVerdicts gives.
 */
export function mutatedFile(base, i, next) {
  const lines = [];
  for (const line of base) {
    const r = next();
    if (r < 0.05) continue;
    if (r < 0.08) lines.push(line.slice(0, Math.floor(next() * line.length)));
    else lines.push(line);
    if (r > 0.97) lines.push(line);
  }
  lines.push(`User-agent: soakbot-${soakToken(i)}`);
  for (let k = 0; k < 1 + (i % 7); k++) lines.push(`Disallow: /soak-${i}/${k}/*${k % 2 ? '.pdf$' : ''}`);
  // Merged into the file's own `*` groups: longer than any rule of a real file that could match.
  lines.push('User-agent: *', `Disallow: /soak-${i}-all/`, `Allow: /soak-${i}-open/`);
  return encoder.encode(lines.join(i % 3 === 0 ? '\r\n' : '\n'));
}

/** The agent file `i` is asked about: its own soakbot one time in five, ExampleBot (the `*` groups) otherwise. */
export function soakAgent(i) {
  return i % 5 === 0 ? `soakbot-${soakToken(i)}` : 'ExampleBot';
}

/** URLs of file `i` whose verdicts for `agent` its added rules decide, and those verdicts (1 allowed). */
export function knownVerdicts(i, agent) {
  if (agent === 'ExampleBot') return { urls: [`https://example.com/soak-${i}-all/x`, `/soak-${i}-open/x?q=1`], verdicts: [0, 1] };
  // The soakbot group has only its own rules: `/soak-i/k/*` for even k, `/soak-i/k/*.pdf$` for odd k < 1 + i % 7.
  return { urls: [`https://example.com/soak-${i}/0/x`, `/soak-${i}/1/x.pdf`, `/soak-${i}/1/x`, `/soak-${i}-all/x`], verdicts: [0, i % 7 >= 1 ? 0 : 1, 1, 1] };
}

function expectVerdict(i, agent, url, got, want) {
  if (got !== want) throw new Error(`file ${i}: ${url} for ${agent} gave ${got}, expected ${want}`);
}

/**
 * The token file `i` names its own group with: its number for the rfc-mode files (even i), as
 * rfc mode reads digits as part of a product token; letters for the google-mode ones, since
 * google mode ends a token at its first digit.
 */
function soakToken(i) {
  return i % 2 === 0 ? String(i) : String.fromCharCode(97 + (i % 26), 97 + (Math.floor(i / 26) % 26));
}

/** Modes that keep the last matchers in a ring; the others keep nothing and never yield. */
const RING_MODES = ['dispose', 'gc', 'mixed'];
export const RELEASE_MODES = [...RING_MODES, 'none', 'drop-matcher'];

/** Checks file `i`'s known verdicts; returns the matcher in the modes that keep one. */
function checkFile(i, body, release) {
  const robots = RobotsTxt.parse(body, { mode: i % 2 === 0 ? 'rfc' : 'google' });
  const agent = soakAgent(i);
  const { urls, verdicts } = knownVerdicts(i, agent);
  if (release === 'none') {
    for (let u = 0; u < urls.length; u++) expectVerdict(i, agent, urls[u], robots.isAllowed(urls[u], agent) ? 1 : 0, verdicts[u]);
    return undefined;
  }
  const matcher = robots.matcher(agent);
  const got = matcher.checkMany(urls);
  for (let u = 0; u < urls.length; u++) expectVerdict(i, agent, urls[u], got[u], verdicts[u]);
  expectVerdict(i, agent, urls[0], matcher.isAllowed(urls[0]) ? 1 : 0, verdicts[0]);
  return matcher;
}

/**
 * Runs the scenario (`release`: one of RELEASE_MODES; `budget`: a table budget to set first)
 * and returns a sample per `every` files: { files, wasmBytes, usedBytes, liveBlocks, freeBlocks, tableBytes,
 * residentTables, evictions, rssBytes, heapBytes, youngBytes, liveHeapBytes, seconds }. Throws on a wrong verdict.
 * `collect`, a full garbage collection (global.gc), runs before each sample: then `liveHeapBytes`
 * (the JS heap still reachable) is what a leak of JS objects would grow.
 * @param {{ files?: number, keep?: number, every?: number, seed?: number, release?: string, budget?: number, collect?: () => void, onSample?: (sample: any) => void }} [options]
 */
export async function soak({ files = 1_000_000, keep = 1000, every = 100_000, seed = 1, release = 'mixed', budget, collect, onSample = () => {} } = {}) {
  if (!RELEASE_MODES.includes(release)) throw new Error(`soak: unknown release mode ${release}`);
  if (budget !== undefined) setTableBudget(budget);
  const bases = baseFiles();
  const next = random(seed);
  const ring = RING_MODES.includes(release) ? new Array(keep) : undefined;
  const samples = [];
  const started = performance.now();
  for (let i = 0; i < files; i++) {
    const matcher = checkFile(i, mutatedFile(bases[i % bases.length], i, next), release);
    if (ring !== undefined) {
      const slot = i % keep;
      if (ring[slot] !== undefined && (release === 'dispose' || (release === 'mixed' && slot % 2 === 0))) ring[slot].dispose();
      ring[slot] = matcher;
      // A crawler waits on the network between files: let finalizers run now and then.
      if (i % 1000 === 999) await new Promise((resolve) => setImmediate(resolve));
    }
    if ((i + 1) % every === 0) {
      collect?.();
      const stats = wasmMemoryStats();
      const js = process.memoryUsage();
      const sample = {
        files: i + 1, wasmBytes: stats.memoryBytes, usedBytes: stats.usedBytes, liveBlocks: stats.liveBlocks, freeBlocks: stats.freeBlocks,
        tableBytes: stats.tableBytes, residentTables: stats.residentTables, evictions: stats.evictions,
        rssBytes: js.rss, heapBytes: js.heapUsed, youngBytes: youngGenerationBytes(), liveHeapBytes: collect === undefined ? undefined : js.heapUsed,
        seconds: (performance.now() - started) / 1000,
      };
      samples.push(sample);
      onSample(sample);
    }
  }
  return samples;
}

/** Bytes V8's young generation holds: V8 sizes it itself, larger from Node 24 on, and RSS moves with it. */
function youngGenerationBytes() {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.physical_space_size ?? 0;
}

/**
 * WebAssembly memory in use besides the tables, at most: the scratch block kept between calls
 * (8 MiB, src/wasm/kernel.ts), the checkMany batch area (under 1 MiB), the linear area (1 MiB
 * kept, src/wasm/tables.ts) and the kernel's data.
 */
export const FIXED_BYTES = 11 * 2 ** 20;

/** What is wrong with a run's samples (empty when nothing is): memory that grew over the second half, or passed the budget. */
export function soakProblems(samples, release, budget) {
  const problems = [];
  const half = samples[Math.floor((samples.length - 1) / 2)];
  const last = samples.at(-1);
  if (last.wasmBytes > half.wasmBytes) problems.push(`WebAssembly memory grew from ${mb(half.wasmBytes)} MB at ${half.files} files to ${mb(last.wasmBytes)} MB`);
  if (!RING_MODES.includes(release)) {
    for (const s of samples) {
      if (s.usedBytes > budget + FIXED_BYTES) problems.push(`${mb(s.usedBytes)} MB in use at ${s.files} files: more than the budget and the fixed areas`);
    }
  }
  return problems;
}

function mb(bytes) {
  return (bytes / 1048576).toFixed(1);
}

function printSample(s) {
  console.log(
    `${String(s.files).padEnd(10)} | ${mb(s.wasmBytes).padStart(8)} MB | ${mb(s.usedBytes).padStart(6)} MB | ${String(s.freeBlocks).padStart(11)} | ${mb(s.tableBytes).padStart(6)} MB | ` +
      `${String(s.residentTables).padStart(7)} | ${String(s.evictions).padStart(9)} | ${mb(s.rssBytes).padStart(6)} MB | ${mb(s.youngBytes).padStart(6)} MB | ` +
      `${(s.liveHeapBytes === undefined ? '-' : mb(s.liveHeapBytes)).padStart(5)} MB | ${s.seconds.toFixed(0)}`,
  );
}

/** One mode in this process; returns whether it passed. */
async function runMode({ files, keep, every, release, budget }) {
  console.log(`soak: ${files.toLocaleString('en')} files, released by ${release}${RING_MODES.includes(release) ? ` (the last ${keep} matchers kept)` : ''}, table budget ${mb(budget)} MB`);
  console.log('files      | wasm memory | in use    | free blocks | tables    | resident | evictions | RSS       | young gen | live heap | seconds');
  // npm run soak gives node --expose-gc: the live heap is read after a full collection.
  const samples = await soak({ files, keep, every, release, budget, collect: globalThis.gc, onSample: printSample });
  const problems = soakProblems(samples, release, budget);
  for (const problem of problems) console.log(`FAIL ${release}: ${problem}`);
  return problems.length === 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name, fallback) => {
    const at = process.argv.indexOf(`--${name}`);
    return at < 0 ? fallback : process.argv[at + 1];
  };
  const options = { files: Number(arg('files', 1_000_000)), keep: Number(arg('keep', 1000)), every: Number(arg('every', 100_000)), budget: Number(arg('budget', 256 * 2 ** 20)) };
  const release = arg('release', undefined);
  if (release !== undefined) {
    process.exitCode = (await runMode({ ...options, release })) ? 0 : 1;
  } else {
    // Each mode in a process of its own, so that it starts from fresh memory.
    let failed = 0;
    for (const mode of ['mixed', 'none', 'drop-matcher']) {
      const args = [fileURLToPath(import.meta.url), '--release', mode, ...Object.entries(options).flatMap(([k, v]) => [`--${k}`, String(v)])];
      try {
        execFileSync(process.execPath, ['--expose-gc', ...args], { stdio: 'inherit' });
      } catch {
        failed++;
      }
      console.log('');
    }
    console.log(failed === 0 ? 'soak: every mode passed' : `soak: ${failed} mode(s) failed`);
    process.exitCode = failed === 0 ? 0 : 1;
  }
}
