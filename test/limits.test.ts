// Limits as a contract (README "Limits"): each at its boundary, and the adversarial inputs of
// the reliability work: they finish, with the right answers. (How long they take is reported
// by `npm run bench -- adversarial`, not asserted here.)
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as lib from '../dist/index.js';
import { normalizePath, RobotsTxt, setWasmMemoryLimit, wasmMemoryStats } from '../dist/index.js';
import { entryPointAnswers, internalOf } from './support/high-addresses.mjs';
import {
  deepWildcards, escapedUrl, longLine, longUrl, manyGroups, manyRules, nearMissSegment, oneByteKeyPath, oneByteKeys, ownSegments, padded,
  prototypeAgents, repeatedSegmentPath, repeatedSegmentRules, sharedSegmentRules, baitKeys, keyBait, keyBaitPath, linearBait,
} from '../bench/adversarial.js';
import { kernel } from '../dist/wasm/kernel.js';

/** Text indexes the kernel behind dist/ has built so far. */
const indexesBuilt = () => kernel().fn.keyFilterCount(3);
import { ReferenceRobots } from './oracle/reference.js';

describe('WebAssembly memory ceiling (setWasmMemoryLimit)', () => {
  it('a table that would need more memory than the limit is a RangeError; raising the limit lets it through', () => {
    const before = wasmMemoryStats();
    expect(before.limitBytes).toBe(2 ** 31);
    const big = `User-agent: *\n${Array.from({ length: 60_000 }, (_, i) => `Disallow: /big/${i}/*.x$`).join('\n')}\n`;
    setWasmMemoryLimit(before.memoryBytes + (1 << 20));
    expect(() => RobotsTxt.parse(big).matcher('Bot')).toThrow(/WebAssembly memory limit of \d+ bytes/);
    // What fits keeps working under the limit.
    expect(RobotsTxt.parse('User-agent: *\nDisallow: /x\n').isAllowed('/x', 'Bot')).toBe(false);
    setWasmMemoryLimit(2 ** 31);
    expect(RobotsTxt.parse(big).isAllowed('/big/7/a.x', 'Bot')).toBe(false);
    expect(() => setWasmMemoryLimit(1000)).toThrow(TypeError);
  });
});

describe('sizes past the memory limit, and addresses past 2 GiB', () => {
  const matcher = RobotsTxt.parse('User-agent: *\nDisallow: /private\n').matcher('Bot');
  const normal = () => [matcher.isAllowed('/private/x'), matcher.isAllowed('/public'), RobotsTxt.parse('User-agent: *\nDisallow: /y\n').isAllowed('/y', 'Bot')];

  it('a URL of 180 million characters is a RangeError that names the limit, and the thread keeps working', () => {
    // Its UTF-8 and normalisation room would be over 2 GiB.
    const huge = `/private/${'x'.repeat(180_000_000)}`;
    expect(() => matcher.isAllowed(huge)).toThrow(/bytes asked for, more than the WebAssembly memory limit of 2147483648 bytes/);
    expect(normal()).toEqual([false, true, false]);
    expect(() => matcher.checkMany(['/a', huge])).toThrow(RangeError);
    expect(() => normalizePath(huge)).toThrow(RangeError);
    expect(normal()).toEqual([false, true, false]);
    expect(Array.from(matcher.checkMany(['/private/1', '/x']))).toEqual([0, 1]);
    expect(wasmMemoryStats().usedBytes).toBeGreaterThan(0);
    expect(wasmMemoryStats().memoryBytes).toBeLessThan(64 << 20);
  });

  it('a body whose compile work area would pass the limit is a RangeError before anything is allocated', () => {
    // One rule of 270 MB: its work area, 8 bytes per byte, is past 2 GiB (and past 32 bits as an i32).
    const body = new TextEncoder().encode(`User-agent: *\nDisallow: /${'a'.repeat(270_000_000)}\n`);
    const robots = RobotsTxt.parse(body, { maxBytes: Infinity });
    const grown = wasmMemoryStats().memoryBytes;
    expect(() => robots.matcher('Bot')).toThrow(/compiling 1 rules of 270000001 bytes needs \d+ bytes, more than the WebAssembly memory limit of 2147483648 bytes/);
    expect(wasmMemoryStats().memoryBytes).toBe(grown);
    expect(normal()).toEqual([false, true, false]);
  });

  it('a body of 2 GiB is a RangeError before it is read, and the thread keeps working', () => {
    // Its zero pages are never touched.
    const body = new Uint8Array(2 ** 31);
    expect(() => RobotsTxt.parse(body, { maxBytes: Infinity })).toThrow(/a body of 2147483648 bytes is more than the 2147352567 bytes the line reader can address/);
    expect(normal()).toEqual([false, true, false]);
  });

  it('above 2 GiB every entry point answers as below (a child process with the limit at 4 GiB)', async () => {
    const script = fileURLToPath(new URL('./support/high-addresses.mjs', import.meta.url));
    const high = JSON.parse(execFileSync(process.execPath, [script], { encoding: 'utf8', maxBuffer: 256 << 20 }));
    expect(high.stats.memoryBytes).toBeGreaterThan(2 ** 31);
    // The two blocks took the memory from its start (past the kernel's fixed state) to past
    // 2 GiB: what came after lies above.
    expect(high.addresses.lowBlocks[0]).toBeLessThan(4 << 20);
    expect(high.addresses.lowBlocks[1]).toBe(high.addresses.lowBlocks[0] + 2 ** 30);
    expect(high.addresses.batch).toBeGreaterThanOrEqual(2 ** 31);
    expect(high.addresses.url).toBeGreaterThanOrEqual(2 ** 31);
    expect(high.answers).toEqual(entryPointAnswers(lib, await internalOf()));
  });
});

describe('URL length and batch size: no limit, bounded memory', () => {
  const robots = RobotsTxt.parse('User-agent: *\nDisallow: /*secret\nAllow: /*secret*public$\n');
  const matcher = robots.matcher('Bot');

  it('a 1 MB URL is checked exactly by every path', () => {
    const long = `${longUrl(1 << 20)}secret${'b'.repeat(1000)}`;
    expect(matcher.isAllowed(long)).toBe(false);
    expect(matcher.isAllowed(`${long}public`)).toBe(true);
    expect(Array.from(matcher.checkMany(['/x', long, `${long}public`]))).toEqual([1, 0, 1]);
    expect(Array.from(matcher.checkLines(new TextEncoder().encode(`/x\n${long}\n${long}public`)))).toEqual([1, 0, 1]);
  });

  it('10,000 percent-escapes in one URL', () => {
    const url = `${escapedUrl(10_000)}%73ecret`;
    expect(matcher.isAllowed(url)).toBe(false);
    expect(Array.from(matcher.checkMany([url, '/%73ecret']))).toEqual([0, 0]);
  });

  it('a batch of 100,000 URLs with long ones mixed in, without growing memory past its working set', () => {
    const urls = Array.from({ length: 100_000 }, (_, i) => (i % 10_000 === 0 ? `/${'x'.repeat(100_000)}secret` : `/p${i}${i % 3 ? '' : 'secret'}`));
    matcher.checkMany(urls);
    const warm = wasmMemoryStats().memoryBytes;
    const verdicts = matcher.checkMany(urls);
    expect(verdicts.filter((v) => v === 0).length).toBe(urls.filter((u) => u.endsWith('secret') || /secret/.test(u)).length);
    expect(wasmMemoryStats().memoryBytes).toBe(warm);
  });
});

/** Milliseconds `fn` takes, and what it returns. */
function timed<T>(fn: () => T): [number, T] {
  const start = performance.now();
  const result = fn();
  return [performance.now() - start, result];
}

describe('key bait: a check of a long URL is bounded whatever the number of rules (the text index)', () => {
  // Limits ten times the targets (a 100 KB URL in 20 ms, 1 MB in 200 ms), first check included:
  // before the text index, these took about 1 s and 41 s.
  const cases = [
    { rules: 6_400, bytes: 100_000, limitMs: 200 },
    { rules: 19_357, bytes: 1 << 20, limitMs: 2_000 },
  ];
  it.each(cases)('$rules rules /*K*a*K*d, a $bytes-byte URL: disallowed by the last rule, allowed without its key', ({ rules, bytes, limitMs }) => {
    const body = keyBait(rules);
    expect(body.length).toBeLessThan(512_000);
    const keys = baitKeys(rules);
    const disallowed = keyBaitPath(keys, bytes, true);
    const allowed = keyBaitPath(keys, bytes, false);
    const built = indexesBuilt();
    const robots = RobotsTxt.parse(body);
    const [firstMs, first] = timed(() => robots.isAllowed(disallowed, 'Bot'));
    expect(first).toBe(false);
    expect(firstMs).toBeLessThan(limitMs);
    const [againMs, again] = timed(() => robots.isAllowed(disallowed, 'Bot'));
    expect(again).toBe(false);
    expect(againMs).toBeLessThan(limitMs);
    const [allowedMs, allowedVerdict] = timed(() => robots.isAllowed(allowed, 'Bot'));
    expect(allowedVerdict).toBe(true);
    expect(allowedMs).toBeLessThan(limitMs);
    // The index answered: built for each check of the full table.
    expect(indexesBuilt() - built).toBeGreaterThanOrEqual(2);
    // Every way of asking agrees (checkMany and checkLines make room for the index as checkOne does).
    const matcher = robots.matcher('Bot');
    expect(Array.from(matcher.checkMany([allowed, disallowed, '/x']))).toEqual([1, 0, 1]);
    expect(Array.from(matcher.checkLines(new TextEncoder().encode(`${disallowed}\n${allowed}\n`)))).toEqual([0, 1]);
    expect(robots.isAllowed(allowed.replace('d', 'e'), 'Bot')).toBe(true);
    robots.dispose();
  });

  it('a short URL builds no index', () => {
    const robots = RobotsTxt.parse(keyBait(6_400));
    const built = indexesBuilt();
    const keys = baitKeys(6_400);
    expect(robots.isAllowed(keyBaitPath(keys, 2048, true), 'Bot')).toBe(false);
    expect(robots.isAllowed(keyBaitPath(keys, 2048, false), 'Bot')).toBe(true);
    expect(robots.isAllowed('/b1b2ba', 'Bot')).toBe(true);
    expect(indexesBuilt()).toBe(built);
  });

  it('linear bait: 26,000 rules /xx*b<XYZ>b, a 19 KB URL that holds no key, allowed', () => {
    const robots = RobotsTxt.parse(linearBait());
    const url = padded('/xx', 19_000, 'b');
    const [firstMs, first] = timed(() => robots.isAllowed(url, 'Bot'));
    expect(first).toBe(true);
    expect(firstMs).toBeLessThan(2_000);
    expect(robots.isAllowed(`${url}bAAAb`, 'Bot')).toBe(false);
    robots.dispose();
  });
});

describe('adversarial robots.txt files finish with the right answers', () => {
  it('500 KiB of deep wildcard rules like Disallow: /*a*a*a*...*a$', () => {
    const body = deepWildcards();
    const robots = RobotsTxt.parse(body, { maxBytes: 1 << 20 });
    const paths = [`/${'a'.repeat(2000)}`, `/${'a'.repeat(2000)}b`, `/${'ab'.repeat(1000)}`, `/${'a'.repeat(49)}`, `/${'a'.repeat(19)}`, '/b'];
    // Rule i has 20 + i % 30 segments "a"; odd ones end in "a$", even ones in "b<i>".
    expect(paths.map((p) => robots.isAllowed(p, 'Bot'))).toEqual([false, true, true, false, true, true]);
    // The oracle's position sets are too slow for 6,000 such rules on 2 KB paths: it checks the first 300.
    const head = body.split('\n').slice(0, 301).join('\n');
    const oracle = new ReferenceRobots(head, 'Bot', 'rfc');
    const short = RobotsTxt.parse(head);
    for (const path of [...paths, `/${'a'.repeat(300)}b298`, `/x${'a'.repeat(30)}b40`]) expect(short.isAllowed(path, 'Bot')).toBe(oracle.isAllowed(path));
  });

  it('a long segment that nearly occurs everywhere in a 1 MB URL, alone and behind the key filter', () => {
    // Found by comparing at each candidate, this took 21 s (one rule) and 1.9 s (filter).
    for (const filter of [false, true]) {
      const robots = RobotsTxt.parse(nearMissSegment(30_000, filter));
      const url = longUrl(1 << 20);
      expect(robots.isAllowed(url, 'Bot')).toBe(true);
      const planted = `${url.slice(0, 500_000)}${'a'.repeat(15_000)}e${'a'.repeat(15_000)}`;
      expect(robots.isAllowed(planted, 'Bot')).toBe(false);
      expect(robots.isAllowed(`${planted.slice(0, -1)}/x.pdf`, 'Bot')).toBe(!filter);
    }
  });

  it('a path of 1 MB made of one-byte keys, against a rule for each of them', () => {
    const robots = RobotsTxt.parse(oneByteKeys());
    expect(robots.isAllowed(oneByteKeyPath(1 << 20, '/'), 'Bot')).toBe(true);
    expect(robots.isAllowed(oneByteKeyPath(1 << 20, '~'), 'Bot')).toBe(false);
    expect(robots.isAllowed(oneByteKeyPath(1 << 20, '!'), 'Bot')).toBe(false);
    expect(robots.isAllowed('/a/b', 'Bot')).toBe(false);
  });

  it('21,375 rules /*aaaaa*b<N>: URLs of a\'s, every b<N> after or before aaaaa, and a path that makes the key pass give up', () => {
    const { body, count } = sharedSegmentRules();
    expect([count, body.length > 511 * 1024]).toEqual([21_375, true]);
    const robots = RobotsTxt.parse(body, { maxBytes: Infinity });
    const own = ownSegments(count);
    const urls = [longUrl(2048), longUrl(), padded(`/aaaaa${own}`, 1 << 20), padded(`/${own}aaaaa`, 1 << 20), `/${'b1'.repeat(1 << 19)}`,
      '/aaaaab21374', '/aaaaabx', '/b5aaaaa', '/xaaaaab5', '/aaaab5'];
    const expected = [true, true, false, true, true, false, true, true, false, true];
    expect(urls.map((url) => robots.isAllowed(url, 'Bot'))).toEqual(expected);
    const matcher = robots.matcher('Bot');
    expect(Array.from(matcher.checkMany(urls), (v) => v === 1)).toEqual(expected);
    expect(Array.from(matcher.checkLines(new TextEncoder().encode(urls.join('\n'))), (v) => v === 1)).toEqual(expected);
    // The oracle's position sets check the first 300 rules on shorter paths.
    const head = body.split('\n').slice(0, 301).join('\n');
    const oracle = new ReferenceRobots(head, 'Bot', 'rfc');
    const short = RobotsTxt.parse(head);
    for (const path of [`/aaaaa${own.slice(0, 1200)}`, `/${own.slice(0, 1200)}aaaaa`, `/${'a'.repeat(3000)}`, `/${'b2'.repeat(500)}aaaaab29`, '/aaaaab299', '/aaaaab300']) {
      expect([path.slice(0, 40), short.isAllowed(path, 'Bot')]).toEqual([path.slice(0, 40), oracle.isAllowed(path)]);
    }
  });

  it('18,183 rules /*b<N>*a*b<N>*c (or *d): every b<N> twice, c before, d between, or either at the end', () => {
    for (const last of ['c', 'd'] as const) {
      const { body, count } = repeatedSegmentRules(last);
      expect(count).toBe(18_183);
      const robots = RobotsTxt.parse(body, { maxBytes: Infinity });
      const own = ownSegments(count);
      // The bench's paths (1 MB, and 2 KB with the first 600 bytes of segments), then each with
      // its last segment at the end too.
      const long = repeatedSegmentPath(own, last, 1 << 20);
      const short = repeatedSegmentPath(own.slice(0, 600), last, 2048);
      const urls = [long, short, `${long}${last}`, `${short}${last}`, `/b7ab7${last}`, `/b7ab8${last}`, `/ab7b7${last}`];
      const expected = [true, true, false, false, false, true, true];
      expect([last, urls.map((url) => robots.isAllowed(url, 'Bot'))]).toEqual([last, expected]);
      expect([last, Array.from(robots.matcher('Bot').checkMany(urls.slice(1)), (v) => v === 1)]).toEqual([last, expected.slice(1)]);
      const head = body.split('\n').slice(0, 201).join('\n');
      const oracle = new ReferenceRobots(head, 'Bot', 'rfc');
      const few = repeatedSegmentPath(own.slice(0, 600), last, 1800);
      const headRobots = RobotsTxt.parse(head);
      for (const path of [few, `${few}${last}`, `/b199ab199${last}`]) {
        expect([last, path.slice(0, 40), headRobots.isAllowed(path, 'Bot')]).toEqual([last, path.slice(0, 40), oracle.isAllowed(path)]);
      }
    }
  });

  it('100,000 rules in one group, and 100,000 groups', () => {
    const a = RobotsTxt.parse(manyRules(100_000), { maxBytes: Infinity });
    expect([a.isAllowed('/r99999/x', 'Bot'), a.isAllowed('/r100000/x', 'Bot'), a.isAllowed('/r5', 'Bot')]).toEqual([false, true, true]);
    const b = RobotsTxt.parse(manyGroups(100_000), { maxBytes: Infinity });
    expect(b.agents.length).toBe(26);
    // "botc/2" is read as the product token "botc": it merges every group named botc/<digits>.
    expect([b.isAllowed('/g2/x', 'botc'), b.isAllowed('/g28/x', 'botc'), b.isAllowed('/g3/x', 'botc'), b.isAllowed('/all/x', 'botc'), b.isAllowed('/all/x', 'Other')]).toEqual([false, false, true, true, false]);
    // Without the '/', digits belong to the token in rfc mode: 100,000 tokens, a group each.
    const numbered = manyGroups(100_000).replace(/^User-agent: (bot[a-z])\/(\d+)$/gm, 'User-agent: $1$2');
    const c = RobotsTxt.parse(numbered, { maxBytes: Infinity });
    expect(c.agents.length).toBe(100_000);
    expect([c.isAllowed('/g2/x', 'botc2'), c.isAllowed('/g28/x', 'botc2'), c.isAllowed('/all/x', 'botc2'), c.isAllowed('/all/x', 'botc')]).toEqual([false, true, true, false]);
    // Google mode cuts each at its first digit, as the reference does: 26 merged groups again.
    const g = RobotsTxt.parse(numbered, { maxBytes: Infinity, mode: 'google' });
    expect(g.agents.length).toBe(26);
    expect([g.isAllowed('/g2/x', 'botc'), g.isAllowed('/g28/x', 'botc'), g.isAllowed('/g3/x', 'botc')]).toEqual([false, false, true]);
  });

  it('one 10 MB line: dropped at the default limit, read whole without one', () => {
    const body = longLine(10 << 20);
    const cut = RobotsTxt.parse(body);
    expect(cut.truncated).toBe(true);
    expect(cut.groups[0].rules).toHaveLength(0);
    const whole = RobotsTxt.parse(body, { maxBytes: Infinity });
    expect([whole.isAllowed(`/${'x'.repeat(10 << 20)}`, 'Bot'), whole.isAllowed('/after', 'Bot'), whole.isAllowed('/x', 'Bot')]).toEqual([false, false, true]);
  });

  it('agents named like Object.prototype members are ordinary agents', () => {
    const robots = RobotsTxt.parse(prototypeAgents());
    const agents = ['__proto__', 'constructor', 'hasOwnProperty', 'toString'];
    expect(agents.map((agent) => robots.isAllowed(`/${agent}/x`, agent))).toEqual([false, false, false, false]);
    expect(agents.map((agent) => robots.isAllowed(`/${agent}/x`, 'valueOf'))).toEqual([true, true, true, true]);
    expect(robots.agents).toEqual(['__proto__', 'constructor', 'hasownproperty', 'tostring']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
