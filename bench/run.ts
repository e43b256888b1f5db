// npm run bench [-- --quick]: robots-wasm and its peers on the same inputs, in one run.
// Prints the report tables and writes bench/results.json, then runs the pacer group
// (bench/pacer.ts, bench/pacer.json), the frontier group (bench/frontier.ts,
// bench/frontier.json) and the fleet group (bench/fleet.ts, bench/fleet.json).
// `npm run bench -- adversarial` runs the adversarial inputs instead (bench/adversarial.ts)
// and writes bench/adversarial.json; `npm run bench -- frontier [--corpus DIR] [--strings
// href]` the frontier group alone, `npm run bench -- fleet` the fleet group alone,
// `npm run bench -- pacer` the pacer group alone, `npm run bench -- linear [--corpus DIR]` the
// costs behind the linear budget (bench/linear-cost.ts).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RobotsCache, RobotsTxt, type RobotsCacheSnapshot } from 'robots-wasm';
import { RobotsPool } from 'robots-wasm/pool';
import { benchFiles, benchUrls, frontierUrls, syntheticRobots } from './inputs.js';
import { PEERS, robotsParserFor, type PeerChecker } from './peers.js';
import { runAdversarial, runLintAdversarial, runTargets } from './adversarial.js';
import { corpusArgs, runFrontierGroup, stringsArg } from './frontier.js';
import { runFleetGroup } from './fleet.js';
import { runPacerGroup } from './pacer.js';
import { IndependentPair, type PairTask } from './parallel-ceiling.js';
import { printTable, formatRate, formatTime, formatRatio } from './report.js';
import { awaited, collectGarbage, machineInfo, measureRounds, median, type RoundTimes, type Task } from './measure.js';

const quick = process.argv.includes('--quick');
const URL_COUNT = quick ? 30_000 : 1_000_000;
const TASK_MS = quick ? 50 : 600;
// Long enough for V8 to finish tiering the WebAssembly and the JS up before measuring.
const WARMUP_MS = quick ? 50 : 400;
const AGENT = 'ExampleBot';

const ROUNDS = quick ? 2 : 3;
/** Rounds for the rule-count group, whose targets are ratios between its own tasks (the pool group's: POOL_ROUNDS). */
const RATIO_ROUNDS = quick ? 2 : 5;
/**
 * Rounds for the pool group: what two threads got done on the Intel host of the earlier runs
 * swung from 0.9x to 2.3x one thread's from one second to the next (bench/parallel-ceiling.ts),
 * so its ratios need more rounds than the others for a median that holds still.
 */
const POOL_ROUNDS = quick ? 2 : 9;
const CLI_ROUNDS = quick ? 2 : 7;
/** URLs on which each peer's verdicts are compared with robots-wasm's. */
const AGREEMENT_URLS = quick ? 300 : 2000;
/** Origins of the RobotsCache frontier. */
const CACHE_ORIGINS = quick ? 100 : 1000;
/** Fewest URLs a per-URL checker gets per call (the slowest peers take ~1 ms per URL). */
const MIN_SAMPLE = quick ? 50 : 200;

/**
 * Milliseconds per call of each task in each of `rounds` rounds, with this run's timings
 * (measure.ts: measureRounds).
 */
function measureGroup(tasks: Record<string, Task>, minIterations = 3, rounds = ROUNDS): Promise<RoundTimes> {
  return measureRounds(tasks, { taskMs: TASK_MS, warmupMs: WARMUP_MS, minIterations, rounds });
}

/** How many URLs a per-URL checker gets per call: about TASK_MS / 8 of work, at least MIN_SAMPLE. */
function sampleSize(checker: PeerChecker, inputs: string[]): number {
  const probe = Math.min(200, inputs.length);
  const started = performance.now();
  for (let i = 0; i < probe; i++) checker.isAllowed(inputs[i]);
  const perUrl = (performance.now() - started) / probe;
  return Math.max(MIN_SAMPLE, Math.min(inputs.length, Math.floor(TASK_MS / 8 / Math.max(perUrl, 1e-6))));
}

function pathsOf(urls: string[]): string[] {
  return urls.map((url) => {
    const u = new URL(url);
    return u.pathname + u.search;
  });
}

interface FileResult {
  name: string;
  role: string;
  bytes: number;
  rules: number;
  tableBytes: number;
  parseMs: Record<string, number>;
  checksPerSecond: Record<string, number>;
  agreement: Record<string, number>;
  /** Ratios taken within each round (median over rounds): how robots-wasm compares with robots-parser. */
  vsRobotsParser: { checkMany: number; parse: number };
}

async function runFile(file: ReturnType<typeof benchFiles>[number]): Promise<FileResult> {
  const robots = RobotsTxt.parse(file.body, { maxBytes: Infinity });
  const matcher = robots.matcher(AGENT);
  const urls = benchUrls(URL_COUNT, robots, 7);
  const lines = new TextEncoder().encode(urls.join('\n'));
  const parseMs: Record<string, number> = {};
  const checksPerSecond: Record<string, number> = {};
  const agreement: Record<string, number> = {};

  const parseTasks: Record<string, () => unknown> = {
    'robots-wasm': () => {
      const parsed = RobotsTxt.parse(file.body, { maxBytes: Infinity });
      // byteLength makes the table the first check would.
      void parsed.matcher(AGENT).byteLength;
      parsed.dispose();
    },
  };
  for (const peer of PEERS) if (peer.measuresParse) parseTasks[peer.name] = () => peer.parse(file.body, AGENT);
  const parseTimes = await measureGroup(parseTasks, 2);
  Object.assign(parseMs, parseTimes.medians());

  const single = Math.min(urls.length, quick ? 20_000 : 200_000);
  const counts: Record<string, number> = { isAllowed: single, checkMany: urls.length, checkLines: urls.length };
  const checkTasks: Record<string, () => unknown> = {
    isAllowed: () => {
      for (let i = 0; i < single; i++) matcher.isAllowed(urls[i]);
    },
    checkMany: () => matcher.checkMany(urls),
    checkLines: () => matcher.checkLines(lines),
  };
  const google = RobotsTxt.parse(file.body, { mode: 'google', maxBytes: Infinity }).matcher(AGENT);
  const paths = pathsOf(urls.slice(0, 20_000));
  for (const peer of PEERS) {
    const checker = peer.parse(file.body, AGENT);
    const inputs = peer.name === 'robots-txt-guard' ? paths : urls;
    const sample = sampleSize(checker, inputs);
    counts[peer.name] = sample;
    checkTasks[peer.name] = () => {
      for (let i = 0; i < sample; i++) checker.isAllowed(inputs[i]);
    };
    // How often the peer agrees with robots-wasm in google mode (the reference semantics).
    const compared = Math.min(AGREEMENT_URLS, paths.length);
    let same = 0;
    for (let i = 0; i < compared; i++) if (checker.isAllowed(inputs[i]) === google.isAllowed(urls[i])) same++;
    agreement[peer.name] = same / compared;
  }
  const checkTimes = await measureGroup(checkTasks);
  for (const [name, ms] of Object.entries(checkTimes.medians())) checksPerSecond[name] = (counts[name] / ms) * 1000;
  const vsRobotsParser = {
    checkMany: checkTimes.median((ms) => (counts.checkMany / ms.checkMany) / (counts['robots-parser'] / ms['robots-parser'])),
    parse: parseTimes.median((ms) => ms['robots-wasm'] / ms['robots-parser']),
  };
  const rules = matcher.ruleCount;
  const tableBytes = matcher.byteLength;
  robots.dispose();
  return { name: file.name, role: file.role, bytes: file.bytes, rules, tableBytes, parseMs, checksPerSecond, agreement, vsRobotsParser };
}

interface ScalingResult {
  rows: { rules: number; checkMany: number; checkLines: number; tableBytes: number }[];
  /** Fastest rule count's throughput over the slowest's, within each round (median over rounds). */
  slowdown: { checkMany: number; checkLines: number };
}

async function runScaling(): Promise<ScalingResult> {
  const largest = RobotsTxt.parse(syntheticRobots(10_000));
  const urls = benchUrls(URL_COUNT, largest, 11);
  const lines = new TextEncoder().encode(urls.join('\n'));
  const counts = [10, 100, 1000, 10_000];
  const matchers = counts.map((count) => RobotsTxt.parse(syntheticRobots(count)).matcher(AGENT));
  const tasks: Record<string, () => unknown> = {};
  matchers.forEach((matcher, i) => {
    tasks[`checkMany ${counts[i]}`] = () => matcher.checkMany(urls);
    tasks[`checkLines ${counts[i]}`] = () => matcher.checkLines(lines);
  });
  const times = await measureGroup(tasks, 3, RATIO_ROUNDS);
  const ms = times.medians();
  const spread = (path: string) => (round: Record<string, number>) => {
    const perCall = counts.map((count) => round[`${path} ${count}`]);
    return Math.max(...perCall) / Math.min(...perCall);
  };
  const slowdown = { checkMany: times.median(spread('checkMany')), checkLines: times.median(spread('checkLines')) };
  const rows = counts.map((count, i) => ({
    rules: count,
    checkMany: (urls.length / ms[`checkMany ${count}`]) * 1000,
    checkLines: (urls.length / ms[`checkLines ${count}`]) * 1000,
    tableBytes: matchers[i].byteLength,
  }));
  for (const matcher of matchers) matcher.dispose();
  return { rows, slowdown };
}

interface PoolResult {
  rates: Record<string, number>;
  /** Each path's speed over the calling thread's on the same input, within each round (median over rounds). */
  vsCallingThread: Record<string, number>;
  /** pool(2)'s speed over the independent pair's, within each round (median over rounds). */
  poolOfCeiling: Record<PairTask, number>;
  /** The independent pair's speed over one worker alone: how two threads scale on this host. */
  pairOverOneWorker: Record<PairTask, number>;
}

/** The calling-thread task a pool task is compared with. */
function callingThreadOf(name: string): string {
  return name.includes('checkLines') ? 'checkLines, calling thread' : 'checkMany, calling thread';
}

/** The independent pair's task name: two threads, each checking its own copy of the batch. */
function pairTaskName(task: PairTask): string {
  return `${task}, two threads, no pool`;
}

/** One thread of the pair alone: the calling thread's work, on a worker thread. */
function oneWorkerTaskName(task: PairTask): string {
  return `${task}, one worker, no pool`;
}

/** Seed of the pool group's batch (bench/inputs.ts). */
const POOL_SEED = 13;
const PAIR_TASKS: PairTask[] = ['checkLines', 'checkMany'];
const PAIR_TASK_NAMES = new Set(PAIR_TASKS.map(pairTaskName));

/** URLs a task checks per call: the pair checks two copies of the batch. */
function urlsPerCall(name: string, batch: number): number {
  return PAIR_TASK_NAMES.has(name) ? 2 * batch : batch;
}

async function runPool(file: ReturnType<typeof benchFiles>[number]): Promise<PoolResult> {
  const matcher = RobotsTxt.parse(file.body).matcher(AGENT);
  const urls = benchUrls(URL_COUNT, RobotsTxt.parse(file.body), POOL_SEED);
  const lines = new TextEncoder().encode(urls.join('\n'));
  const pools = [1, 2].map((threads) => new RobotsPool({ threads }));
  const tasks: Record<string, Task> = {
    'checkMany, calling thread': () => matcher.checkMany(urls),
    'checkLines, calling thread': () => matcher.checkLines(lines),
  };
  pools.forEach((pool) => {
    tasks[`pool(${pool.threads}).checkMany`] = awaited(() => pool.checkMany(matcher, urls));
    tasks[`pool(${pool.threads}).checkLines`] = awaited(() => pool.checkLines(matcher, lines));
  });
  const pair = new IndependentPair(file.body, AGENT, URL_COUNT, POOL_SEED);
  for (const task of PAIR_TASKS) {
    tasks[pairTaskName(task)] = awaited(() => pair.run(task));
    tasks[oneWorkerTaskName(task)] = awaited(() => pair.run(task, true));
  }
  await pair.ready();
  collectGarbage();
  const times = await measureGroup(tasks, 3, POOL_ROUNDS);
  const rates: Record<string, number> = {};
  const vsCallingThread: Record<string, number> = {};
  for (const [name, value] of Object.entries(times.medians())) {
    rates[name] = (urlsPerCall(name, urls.length) / value) * 1000;
    vsCallingThread[name] = times.median((ms) => (urlsPerCall(name, urls.length) / urls.length) * (ms[callingThreadOf(name)] / ms[name]));
  }
  const perPairTask = (figure: (task: PairTask, ms: Record<string, number>) => number) =>
    Object.fromEntries(PAIR_TASKS.map((task) => [task, times.median((ms) => figure(task, ms))])) as Record<PairTask, number>;
  const poolOfCeiling = perPairTask((task, ms) => ms[pairTaskName(task)] / (2 * ms[`pool(2).${task}`]));
  const pairOverOneWorker = perPairTask((task, ms) => (2 * ms[oneWorkerTaskName(task)]) / ms[pairTaskName(task)]);
  for (const pool of pools) await pool.close();
  await pair.close();
  return { rates, vsCallingThread, poolOfCeiling, pairOverOneWorker };
}

interface CacheResult {
  rates: Record<string, number>;
  /** RobotsCache.checkMany's rate over robots-parser's, within each round (median over rounds). */
  vsRobotsParser: number;
  /** Share of the first URLs on which robots-parser's verdict equals RobotsCache's (rfc mode). */
  agreement: number;
}

/**
 * A crawler's frontier over many origins through RobotsCache (loaded from a snapshot, so no
 * network), against robots-parser kept per origin in a Map, as a crawler would use it.
 */
async function runCache(files: ReturnType<typeof benchFiles>): Promise<CacheResult> {
  const frontier = frontierUrls(files.map((f) => f.body), (body) => RobotsTxt.parse(body), CACHE_ORIGINS, URL_COUNT, 21);
  const urls = frontier.urls;
  const now = Date.now();
  const snapshot: RobotsCacheSnapshot = {
    version: 1,
    entries: [...frontier.bodies].map(([origin, body]) => ({
      status: 'ok', origin, httpStatus: 200, finalUrl: `${origin}/robots.txt`, redirects: 0, fetchedAt: now, expiresAt: now + 86_400_000,
      error: undefined, body: Buffer.from(body).toString('base64'), etag: undefined, lastModified: undefined, unreachableSince: undefined,
    })),
  };
  const cache = RobotsCache.import(snapshot, { agent: AGENT });
  const parsers = new Map([...frontier.bodies].map(([origin, body]) => [origin, robotsParserFor(origin, body, AGENT)]));
  const viaParsers: PeerChecker = { isAllowed: (url) => parsers.get(url.slice(0, url.indexOf('/', 8)))!.isAllowed(url) };
  // Every origin's matcher is compiled before anything is timed.
  const verdicts = await cache.checkMany(urls);
  const compared = Math.min(AGREEMENT_URLS, urls.length);
  let same = 0;
  for (let i = 0; i < compared; i++) if ((verdicts[i] === 1) === viaParsers.isAllowed(urls[i])) same++;
  const single = Math.min(urls.length, quick ? 20_000 : 200_000);
  const counts: Record<string, number> = {
    'RobotsCache.checkMany': urls.length,
    'RobotsCache.isAllowed (await per URL)': single,
    'robots-parser, one per origin': sampleSize(viaParsers, urls),
  };
  const tasks: Record<string, Task> = {
    'RobotsCache.checkMany': awaited(() => cache.checkMany(urls)),
    'RobotsCache.isAllowed (await per URL)': awaited(async () => {
      for (let i = 0; i < single; i++) await cache.isAllowed(urls[i]);
    }),
    'robots-parser, one per origin': () => {
      for (let i = 0; i < counts['robots-parser, one per origin']; i++) viaParsers.isAllowed(urls[i]);
    },
  };
  collectGarbage();
  const times = await measureGroup(tasks);
  const rates: Record<string, number> = {};
  for (const [name, ms] of Object.entries(times.medians())) rates[name] = (counts[name] / ms) * 1000;
  const rate = (ms: Record<string, number>, name: string) => counts[name] / ms[name];
  const vsRobotsParser = times.median((ms) => rate(ms, 'RobotsCache.checkMany') / rate(ms, 'robots-parser, one per origin'));
  cache.clear();
  return { rates, vsRobotsParser, agreement: same / compared };
}

/**
 * The CLI's `check` on a file of URL lines against the library's checkLines on the same bytes.
 * A CLI run pays a fixed start (Node, modules, WebAssembly) that a 1M-line file does not
 * amortise on this machine, so the run on an empty file is measured too and the throughput
 * compared is per URL beyond that start; both figures are reported.
 */
function runCli(file: ReturnType<typeof benchFiles>[number]): Record<string, number> {
  const dir = mkdtempSync(join(tmpdir(), 'robots-wasm-bench-'));
  const robotsFile = join(dir, 'robots.txt');
  const urlsFile = join(dir, 'urls.txt');
  const emptyFile = join(dir, 'empty.txt');
  writeFileSync(robotsFile, file.body);
  const bytes = new TextEncoder().encode(`${benchUrls(URL_COUNT, RobotsTxt.parse(file.body), 17).join('\n')}\n`);
  writeFileSync(urlsFile, bytes);
  writeFileSync(emptyFile, '');
  const cli = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
  const time = (args: string[]) => {
    const start = performance.now();
    const r = spawnSync(process.execPath, [cli, 'check', robotsFile, '--agent', AGENT, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) throw new Error(`robots-wasm check exited with ${r.status}`);
    return performance.now() - start;
  };
  const matcher = RobotsTxt.parse(file.body).matcher(AGENT);
  for (let i = 0; i < 3; i++) matcher.checkLines(bytes);
  collectGarbage();
  const out: Record<string, number[]> = { library: [], start: [], filter: [], report: [], filterVsLibrary: [], reportVsLibrary: [] };
  // Each figure here is one process run, so a slow spell of this shared machine moves it
  // more than a tinybench median: more rounds. The per-URL ratios are taken within each round
  // and then the median over rounds, like every other ratio here: a difference of two
  // medians taken apart (report minus start-up) moved from 1.29x to 1.95x between two runs an
  // hour apart, when measuring again gave 1.35x.
  for (let round = 0; round < CLI_ROUNDS; round++) {
    const start = performance.now();
    matcher.checkLines(bytes);
    const library = performance.now() - start;
    const startUp = time(['--filter', emptyFile]);
    const filter = time(['--filter', urlsFile]);
    const report = time([urlsFile]);
    out.library.push(library);
    out.start.push(startUp);
    out.filter.push(filter);
    out.report.push(report);
    out.filterVsLibrary.push((filter - startUp) / library);
    out.reportVsLibrary.push((report - startUp) / library);
  }
  rmSync(dir, { recursive: true, force: true });
  return Object.fromEntries(Object.entries(out).map(([name, values]) => [name, median(values)]));
}

async function main(): Promise<void> {
  const started = performance.now();
  const machine = machineInfo();
  const onMachine = `${machine.cpu}, ${machine.cores} cores, Node ${machine.node}`;
  if (process.argv.includes('frontier')) {
    const strings = stringsArg(process.argv);
    console.log(`robots-wasm frontier benchmark${quick ? ' (--quick)' : ''}, URL strings as ${strings === 'href' ? 'URL.href gives them' : 'split from text'}; ${onMachine}`);
    runFrontierGroup({ quick, corpus: corpusArgs(process.argv), strings });
    return;
  }
  if (process.argv.includes('fleet')) {
    console.log(`robots-wasm fleet benchmark${quick ? ' (--quick)' : ''}; ${onMachine}`);
    await runFleetGroup({ quick });
    return;
  }
  if (process.argv.includes('pacer')) {
    console.log(`robots-wasm pacer benchmark${quick ? ' (--quick)' : ''}; ${onMachine}`);
    await runPacerGroup({ quick });
    return;
  }
  if (process.argv.includes('linear')) {
    console.log(`robots-wasm linear budget costs; ${onMachine}`);
    // Loaded only here: it runs the library's sources, a second copy beside the package's.
    const { runLinearCostGroup } = await import('./linear-cost.js');
    runLinearCostGroup(corpusArgs(process.argv));
    return;
  }
  console.log(`robots-wasm benchmark${quick ? ' (--quick)' : ''}: ${URL_COUNT.toLocaleString('en')} URLs per file; ${onMachine}\n`);
  const files = benchFiles();
  if (process.argv.includes('adversarial')) {
    const normal = files.find((f) => f.role === 'typical 3 KB')!;
    const adversarial = runAdversarial(normal.body, normal.name);
    const targets = runTargets();
    const lint = runLintAdversarial(normal.body);
    writeFileSync(new URL('../../bench/adversarial.json', import.meta.url), `${JSON.stringify({ machine, adversarial, targets, lint }, null, 2)}\n`);
    console.log('\nbench/adversarial.json written');
    return;
  }
  // The CLI and the pool first, each timed after a full collection (in runCli, runPool):
  // their child processes and worker threads would otherwise share the two cores with the
  // garbage collector's background threads, which doubled the CLI's per-URL ratio at the end
  // of a full run.
  const poolFile = files.find((f) => f.role === 'large')!;
  process.stderr.write('  cli...\n');
  const cli = runCli(poolFile);
  process.stderr.write('  pool...\n');
  const pool = await runPool(poolFile);
  const fileResults: FileResult[] = [];
  for (const file of files) {
    process.stderr.write(`  ${file.name}...\n`);
    fileResults.push(await runFile(file));
  }
  process.stderr.write('  rule-count scaling...\n');
  const scaling = await runScaling();
  process.stderr.write('  RobotsCache...\n');
  const cache = await runCache(files);

  const peers = PEERS.map((p) => p.name);
  printTable('Parse + compile, per file (robots-wasm: parse, and make the table for one agent\'s first check)',
    ['file', 'bytes', 'robots-wasm', ...peers.filter((p) => p !== 'robots-txt-guard'), 'vs robots-parser'],
    fileResults.map((r) => [r.name, r.bytes.toLocaleString('en'), formatTime(r.parseMs['robots-wasm']),
      ...peers.filter((p) => p !== 'robots-txt-guard').map((p) => formatTime(r.parseMs[p])),
      formatRatio(1 / r.vsRobotsParser.parse)]));
  printTable('Checks per second, full URLs, one core',
    ['file', 'rules', 'isAllowed', 'checkMany', 'checkLines', ...peers, 'checkMany / robots-parser'],
    fileResults.map((r) => [r.name, String(r.rules), formatRate(r.checksPerSecond['isAllowed']), formatRate(r.checksPerSecond['checkMany']),
      formatRate(r.checksPerSecond['checkLines']), ...peers.map((p) => formatRate(r.checksPerSecond[p])),
      formatRatio(r.vsRobotsParser.checkMany)]));
  printTable(`Compiled table size, and agreement of each peer with robots-wasm google mode on ${AGREEMENT_URLS.toLocaleString('en')} URLs`,
    ['file', 'file bytes', 'table bytes', 'table / file', ...peers],
    fileResults.map((r) => [r.name, r.bytes.toLocaleString('en'), r.tableBytes.toLocaleString('en'), formatRatio(r.tableBytes / r.bytes),
      ...peers.map((p) => `${(r.agreement[p] * 100).toFixed(1)}%`)]));
  printTable('Throughput against rule count (synthetic literal rules, same URLs)',
    ['rules', 'checkMany', 'checkLines', 'table bytes'],
    [...scaling.rows.map((s) => [s.rules.toLocaleString('en'), formatRate(s.checkMany), formatRate(s.checkLines), s.tableBytes.toLocaleString('en')]),
      ['slowdown, fastest / slowest', formatRatio(scaling.slowdown.checkMany), formatRatio(scaling.slowdown.checkLines), '']]);
  printTable(`RobotsPool, ${URL_COUNT.toLocaleString('en')} URLs, ${poolFile.name}`,
    ['path', 'checks/s', 'vs calling thread'],
    Object.entries(pool.rates).map(([name, rate]) => [name, formatRate(rate), formatRatio(pool.vsCallingThread[name])]));
  // A blank line first: a line right after a Markdown table would be read as one of its rows.
  console.log(`\n"No pool": worker threads that each check their own copy of the batch, two at the same time or one alone. Two did ${formatRatio(pool.pairOverOneWorker.checkLines)} one's work with checkLines and ${formatRatio(pool.pairOverOneWorker.checkMany)} with checkMany: what the host let two threads do in this run. pool(2) reached ${formatRatio(pool.poolOfCeiling.checkLines)} of the two with checkLines and ${formatRatio(pool.poolOfCeiling.checkMany)} with checkMany (each figure within each round, median).`);

  printTable(`RobotsCache, ${URL_COUNT.toLocaleString('en')} URLs over ${CACHE_ORIGINS.toLocaleString('en')} origins (runs of 1-64 URLs per origin; the bench files' robots.txt in turn)`,
    ['path', 'checks/s', 'vs robots-parser'],
    Object.entries(cache.rates).map(([name, rate]) => [name, formatRate(rate),
      formatRatio(rate / cache.rates['robots-parser, one per origin'])]));
  console.log(`\nRobotsCache.checkMany / robots-parser within each round (median): ${formatRatio(cache.vsRobotsParser)}; robots-parser agrees with RobotsCache (rfc) on ${(cache.agreement * 100).toFixed(1)}% of the first ${Math.min(AGREEMENT_URLS, URL_COUNT).toLocaleString('en')} URLs.`);

  const cliRate = (ms: number) => (URL_COUNT / ms) * 1000;
  printTable(`CLI check, ${URL_COUNT.toLocaleString('en')} URL lines from a file, ${poolFile.name}`,
    ['path', 'wall time', 'checks/s after start-up', 'per-URL time vs library'],
    [
      ['library checkLines (in process)', formatTime(cli.library), formatRate(cliRate(cli.library)), '1.00x'],
      ['robots-wasm check, empty file (start-up)', formatTime(cli.start), '', ''],
      // The rate after start-up from the per-round ratio, so the two columns say the same thing.
      ['robots-wasm check --filter', formatTime(cli.filter), formatRate(cliRate(cli.library * cli.filterVsLibrary)), formatRatio(cli.filterVsLibrary)],
      ['robots-wasm check (verdict lines)', formatTime(cli.report), formatRate(cliRate(cli.library * cli.reportVsLibrary)), formatRatio(cli.reportVsLibrary)],
    ]);

  const byRole = (role: string) => fileResults.find((r) => r.role === role)!;
  const minRate = (key: string, roles: string[]) => Math.min(...roles.map((role) => byRole(role).checksPerSecond[key]));
  const rpRatio = (role: string) => byRole(role).vsRobotsParser.checkMany;
  const parseRatio = (role: string) => byRole(role).vsRobotsParser.parse;
  const targets: [string, number, string, boolean][] = [
    ['checkMany / robots-parser, small and medium', Math.min(rpRatio('small'), rpRatio('medium')), '>= 30x', Math.min(rpRatio('small'), rpRatio('medium')) >= 30],
    ['checkMany checks/s, small and medium', minRate('checkMany', ['small', 'medium']), '>= 5M/s', minRate('checkMany', ['small', 'medium']) >= 5e6],
    ['checkLines checks/s, small and medium', minRate('checkLines', ['small', 'medium']), '>= 15M/s', minRate('checkLines', ['small', 'medium']) >= 15e6],
    ['checkMany, 10 -> 10,000 literal rules: slowdown', scaling.slowdown.checkMany, '<= 2x', scaling.slowdown.checkMany <= 2],
    ['checkLines, 10 -> 10,000 literal rules: slowdown', scaling.slowdown.checkLines, '<= 2x', scaling.slowdown.checkLines <= 2],
    ['checkMany / robots-parser, huge (~1,300 rules)', rpRatio('huge, wildcards'), '>= 300x', rpRatio('huge, wildcards') >= 300],
    ['parse+compile / robots-parser parse, largest < 500 KiB', parseRatio('largest < 500 KiB'), '< 0.33', parseRatio('largest < 500 KiB') < 1 / 3],
    ['parse+compile / robots-parser parse, largest with rules', parseRatio('largest with rules'), '< 0.33', parseRatio('largest with rules') < 1 / 3],
    ['parse+compile of a typical 3 KB file (µs)', byRole('typical 3 KB').parseMs['robots-wasm'] * 1000, '< 30 µs', byRole('typical 3 KB').parseMs['robots-wasm'] * 1000 < 30],
    ['pool(2) / calling thread, checkLines', pool.vsCallingThread['pool(2).checkLines'], '>= 1.7x', pool.vsCallingThread['pool(2).checkLines'] >= 1.7],
    ['pool(2) / calling thread, checkMany', pool.vsCallingThread['pool(2).checkMany'], '>= 1.7x', pool.vsCallingThread['pool(2).checkMany'] >= 1.7],
    ['CLI check (verdict lines) / checkLines, per URL after start-up', cli.reportVsLibrary, '<= 1.5x', cli.reportVsLibrary <= 1.5],
    ['largest table / file bytes', Math.max(...fileResults.filter((r) => r.rules > 0).map((r) => r.tableBytes / r.bytes)), '<= 2x', Math.max(...fileResults.filter((r) => r.rules > 0).map((r) => r.tableBytes / r.bytes)) <= 2],
  ];
  printTable('Targets', ['target', 'measured', 'wanted', ''], targets.map(([name, value, wanted, ok]) =>
    [name, value >= 1000 ? formatRate(value) : value.toFixed(2), wanted, ok ? 'met' : 'NOT MET']));

  const seconds = (performance.now() - started) / 1000;
  const results = { machine, quick, urlCount: URL_COUNT, seconds, files: fileResults, scaling, pool, cli, cache, targets: targets.map(([name, value, wanted, ok]) => ({ name, value, wanted, met: ok })) };
  writeFileSync(new URL('../../bench/results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nbench/results.json written (${seconds.toFixed(0)} s)`);
  collectGarbage();
  await runPacerGroup({ quick });
  // Last, in child processes of their own: a crawler's frontier over many hosts (one round:
  // the group alone runs more), then a fleet of crawlers sharing Redis.
  runFrontierGroup({ quick, corpus: [], rounds: 1 });
  await runFleetGroup({ quick });
}

await main();
