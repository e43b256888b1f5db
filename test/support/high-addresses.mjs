// Answers of every entry point with WebAssembly addresses at or above 2 GiB. Run as a child
// process by test/limits.test.ts: it raises the memory limit to 4 GiB and takes the first 2 GiB
// of memory with two blocks, so that every table, scratch block and batch area made after
// them lies above 2 GiB; then it prints the answers, which the test compares with the same
// function's answers in its own process, where every address is low.

import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { random, urlsForPattern } from '../../scripts/corpus-check.mjs';

const FILES = ['au.indeed.com', 'www.proprofs.com', 'www.authorstream.com'];

/**
 * What every entry point answers for a few real files in both modes; `internal` holds the
 * internal functions of the same build (internalOf).
 */
export function entryPointAnswers(lib, internal) {
  const { reportLines, checkPacked, batchArea } = internal;
  const answers = [];
  for (const name of FILES) {
    for (const mode of ['rfc', 'google']) {
      const robots = lib.RobotsTxt.parse(readFileSync(new URL(`../fixtures/corpus/${name}`, import.meta.url)), { mode });
      const next = random(3);
      const urls = ['/', '/robots.txt', `https://example.com/${'x'.repeat(70_000)}`];
      for (const group of robots.groups) for (const rule of group.rules.slice(0, 30)) urls.push(...urlsForPattern(rule.pattern, next));
      const matcher = robots.matcher('Bot');
      const lines = new TextEncoder().encode(urls.filter((u) => !/[\r\n]/.test(u)).join('\n'));
      const loaded = lib.Matcher.fromBytes(matcher.toBytes());
      const answer = {
        name,
        mode,
        isAllowed: urls.map((url) => robots.isAllowed(url, 'Bot')),
        explain: urls.slice(0, 60).map((url) => robots.explain(url, 'Bot')),
        checkMany: Array.from(matcher.checkMany(urls)),
        checkLines: Array.from(matcher.checkLines(lines)),
        report: new TextDecoder().decode(reportLines(matcher, lines, false).output).slice(0, 4000),
        packed: Array.from(checkPacked(matcher, batchArea().pack(urls, 0, urls.length))),
        fromBytes: Array.from(loaded.checkMany(urls)),
        paths: urls.slice(0, 60).map((url) => lib.normalizePath(url, mode)),
      };
      // Every table evicted and made again, above 2 GiB too.
      lib.setTableBudget(0);
      answer.rebuilt = [Array.from(matcher.checkMany(urls)), Array.from(loaded.checkMany(urls))];
      lib.setTableBudget(256 * 2 ** 20);
      loaded.dispose();
      answers.push(answer);
    }
  }
  return answers;
}

/** The internal functions entryPointAnswers uses, from the build in dist/. */
export async function internalOf() {
  const { reportLines, checkPacked } = await import('../../dist/matcher.js');
  const { batchArea } = await import('../../dist/wasm/batch.js');
  return { reportLines, checkPacked, batchArea };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const lib = await import('../../dist/index.js');
  const { kernel } = await import('../../dist/wasm/kernel.js');
  lib.setWasmMemoryLimit(2 ** 32);
  const k = kernel();
  const low = [k.heap.alloc(2 ** 30), k.heap.alloc(2 ** 30)];
  const internal = await internalOf();
  const answers = entryPointAnswers(lib, internal);
  lib.RobotsTxt.parse('User-agent: *\nDisallow: /x\n').isAllowed('/y', 'Bot');
  const stats = lib.wasmMemoryStats();
  const addresses = { lowBlocks: low, batch: internal.batchArea().unitsAt, url: k.urlAt };
  process.stdout.write(JSON.stringify({ stats, addresses, answers }));
}
