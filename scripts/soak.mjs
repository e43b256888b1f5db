// npm run soak [-- --files N --keep K --every E --release dispose|gc|mixed]: a crawler's
// lifetime in one process. Parses N different robots.txt files (default 1,000,000: real files
// from test/fixtures/corpus and bench/data, each mutated so no two are alike), compiles a
// matcher for each and checks a few URLs with it, keeping only the last K matchers alive
// (default 1,000). Released matchers are disposed (`dispose`), only dropped so that the
// FinalizationRegistry frees their tables after a garbage collection (`gc`), or half and half
// (`mixed`, the default). Prints WebAssembly memory and RSS every E files. With `dispose` both
// are flat once warm; with `gc` they level off where the collector's pace puts them (it does
// not know how much WebAssembly memory a small matcher object holds). test/soak.test.ts runs
// 20,000 files of each.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { RobotsTxt, wasmMemoryStats } from '../dist/index.js';
import { random } from './corpus-check.mjs';

const encoder = new TextEncoder();

/** The real files the soak mutates: the bundled ones under 32 KB (larger ones would only slow it down). */
export function baseFiles() {
  const dirs = [new URL('../test/fixtures/corpus/', import.meta.url), new URL('../bench/data/', import.meta.url)];
  const files = [];
  for (const dir of dirs) {
    for (const name of readdirSync(dir)) {
      const url = new URL(name, dir);
      if (name.endsWith('.md') || statSync(url).size > 32_000) continue;
      files.push(readFileSync(url, 'latin1').split('\n'));
    }
  }
  return files;
}

/** File number `i`: a real file with lines dropped, duplicated and cut, and rules of its own. */
export function mutatedFile(base, i, next) {
  const lines = [];
  for (const line of base) {
    const r = next();
    if (r < 0.05) continue;
    if (r < 0.08) lines.push(line.slice(0, Math.floor(next() * line.length)));
    else lines.push(line);
    if (r > 0.97) lines.push(line);
  }
  lines.push(`User-agent: ${soakAgent(i)}`);
  for (let k = 0; k < 1 + (i % 7); k++) lines.push(`Disallow: /soak-${i}/${k}/*${k % 2 ? '.pdf$' : ''}`);
  return encoder.encode(lines.join(i % 3 === 0 ? '\r\n' : '\n'));
}

/** The mode file `i` is parsed in: half the files each. */
function soakMode(i) {
  return i % 2 === 0 ? 'rfc' : 'google';
}

/**
 * The product token file `i` adds a group for: its number in rfc mode, which reads digits as
 * part of a token; letters in google mode, which stops a token at its first digit.
 */
function soakAgent(i) {
  return soakMode(i) === 'rfc' ? `soakbot-${i}` : `soakbot-${String.fromCharCode(97 + (i % 26), 97 + (Math.floor(i / 26) % 26))}`;
}

function mb(bytes) {
  return (bytes / 1048576).toFixed(1);
}

/**
 * Runs the scenario and returns a sample per `every` files:
 * { files, wasmBytes, usedBytes, liveBlocks, rssBytes, heapBytes, seconds }.
 */
export async function soak({ files = 1_000_000, keep = 1000, every = 100_000, seed = 1, release = 'mixed', onSample = () => {} } = {}) {
  const bases = baseFiles();
  const next = random(seed);
  const ring = new Array(keep);
  const samples = [];
  const started = performance.now();
  for (let i = 0; i < files; i++) {
    const body = mutatedFile(bases[i % bases.length], i, next);
    const robots = RobotsTxt.parse(body, { mode: soakMode(i) });
    const agent = i % 5 === 0 ? soakAgent(i) : 'ExampleBot';
    const matcher = robots.matcher(agent);
    if (agent !== 'ExampleBot' && matcher.isAllowed(`https://example.com/soak-${i}/0/x`)) {
      throw new Error(`file ${i}: the rule added for ${agent} does not apply`);
    }
    matcher.checkMany([`https://example.com/a${i}`, `/b/${i}?q=1`, '/']);
    const slot = i % keep;
    if (ring[slot] !== undefined && (release === 'dispose' || (release === 'mixed' && slot % 2 === 0))) ring[slot].dispose();
    ring[slot] = matcher;
    // A crawler waits on the network between files: let finalizers run now and then.
    if (i % 1000 === 999) await new Promise((resolve) => setImmediate(resolve));
    if ((i + 1) % every === 0) {
      const stats = wasmMemoryStats();
      const sample = {
        files: i + 1, wasmBytes: stats.memoryBytes, usedBytes: stats.usedBytes, liveBlocks: stats.liveBlocks,
        rssBytes: process.memoryUsage.rss(), heapBytes: process.memoryUsage().heapUsed, seconds: (performance.now() - started) / 1000,
      };
      samples.push(sample);
      onSample(sample);
    }
  }
  return samples;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name, fallback) => {
    const at = process.argv.indexOf(`--${name}`);
    return at < 0 ? fallback : Number(process.argv[at + 1]);
  };
  const files = arg('files', 1_000_000);
  const at = process.argv.indexOf('--release');
  const release = at < 0 ? 'mixed' : process.argv[at + 1];
  console.log(`soak: ${files.toLocaleString('en')} files, keeping the last ${arg('keep', 1000)} matchers, released by ${release}`);
  console.log('files      | wasm memory | in tables | live tables | RSS      | JS heap  | seconds');
  await soak({
    files, keep: arg('keep', 1000), every: arg('every', 100_000), release,
    onSample: (s) => console.log(`${String(s.files).padEnd(10)} | ${mb(s.wasmBytes).padStart(8)} MB | ${mb(s.usedBytes).padStart(6)} MB | ${String(s.liveBlocks).padStart(11)} | ${mb(s.rssBytes).padStart(5)} MB | ${mb(s.heapBytes).padStart(5)} MB | ${s.seconds.toFixed(0)}`),
  });
}
