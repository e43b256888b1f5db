#!/usr/bin/env node
// The peak RSS of `robots-wasm filter` over 1,000,000 URL lines, under each Node binary given
// (default: this one), for bench/README.md's "Each Node line". Two frontiers: 1,000 origins on
// 127.0.0.1 serving the bench files in turn, in runs of 1-64 URLs per origin; and one origin
// (www.alaskaair.com) read from stdin. Needs `npm run build`.
//
// usage: node scripts/cli-memory.mjs [NODE[|FLAG...]]...   (e.g. 'path/to/node|--max-semi-space-size=16')
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { random } from './corpus-check.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DATA = join(ROOT, 'bench', 'data');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const RSS = join(ROOT, 'test', 'support', 'report-rss.mjs');
const LINES = 1_000_000;

/** Starts `count` servers answering /robots.txt with bodies[i % bodies.length]; their origins. */
async function startOrigins(count, bodies) {
  const servers = [];
  for (let i = 0; i < count; i++) {
    const body = bodies[i % bodies.length];
    const server = createServer((req, res) => (req.url === '/robots.txt' ? res.writeHead(200, { 'content-type': 'text/plain' }).end(body) : res.writeHead(404).end()));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    servers.push(server);
  }
  return { origins: servers.map((s) => `http://127.0.0.1:${s.address().port}`), close: () => servers.forEach((s) => s.close()) };
}

/** LINES URLs in runs of 1-64 per origin, origins drawn at random. */
function frontier(origins) {
  const next = random(1);
  const lines = [];
  while (lines.length < LINES) {
    const origin = origins[Math.floor(next() * origins.length)];
    const run = 1 + Math.floor(next() * 64);
    for (let k = 0; k < run && lines.length < LINES; k++) lines.push(`${origin}/p${Math.floor(next() * 1000)}/item-${k}.html?q=${k}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Runs `filter` under `spec` (a node path, then flags after '|') on `file` (as stdin when `stdin`); its peak RSS in MB. */
async function peakRss(spec, file, stdin) {
  const [node, ...flags] = spec.split('|');
  const args = [...flags, '--import', RSS, CLI, 'filter', '--agent', 'ExampleBot', stdin ? '-' : file];
  const child = spawn(node, args, { stdio: [stdin ? 'pipe' : 'ignore', 'ignore', 'pipe'] });
  if (stdin) child.stdin.end(readFileSync(file));
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const [code] = await once(child, 'close');
  if (code !== 0) throw new Error(`${spec}: exit ${code}: ${stderr.trim()}`);
  return (Number(/max-rss-kb (\d+)/.exec(stderr)[1]) / 1024).toFixed(0);
}

const specs = process.argv.length > 2 ? process.argv.slice(2) : [process.execPath];
const bodies = readdirSync(DATA).filter((name) => !name.endsWith('.md')).map((name) => readFileSync(join(DATA, name)));
const dir = mkdtempSync(join(tmpdir(), 'robots-wasm-cli-memory-'));
const many = await startOrigins(1000, bodies);
const one = await startOrigins(1, [readFileSync(join(DATA, 'www.alaskaair.com'))]);
try {
  const manyFile = join(dir, 'many.txt');
  const oneFile = join(dir, 'one.txt');
  writeFileSync(manyFile, frontier(many.origins));
  writeFileSync(oneFile, frontier(one.origins));
  console.log('node | 1,000 origins, peak RSS | one origin from stdin, peak RSS');
  for (const spec of specs) {
    const [node, ...flags] = spec.split('|');
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    console.log(`${[version, ...flags].join(' ')} | ${await peakRss(spec, manyFile, false)} MB | ${await peakRss(spec, oneFile, true)} MB`);
  }
} finally {
  many.close();
  one.close();
  rmSync(dir, { recursive: true, force: true });
}
