// npm run bench [-- --quick]: robots-wasm and its peers on the same inputs, in one run.
// Prints the report tables and writes bench/results.json.

import { writeFileSync } from 'node:fs';
import { cpus, availableParallelism } from 'node:os';
import { Bench } from 'tinybench';
import { RobotsPool, RobotsTxt, type Matcher } from 'robots-wasm';
import { benchFiles, benchUrls, syntheticRobots } from './inputs.js';
import { PEERS, type PeerChecker } from './peers.js';
import { printTable, formatRate, formatTime, formatRatio } from './report.js';

const quick = process.argv.includes('--quick');
const URL_COUNT = quick ? 100_000 : 1_000_000;
const TASK_MS = quick ? 120 : 600;
// Long enough for V8 to finish tiering the WebAssembly and the JS up before measuring.
const WARMUP_MS = quick ? 150 : 400;
const AGENT = 'ExampleBot';

/** Mean milliseconds per call of fn, measured by tinybench. */
async function measure(fn: () => unknown, minIterations = 3): Promise<number> {
  const bench = new Bench({ time: TASK_MS, iterations: minIterations, warmupTime: WARMUP_MS, warmupIterations: 2 });
  bench.add('task', fn);
  await bench.run();
  const result = bench.tasks[0].result as { latency?: { mean: number }; error?: unknown };
  if (result.latency === undefined) throw new Error(`benchmark task failed: ${String(result.error)}`);
  return result.latency.mean;
}

/** Checks per second of a per-URL checker, on as many URLs as take ~TASK_MS / 4 per call. */
async function peerRate(checker: PeerChecker, inputs: string[]): Promise<{ rate: number; sample: number }> {
  const probeCount = Math.min(200, inputs.length);
  const started = performance.now();
  for (let i = 0; i < probeCount; i++) checker.isAllowed(inputs[i]);
  const perUrl = (performance.now() - started) / probeCount;
  const sample = Math.max(200, Math.min(inputs.length, Math.floor(TASK_MS / 4 / Math.max(perUrl, 1e-6))));
  const ms = await measure(() => {
    for (let i = 0; i < sample; i++) checker.isAllowed(inputs[i]);
  });
  return { rate: (sample / ms) * 1000, sample };
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
}

async function runFile(file: ReturnType<typeof benchFiles>[number]): Promise<FileResult> {
  const robots = RobotsTxt.parse(file.body, { maxBytes: Infinity });
  const matcher = robots.matcher(AGENT);
  const urls = benchUrls(URL_COUNT, robots, 7);
  const lines = new TextEncoder().encode(urls.join('\n'));
  const parseMs: Record<string, number> = {};
  const checksPerSecond: Record<string, number> = {};
  const agreement: Record<string, number> = {};

  parseMs['robots-wasm'] = await measure(() => {
    const parsed = RobotsTxt.parse(file.body, { maxBytes: Infinity });
    parsed.matcher(AGENT);
    parsed.dispose();
  });
  const single = Math.min(urls.length, quick ? 20_000 : 200_000);
  checksPerSecond['isAllowed'] = (single / (await measure(() => {
    for (let i = 0; i < single; i++) matcher.isAllowed(urls[i]);
  }))) * 1000;
  checksPerSecond['checkMany'] = (urls.length / (await measure(() => matcher.checkMany(urls)))) * 1000;
  checksPerSecond['checkLines'] = (urls.length / (await measure(() => matcher.checkLines(lines)))) * 1000;

  const google = RobotsTxt.parse(file.body, { mode: 'google', maxBytes: Infinity }).matcher(AGENT);
  const paths = pathsOf(urls.slice(0, 20_000));
  for (const peer of PEERS) {
    if (peer.measuresParse) parseMs[peer.name] = await measure(() => peer.parse(file.body, AGENT), 2);
    const checker = peer.parse(file.body, AGENT);
    const inputs = peer.name === 'robots-txt-guard' ? paths : urls;
    checksPerSecond[peer.name] = (await peerRate(checker, inputs)).rate;
    // How often the peer agrees with robots-wasm in google mode (the reference semantics).
    const sample = Math.min(2000, paths.length);
    let same = 0;
    for (let i = 0; i < sample; i++) if (checker.isAllowed(inputs[i]) === google.isAllowed(urls[i])) same++;
    agreement[peer.name] = same / sample;
  }
  const rules = matcher.ruleCount;
  const tableBytes = matcher.byteLength;
  robots.dispose();
  return { name: file.name, role: file.role, bytes: file.bytes, rules, tableBytes, parseMs, checksPerSecond, agreement };
}

async function runScaling(): Promise<{ rules: number; checkMany: number; checkLines: number; tableBytes: number }[]> {
  const largest = RobotsTxt.parse(syntheticRobots(10_000));
  const urls = benchUrls(URL_COUNT, largest, 11);
  const lines = new TextEncoder().encode(urls.join('\n'));
  const out = [];
  for (const count of [10, 100, 1000, 10_000]) {
    const matcher: Matcher = RobotsTxt.parse(syntheticRobots(count)).matcher(AGENT);
    out.push({
      rules: count,
      checkMany: (urls.length / (await measure(() => matcher.checkMany(urls)))) * 1000,
      checkLines: (urls.length / (await measure(() => matcher.checkLines(lines)))) * 1000,
      tableBytes: matcher.byteLength,
    });
    matcher.dispose();
  }
  return out;
}

async function runPool(file: ReturnType<typeof benchFiles>[number]): Promise<Record<string, number>> {
  const matcher = RobotsTxt.parse(file.body).matcher(AGENT);
  const urls = benchUrls(URL_COUNT, RobotsTxt.parse(file.body), 13);
  const lines = new TextEncoder().encode(urls.join('\n'));
  const rates: Record<string, number> = {
    'checkMany, calling thread': (urls.length / (await measure(() => matcher.checkMany(urls)))) * 1000,
    'checkLines, calling thread': (urls.length / (await measure(() => matcher.checkLines(lines)))) * 1000,
  };
  for (const threads of [1, 2]) {
    const pool = new RobotsPool({ threads });
    rates[`pool(${threads}).checkMany`] = (urls.length / (await measure(() => pool.checkMany(matcher, urls)))) * 1000;
    rates[`pool(${threads}).checkLines`] = (urls.length / (await measure(() => pool.checkLines(matcher, lines)))) * 1000;
    await pool.close();
  }
  return rates;
}

async function main(): Promise<void> {
  const started = performance.now();
  const machine = { cpu: cpus()[0]?.model ?? 'unknown', cores: availableParallelism(), node: process.version, date: new Date().toISOString() };
  console.log(`robots-wasm benchmark${quick ? ' (--quick)' : ''}: ${URL_COUNT.toLocaleString('en')} URLs per file; ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}\n`);
  const files = benchFiles();
  const fileResults: FileResult[] = [];
  for (const file of files) {
    process.stderr.write(`  ${file.name}...\n`);
    fileResults.push(await runFile(file));
  }
  process.stderr.write('  rule-count scaling...\n');
  const scaling = await runScaling();
  process.stderr.write('  pool...\n');
  const poolFile = files.find((f) => f.role === 'large')!;
  const pool = await runPool(poolFile);

  const peers = PEERS.map((p) => p.name);
  printTable('Parse + compile, per file (robots-wasm: parse and compile the matcher for one agent)',
    ['file', 'bytes', 'robots-wasm', ...peers.filter((p) => p !== 'robots-txt-guard'), 'vs robots-parser'],
    fileResults.map((r) => [r.name, r.bytes.toLocaleString('en'), formatTime(r.parseMs['robots-wasm']),
      ...peers.filter((p) => p !== 'robots-txt-guard').map((p) => formatTime(r.parseMs[p])),
      formatRatio(r.parseMs['robots-parser'] / r.parseMs['robots-wasm'])]));
  printTable('Checks per second, full URLs, one core',
    ['file', 'rules', 'isAllowed', 'checkMany', 'checkLines', ...peers, 'checkMany / robots-parser'],
    fileResults.map((r) => [r.name, String(r.rules), formatRate(r.checksPerSecond['isAllowed']), formatRate(r.checksPerSecond['checkMany']),
      formatRate(r.checksPerSecond['checkLines']), ...peers.map((p) => formatRate(r.checksPerSecond[p])),
      formatRatio(r.checksPerSecond['checkMany'] / r.checksPerSecond['robots-parser'])]));
  printTable('Compiled table size, and agreement of each peer with robots-wasm google mode on 2,000 URLs',
    ['file', 'file bytes', 'table bytes', 'table / file', ...peers],
    fileResults.map((r) => [r.name, r.bytes.toLocaleString('en'), r.tableBytes.toLocaleString('en'), formatRatio(r.tableBytes / r.bytes),
      ...peers.map((p) => `${(r.agreement[p] * 100).toFixed(1)}%`)]));
  printTable('Throughput against rule count (synthetic literal rules, same URLs)',
    ['rules', 'checkMany', 'checkLines', 'table bytes'],
    scaling.map((s) => [s.rules.toLocaleString('en'), formatRate(s.checkMany), formatRate(s.checkLines), s.tableBytes.toLocaleString('en')]));
  printTable(`RobotsPool, ${URL_COUNT.toLocaleString('en')} URLs, ${poolFile.name}`,
    ['path', 'checks/s', 'vs calling thread'],
    Object.entries(pool).map(([name, rate]) => [name, formatRate(rate),
      formatRatio(rate / pool[name.includes('checkLines') ? 'checkLines, calling thread' : 'checkMany, calling thread'])]));

  const byRole = (role: string) => fileResults.find((r) => r.role === role)!;
  const minRate = (key: string, roles: string[]) => Math.min(...roles.map((role) => byRole(role).checksPerSecond[key]));
  const rpRatio = (role: string) => byRole(role).checksPerSecond['checkMany'] / byRole(role).checksPerSecond['robots-parser'];
  const targets: [string, number, string, boolean][] = [
    ['checkMany / robots-parser, small and medium', Math.min(rpRatio('small'), rpRatio('medium')), '>= 30x', Math.min(rpRatio('small'), rpRatio('medium')) >= 30],
    ['checkMany checks/s, small and medium', minRate('checkMany', ['small', 'medium']), '>= 5M/s', minRate('checkMany', ['small', 'medium']) >= 5e6],
    ['checkLines checks/s, small and medium', minRate('checkLines', ['small', 'medium']), '>= 15M/s', minRate('checkLines', ['small', 'medium']) >= 15e6],
    ['checkMany, 10 -> 10,000 literal rules: slowdown', Math.max(...scaling.map((s) => s.checkMany)) / Math.min(...scaling.map((s) => s.checkMany)), '<= 2x', Math.max(...scaling.map((s) => s.checkMany)) / Math.min(...scaling.map((s) => s.checkMany)) <= 2],
    ['checkMany / robots-parser, huge (~1,300 rules)', rpRatio('huge, wildcards'), '>= 300x', rpRatio('huge, wildcards') >= 300],
    ['parse+compile / robots-parser parse, largest < 500 KiB', byRole('largest < 500 KiB').parseMs['robots-wasm'] / byRole('largest < 500 KiB').parseMs['robots-parser'], '< 0.33', byRole('largest < 500 KiB').parseMs['robots-wasm'] / byRole('largest < 500 KiB').parseMs['robots-parser'] < 1 / 3],
    ['parse+compile / robots-parser parse, largest with rules', byRole('largest with rules').parseMs['robots-wasm'] / byRole('largest with rules').parseMs['robots-parser'], '< 0.33', byRole('largest with rules').parseMs['robots-wasm'] / byRole('largest with rules').parseMs['robots-parser'] < 1 / 3],
    ['parse+compile of a typical 3 KB file (µs)', byRole('typical 3 KB').parseMs['robots-wasm'] * 1000, '< 30 µs', byRole('typical 3 KB').parseMs['robots-wasm'] * 1000 < 30],
    ['pool(2) / calling thread, checkLines', pool['pool(2).checkLines'] / pool['checkLines, calling thread'], '>= 1.7x', pool['pool(2).checkLines'] / pool['checkLines, calling thread'] >= 1.7],
    ['pool(2) / calling thread, checkMany', pool['pool(2).checkMany'] / pool['checkMany, calling thread'], '>= 1.7x', pool['pool(2).checkMany'] / pool['checkMany, calling thread'] >= 1.7],
    ['largest table / file bytes', Math.max(...fileResults.filter((r) => r.rules > 0).map((r) => r.tableBytes / r.bytes)), '<= 2x', Math.max(...fileResults.filter((r) => r.rules > 0).map((r) => r.tableBytes / r.bytes)) <= 2],
  ];
  printTable('Targets', ['target', 'measured', 'wanted', ''], targets.map(([name, value, wanted, ok]) =>
    [name, value >= 1000 ? formatRate(value) : value.toFixed(2), wanted, ok ? 'met' : 'NOT MET']));

  const seconds = (performance.now() - started) / 1000;
  const results = { machine, quick, urlCount: URL_COUNT, seconds, files: fileResults, scaling, pool, targets: targets.map(([name, value, wanted, ok]) => ({ name, value, wanted, met: ok })) };
  writeFileSync(new URL('../../bench/results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nbench/results.json written (${seconds.toFixed(0)} s)`);
}

await main();
