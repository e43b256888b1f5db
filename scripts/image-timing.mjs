// What table images cost: Matcher.fromBytes (checksum and validation) and toBytes (copy and
// checksum) of a small real table (bench/data/www.bcg.com, agent ExampleBot) and of a large
// synthetic one (7,000 rules, about 435 KB), with parse+compile of bcg beside them.
//
// usage: node scripts/image-timing.mjs [DIST...]
//   Times each operation in rounds that alternate the given builds (directories holding a
//   built dist/; default ./dist), one operation at a time, and prints medians (µs) and the
//   kernel checksum's throughput (MB/s). Compare an old and a new build in one process:
//   timings on a shared machine drift too much between runs.
// usage: node scripts/image-timing.mjs --workload small|large PASSES [DIST]
//   PASSES fromBytes+dispose of one image: a workload for scripts/wasm-instructions.mjs.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const bcg = readFileSync(new URL('../bench/data/www.bcg.com', import.meta.url));

/** 7,000 literal and wildcard rules, whose table is about 435 KB. */
function largeBody() {
  const lines = ['User-agent: *'];
  for (let i = 0; i < 7000; i++) {
    lines.push(i % 10 === 0 ? `Disallow: /*/tmp-${i}/*.pdf$` : `Disallow: /section-${i % 97}/page-${i}/item-${(i * 7919) % 10007}/`);
  }
  return lines.join('\n');
}

async function load(dir) {
  const base = pathToFileURL(`${resolve(dir)}/`).href;
  return { lib: await import(`${base}index.js`), kernel: (await import(`${base}wasm/kernel.js`)).kernel };
}

/** µs per call of `fn`, over at least `minMs`. */
function time(fn, minMs = 20) {
  for (let n = 1; ; n *= 2) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) fn();
    const ms = performance.now() - t0;
    if (ms >= minMs) return (ms * 1e3) / n;
  }
}

/** The operations timed for one build, by name. */
function operations({ lib, kernel }) {
  const small = lib.RobotsTxt.parse(bcg).matcher('ExampleBot');
  const large = lib.RobotsTxt.parse(largeBody(), { maxBytes: Infinity }).matcher('ExampleBot');
  const ops = {};
  for (const [size, matcher] of [['~1 KB', small], ['~500 KB', large]]) {
    const image = matcher.toBytes();
    ops[`fromBytes ${size}`] = () => lib.Matcher.fromBytes(image).dispose();
    ops[`toBytes ${size}`] = () => matcher.toBytes();
  }
  ops['parse+compile bcg'] = () => lib.RobotsTxt.parse(bcg).matcher('ExampleBot');
  const k = kernel();
  if (k.fn.tableChecksum !== undefined) {
    for (const [size, matcher] of [['~1 KB', small], ['~500 KB', large]]) {
      const image = matcher.toBytes();
      const at = k.heap.alloc(image.length);
      k.u8.set(image, at);
      ops[`checksum ${size}`] = () => k.fn.tableChecksum(at, image.length);
      ops[`checksum ${size}`].bytes = image.length;
    }
  }
  return { sizes: `${small.byteLength} and ${large.byteLength} bytes`, ops };
}

const args = process.argv.slice(2);
if (args[0] === '--workload') {
  const [, size, passes, dir = 'dist'] = args;
  const { lib } = await load(dir);
  const body = size === 'large' ? largeBody() : bcg;
  const image = lib.RobotsTxt.parse(body, { maxBytes: Infinity }).matcher('ExampleBot').toBytes();
  for (let i = 0; i < Number(passes); i++) lib.Matcher.fromBytes(image).dispose();
} else {
  const rounds = Number(process.env.ROUNDS ?? 21);
  const builds = [];
  for (const dir of args.length > 0 ? args : ['dist']) builds.push({ dir, ...operations(await load(dir)), times: {} });
  const names = [...new Set(builds.flatMap((b) => Object.keys(b.ops)))];
  for (const name of names) {
    // Round -1 warms every build up and is not kept; the order alternates between rounds.
    for (let round = -1; round < rounds; round++) {
      for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
        if (build.ops[name] === undefined) continue;
        const us = time(build.ops[name]);
        if (round >= 0) (build.times[name] ??= []).push(us);
      }
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  for (const build of builds) {
    console.log(`${build.dir} (tables of ${build.sizes})`);
    for (const [name, xs] of Object.entries(build.times)) {
      const bytes = build.ops[name].bytes;
      const rate = bytes === undefined ? '' : `  ${(bytes / median(xs)).toFixed(0)} MB/s`;
      console.log(`  ${name.padEnd(20)} ${median(xs).toFixed(2).padStart(9)} µs (min ${Math.min(...xs).toFixed(2)})${rate}`);
    }
  }
}
