// The CLI's filter in bounded memory on hostile frontiers, and its --cache FILE at scale: large,
// damaged, written by many runs at once, behind a symbolic link. Real servers on 127.0.0.1, the
// built CLI (dist/cli/main.js) as child processes, some reporting their peak RSS.
import { spawn } from 'node:child_process';
import { closeSync, lstatSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { createReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { headerLine, recordLine } from '../dist/cli/cache-records.js';
import { serve, startSites, stopSites } from './support/servers.js';

const CLI = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js');
const RSS = join(import.meta.dirname, 'support', 'report-rss.mjs');
const tmp = mkdtempSync(join(tmpdir(), 'robots-wasm-cli-bounds-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Runs the CLI with `nodeArgs` before it; its exit code, stdout, stderr and peak RSS in bytes. */
function runCli(nodeArgs: string[], args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; rss: number }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeArgs, '--import', RSS, CLI, ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr, rss: Number(/max-rss-kb (\d+)/.exec(stderr)?.[1]) * 1024 }));
  });
}

describe('robots-wasm filter: memory bounded by the cache budget, whatever the frontier order', () => {
  it('a round-robin frontier over origins serving hostile 490 KB files: as much memory for 1,200 origins as for 300, under 576 MB', async () => {
    const body = `User-agent: *\n${Array.from({ length: 24_000 }, (_, r) => `Disallow: /p/r${r}/`).join('\n')}\n`;
    expect(body.length).toBeGreaterThan(480_000);
    const hostile = await startSites(1200, serve(body));
    const peak = async (count: number) => {
      // Every origin once, then every origin again: past the cache's budget, each file is
      // evicted before its origin comes back, and every line waits behind thousands of others.
      const origins = hostile.slice(0, count).map((site) => site.origin);
      const lines = [...origins.map((o) => `${o}/p/r0/x`), ...origins.map((o) => `${o}/open`)];
      const urls = join(tmp, `round-robin-${count}.txt`);
      writeFileSync(urls, lines.map((l) => `${l}\n`).join(''));
      // V8's young generation held as on Node 20 and 22 (Node 24 on lets it grow by 96 MiB):
      // the bound is the CLI's memory, not V8's sizing policy, on every line.
      const r = await runCli(['--max-semi-space-size=16'], ['filter', '--agent', 'Bot', urls]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(origins.map((o) => `${o}/open\n`).join(''));
      return r.rss;
    };
    const few = await peak(300);
    const many = await peak(1200);
    // Lines waiting for their turn used to hold their origins' files: 1.2 GB at 1,200 origins.
    // Now the cache's budget (256 MiB), the fetches in flight and the runtime's own heaps,
    // which newer Node lines size larger; and the 900 more origins cost far less than their
    // files would (440 MB), the heap only settling towards its limit.
    expect(many).toBeLessThan(576 * 1024 * 1024);
    expect(many - few).toBeLessThan((900 * body.length) / 2);
    await stopSites(hostile);
  }, 120_000);
});

/** The origins of a cache file's records, read a line at a time (the header checked). */
async function cachedOrigins(cache: string): Promise<string[]> {
  const origins: string[] = [];
  let header: string | undefined;
  for await (const line of createInterface({ input: createReadStream(cache), crlfDelay: Infinity })) {
    if (header === undefined) header = line;
    else origins.push(JSON.parse(line.slice(9)).origin);
  }
  expect(header).toMatch(/^robots-wasm-cache 2 [0-9]+ [0-9a-f]{32}$/);
  return origins.sort();
}

/** A fresh record for `origin` serving `body`, as the cache file holds it. */
function okRecord(origin: string, body: string) {
  const now = Date.now();
  return {
    status: 'ok', origin, httpStatus: 200, finalUrl: `${origin}/robots.txt`, redirects: 0, fetchedAt: now, expiresAt: now + 3_600_000,
    body: Buffer.from(body).toString('base64'),
  };
}

const RULES = 'User-agent: *\nDisallow: /private\n';

describe('robots-wasm filter --cache: any size, damaged, many runs at once, a symbolic link', () => {
  it('a 200 MB cache file is read and extended by a run under --max-old-space-size=256', async () => {
    const body = `User-agent: *\n${Array.from({ length: 24_000 }, (_, r) => `Disallow: /p/r${r}/`).join('\n')}\n`;
    const dir = mkdtempSync(join(tmp, 'large-'));
    const cache = join(dir, 'cache');
    const seeds = Array.from({ length: 310 }, (_, i) => `https://seed-${i}.example`);
    const fd = openSync(cache, 'w');
    writeSync(fd, headerLine({ generation: 1, id: 'a'.repeat(32) }));
    for (const origin of seeds) writeSync(fd, recordLine(okRecord(origin, body)));
    closeSync(fd);
    expect(statSync(cache).size).toBeGreaterThan(200_000_000);
    const fresh = await startSites(2, serve(RULES));
    // The last seed is still in the cache after the budget evicted the first ones: it is not
    // fetched (its host does not resolve), its rules decide.
    const last = seeds.at(-1)!;
    const lines = [`${last}/p/r0/x`, `${last}/open`, ...fresh.flatMap((site) => [`${site.origin}/private/a`, `${site.origin}/b`])];
    const urls = join(dir, 'urls.txt');
    writeFileSync(urls, lines.map((l) => `${l}\n`).join(''));
    const r = await runCli(['--max-old-space-size=256'], ['filter', '--agent', 'Bot', '--cache', cache, urls]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${last}/open\n${fresh.map((site) => `${site.origin}/b\n`).join('')}`);
    expect(r.stderr.trim()).toMatch(/^max-rss-kb \d+$/);
    expect(await cachedOrigins(cache)).toEqual([...seeds, ...fresh.map((site) => site.origin)].sort());
    expect(readdirSync(dir).sort()).toEqual(['cache', 'urls.txt']);
    await stopSites(fresh);
  }, 120_000);

  it('damaged records are skipped and counted, the rest is read, and the next write leaves them out', async () => {
    const [site, other] = await startSites(2, serve(RULES));
    const dir = mkdtempSync(join(tmp, 'damaged-'));
    const cache = join(dir, 'cache');
    const good = recordLine(okRecord(site.origin, 'User-agent: *\nDisallow: /cached\n'));
    const flipped = recordLine(okRecord('https://flipped.example', RULES)).replace('flipped', 'flopped');
    const badField = recordLine({ ...okRecord('https://bad.example', RULES), status: 'pwned' });
    const longLine = `00000000 ${'x'.repeat(17 * 1024 * 1024)}\n`;
    const truncated = recordLine(okRecord('https://cut.example', RULES)).slice(0, 60);
    writeFileSync(cache, [headerLine({ generation: 7, id: 'b'.repeat(32) }), flipped, 'garbage\n', badField, longLine, good, good, truncated].join(''));
    const urls = join(dir, 'urls.txt');
    writeFileSync(urls, `${site.origin}/cached/a\n${site.origin}/private/a\n${other.origin}/private/a\n${other.origin}/b\n`);
    const r = await runCli([], ['filter', '--agent', 'Bot', '--cache', cache, urls]);
    expect(r.code, r.stderr).toBe(0);
    // The good record decides for its origin: /cached is disallowed and /private is not, unlike the server's file.
    expect(r.stdout).toBe(`${site.origin}/private/a\n${other.origin}/b\n`);
    expect(r.stderr.split('\n')[0]).toBe(`robots-wasm: ${cache}: 6 damaged records skipped`);
    expect(site.hits.get('/robots.txt')).toBeUndefined();
    expect(await cachedOrigins(cache)).toEqual([site.origin, other.origin].sort());
    expect(readFileSync(cache, 'utf8').split('\n')[0]).toMatch(/^robots-wasm-cache 2 8 [0-9a-f]{32}$/);
    await stopSites([site, other]);
  });

  it('8 runs at once, 50 origins each, checkpoints every 20 ms: the file holds all 400 origins', async () => {
    const slow = await startSites(400, (req, res, site) => setTimeout(() => serve(RULES)(req, res, site), 20));
    const dir = mkdtempSync(join(tmp, 'concurrent-'));
    const cache = join(dir, 'cache');
    const runs = Array.from({ length: 8 }, (_, k) => {
      const urls = join(dir, `urls-${k}.txt`);
      writeFileSync(urls, slow.slice(50 * k, 50 * k + 50).map((site) => `${site.origin}/a\n`).join(''));
      return runCli([], ['filter', '--agent', 'Bot', '--concurrency', '4', '--checkpoint', '20', '--cache', cache, urls]);
    });
    const results = await Promise.all(runs);
    for (const [k, r] of results.entries()) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(slow.slice(50 * k, 50 * k + 50).map((site) => `${site.origin}/a\n`).join(''));
    }
    expect(await cachedOrigins(cache)).toEqual(slow.map((site) => site.origin).sort());
    expect(readdirSync(dir).filter((name) => !name.startsWith('urls-'))).toEqual(['cache']);
    await stopSites(slow);
  }, 120_000);

  it('a --cache FILE that is a symbolic link is followed: the target is replaced, the link stays', async () => {
    const [site] = await startSites(1, serve(RULES));
    const dir = mkdtempSync(join(tmp, 'link-'));
    mkdirSync(join(dir, 'real'));
    const target = join(dir, 'real', 'cache');
    const link = join(dir, 'cache');
    // Dangling at first: the run creates the target.
    symlinkSync(join('real', 'cache'), link);
    const urls = join(dir, 'urls.txt');
    writeFileSync(urls, `${site.origin}/a\n${site.origin}/private/a\n`);
    for (let run = 0; run < 2; run++) {
      const r = await runCli([], ['filter', '--agent', 'Bot', '--cache', link, urls]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(`${site.origin}/a\n`);
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect(await cachedOrigins(target)).toEqual([site.origin]);
    }
    // The second run read the file through the link.
    expect(site.hits.get('/robots.txt')).toBe(1);
    expect(readdirSync(dir).sort()).toEqual(['cache', 'real', 'urls.txt']);
    expect(readdirSync(join(dir, 'real'))).toEqual(['cache']);
    await stopSites([site]);
  });
});
