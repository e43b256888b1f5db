// The fleet pacing benchmark (part of the pacer group: `npm run bench -- pacer`): 4 processes,
// each with a Pacer on a RobotsCache on one Redis, request every one of 2,000 origins
// (`--quick`: 200) twice, all at once. Each origin's robots.txt asks its own Crawl-delay, so
// the ideal schedule gives each origin its 8 starts exactly one delay apart, and the whole run
// lasts 7 times the longest delay. Measured: the run's length against that ideal, how close
// each origin's starts came to its delay (politeness) and to the ideal (throughput), and the
// Redis calls per start. The children are bench/pacer-fleet-child.ts.

import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import type { PacerFleetChildResult, PacerFleetJob } from './pacer-fleet-child.js';
import { redisServerInstalled, startRedis } from './fleet.js';
import { median } from './measure.js';
import { formatRatio, printTable } from './report.js';

const AGENT = 'ExampleBot';
const PROCESSES = 4;
const PER_PROCESS = 2;
/** The Crawl-delays the origins ask, in seconds, dealt round-robin. */
const DELAYS = [0.25, 0.5, 0.75, 1];
const WANTED_WALL_RATIO = 1.1;
const WANTED_CALLS_PER_START = 1;

/** What the fleet pacing run measured. */
export interface PacerFleetResult {
  origins: number;
  starts: number;
  /** From the first start to the last, against the ideal (the longest delay times the starts per origin less one). */
  wallMs: number;
  idealMs: number;
  wallOverIdeal: number;
  /** Each origin's span (first to last start) over its ideal span: median and largest. */
  spanOverIdeal: { median: number; max: number };
  /** The smallest gap between two starts of one origin over its delay, and how many gaps fell more than 10 ms short. */
  minGapOverDelay: number;
  gapsShortBy10Ms: number;
  /** Ledger calls per start. */
  reservesPerStart: number;
  releasesPerStart: number;
  unshared: number;
  storeEvents: string[];
}

/** One HTTP server per origin on 127.0.0.1, whose robots.txt asks the origin's delay. */
async function startOrigins(count: number): Promise<{ origins: string[]; delays: number[]; close: () => Promise<void> }> {
  const servers: Server[] = [];
  const delays = Array.from({ length: count }, (_, i) => DELAYS[i % DELAYS.length]);
  const origins = await Promise.all(delays.map((delay) => {
    const server = createServer((req, res) => {
      if (req.url !== '/robots.txt') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'max-age=3600' }).end(`User-agent: *\nCrawl-delay: ${delay}\n`);
    });
    servers.push(server);
    return new Promise<string>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
    });
  }));
  const close = () => Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())))).then(() => undefined);
  return { origins, delays, close };
}

/** A child on `job`: resolves `ready` once it has read every robots.txt, then its result after `go()`. */
function startChild(job: PacerFleetJob, live: Set<ChildProcess>): { ready: Promise<void>; go: () => void; done: Promise<PacerFleetChildResult> } {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./pacer-fleet-child.js', import.meta.url)), JSON.stringify(job)], { stdio: ['pipe', 'pipe', 'inherit'] });
  live.add(child);
  const lines: string[] = [];
  let onReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  createInterface({ input: child.stdout! }).on('line', (line) => (line === 'ready' ? onReady() : lines.push(line)));
  const done = new Promise<PacerFleetChildResult>((resolve, reject) => {
    child.once('close', (code) => {
      live.delete(child);
      if (code !== 0) return reject(new Error(`pacer fleet child exited with ${code}`));
      resolve(JSON.parse(lines[lines.length - 1]) as PacerFleetChildResult);
    });
  });
  return { ready, go: () => child.stdin!.end('go\n'), done };
}

/** The per-origin measures of the children's starts. */
function measure(results: PacerFleetChildResult[], origins: string[], delays: number[]): Omit<PacerFleetResult, 'reservesPerStart' | 'releasesPerStart' | 'unshared' | 'storeEvents'> {
  const perOrigin = origins.map((_, o) => results.flatMap((r) => r.starts[o]).sort((a, b) => a - b));
  const all = perOrigin.flat();
  const spans: number[] = [];
  let minGapOverDelay = Infinity;
  let gapsShortBy10Ms = 0;
  perOrigin.forEach((starts, o) => {
    const delayMs = delays[o] * 1000;
    spans.push((starts[starts.length - 1] - starts[0]) / ((starts.length - 1) * delayMs));
    for (let i = 1; i < starts.length; i++) {
      const gap = starts[i] - starts[i - 1];
      minGapOverDelay = Math.min(minGapOverDelay, gap / delayMs);
      if (gap < delayMs - 10) gapsShortBy10Ms++;
    }
  });
  const wallMs = Math.max(...all) - Math.min(...all);
  const idealMs = (PROCESSES * PER_PROCESS - 1) * Math.max(...DELAYS) * 1000;
  return {
    origins: origins.length, starts: all.length, wallMs, idealMs, wallOverIdeal: wallMs / idealMs,
    spanOverIdeal: { median: median(spans), max: Math.max(...spans) }, minGapOverDelay, gapsShortBy10Ms,
  };
}

/** What the fleet pacing group measured: with one slot per origin (the default) and with as many as processes (spacing alone). */
export interface PacerFleetResults {
  oneSlot: PacerFleetResult;
  spacingOnly: PacerFleetResult;
}

/** Runs the fleet twice, prints the tables and targets; undefined when redis-server is not installed. */
export async function runPacerFleet(options: { quick: boolean }): Promise<PacerFleetResults | undefined> {
  if (!redisServerInstalled()) {
    console.log('pacer fleet skipped: redis-server is not installed (apt-get install redis-server)');
    return undefined;
  }
  const originCount = options.quick ? 200 : 2000;
  const redis = await startRedis();
  const servers = await startOrigins(originCount);
  const live = new Set<ChildProcess>();
  try {
    const oneSlot = await runFleet(redis.url, servers, 1, live);
    const spacingOnly = await runFleet(redis.url, servers, PROCESSES, live);
    report(oneSlot, 'maxConcurrentPerOrigin 1 (the default)');
    report(spacingOnly, `maxConcurrentPerOrigin ${PROCESSES}: spacing alone`);
    const rows = [
      ...[['one slot', oneSlot], ['spacing alone', spacingOnly]].map(([name, r]) => {
        const run = r as PacerFleetResult;
        return [`wall time / ideal schedule (${name as string})`, formatRatio(run.wallOverIdeal), `<= ${WANTED_WALL_RATIO}x`, run.wallOverIdeal <= WANTED_WALL_RATIO ? 'met' : 'NOT MET'];
      }),
      ['reserve calls per start (spacing alone)', spacingOnly.reservesPerStart.toFixed(2), `${WANTED_CALLS_PER_START}`, spacingOnly.reservesPerStart <= WANTED_CALLS_PER_START * 1.05 ? 'met' : 'NOT MET'],
    ];
    printTable('Fleet pacing targets', ['target', 'measured', 'wanted', ''], rows);
    return { oneSlot, spacingOnly };
  } finally {
    for (const child of live) child.kill('SIGKILL');
    await servers.close();
    await redis.stop();
  }
}

/** One fleet run: PROCESSES children acquiring every origin's slots at once with `maxConcurrent` slots per origin. */
async function runFleet(redisUrl: string, servers: { origins: string[]; delays: number[] }, maxConcurrent: number, live: Set<ChildProcess>): Promise<PacerFleetResult> {
  const originCount = servers.origins.length;
  const offset = Math.floor(originCount / PROCESSES);
  process.stderr.write(`  pacer fleet: ${PROCESSES} processes x ${originCount} origins, maxConcurrentPerOrigin ${maxConcurrent}...\n`);
  const children = Array.from({ length: PROCESSES }, (_, p) => startChild({
    agent: AGENT, redisUrl, prefix: `pace-${maxConcurrent}:`, perOrigin: PER_PROCESS, maxConcurrent,
    // Each process meets the origins in its own order.
    origins: servers.origins.map((_, i) => servers.origins[(i + p * offset) % originCount]),
  }, live));
  await Promise.all(children.map((c) => c.ready));
  for (const child of children) child.go();
  const results = await Promise.all(children.map((c) => c.done));
  // The children's starts back in the parent's origin order.
  const aligned = results.map((r, p) => ({ ...r, starts: servers.origins.map((_, o) => r.starts[(o - p * offset + originCount) % originCount]) }));
  const starts = aligned.reduce((sum, r) => sum + r.starts.flat().length, 0);
  return {
    ...measure(aligned, servers.origins, servers.delays),
    reservesPerStart: results.reduce((sum, r) => sum + r.reserves, 0) / starts,
    releasesPerStart: results.reduce((sum, r) => sum + r.releases, 0) / starts,
    unshared: results.reduce((sum, r) => sum + r.counts.unshared, 0),
    storeEvents: results.flatMap((r) => r.storeEvents),
  };
}

function report(r: PacerFleetResult, title: string): void {
  const ms = (v: number) => `${Math.round(v).toLocaleString('en')} ms`;
  printTable(`Fleet pacing, ${title}: ${PROCESSES} processes x ${r.origins.toLocaleString('en')} origins, ${PROCESSES * PER_PROCESS} starts each, Crawl-delay ${DELAYS.join('/')} s`, ['measure', 'value'], [
    ['starts', r.starts.toLocaleString('en')],
    ['first to last start / ideal', `${ms(r.wallMs)} / ${ms(r.idealMs)} = ${formatRatio(r.wallOverIdeal)}`],
    ["an origin's span / its ideal: median, largest", `${formatRatio(r.spanOverIdeal.median)}, ${formatRatio(r.spanOverIdeal.max)}`],
    ['smallest gap / delay; gaps over 10 ms short', `${r.minGapOverDelay.toFixed(3)}; ${r.gapsShortBy10Ms}`],
    ['ledger calls per start: reserve, release', `${r.reservesPerStart.toFixed(2)}, ${r.releasesPerStart.toFixed(2)}`],
    ['starts paced alone (store out); store events', `${r.unshared}; ${r.storeEvents.join(', ') || 'none'}`],
  ]);
}
