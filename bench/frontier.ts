// The frontier benchmark (`npm run bench -- frontier [--quick] [--corpus DIR]... [--strings
// href]`, and a group of `npm run bench`): a crawler's frontier of URLs over many hosts, each
// host's robots.txt parsed once and its URLs checked for two agents, robots-wasm (checkMany on
// the URL strings, and checkLines on the same URLs as UTF-8 lines) against robots-parser. Each
// contender runs in a process of its own (bench/frontier-child.ts) on the same inputs, built
// there from the same seed (bench/frontier-inputs.ts), in rounds that run every contender, so
// that a ratio is taken between processes that ran seconds apart. Prints a table per shape and
// writes bench/frontier[-<dir>][-href].json.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultHostDirs, loadHostFiles, type FrontierShape, type UrlStrings } from './frontier-inputs.js';
import type { ContenderName, FrontierJob, FrontierMeasurement, MemoryFigures } from './frontier-child.js';
import { median } from './measure.js';
import { formatRatio, printTable } from './report.js';

const CONTENDERS: ContenderName[] = ['robots-wasm', 'robots-wasm checkLines', 'robots-parser'];
const SEED = 31;

/** What to run: the host directories, the shapes, and how many timed runs of each phase. */
export interface FrontierOptions {
  quick: boolean;
  /** Directories added to the default hosts with --corpus. */
  corpus: string[];
  /** Rounds that run every contender on each shape (FRONTIER_ROUNDS by default; 1 with --quick). */
  rounds?: number;
  /** How the URL strings are held ('text' by default; `--strings href`). */
  strings?: UrlStrings;
}

/** Rounds of the group run alone (`npm run bench -- frontier`). */
export const FRONTIER_ROUNDS = 3;

/** One shape's measurements: each contender's, and how often their verdicts agree. */
export interface ShapeResult {
  shape: FrontierShape;
  /** Each contender's measurements, every figure the median over the rounds. */
  byContender: Record<ContenderName, FrontierMeasurement>;
  /** robots-parser's total over robots-wasm's (checkMany), in each round; the speed ratio is their median. */
  speedRatios: number[];
  speed: number;
  /** The same for robots-wasm checkLines. */
  linesSpeedRatios: number[];
  linesSpeed: number;
  /** Share of the URLs on which robots-parser's verdict equals robots-wasm's (whose checkMany and checkLines must agree on every URL). */
  agreement: number;
}

/**
 * Timed runs of each phase in a child, how long a run of the per-host phases lasts at least,
 * how the URL strings are held, and how many rounds run each contender once.
 */
type Timing = Pick<FrontierJob, 'runs' | 'minPhaseMs' | 'strings'> & { rounds: number };

/** The `--corpus DIR` arguments. */
export function corpusArgs(argv: readonly string[]): string[] {
  return argv.flatMap((arg, i) => (arg === '--corpus' && argv[i + 1] !== undefined ? [argv[i + 1]] : []));
}

/** The `--strings text|href` argument ('text' without one); throws on another value. */
export function stringsArg(argv: readonly string[]): UrlStrings {
  const at = argv.indexOf('--strings');
  if (at < 0) return 'text';
  const value = argv[at + 1];
  if (value !== 'text' && value !== 'href') throw new Error(`--strings takes text or href, not ${value}`);
  return value;
}

/** The shapes: Zipf splits of 200,000 and 2,000,000 URLs (20,000 with --quick), and 75 URLs a host. */
function shapes(quick: boolean, hosts: number): FrontierShape[] {
  const zipf = quick ? [20_000] : [200_000, 2_000_000];
  return [
    ...zipf.map((count) => ({ name: `Zipf, ${count.toLocaleString('en')} URLs`, count, exponent: 1 })),
    { name: `75 URLs per host (${(75 * hosts).toLocaleString('en')} URLs)`, count: 75 * hosts, exponent: 0 },
  ];
}

/** Runs one contender on one shape in a child process; its measurements and verdicts. */
function runChild(contender: ContenderName, dirs: string[], shape: FrontierShape, timing: Timing, scratch: string): { measured: FrontierMeasurement; verdicts: Uint8Array } {
  const verdictsFile = join(scratch, `${contender}.bin`);
  const job: FrontierJob = { contender, dirs, shape, seed: SEED, strings: timing.strings, runs: timing.runs, minPhaseMs: timing.minPhaseMs, verdictsFile };
  const child = fileURLToPath(new URL('./frontier-child.js', import.meta.url));
  const r = spawnSync(process.execPath, ['--expose-gc', child, JSON.stringify(job)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`frontier ${contender} (${shape.name}) exited with ${r.status}`);
  const lines = r.stdout.trim().split('\n');
  return { measured: JSON.parse(lines[lines.length - 1]) as FrontierMeasurement, verdicts: readFileSync(verdictsFile) };
}

/**
 * Each contender on one shape, in `timing.rounds` rounds that run every contender (the order
 * alternates), and the agreement of their verdicts; a contender whose verdicts change between
 * rounds fails the run.
 */
function runShape(dirs: string[], shape: FrontierShape, timing: Timing): ShapeResult {
  const scratch = mkdtempSync(join(tmpdir(), 'robots-wasm-frontier-'));
  try {
    const rounds: Record<ContenderName, FrontierMeasurement>[] = [];
    const verdicts = {} as Record<ContenderName, Uint8Array>;
    for (let round = 0; round < timing.rounds; round++) {
      const measured = {} as Record<ContenderName, FrontierMeasurement>;
      const order = round % 2 === 0 ? CONTENDERS : [...CONTENDERS].reverse();
      for (const contender of order) {
        process.stderr.write(`  frontier: ${shape.name}, ${contender}, round ${round + 1} of ${timing.rounds}...\n`);
        const run = runChild(contender, dirs, shape, timing, scratch);
        measured[contender] = run.measured;
        if (verdicts[contender] !== undefined && Buffer.compare(verdicts[contender], run.verdicts) !== 0) {
          throw new Error(`frontier ${contender} (${shape.name}): verdicts changed between rounds`);
        }
        verdicts[contender] = run.verdicts;
      }
      rounds.push(measured);
    }
    const [a, b] = [verdicts['robots-wasm'], verdicts['robots-parser']];
    if (Buffer.compare(a, verdicts['robots-wasm checkLines']) !== 0) throw new Error(`frontier (${shape.name}): robots-wasm's checkMany and checkLines differ`);
    let same = 0;
    for (let i = 0; i < a.length; i++) if (a[i] === b[i]) same++;
    const ratios = (name: ContenderName) => rounds.map((r) => r['robots-parser'].totalMs / r[name].totalMs);
    const [speedRatios, linesSpeedRatios] = [ratios('robots-wasm'), ratios('robots-wasm checkLines')];
    const byContender = Object.fromEntries(CONTENDERS.map((name) => [name, medianMeasurement(rounds.map((r) => r[name]))])) as Record<ContenderName, FrontierMeasurement>;
    return {
      shape, byContender, speedRatios, speed: median(speedRatios), linesSpeedRatios, linesSpeed: median(linesSpeedRatios),
      agreement: a.length === 0 ? 1 : same / a.length,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Every figure of the measurements, the median over them. */
function medianMeasurement(all: FrontierMeasurement[]): FrontierMeasurement {
  const pick = (figure: (m: FrontierMeasurement) => number) => median(all.map(figure));
  const memory = Object.fromEntries(Object.keys(all[0].memory).map((key) => [key, pick((m) => m.memory[key as keyof MemoryFigures])])) as unknown as MemoryFigures;
  return {
    hosts: all[0].hosts, urls: all[0].urls, matchers: all[0].matchers, crossChecked: all[0].crossChecked,
    totalMs: pick((m) => m.totalMs), parseMs: pick((m) => m.parseMs), compileMs: pick((m) => m.compileMs), checkMs: pick((m) => m.checkMs), floorMs: pick((m) => m.floorMs), memory,
  };
}

/** Per-host and per-URL figures of one contender's measurements. */
function perUnit(m: FrontierMeasurement): { parseUs: number; compileUs: number; urlNs: number; bytesPerHost: number } {
  return {
    parseUs: (m.parseMs / m.hosts) * 1000,
    compileUs: (m.compileMs / m.hosts) * 1000,
    urlNs: m.urls === 0 ? 0 : (m.checkMs / m.urls) * 1e6,
    bytesPerHost: m.memory.total / m.hosts,
  };
}

/** The table of one shape. */
function printShape(result: ShapeResult): void {
  const rp = result.byContender['robots-parser'];
  const m0 = result.byContender['robots-wasm'];
  printTable(`Frontier: ${result.shape.name} over ${m0.hosts.toLocaleString('en')} hosts, two agents`,
    ['contender', 'total s', 'per-host parse µs', 'per-host compile µs', 'per-URL ns', 'bytes/host', 'speed vs robots-parser', 'bytes vs robots-parser'],
    CONTENDERS.map((name) => {
      const m = result.byContender[name];
      const u = perUnit(m);
      const speed = { 'robots-wasm': result.speed, 'robots-wasm checkLines': result.linesSpeed, 'robots-parser': 1 }[name];
      return [name, (m.totalMs / 1000).toPrecision(3), u.parseUs.toFixed(1), name === 'robots-parser' ? '-' : u.compileUs.toFixed(1), u.urlNs.toFixed(0),
        Math.round(u.bytesPerHost).toLocaleString('en'), formatRatio(speed), formatRatio(m.memory.total / rp.memory.total)];
    }));
  const each = (ratios: number[]) => ratios.map((r) => r.toFixed(2)).join(', ');
  console.log(`\nEvery figure is the median over ${result.speedRatios.length} round(s) that ran every contender; a speed ratio is the median of each round's (checkMany ${each(result.speedRatios)}; checkLines ${each(result.linesSpeedRatios)}).`);
  const perHost = (bytes: number) => Math.round(bytes / m0.hosts).toLocaleString('en');
  console.log(`robots-wasm holds per cached host ${perHost(m0.memory.heapUsed)} bytes of JS heap, ${perHost(m0.memory.external - m0.memory.wasmMemory)} external and ${perHost(m0.memory.wasmInUse)} of WebAssembly memory in use (the table a host's matcher answers from is ${perHost(m0.memory.tableBytes)} bytes, held only when it is the full one: a linear one is made again when used); robots-parser ${perHost(rp.memory.heapUsed)} of JS heap.`);
  const floorNs = (m: FrontierMeasurement) => (m.urls === 0 ? 0 : (m.floorMs / m.urls) * 1e6).toFixed(0);
  console.log(`With a one-rule file for every host instead of its own, robots-wasm's checks take ${floorNs(m0)} ns a URL (checkLines: ${floorNs(result.byContender['robots-wasm checkLines'])}): getting URLs in and verdicts out, whatever the rules. With nothing else but the measured parse, robots-wasm's checkMany would be ${formatRatio(ceilingRatio(result))} robots-parser on this shape.`);
  console.log(`robots-parser agrees with robots-wasm on ${(result.agreement * 100).toFixed(2)}% of the ${m0.urls.toLocaleString('en')} URLs; robots-wasm's checkLines equals its checkMany on every URL, and both equal its isAllowed on the ${m0.crossChecked.toLocaleString('en')} URLs compared.`);
}

/**
 * robots-parser's total over robots-wasm's parse and one-rule checks (FrontierMeasurement's
 * floorMs): the most robots-wasm's speed ratio can be on the shape while URLs reach it as
 * strings and parsing costs what it does.
 */
function ceilingRatio(result: ShapeResult): number {
  const m = result.byContender['robots-wasm'];
  return result.byContender['robots-parser'].totalMs / (m.parseMs + m.floorMs);
}

/**
 * Fewest hosts whose bytes per cached host the bytes target judges: over fewer, the figures
 * are differences of a few hundred KB between two heap snapshots, which move by a factor of
 * 2-3 between shapes of the same hosts (bench/README.md).
 */
const BYTES_TARGET_HOSTS = 1000;

/** The targets of the frontier, measured against robots-parser; the bytes target only with `judgeBytes`. */
function frontierTargets(results: ShapeResult[], judgeBytes: boolean): [string, number, string, boolean][] {
  const wanted: Record<string, number> = { 'Zipf, 200,000 URLs': 10, 'Zipf, 2,000,000 URLs': 30, 'Zipf, 20,000 URLs': 10 };
  const targets: [string, number, string, boolean][] = results.map((r) => {
    const want = wanted[r.shape.name] ?? 8;
    return [`robots-wasm / robots-parser, ${r.shape.name}`, r.speed, `>= ${want}x`, r.speed >= want];
  });
  if (!judgeBytes) return targets;
  const bytes = Math.max(...results.map((r) => r.byContender['robots-wasm'].memory.total / r.byContender['robots-parser'].memory.total));
  targets.push(['bytes per cached host / robots-parser (the highest over the shapes)', bytes, '<= 0.5x', bytes <= 0.5]);
  return targets;
}

/** Runs every shape, prints the tables and the targets, and writes the JSON; returns the results. */
export function runFrontierGroup(options: FrontierOptions): { results: ShapeResult[]; targets: { name: string; value: number; wanted: string; met: boolean }[] } {
  const dirs = [...defaultHostDirs(), ...options.corpus];
  const strings = options.strings ?? 'text';
  const timing: Timing = { runs: 3, strings, ...(options.quick ? { minPhaseMs: 20, rounds: 1 } : { minPhaseMs: 200, rounds: options.rounds ?? FRONTIER_ROUNDS }) };
  const hostCount = loadHostFiles(dirs).length;
  const results = shapes(options.quick, hostCount).map((shape) => runShape(dirs, shape, timing));
  for (const result of results) printShape(result);
  const targets = frontierTargets(results, hostCount >= BYTES_TARGET_HOSTS);
  printTable('Frontier targets', ['target', 'measured', 'wanted', ''], targets.map(([name, value, wanted, ok]) => [name, value.toFixed(2), wanted, ok ? 'met' : 'NOT MET']));
  if (hostCount < BYTES_TARGET_HOSTS) console.log(`\nBytes per cached host are judged over ${BYTES_TARGET_HOSTS.toLocaleString('en')} hosts or more (--corpus DIR): over ${hostCount}, they are too small a difference of heap snapshots.`);
  const corpus = options.corpus.length === 0 ? '' : `-${options.corpus.map((dir) => basename(dir)).join('+')}`;
  const file = `frontier${corpus}${strings === 'href' ? '-href' : ''}.json`;
  const out = { date: new Date().toISOString(), quick: options.quick, dirs, seed: SEED, ...timing, results, targets: targets.map(([name, value, wanted, met]) => ({ name, value, wanted, met })) };
  writeFileSync(new URL(`../../bench/${file}`, import.meta.url), `${JSON.stringify(out, null, 2)}\n`);
  console.log(`\nbench/${file} written`);
  return { results, targets: out.targets };
}
