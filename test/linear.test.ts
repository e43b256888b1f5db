// A matcher answers its first checks from a linear table (FLAG_LINEAR: the rules tried in
// strength order) and compiles the full table once its checks' work passes its linear budget
// (src/matcher.ts). These
// tests hold the two tables to the same answers, rule for rule, over the real files and
// generated URLs in both modes, and hold the upgrade to leaving answers and images unchanged.
import { describe, expect, it } from 'vitest';
import { Matcher, RobotsTxt, type Mode } from '../src/index.js';
import { linearBudget, linearWork } from '../src/matcher.js';
import { FLAG_LINEAR } from '../src/wasm/abi.js';
import { agentsFor, random, urlsForPattern } from '../scripts/corpus-check.mjs';
import { corpusFiles } from './support/fixtures.js';
import { rng, randomPath, randomRobots } from './support/random.js';
import { HEADER, readTable, reseal } from './support/table.js';

const MODES: readonly Mode[] = ['rfc', 'google'];

/** URLs made from the file's own patterns, and random ones. */
function urlsFor(robots: RobotsTxt, seed: number): string[] {
  const next = random(seed);
  const urls = ['/', '', '/robots.txt', '/index.htm', '/a/index.html', 'https://example.com/x?y=%41'];
  for (const group of robots.groups) for (const rule of group.rules) urls.push(...urlsForPattern(rule.pattern, next));
  const path = rng(seed);
  for (let i = 0; i < 40; i++) urls.push(randomPath(path));
  return urls;
}

/** The number of rules `agent`'s groups hold. */
function agentRules(robots: RobotsTxt, agent: string): number {
  const lines = robots.selectGroups(agent).lines;
  return robots.groups.filter((g) => lines.includes(g.line)).reduce((sum, g) => sum + g.rules.length, 0);
}

/** explain() of each URL by fresh (linear) matchers, as many URLs each as its linear budget allows. */
function linearExplanations(body: Uint8Array | string, mode: Mode, agent: string, urls: readonly string[]) {
  const out = [];
  for (let i = 0; i < urls.length; ) {
    const robots = RobotsTxt.parse(body, { mode, maxBytes: Infinity });
    const rules = agentRules(robots, agent);
    let end = i;
    for (let work = 0; end < urls.length && work + linearWork(rules, urls[end].length) <= linearBudget(rules); end++) work += linearWork(rules, urls[end].length);
    // A URL too long to be checked linearly is left to the full table.
    if (end === i) {
      out.push(fullExplanations(body, mode, agent, [urls[i]])[0]);
      i++;
      continue;
    }
    const matcher = robots.matcher(agent);
    const linearBytes = matcher.byteLength;
    for (const url of urls.slice(i, end)) out.push(matcher.explain(url));
    // Still the linear table: the checks above did not cross the threshold.
    expect(matcher.byteLength).toBe(linearBytes);
    robots.dispose();
    i = end;
  }
  return out;
}

/** explain() of each URL by the full table. */
function fullExplanations(body: Uint8Array | string, mode: Mode, agent: string, urls: readonly string[]) {
  const robots = RobotsTxt.parse(body, { mode, maxBytes: Infinity });
  const full = Matcher.fromBytes(robots.matcher(agent).toBytes());
  const out = urls.map((url) => full.explain(url));
  full.dispose();
  robots.dispose();
  return out;
}

describe('linear tables', () => {
  it.each(corpusFiles().map((f) => [f.name, f.bytes] as const))('%s: the linear and the full table decide by the same rule', (_name, bytes) => {
    for (const mode of MODES) {
      const robots = RobotsTxt.parse(bytes, { mode, maxBytes: Infinity });
      const urls = urlsFor(robots, 7);
      for (const agent of agentsFor(robots)) {
        expect(linearExplanations(bytes, mode, agent, urls)).toEqual(fullExplanations(bytes, mode, agent, urls));
      }
      robots.dispose();
    }
  });

  it('random files: the linear and the full table decide by the same rule', () => {
    const next = rng(11);
    for (let i = 0; i < 150; i++) {
      const body = randomRobots(next);
      for (const mode of MODES) {
        const robots = RobotsTxt.parse(body, { mode });
        const urls = urlsFor(robots, i);
        for (const agent of agentsFor(robots, 2)) expect(linearExplanations(body, mode, agent, urls)).toEqual(fullExplanations(body, mode, agent, urls));
        robots.dispose();
      }
    }
  });

  it('literal heads: rules whose first 8 bytes hold a wildcard, an end anchor, or more than a short path has', () => {
    const patterns = ['/abcdefghij', '/abcdefgh$', '/abcdefg', '/ab*cd', '/*x', '/ab$', '/a', '*', '/a%2Fb', '/\u00e9t\u00e9'];
    const body = `User-agent: *\n${patterns.map((p, i) => `${i % 2 === 0 ? 'Disallow' : 'Allow'}: ${p}`).join('\n')}\n`;
    const paths = ['', '/', '/a', '/ab', '/abc', '/abcd', '/abXcd', '/abcdefg', '/abcdefgh', '/abcdefghi', '/abcdefghij', '/abcdefghijk', '/x', '/yx', '/a/b', '/a%2fb', '/\u00e9t\u00e9', '/%C3%A9t%C3%A9'];
    for (const mode of MODES) {
      const linear = linearExplanations(body, mode, 'Bot', paths);
      expect(linear).toEqual(fullExplanations(body, mode, 'Bot', paths));
      // Each rule decides some path: none of them is refused by its head where it matches.
      expect(new Set(linear.map((e) => e.rule?.line)).size).toBeGreaterThan(6);
    }
  });

  it('a matcher upgrades past its linear budget, and its verdicts do not change', () => {
    const body = 'User-agent: *\nDisallow: /private\nAllow: /private/ok$\nDisallow: /*.pdf$\nAllow: /index.html\n';
    // URLs of fewer than 64 chars: each check's work is the 4 rules.
    expect(linearBudget(4) / 4).toBe(80);
    const urls = Array.from({ length: 80 }, (_, i) => ['/private', '/private/ok', '/a.pdf', '/x', '/', '/private/ok/x'][i % 6] + (i >= 6 ? `?${i}` : ''));
    for (const mode of MODES) {
      const robots = RobotsTxt.parse(body, { mode });
      const matcher = robots.matcher('Bot');
      const linearBytes = matcher.byteLength;
      const before = urls.map((url) => matcher.explain(url));
      expect(matcher.byteLength).toBe(linearBytes);
      const after = urls.map((url) => matcher.explain(url));
      // The threshold was crossed: the full table (a trie where the linear one has literal heads) is another size.
      expect(matcher.byteLength).not.toBe(linearBytes);
      expect(after).toEqual(before);
      expect(Array.from(matcher.checkMany(urls))).toEqual(before.map((e) => (e.allowed ? 1 : 0)));
      robots.dispose();
    }
  });

  it('a batch past the budget upgrades first; checkLines counts its lines', () => {
    const body = 'User-agent: *\nDisallow: /x\n';
    const checks = linearBudget(1);
    expect(checks).toBe(272);
    const robots = RobotsTxt.parse(body);
    const few = robots.matcher('Bot');
    const linearBytes = few.byteLength;
    few.checkLines(new TextEncoder().encode(Array(checks).fill('/x').join('\n')));
    expect(few.byteLength).toBe(linearBytes);
    few.checkLines(new TextEncoder().encode('/y'));
    expect(few.byteLength).toBeGreaterThan(linearBytes);
    const many = RobotsTxt.parse(body).matcher('Bot');
    expect(Array.from(many.checkMany(Array(checks + 1).fill('/x')))).toEqual(Array(checks + 1).fill(0));
    expect(many.byteLength).toBeGreaterThan(linearBytes);
    // A long URL is more work: 5 of 255 chars spend what 20 short ones do.
    const long = RobotsTxt.parse(body).matcher('Bot');
    long.checkMany([...Array(5).fill(`/${'y'.repeat(254)}`), ...Array(checks - 20).fill('/x')]);
    expect(long.byteLength).toBe(linearBytes);
    long.isAllowed('/x');
    expect(long.byteLength).toBeGreaterThan(linearBytes);
  });

  it('toBytes writes the full table: the same image fresh as after many checks', () => {
    for (const { bytes } of corpusFiles()) {
      for (const mode of MODES) {
        const fresh = RobotsTxt.parse(bytes, { mode }).matcher('Bot').toBytes();
        const used = RobotsTxt.parse(bytes, { mode }).matcher('Bot');
        used.checkMany(Array(100).fill('/some/path'));
        expect(used.toBytes()).toEqual(fresh);
        expect(used.byteLength).toBe(fresh.length);
        expect(readTable(fresh).u32(HEADER.flags) & FLAG_LINEAR).toBe(0);
      }
    }
  });

  it('fromBytes refuses an image flagged linear', () => {
    const image = RobotsTxt.parse('User-agent: *\nDisallow: /x\n').matcher('Bot').toBytes();
    const view = readTable(image);
    view.setU32(HEADER.flags, view.u32(HEADER.flags) | FLAG_LINEAR);
    expect(() => Matcher.fromBytes(reseal(image))).toThrow(/damaged \(header\)/);
  });

  it('a file of thousands of rules answers short URLs linearly, and a check too large for that from the full table', () => {
    const rules = Array.from({ length: 3000 }, (_, i) => `Disallow: /r${i}*x\n`).join('');
    const body = `User-agent: *\n${rules}`;
    const short = RobotsTxt.parse(body).matcher('Bot');
    expect(short.isAllowed('/r2999/ax')).toBe(false);
    const linearBytes = short.byteLength;
    expect(linearBytes).toBeLessThan(short.toBytes().length);
    // 3000 rules x a URL of 200 chars is past MAX_LINEAR_WORK: the full table answers.
    const long = RobotsTxt.parse(body).matcher('Bot');
    expect(long.isAllowed(`/r2999/${'a'.repeat(200)}x`)).toBe(false);
    expect(long.byteLength).toBe(long.toBytes().length);
  });
});
