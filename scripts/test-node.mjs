#!/usr/bin/env node
// npm run test:node: the whole vitest suite under each maintained Node line besides the one
// running npm (22, 24 and 26), so that a line whose V8 or core modules behave otherwise
// fails here rather than for a user. The official binaries come from the npm registry's
// node-<platform>-<arch> packages into node_modules/.cache on demand, as Deno and Bun do for
// test:runtimes; each line's node runs vitest and is first on PATH, so every child process a
// test starts (the CLI, npm, workers) runs on that line too.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ROOT, run } from '../test/runtimes/packed.mjs';

/** The lines tested, by major version: the `engines` range names them too. */
const LINES = ['22', '24', '26'];
const CACHE = join(ROOT, 'node_modules', '.cache', 'robots-wasm-node');
const PLATFORM = { linux: 'linux', darwin: 'darwin', win32: 'win' }[process.platform] ?? process.platform;

/** Installs (or confirms) each line's binary in CACHE; the path of each `node`, by line. */
function installLines() {
  mkdirSync(CACHE, { recursive: true });
  const dependencies = Object.fromEntries(LINES.map((line) => [`node${line}`, `npm:node-${PLATFORM}-${process.arch}@^${line}`]));
  writeFileSync(join(CACHE, 'package.json'), `${JSON.stringify({ name: 'robots-wasm-node-lines', private: true, dependencies }, null, 2)}\n`);
  const started = performance.now();
  run('npm', ['install', '--no-audit', '--no-fund'], { cwd: CACHE });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const binaries = Object.fromEntries(LINES.map((line) => [line, join(CACHE, 'node_modules', `node${line}`, 'bin', process.platform === 'win32' ? 'node.exe' : 'node')]));
  const versions = Object.values(binaries).map((node) => run(node, ['--version']).trim());
  console.log(`node lines: ${versions.join(', ')} (npm install in node_modules/.cache: ${seconds} s)`);
  return binaries;
}

/** Runs the suite under `node`, its output passed through; its passed and failed test counts from vitest's summary. */
async function suiteUnder(line, node) {
  console.log(`\n=== Node ${line}: vitest run`);
  const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH}` };
  const vitest = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
  const child = spawn(node, [vitest, 'run', '--testTimeout=120000'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    process.stdout.write(chunk);
    output += chunk;
  });
  const [status] = await once(child, 'close');
  const summary = output.replace(/\x1b\[[0-9;]*m/g, '').match(/^\s*Tests\s+(.*)$/m)?.[1] ?? '';
  const passed = Number(/(\d+) passed/.exec(summary)?.[1] ?? 0);
  let failed = Number(/(\d+) failed/.exec(summary)?.[1] ?? 0);
  // A run that died before its summary, or ran nothing, counts as a failure.
  if ((status !== 0 || passed === 0) && failed === 0) failed = 1;
  console.log(`Node ${line}: ${passed} passed, ${failed} failed`);
  return { passed, failed };
}

const binaries = installLines();
let passed = 0;
let failed = 0;
for (const line of LINES) {
  const counts = await suiteUnder(line, binaries[line]);
  passed += counts.passed;
  failed += counts.failed;
}
// Read by .ci/run, which adds these tests to the totals.
console.log(`node-lines: ${passed} passed, ${failed} failed`);
if (failed > 0) process.exitCode = 1;
