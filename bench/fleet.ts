// The fleet benchmark (`npm run bench -- fleet [--quick]`, and the last group of `npm run bench`):
// crawler processes sharing robots.txt state through Redis (issue 32). The parent starts a
// redis-server and one HTTP server per origin on 127.0.0.1, builds a Zipf frontier over the
// origins, and runs child processes (bench/fleet-child.ts): 4 crawler processes with the store
// and without it, in alternating rounds, counting the robots.txt requests the servers see; and
// one process timing checkMany with every origin cached, with the store and without. Prints
// the tables and the targets, and writes bench/fleet.json.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultHostDirs, loadHostFiles, rulePatterns, zipfSplit } from './frontier-inputs.js';
import { interleaveRuns, urlsFromPatterns } from './inputs.js';
import type { FleetChildResult, FleetJob, WarmResult } from './fleet-child.js';
import { machineInfo, median } from './measure.js';
import { formatRatio, printTable } from './report.js';

const AGENT = 'ExampleBot';
const SEED = 37;
const PROCESSES = 4;
/** URLs a process takes from the frontier at a time, as a worker pulling from a shared queue. */
const CHUNK = 1000;
/** Rounds of the fleet runs (each: with the store, then without). */
const ROUNDS = 3;
const WANTED_WARM_RATIO = 1.1;

/** What to run: the sizes of --quick or the full ones. */
export interface FleetOptions {
  quick: boolean;
}

/** One fleet run: 4 processes over the frontier, with or without the store. */
export interface FleetRun {
  /** From the first spawn to the last process's answer. */
  wallMs: number;
  /** robots.txt requests the origins' servers received. */
  requests: number;
  /** The most requests one origin received. */
  maxPerOrigin: number;
  /** Each process's RobotsCache#fetches. */
  fetches: number[];
  storeEvents: string[];
}

/** The group's measurements. */
export interface FleetResult {
  rounds: { store: FleetRun; noStore: FleetRun }[];
  /** Medians over the rounds; the wall ratio is taken within each round. */
  median: { storeWallMs: number; noStoreWallMs: number; storeRequests: number; noStoreRequests: number; wallNoStoreOverStore: number };
  /** robots.txt requests without the store, as the frontier implies: the distinct origins of each process's share. */
  expectedNoStoreFetches: number[];
  warm: WarmResult & { requests: number; nsPerUrlMedian: { store: number; noStore: number }; storeOverNoStore: number };
}

/** The redis-server of the Debian package is on PATH. */
export function redisServerInstalled(): boolean {
  const r = spawnSync('redis-server', ['--version'], { stdio: 'ignore' });
  return r.error === undefined && r.status === 0;
}

/** A port free at the moment on 127.0.0.1 (redis-server cannot pick one itself). */
function freePort(): Promise<number> {
  const probe = createNetServer();
  return new Promise((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** A redis-server on a free loopback port with no persistence, once it says it accepts connections. */
export async function startRedis(): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const stop = () => new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
  try {
    await new Promise<void>((resolve, reject) => {
      let log = '';
      let ready = false;
      const timer = setTimeout(() => reject(new Error('redis-server did not start within 10 s')), 10_000);
      child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${log.slice(-400)}`)));
      // Its log is read to the end, so that the pipe never fills.
      child.stdout.setEncoding('utf8').on('data', (text: string) => {
        if (ready) return;
        log += text;
        if (log.includes('Ready to accept connections')) {
          ready = true;
          clearTimeout(timer);
          resolve();
        }
      });
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `redis://127.0.0.1:${port}`, stop };
}

/** HTTP servers on 127.0.0.1, one an origin, serving the host files round-robin and counting /robots.txt requests. */
/** How long each origin takes to answer: about a round trip to a site across the internet. */
const SITE_LATENCY_MS = 50;

async function startOrigins(count: number, bodies: Buffer[]): Promise<{ origins: string[]; requests: Uint32Array; close: () => Promise<void> }> {
  const requests = new Uint32Array(count);
  const servers: Server[] = [];
  const origins = await Promise.all(Array.from({ length: count }, (_, i) => {
    const body = bodies[i % bodies.length];
    const server = createServer((req, res) => {
      if (req.url !== '/robots.txt') return void res.writeHead(404).end();
      requests[i]++;
      // A site's answer takes a network round trip or more; a loopback one takes none.
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'max-age=3600' }).end(body), SITE_LATENCY_MS);
    });
    servers.push(server);
    return new Promise<string>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
    });
  }));
  const close = () => Promise.all(servers.map((server) => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }))).then(() => undefined);
  return { origins, requests, close };
}

/** `count` URLs split over the origins by a Zipf law, each origin's made from its file's rules, interleaved in runs as a crawl frontier. */
function buildFrontier(origins: string[], bodies: string[], count: number): string[] {
  const counts = zipfSplit(origins.length, count, 1, SEED);
  const patterns = bodies.map(rulePatterns);
  const lists = origins.map((origin, i) => urlsFromPatterns(counts[i], patterns[i % bodies.length], SEED + i, origin));
  return interleaveRuns(lists, count, SEED);
}

/** The frontier's indices each process takes: chunks of CHUNK dealt round-robin. */
function deal(total: number, processes: number): number[][] {
  const shares = Array.from({ length: processes }, () => [] as number[]);
  for (let start = 0; start < total; start += CHUNK) {
    const share = shares[(start / CHUNK) % processes];
    for (let i = start; i < Math.min(total, start + CHUNK); i++) share.push(i);
  }
  return shares;
}

/** The origin of a frontier URL (`http://127.0.0.1:<port>`). */
function originOf(url: string): string {
  return url.slice(0, url.indexOf('/', 7));
}

/** Throws at the first URL whose verdict differs from the reference's. */
function compareVerdicts(reference: Uint8Array, verdicts: Uint8Array, urls: string[], label: string): void {
  for (let i = 0; i < urls.length; i++) {
    if (verdicts[i] !== reference[i]) throw new Error(`fleet: ${label} answers ${verdicts[i]} for ${urls[i]}, the first run ${reference[i]}`);
  }
}

/** The processes and files of one group run. */
class Runner {
  readonly #live = new Set<ChildProcess>();
  readonly #child = fileURLToPath(new URL('./fleet-child.js', import.meta.url));

  /** Runs a child on `job`; its last stdout line as JSON, and when that answer arrived. */
  run<T>(job: FleetJob): Promise<{ result: T; answeredAt: number }> {
    const child = spawn(process.execPath, ['--expose-gc', this.#child, JSON.stringify(job)], { stdio: ['ignore', 'pipe', 'inherit'] });
    this.#live.add(child);
    let out = '';
    let answeredAt = 0;
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      out += text;
      answeredAt = performance.now();
    });
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code) => {
        this.#live.delete(child);
        if (code !== 0) return reject(new Error(`fleet child (${job.kind}) exited with ${code}`));
        const lines = out.trim().split('\n');
        resolve({ result: JSON.parse(lines[lines.length - 1]) as T, answeredAt });
      });
    });
  }

  /** Ends the children still running (after a failure). */
  killAll(): void {
    for (const child of this.#live) child.kill('SIGKILL');
  }
}

/** Runs every measurement, prints the tables and the targets, and writes bench/fleet.json; undefined when redis-server is not installed. */
export async function runFleetGroup(options: FleetOptions): Promise<FleetResult | undefined> {
  if (!redisServerInstalled()) {
    console.log('fleet group skipped: redis-server is not installed (apt-get install redis-server)');
    return undefined;
  }
  const originCount = options.quick ? 200 : 2000;
  const urlCount = options.quick ? 20_000 : 200_000;
  const warmRounds = options.quick ? 7 : 9;
  const minPassMs = options.quick ? 50 : 200;
  const dirs = defaultHostDirs();
  const files = loadHostFiles(dirs);
  const scratch = mkdtempSync(join(tmpdir(), 'robots-wasm-fleet-'));
  const runner = new Runner();
  const redis = await startRedis();
  let servers: Awaited<ReturnType<typeof startOrigins>> | undefined;
  try {
    servers = await startOrigins(originCount, files.map((f) => Buffer.from(f.body)));
    const { origins, requests } = servers;
    const urls = buildFrontier(origins, files.map((f) => f.body), urlCount);
    const shares = deal(urls.length, PROCESSES);
    const shareFiles = shares.map((indices, w) => {
      const file = join(scratch, `share-${w}.txt`);
      writeFileSync(file, `${indices.map((i) => urls[i]).join('\n')}\n`);
      return file;
    });
    const frontierFile = join(scratch, 'frontier.txt');
    writeFileSync(frontierFile, `${urls.join('\n')}\n`);
    const expectedNoStoreFetches = shares.map((indices) => new Set(indices.map((i) => originOf(urls[i]))).size);
    if (new Set(urls.map(originOf)).size !== origins.length) throw new Error('fleet: an origin has no URL in the frontier');

    let reference: Uint8Array | undefined;
    /** The whole frontier's verdicts from the processes' files, checked against the first run's. */
    const verdictsOf = (verdictFiles: string[], label: string) => {
      const verdicts = new Uint8Array(urls.length);
      shares.forEach((indices, w) => {
        const own = readFileSync(verdictFiles[w]);
        indices.forEach((i, k) => (verdicts[i] = own[k]));
      });
      if (reference === undefined) reference = verdicts;
      else compareVerdicts(reference, verdicts, urls, label);
    };
    let prefixes = 0;
    const fleetRun = async (withStore: boolean, label: string): Promise<FleetRun> => {
      requests.fill(0);
      const prefix = `fleet-${++prefixes}:`;
      const verdictFiles = shares.map((_, w) => join(scratch, `verdicts-${w}.bin`));
      const started = performance.now();
      const answers = await Promise.all(shareFiles.map((urlsFile, w) => runner.run<FleetChildResult>({
        kind: 'fleet', agent: AGENT, urlsFile, chunk: CHUNK, store: withStore ? { redisUrl: redis.url, prefix } : undefined, verdictsFile: verdictFiles[w],
      })));
      const wallMs = Math.max(...answers.map((a) => a.answeredAt)) - started;
      verdictsOf(verdictFiles, label);
      return {
        wallMs,
        requests: requests.reduce((a, b) => a + b, 0),
        maxPerOrigin: Math.max(...requests),
        fetches: answers.map((a) => a.result.fetches),
        storeEvents: answers.flatMap((a) => a.result.storeEvents),
      };
    };

    const rounds: FleetResult['rounds'] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      process.stderr.write(`  fleet: round ${round} of ${ROUNDS}, ${PROCESSES} processes with the store, then without...\n`);
      const store = await fleetRun(true, `round ${round} with the store`);
      const noStore = await fleetRun(false, `round ${round} without a store`);
      rounds.push({ store, noStore });
    }

    process.stderr.write('  fleet: per-URL cost with every origin cached...\n');
    requests.fill(0);
    const warmFiles = { store: join(scratch, 'warm-store.bin'), noStore: join(scratch, 'warm-no-store.bin') };
    const { result: warmed } = await runner.run<WarmResult>({
      kind: 'warm', agent: AGENT, urlsFile: frontierFile, chunk: CHUNK, store: { redisUrl: redis.url, prefix: `warm-${++prefixes}:` },
      verdictsFiles: warmFiles, rounds: warmRounds, minPassMs,
    });
    for (const name of ['store', 'noStore'] as const) compareVerdicts(reference!, readFileSync(warmFiles[name]), urls, `the warm process's cache ${name === 'store' ? 'with the store' : 'without a store'}`);
    const ratios = warmed.nsPerUrl.store.map((ns, r) => ns / warmed.nsPerUrl.noStore[r]);
    const warm = {
      ...warmed,
      requests: requests.reduce((a, b) => a + b, 0),
      nsPerUrlMedian: { store: median(warmed.nsPerUrl.store), noStore: median(warmed.nsPerUrl.noStore) },
      storeOverNoStore: median(ratios),
    };

    const result: FleetResult = {
      rounds,
      median: {
        storeWallMs: median(rounds.map((r) => r.store.wallMs)),
        noStoreWallMs: median(rounds.map((r) => r.noStore.wallMs)),
        storeRequests: median(rounds.map((r) => r.store.requests)),
        noStoreRequests: median(rounds.map((r) => r.noStore.requests)),
        wallNoStoreOverStore: median(rounds.map((r) => r.noStore.wallMs / r.store.wallMs)),
      },
      expectedNoStoreFetches,
      warm,
    };
    const problems = report(result, { originCount, urlCount, warmRounds });
    const targets = fleetTargets(result, originCount);
    printTable('Fleet targets', ['target', 'measured', 'wanted', ''], targets.map((t) => [t.name, t.measured, t.wanted, t.met ? 'met' : 'NOT MET']));
    const out = {
      machine: machineInfo(),
      quick: options.quick,
      parameters: { origins: originCount, urls: urlCount, processes: PROCESSES, chunk: CHUNK, rounds: ROUNDS, warmRounds, minPassMs, seed: SEED, agent: AGENT, dirs, files: files.length },
      ...result,
      problems,
      targets,
    };
    writeFileSync(new URL('../../bench/fleet.json', import.meta.url), `${JSON.stringify(out, null, 2)}\n`);
    console.log('\nbench/fleet.json written');
    if (problems.length > 0) throw new Error(`fleet: ${problems.join('; ')}`);
    return result;
  } finally {
    runner.killAll();
    await servers?.close();
    await redis.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** A count with thousands separators. */
function n(value: number): string {
  return value.toLocaleString('en');
}

/** Prints the tables; returns what broke an invariant of the runs (fetch counts that moved, store outages). */
function report(result: FleetResult, size: { originCount: number; urlCount: number; warmRounds: number }): string[] {
  const problems: string[] = [];
  const runs = result.rounds.flatMap((r, i) => [['with the store', r.store, i + 1], ['no store', r.noStore, i + 1]] as const);
  printTable(`Fleet rounds: ${PROCESSES} processes, ${n(size.urlCount)} URLs over ${n(size.originCount)} origins (Zipf), chunks of ${n(CHUNK)} dealt round-robin`,
    ['round', 'run', 'wall s', 'robots.txt requests', 'fetches per process'],
    runs.map(([name, run, round]) => [String(round), name, (run.wallMs / 1000).toFixed(3), n(run.requests), run.fetches.map(n).join(' + ')]));
  for (const [name, run, round] of runs) {
    const fetched = run.fetches.reduce((a, b) => a + b, 0);
    if (fetched !== run.requests) problems.push(`round ${round} ${name}: the processes counted ${fetched} fetches, the servers ${run.requests} requests`);
    if (run.storeEvents.length > 0) problems.push(`round ${round} ${name}: store events ${run.storeEvents.join(', ')}`);
    if (name === 'no store' && run.fetches.some((f, w) => f !== result.expectedNoStoreFetches[w])) {
      problems.push(`round ${round} no store: fetches ${run.fetches.join(' + ')}, the shares' origins ${result.expectedNoStoreFetches.join(' + ')}`);
    }
  }
  const storeTotals = new Set(result.rounds.map((r) => r.store.requests));
  console.log(`\nFetch counts: with the store ${[...storeTotals].map(n).join(', ')} in all in every round (which process fetched an origin is a race); without, ${result.expectedNoStoreFetches.map(n).join(' + ')} (each process's distinct origins) in every round: ${problems.length === 0 ? 'identical' : 'NOT identical'}.`);

  const m = result.median;
  printTable(`Fleet: ${PROCESSES} processes, with the Redis store and without (medians of ${result.rounds.length} rounds)`,
    ['run', 'wall s', 'robots.txt requests', 'requests / origins', 'wall / with the store'],
    [
      ['with the store', (m.storeWallMs / 1000).toFixed(3), n(m.storeRequests), formatRatio(m.storeRequests / size.originCount), '1.00x'],
      ['no store (4 caches)', (m.noStoreWallMs / 1000).toFixed(3), n(m.noStoreRequests), formatRatio(m.noStoreRequests / size.originCount), formatRatio(m.wallNoStoreOverStore)],
    ]);
  console.log(`\nWall time no store / with the store, within each round (median): ${formatRatio(m.wallNoStoreOverStore)}; robots.txt requests ${n(m.noStoreRequests)} without the store, ${n(m.storeRequests)} with it.`);

  const w = result.warm;
  printTable(`Fleet: checkMany per URL with every origin cached locally (one process, ${n(w.urls)} URLs in chunks of ${n(CHUNK)}, ${size.warmRounds} rounds of ${w.passes} passes)`,
    ['cache', 'per-URL ns', 'origins cached', 'fetches (warm / after)', 'store / no store'],
    [
      ['with the store', w.nsPerUrlMedian.store.toFixed(1), n(w.cached.store), w.fetches.store.map(n).join(' / '), formatRatio(w.storeOverNoStore)],
      ['no store', w.nsPerUrlMedian.noStore.toFixed(1), n(w.cached.noStore), w.fetches.noStore.map(n).join(' / '), '1.00x'],
    ]);
  console.log(`\nThe store / no store ratio is taken within each round (median); per round: ${w.nsPerUrl.store.map((ns, r) => (ns / w.nsPerUrl.noStore[r]).toFixed(3)).join(', ')}.`);
  for (const name of ['store', 'noStore'] as const) {
    if (w.cached[name] !== size.originCount || w.fetches[name][0] !== w.fetches[name][1]) {
      problems.push(`warm cache ${name}: ${w.cached[name]} origins cached, fetches ${w.fetches[name].join(' then ')}`);
    }
  }
  if (w.storeEvents.length > 0) problems.push(`warm process: store events ${w.storeEvents.join(', ')}`);
  return problems;
}

/** The group's targets: one fetch per origin for the fleet, and the store free on the hot path. */
function fleetTargets(result: FleetResult, originCount: number): { name: string; measured: string; wanted: string; met: boolean }[] {
  const storeRequests = result.rounds.map((r) => r.store.requests);
  return [
    {
      name: 'robots.txt requests with the store = origins (each round)',
      measured: storeRequests.map(n).join(', '),
      wanted: `= ${n(originCount)}`,
      met: storeRequests.every((r) => r === originCount) && result.rounds.every((r) => r.store.maxPerOrigin === 1),
    },
    {
      name: 'warm per-URL cost, store / no store',
      measured: result.warm.storeOverNoStore.toFixed(3),
      wanted: `<= ${WANTED_WARM_RATIO}x`,
      met: result.warm.storeOverNoStore <= WANTED_WARM_RATIO,
    },
  ];
}
