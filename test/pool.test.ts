// RobotsPool and the Matchers it is given must share one kernel module, as they do in the
// package: these tests import both from dist/, which `npm test` builds first.
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { Matcher, RobotsTxt, setTableBudget } from '../dist/index.js';
import { packedJobSize, RobotsPool, workerStats } from '../dist/pool/pool.js';
import { corpusFile } from './support/fixtures.js';
import { randomPath, rng } from './support/random.js';
import { baitKeys, keyBait, keyBaitPath } from '../bench/adversarial.js';

const next = rng(5);
const urls = Array.from({ length: 60_000 }, (_, i) => (i % 3 === 0 ? `https://example.com${randomPath(next)}` : randomPath(next)));
const lines = new TextEncoder().encode(urls.join('\n'));
// Planned for three CPUs, so that two workers share the jobs on any host.
const pool = new RobotsPool({ threads: 2, cpus: 3, minUrls: 1000, minBytes: 10_000, jobUrls: 7000, jobBytes: 50_000 });

afterAll(() => pool.close());

describe.each(['rfc', 'google'] as const)('RobotsPool gives the matcher verdicts, mode %s', (mode) => {
  for (const name of ['www.authorstream.com', 'au.indeed.com', 'www.proprofs.com']) {
    it(`${name}: checkMany and checkLines over many jobs`, async () => {
      const matcher = RobotsTxt.parse(corpusFile(name), { mode }).matcher('Bot');
      const expected = matcher.checkMany(urls);
      expect(await pool.checkMany(matcher, urls)).toEqual(expected);
      expect(await pool.checkLines(matcher, lines)).toEqual(matcher.checkLines(lines));
      expect(pool.startedWorkers).toBe(2);
    });
  }
});

describe('table images across threads', () => {
  it('an image goes to a worker thread and back unchanged, and the pool checks with it', async () => {
    const matcher = RobotsTxt.parse(readFileSync(new URL('../bench/data/www.bcg.com', import.meta.url))).matcher('ExampleBot');
    const image = matcher.toBytes();
    // A worker thread loads the image (checksum and structure) and exports it again.
    const code = `
      const { parentPort, workerData } = require('node:worker_threads');
      import(workerData).then(({ Matcher }) => parentPort.once('message', (image) => {
        const matcher = Matcher.fromBytes(image);
        parentPort.postMessage({ image: matcher.toBytes(), verdicts: matcher.checkMany(['/', '/search?q=1']) });
      }));
    `;
    const worker = new Worker(code, { eval: true, workerData: new URL('../dist/index.js', import.meta.url).href });
    const reply = await new Promise<{ image: Uint8Array; verdicts: Uint8Array }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.postMessage(image);
    });
    await worker.terminate();
    expect(reply.image).toEqual(image);
    expect(reply.verdicts).toEqual(matcher.checkMany(['/', '/search?q=1']));
    const back = Matcher.fromBytes(reply.image);
    expect(back.checkLines(lines)).toEqual(matcher.checkLines(lines));
    back.dispose();
    // The pool's workers receive the image the same way.
    expect(await pool.checkMany(matcher, urls)).toEqual(matcher.checkMany(urls));
    expect(await pool.checkLines(matcher, lines)).toEqual(matcher.checkLines(lines));
  });
});

describe('RobotsPool details', () => {
  const matcher = RobotsTxt.parse('user-agent: *\ndisallow: /a\ndisallow: /*%0A\n').matcher('Bot');

  it('URLs holding CR or LF are checked whole, not as lines', async () => {
    const odd = Array.from({ length: 5000 }, (_, i) => (i % 100 === 0 ? `/a\nb${i}` : i % 101 === 0 ? `/x\r${i}` : `/b${i}`));
    expect(await pool.checkMany(matcher, odd)).toEqual(matcher.checkMany(odd));
    // A fetch removes tabs and newlines from a URL ("/\na" is "/a"); wget and Python requests
    // send them encoded ("/x\n" is "/x%0A"), and a URL is allowed only if every reading is.
    expect([matcher.isAllowed('/x\n'), matcher.isAllowed('/\na'), matcher.isAllowed('/x%0A'), matcher.isAllowed('/x')]).toEqual([false, false, false, true]);
  });

  it("a worker's check that builds a text index of its path answers as the calling thread does", async () => {
    // Key bait: each rule's search needs the path's text index, which a worker makes room for.
    const keys = baitKeys(2_000);
    const bait = RobotsTxt.parse(keyBait(2_000)).matcher('Bot');
    const urls = Array.from({ length: 1200 }, (_, i) => (i % 400 === 0 ? keyBaitPath(keys, 40_000, i % 800 === 0) : `/b${i}`));
    const verdicts = await pool.checkMany(bait, urls);
    expect([verdicts[0], verdicts[400], verdicts[1]]).toEqual([0, 1, 1]);
    expect(verdicts).toEqual(bait.checkMany(urls));
  });

  it('packs empty URLs, non-ASCII and URLs longer than a batch overflow area', async () => {
    const huge = `/a${'x'.repeat(70_000)}`;
    const mixed = Array.from({ length: 3000 }, (_, i) => (i === 1500 ? huge : i % 7 === 0 ? '' : i % 5 === 0 ? `/ä${i}` : `/b${i}`));
    const verdicts = await pool.checkMany(matcher, mixed);
    expect(verdicts).toEqual(matcher.checkMany(mixed));
    expect([verdicts[1500], verdicts[0], verdicts[1]]).toEqual([0, 1, 1]);
  });

  it('packs jobs of URLs longer than the room a job starts with', async () => {
    const long = Array.from({ length: 10_000 }, (_, i) => `/${i % 2 === 0 ? 'a' : 'b'}/${i}/${'z'.repeat(150 + (i % 90))}`);
    const verdicts = await pool.checkMany(matcher, long);
    expect(verdicts).toEqual(matcher.checkMany(long));
    expect(Array.from(verdicts.subarray(0, 4))).toEqual([0, 1, 0, 1]);
  });

  it('checkLines of a Node Buffer checks every line and leaves the Buffer as it was', async () => {
    // Buffer.slice() makes views, not copies: a job must not transfer the caller's memory.
    const buffers = [Buffer.from(lines), Buffer.concat([Buffer.from('/a\n'), Buffer.from(lines)]).subarray(3)];
    for (const buffer of buffers) {
      const before = Buffer.from(buffer);
      const verdicts = await pool.checkLines(matcher, buffer);
      expect(verdicts).toHaveLength(urls.length);
      expect(verdicts).toEqual(matcher.checkLines(lines));
      expect(buffer.equals(before)).toBe(true);
    }
  });

  it('leaves a CPU to the calling thread, which checks URLs too: one worker fewer than the CPUs, at most threads', async () => {
    const options = { threads: 2, minUrls: 1000, minBytes: 10_000, jobUrls: 7000, jobBytes: 50_000 };
    for (const [cpus, workers] of [[undefined, Math.min(2, Math.max(1, availableParallelism() - 1))], [1, 1], [2, 1], [3, 2], [8, 2]]) {
      const fresh = new RobotsPool({ ...options, cpus });
      try {
        expect(await fresh.checkLines(matcher, lines)).toEqual(matcher.checkLines(lines));
        expect(await fresh.checkMany(matcher, urls)).toEqual(matcher.checkMany(urls));
        expect([cpus, fresh.startedWorkers]).toEqual([cpus, workers]);
      } finally {
        await fresh.close();
      }
    }
  });

  it('checkMany while the workers are busy: the calling thread checks slices itself, in place', async () => {
    // checkLines hands each worker two jobs before its first await, so the workers have jobs
    // waiting when checkMany starts, and checkMany checks its first slices on the calling thread.
    const busy = pool.checkLines(matcher, lines);
    const mixed = urls.map((url, i) => (i % 4 === 0 ? `/a${url}` : url));
    const verdicts = await pool.checkMany(matcher, mixed);
    expect(verdicts).toEqual(matcher.checkMany(mixed));
    expect(Array.from(verdicts.subarray(0, 8))).toEqual(mixed.slice(0, 8).map((url) => (matcher.isAllowed(url) ? 1 : 0)));
    expect(await busy).toEqual(matcher.checkLines(lines));
  });

  it('checkMany jobs start small, double, and shrink again at the end', () => {
    const sizes = (total: number, max: number, workers: number) => {
      const out: number[] = [];
      for (let from = 0; from < total; from += out[out.length - 1]) out.push(packedJobSize(out.length, total - from, max, workers));
      return out;
    };
    const million = sizes(1_000_000, 65_536, 1);
    expect(million.slice(0, 5)).toEqual([4096, 8192, 16_384, 32_768, 65_536]);
    expect(million.reduce((a, b) => a + b, 0)).toBe(1_000_000);
    expect(Math.max(...million)).toBe(65_536);
    // The second half never grows, and ends in jobs of at most 2048.
    const tail = million.slice(million.indexOf(65_536));
    expect(tail.every((size, i) => i === 0 || size <= tail[i - 1])).toBe(true);
    expect(million.slice(-2).every((size) => size <= 2048)).toBe(true);
    // A jobUrls below the smallest job is still the largest job.
    expect(new Set(sizes(1000, 100, 2))).toEqual(new Set([100]));
    expect(sizes(3000, 65_536, 2).reduce((a, b) => a + b, 0)).toBe(3000);
  });

  it('a pool closed while checkMany is under way rejects it', async () => {
    const closing = new RobotsPool({ threads: 2, minUrls: 1000, jobUrls: 2048 });
    const rejected = expect(closing.checkMany(matcher, urls)).rejects.toThrow(/closed/);
    await new Promise((resolve) => setImmediate(resolve));
    await closing.close();
    await rejected;
  });

  it('small batches run on the calling thread', async () => {
    const local = new RobotsPool({ threads: 2 });
    expect(Array.from(await local.checkMany(matcher, ['/a', '/b']))).toEqual([0, 1]);
    expect(Array.from(await local.checkLines(matcher, new TextEncoder().encode('/a\n/b')))).toEqual([0, 1]);
    expect(local.startedWorkers).toBe(0);
    await local.close();
  });

  it('re-sends tables a worker dropped (tablesPerWorker)', async () => {
    const small = new RobotsPool({ threads: 1, minUrls: 10, tablesPerWorker: 2 });
    const matchers = [0, 1, 2, 3].map((i) => RobotsTxt.parse(`user-agent: *\ndisallow: /p${i}\n`).matcher('Bot'));
    const batch = Array.from({ length: 100 }, (_, i) => `/p${i % 4}`);
    for (let round = 0; round < 3; round++) {
      for (const m of matchers) expect(await small.checkMany(m, batch)).toEqual(m.checkMany(batch));
    }
    await small.close();
  });

  it('misuse is a TypeError; a disposed matcher and a closed pool are errors', async () => {
    expect(() => new RobotsPool({ threads: 0 })).toThrow(/threads must be an integer of at least 1/);
    expect(() => new RobotsPool({ cpus: 1.5 })).toThrow(/cpus must be an integer of at least 1/);
    await expect(pool.checkMany(matcher, 'x' as never)).rejects.toThrow(TypeError);
    await expect(pool.checkMany({} as never, [])).rejects.toThrow(/expected a Matcher/);
    const disposed = RobotsTxt.parse('').matcher('Bot');
    disposed.dispose();
    await expect(pool.checkMany(disposed, ['/'])).rejects.toThrow(/disposed/);
    const closed = new RobotsPool();
    await closed.close();
    await expect(closed.checkMany(matcher, ['/'])).rejects.toThrow(/closed/);
  });

  it('a program that never closes its pool still exits', () => {
    const script = `
      import { RobotsTxt } from 'robots-wasm';
      import { RobotsPool } from 'robots-wasm/pool';
      const pool = new RobotsPool({ threads: 2, cpus: 3, minUrls: 10, jobUrls: 100, minBytes: 100, jobBytes: 1000 });
      const matcher = RobotsTxt.parse('user-agent: *\\ndisallow: /a\\n').matcher('Bot');
      const urls = Array.from({ length: 1000 }, (_, i) => i % 2 ? '/a' : '/b');
      const verdicts = await pool.checkMany(matcher, urls);
      const lines = await pool.checkLines(matcher, new TextEncoder().encode(urls.join('\\n')));
      console.log(verdicts.reduce((a, b) => a + b, 0), lines.reduce((a, b) => a + b, 0), pool.startedWorkers);
    `;
    const dir = new URL('../build/pool-exit/', import.meta.url);
    mkdirSync(dir, { recursive: true });
    const file = new URL('never-closed.mjs', dir);
    writeFileSync(file, script);
    // Would hang (and time out) if an idle worker kept the event loop alive.
    const output = execFileSync(process.execPath, [file.pathname], { encoding: 'utf8', timeout: 20_000 });
    expect(output.trim()).toBe('500 500 2');
  });
});

describe('RobotsPool workers and the table budget', () => {
  const options = { threads: 2, cpus: 3, minUrls: 1000, minBytes: 10_000, jobUrls: 7000, jobBytes: 50_000 };

  it('a disposed matcher has its copies in the workers dropped at once, not at garbage collection', async () => {
    const fresh = new RobotsPool(options);
    try {
      const kept = RobotsTxt.parse(corpusFile('au.indeed.com')).matcher('Bot');
      const disposed = RobotsTxt.parse(corpusFile('www.proprofs.com')).matcher('Bot');
      for (const m of [kept, disposed]) expect(await fresh.checkMany(m, urls)).toEqual(m.checkMany(urls));
      const held = await workerStats(fresh);
      expect(held.map((w) => [w.tables, w.memory.residentTables])).toEqual([[2, 2], [2, 2]]);
      disposed.dispose();
      const after = await workerStats(fresh);
      expect(after.map((w) => [w.tables, w.memory.residentTables])).toEqual([[1, 1], [1, 1]]);
      expect(after.map((w) => w.memory.tableBytes)).toEqual(held.map((w) => w.memory.tableBytes - 16 * Math.ceil(disposed.byteLength / 16)));
      expect(await fresh.checkLines(kept, lines)).toEqual(kept.checkLines(lines));
    } finally {
      await fresh.close();
    }
  });

  it("workers start with the calling thread's budget, and answer the same when it makes them evict", async () => {
    setTableBudget(0);
    const tight = new RobotsPool(options);
    try {
      const matchers = ['au.indeed.com', 'www.proprofs.com', 'www.authorstream.com'].map((name) => RobotsTxt.parse(corpusFile(name)).matcher('Bot'));
      for (let round = 0; round < 2; round++) {
        for (const m of matchers) expect(await tight.checkMany(m, urls)).toEqual(m.checkMany(urls));
      }
      const stats = await workerStats(tight);
      expect(stats.map((w) => [w.memory.tableBudget, w.tables, w.memory.residentTables])).toEqual([[0, 3, 1], [0, 3, 1]]);
      expect(stats.every((w) => w.memory.evictions >= 5)).toBe(true);
    } finally {
      setTableBudget(256 << 20);
      await tight.close();
    }
  });
});
