#!/usr/bin/env node
// npm run test:runtimes: the packed package imported by name under Deno and Bun gives the same
// answers to test/runtimes/checks.mjs as under Node (require() from CommonJS is
// test/package.test.ts's).
// Deno and Bun come from the npm registry on demand into node_modules/.cache, so that a plain
// `npm install` of the project does not fetch two runtimes it rarely needs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { assertSameAnswers } from '../test/runtimes/compare.mjs';
import { answersFrom, installPacked, ROOT, run } from '../test/runtimes/packed.mjs';
import { startServer } from '../test/runtimes/server.mjs';

/** The runtimes' npm packages, each shipping its binary in a platform package. */
const RUNTIMES = { deno: '^2.9.6', bun: '^1.4.5' };
const CACHE = join(ROOT, 'node_modules', '.cache', 'robots-wasm-runtimes');

/** Installs (or confirms) the runtimes in CACHE and returns the path of each binary. */
function installRuntimes() {
  mkdirSync(CACHE, { recursive: true });
  // Bun's postinstall puts its binary in place of a placeholder; Deno's links its binary.
  const allowScripts = { deno: true, bun: true };
  writeFileSync(join(CACHE, 'package.json'), `${JSON.stringify({ name: 'robots-wasm-runtimes', private: true, dependencies: RUNTIMES, allowScripts }, null, 2)}\n`);
  const started = performance.now();
  run('npm', ['install', '--no-audit', '--no-fund'], { cwd: CACHE });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const bin = Object.fromEntries(Object.keys(RUNTIMES).map((name) => [name, join(CACHE, 'node_modules', '.bin', name)]));
  const versions = Object.entries(bin).map(([name, path]) => `${name} ${run(path, ['--version']).match(/\d+\.\d+\.\d+/)[0]}`);
  console.log(`runtimes: ${versions.join(', ')} (npm install in node_modules/.cache: ${seconds} s)`);
  return bin;
}

// Deno and Bun must not check for updates or report anything over the network.
const quiet = { ...process.env, DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1', DO_NOT_TRACK: '1', NO_COLOR: '1' };

const bin = installRuntimes();
const app = installPacked();
const { server, origin } = await startServer();
let passed = 0;
let failed = 0;
try {
  const at = `--origin=${origin}`;
  const expected = await answersFrom(app.dir, process.execPath, ['answers.mjs', at]);
  // Deno may reach the harness's server and nothing else.
  const deno = [bin.deno, ['run', '--allow-net=127.0.0.1', 'answers.mjs', at]];
  const runs = [
    ['node (init)', process.execPath, ['answers.mjs', at, '--init']],
    ['deno', ...deno],
    ['deno (init)', deno[0], [...deno[1], '--init']],
    ['bun', bin.bun, ['answers.mjs', at]],
    ['bun (init)', bin.bun, ['answers.mjs', at, '--init']],
  ];
  for (const [name, command, args] of runs) {
    try {
      console.log(assertSameAnswers(name, expected, await answersFrom(app.dir, command, args, { env: quiet })));
      passed++;
    } catch (error) {
      failed++;
      console.error(error.message.startsWith(name) ? error.message : `${name}: ${error.message}`);
    }
  }
} finally {
  server.close();
  app.remove();
}
// Read by .ci/run, which adds these runs to the test totals.
console.log(`runtimes: ${passed} passed, ${failed} failed`);
if (failed > 0) process.exitCode = 1;
