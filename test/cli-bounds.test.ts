// The CLI's filter in bounded memory on hostile frontiers: real servers on 127.0.0.1, the
// built CLI (dist/cli/main.js) as a child process reporting its peak RSS.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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
  it('a round-robin frontier over origins serving hostile 490 KB files: as much memory for 1,200 origins as for 300, under 512 MB', async () => {
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
      const r = await runCli([], ['filter', '--agent', 'Bot', urls]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(origins.map((o) => `${o}/open\n`).join(''));
      return r.rss;
    };
    const few = await peak(300);
    const many = await peak(1200);
    // Lines waiting for their turn used to hold their origins' files: 1.2 GB at 1,200 origins.
    expect(many).toBeLessThan(512 * 1024 * 1024);
    expect(many / few).toBeLessThan(1.25);
    await stopSites(hostile);
  }, 120_000);
});
