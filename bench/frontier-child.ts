// One contender of the frontier benchmark in a process of its own (started by bench/frontier.ts
// with `node --expose-gc`, so no other contender's heap or JIT state is in it). Argument: a
// FrontierJob as JSON. It builds the frontier from the seed, measures, writes the verdicts to
// job.verdictsFile, and prints a FrontierMeasurement as JSON on its last line of stdout.

import { writeFileSync } from 'node:fs';
import type { RobotsTxt } from 'robots-wasm';
import { collectGarbage, median, timeMs } from './measure.js';
import { buildFrontier, FRONTIER_AGENTS, type FrontierHost, type FrontierShape, type UrlStrings } from './frontier-inputs.js';

/** What the parent asks of a child. */
export interface FrontierJob {
  contender: ContenderName;
  dirs: string[];
  shape: FrontierShape;
  seed: number;
  strings: UrlStrings;
  /** Timed runs of each phase (the median is reported). */
  runs: number;
  /** Fewest milliseconds a timed run lasts: a phase shorter than that is repeated within the run. */
  minPhaseMs: number;
  verdictsFile: string;
}

/**
 * robots-wasm checks a host's URLs with checkMany; 'robots-wasm checkLines' checks the same URLs
 * held as a crawler that keeps its frontier as bytes holds them (a host's URLs for an agent as
 * UTF-8 lines, encoded before any timing) with checkLines.
 */
export type ContenderName = 'robots-wasm' | 'robots-wasm checkLines' | 'robots-parser';

/** What a child measured (times in ms, over all hosts; memory in bytes, over all hosts). */
export interface FrontierMeasurement {
  hosts: number;
  urls: number;
  /** (host, agent) pairs with URLs in the frontier: the matchers robots-wasm compiles in a run of it. */
  matchers: number;
  /** The whole frontier: parse each host, compile what it needs, check its URLs (median of runs). */
  totalMs: number;
  /** Parsing every host (median of runs). */
  parseMs: number;
  /** Making one agent's matcher and the table its first check needs on every host after parsing it (median of the per-run differences); 0 for robots-parser. */
  compileMs: number;
  /** Checking every URL with every host parsed and compiled beforehand (median of runs). */
  checkMs: number;
  /**
   * robots-wasm (either way of checking): checking every URL with one matcher of a one-rule
   * file that no URL matches (median of runs): what getting URLs in and verdicts out costs,
   * whatever the rules; 0 for robots-parser.
   */
  floorMs: number;
  memory: MemoryFigures;
  /** robots-wasm: URLs on which isAllowed was compared with its checkMany or checkLines (all equal, or the child fails). */
  crossChecked: number;
}

/** Memory held by every host parsed with one agent's matcher, over a baseline taken before. */
export interface MemoryFigures {
  heapUsed: number;
  external: number;
  /** Bytes in live blocks of the WebAssembly memory (robots-wasm). */
  wasmInUse: number;
  /** Growth of the WebAssembly memory itself (robots-wasm; counted in `external`). */
  wasmMemory: number;
  /** The compiled tables of the kept matchers (Matcher#byteLength; robots-wasm), part of wasmInUse. */
  tableBytes: number;
  /** heapUsed + external - wasmMemory + wasmInUse: what the cached hosts hold. */
  total: number;
}

/** A contender, as a crawler uses it: a parsed host, and verdicts for a host's URLs for one agent. */
interface Contender {
  parse(host: FrontierHost): unknown;
  /** Whether the contender compiles anything per agent (robots-wasm's matcher), timed apart from parsing. */
  compiles: boolean;
  /** Compiles what checking for `agent` needs (robots-wasm's matcher); nothing for robots-parser. */
  compile(parsed: unknown, agent: string): void;
  /** Writes the verdicts (1 allowed, 0 not) for `urls` to out[offset...]. */
  check(parsed: unknown, agent: string, urls: string[], out: Uint8Array, offset: number): void;
  release(parsed: unknown): void;
  /** Bytes of WebAssembly memory: in live blocks, and all of it. */
  wasm(): { inUse: number; memory: number };
  /** Bytes of the compiled table for `agent` (robots-wasm); 0 for robots-parser. */
  tableBytes(parsed: unknown, agent: string): number;
}

async function robotsWasm(): Promise<Contender> {
  const { RobotsTxt: Robots, wasmMemoryStats } = await import('robots-wasm');
  return {
    parse: (host) => Robots.parse(host.body),
    compiles: true,
    // byteLength makes the table the first check would (the linear one) without a check.
    compile: (parsed, agent) => void (parsed as RobotsTxt).matcher(agent).byteLength,
    check: (parsed, agent, urls, out, offset) => out.set((parsed as RobotsTxt).matcher(agent).checkMany(urls), offset),
    release: (parsed) => (parsed as RobotsTxt).dispose(),
    tableBytes: (parsed, agent) => (parsed as RobotsTxt).matcher(agent).byteLength,
    wasm: () => {
      const stats = wasmMemoryStats();
      return { inUse: stats.usedBytes, memory: stats.memoryBytes };
    },
  };
}

/** robots-wasm answering from each host's URLs as UTF-8 lines (see ContenderName), encoded here for every host. */
async function robotsWasmLines(hosts: FrontierHost[]): Promise<Contender> {
  const base = await robotsWasm();
  const encoder = new TextEncoder();
  const linesOf = (urls: string[]) => encoder.encode(urls.join('\n'));
  const lines = new Map<string[], Uint8Array>(hosts.flatMap((host) => host.urls.map((urls) => [urls, linesOf(urls)] as const)));
  return {
    ...base,
    // A list not in the frontier (the memory phase's ['/']) is encoded when checked.
    check: (parsed, agent, urls, out, offset) => out.set((parsed as RobotsTxt).matcher(agent).checkLines(lines.get(urls) ?? linesOf(urls)), offset),
  };
}

async function robotsParser(): Promise<Contender> {
  // Loaded here rather than through bench/peers.ts, which imports robots-wasm: this process runs robots-parser alone.
  const { createRequire } = await import('node:module');
  const parser = createRequire(import.meta.url)('robots-parser') as (url: string, body: string) => { isAllowed(url: string, agent: string): boolean | undefined };
  type Parsed = ReturnType<typeof parser>;
  return {
    parse: (host) => parser(`${host.origin}/robots.txt`, host.body),
    compiles: false,
    compile: () => {},
    check: (parsed, agent, urls, out, offset) => {
      const robots = parsed as Parsed;
      for (let i = 0; i < urls.length; i++) out[offset + i] = robots.isAllowed(urls[i], agent) === false ? 0 : 1;
    },
    release: () => {},
    wasm: () => ({ inUse: 0, memory: 0 }),
    tableBytes: () => 0,
  };
}

/** The whole frontier once: each host parsed, its URLs checked for each agent, released. */
function runFrontier(contender: Contender, hosts: FrontierHost[], out: Uint8Array): void {
  let offset = 0;
  for (const host of hosts) {
    const parsed = contender.parse(host);
    offset = checkHost(contender, parsed, host, out, offset);
    contender.release(parsed);
  }
}

/** A host's URLs checked for each agent, the verdicts written to out[offset...]; the next offset. */
function checkHost(contender: Contender, parsed: unknown, host: FrontierHost, out: Uint8Array, offset: number): number {
  FRONTIER_AGENTS.forEach((agent, a) => {
    const urls = host.urls[a];
    if (urls.length === 0) return;
    contender.check(parsed, agent, urls, out, offset);
    offset += urls.length;
  });
  return offset;
}

/** Every host parsed `passes` times (and with `compile`, one agent's matcher compiled), then released. */
function runParse(contender: Contender, hosts: FrontierHost[], compile: boolean, passes: number): void {
  for (let pass = 0; pass < passes; pass++) {
    for (const host of hosts) {
      const parsed = contender.parse(host);
      if (compile) contender.compile(parsed, FRONTIER_AGENTS[0]);
      contender.release(parsed);
    }
  }
}

/**
 * Parse and parse + compile over all hosts, in alternating runs (so a slow spell of the
 * shared machine hits both alike), each run repeating the pass until it lasts `minMs`.
 */
function timeFixedCosts(contender: Contender, hosts: FrontierHost[], runs: number, minMs: number): { parseMs: number; compileMs: number } {
  const compiles = contender.compiles;
  const onePass = timeMs(() => runParse(contender, hosts, true, 1));
  const passes = Math.ceil(minMs / Math.max(onePass, 1e-3));
  const parse: number[] = [];
  const compile: number[] = [];
  for (let r = 0; r < runs; r++) {
    collectGarbage();
    const parseOnly = timeMs(() => runParse(contender, hosts, false, passes)) / passes;
    parse.push(parseOnly);
    if (!compiles) continue;
    collectGarbage();
    compile.push(timeMs(() => runParse(contender, hosts, true, passes)) / passes - parseOnly);
  }
  return { parseMs: median(parse), compileMs: compiles ? Math.max(0, median(compile)) : 0 };
}

/** Checking alone: every host parsed and its matchers compiled first, then all URLs checked (median of runs). */
function timeChecks(contender: Contender, hosts: FrontierHost[], runs: number, minMs: number, out: Uint8Array): number {
  const parsed = hosts.map((host) => {
    const p = contender.parse(host);
    FRONTIER_AGENTS.forEach((agent, a) => host.urls[a].length > 0 && contender.compile(p, agent));
    return p;
  });
  const ms = medianMs(runs, minMs, () => {
    let offset = 0;
    hosts.forEach((host, h) => (offset = checkHost(contender, parsed[h], host, out, offset)));
  });
  for (const p of parsed) contender.release(p);
  return ms;
}

/** A one-rule file no frontier URL matches: its checks cost what any check costs at least. */
const FLOOR_BODY = 'User-agent: *\nDisallow: /robots-wasm-floor\n';

/** Every host's URLs checked, for each agent, with FLOOR_BODY parsed once in place of the host's own file (median of runs). */
function timeFloor(contender: Contender, hosts: FrontierHost[], runs: number, minMs: number, out: Uint8Array): number {
  const floor = contender.parse({ origin: 'https://floor.example', body: FLOOR_BODY, urls: [[], []] });
  const oneRule: Contender = { ...contender, check: (_parsed, agent, urls, verdicts, offset) => contender.check(floor, agent, urls, verdicts, offset) };
  const ms = medianMs(runs, minMs, () => {
    let offset = 0;
    for (const host of hosts) offset = checkHost(oneRule, undefined, host, out, offset);
  });
  contender.release(floor);
  return ms;
}

/**
 * Memory of every host parsed, kept alive with what answered the first agent's URLs (robots-
 * wasm: its matcher, with the table its checks made), after a full collection. The baseline is
 * taken after every host has been parsed, compiled, checked and released once, so that what a
 * contender sets up once (robots-wasm's module, its fixed state, batch area, and the scratch
 * block that grows to the largest file) is not counted per host.
 */
function measureMemory(contender: Contender, hosts: FrontierHost[]): MemoryFigures {
  // One verdicts array for the run and the checks below, alive until the last snapshot: freed
  // between the two, its bytes would count against the hosts.
  const verdicts = new Uint8Array(hosts.reduce((sum, host) => sum + host.urls[0].length + host.urls[1].length, 0));
  runFrontier(contender, hosts, verdicts);
  const snapshot = () => {
    collectGarbage();
    collectGarbage();
    const usage = process.memoryUsage();
    return { heapUsed: usage.heapUsed, external: usage.external, ...contender.wasm() };
  };
  const before = snapshot();
  const kept = hosts.map((host) => {
    // Checked as a crawler checks, with no table made beforehand: a first check whose batch
    // would repay the full table makes no linear one, which would be left in the thread's one
    // linear area and counted against the hosts.
    const parsed = contender.parse(host);
    // A host without URLs for this agent is still checked once: a cached host has answered.
    const urls = host.urls[0].length > 0 ? host.urls[0] : ['/'];
    contender.check(parsed, FRONTIER_AGENTS[0], urls, verdicts, 0);
    return parsed;
  });
  const after = snapshot();
  verdicts.fill(0);
  const tableBytes = kept.reduce((sum: number, parsed) => sum + contender.tableBytes(parsed, FRONTIER_AGENTS[0]), 0);
  for (const parsed of kept) contender.release(parsed);
  const heapUsed = after.heapUsed - before.heapUsed;
  const external = after.external - before.external;
  const wasmInUse = after.inUse - before.inUse;
  const wasmMemory = after.memory - before.memory;
  return { heapUsed, external, wasmInUse, wasmMemory, tableBytes, total: heapUsed + external - wasmMemory + wasmInUse };
}

/** robots-wasm only: isAllowed on every 61st URL equals what checkMany (or checkLines) answered in `verdicts`. */
async function crossCheck(hosts: FrontierHost[], verdicts: Uint8Array): Promise<number> {
  const { RobotsTxt: Robots } = await import('robots-wasm');
  let offset = 0;
  let compared = 0;
  for (const host of hosts) {
    const robots = Robots.parse(host.body);
    FRONTIER_AGENTS.forEach((agent, a) => {
      const urls = host.urls[a];
      const matcher = robots.matcher(agent);
      for (let i = (61 - (offset % 61)) % 61; i < urls.length; i += 61, compared++) {
        if (matcher.isAllowed(urls[i]) !== (verdicts[offset + i] === 1)) {
          throw new Error(`robots-wasm: isAllowed and the checks differ on ${urls[i]} for ${agent}`);
        }
      }
      offset += urls.length;
    });
    robots.dispose();
  }
  return compared;
}

/**
 * Milliseconds per call of `fn`, the median of `runs` timed runs. A first call decides how many
 * calls a run makes so that it lasts `minMs`; it counts as the first run when it lasts that long
 * by itself (a pass of millions of URLs), and warms up otherwise.
 */
function medianMs(runs: number, minMs: number, fn: () => void): number {
  collectGarbage();
  const first = timeMs(fn);
  const calls = Math.max(1, Math.ceil(minMs / Math.max(first, 1e-3)));
  const times: number[] = calls === 1 ? [first] : [];
  while (times.length < runs) {
    collectGarbage();
    times.push(timeMs(() => {
      for (let c = 0; c < calls; c++) fn();
    }) / calls);
  }
  return median(times);
}

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2]) as FrontierJob;
  const hosts = buildFrontier(job.dirs, job.shape, job.seed, job.strings);
  const contender = job.contender === 'robots-parser' ? await robotsParser() : job.contender === 'robots-wasm' ? await robotsWasm() : await robotsWasmLines(hosts);
  const wasm = job.contender !== 'robots-parser';
  const urls = hosts.reduce((sum, host) => sum + host.urls[0].length + host.urls[1].length, 0);
  const matchers = hosts.reduce((sum, host) => sum + host.urls.filter((list) => list.length > 0).length, 0);
  const verdicts = new Uint8Array(urls);
  // Memory first, while the process holds nothing but the inputs.
  const memory = measureMemory(contender, hosts);
  const { parseMs, compileMs } = timeFixedCosts(contender, hosts, job.runs, job.minPhaseMs);
  const checkMs = timeChecks(contender, hosts, job.runs, job.minPhaseMs, verdicts);
  const totalMs = medianMs(job.runs, job.minPhaseMs, () => runFrontier(contender, hosts, verdicts));
  const crossChecked = wasm ? await crossCheck(hosts, verdicts) : 0;
  writeFileSync(job.verdictsFile, verdicts);
  // After the verdicts are written: this phase writes its own over them.
  const floorMs = wasm ? timeFloor(contender, hosts, job.runs, job.minPhaseMs, verdicts) : 0;
  const result: FrontierMeasurement = { hosts: hosts.length, urls, matchers, totalMs, parseMs, compileMs, checkMs, floorMs, memory, crossChecked };
  console.log(JSON.stringify(result));
}

await main();
