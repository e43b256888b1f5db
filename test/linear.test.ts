// A matcher answers its first checks from a linear table (FLAG_LINEAR: the rules tried in
// strength order) and compiles the full table once its checks' work passes its linear budget
// (src/matcher.ts). These
// tests hold the two tables to the same answers, rule for rule, over the real files and
// generated URLs in both modes, and hold the upgrade to leaving answers and images unchanged.
import { describe, expect, it } from 'vitest';
import { Matcher, RobotsTxt, type Mode } from '../src/index.js';
import { LONG_URL_UNITS } from '../src/wasm/batch.js';
import { EARLY_WILDCARD_TRIES, LINEAR_FREE_RULES, LINES_LINEAR_BYTES, compiledRule, heldTableBytes, linearBudget, linearTries, linearWork, linearTriesOf } from '../src/matcher.js';
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

/** The compiled rules of a linear matcher with a '*' in their first 3 bytes, read from its table (making it counts no check). */
function earlyWildcards(matcher: Matcher): number {
  let early = 0;
  for (let r = 0; r < matcher.ruleCount; r++) if (compiledRule(matcher, r).pattern.slice(0, 3).includes('*')) early++;
  return early;
}

/** explain() of each URL by fresh (linear) matchers, as many URLs each as its linear budget allows. */
function linearExplanations(body: Uint8Array | string, mode: Mode, agent: string, urls: readonly string[]) {
  const out = [];
  for (let i = 0; i < urls.length; ) {
    const robots = RobotsTxt.parse(body, { mode, maxBytes: Infinity });
    const rules = agentRules(robots, agent);
    const matcher = robots.matcher(agent);
    const tries = linearTries(rules, earlyWildcards(matcher));
    let end = i;
    for (let work = 0; end < urls.length && work + linearWork(tries, urls[end].length) <= linearBudget(rules); end++) work += linearWork(tries, urls[end].length);
    // A URL too long to be checked linearly is left to the full table.
    if (end === i) {
      robots.dispose();
      out.push(fullExplanations(body, mode, agent, [urls[i]])[0]);
      i++;
      continue;
    }
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

  /** A file of `n` rules for every agent, each deciding some of the URLs below. */
  const manyRules = (n: number) => `User-agent: *\n${Array.from({ length: n }, (_, i) => `${i % 3 === 0 ? 'Allow' : 'Disallow'}: /p${i}${i % 4 === 0 ? '$' : ''}`).join('\n')}\n`;

  it('a matcher upgrades once its linear checks cost what the full compile does, and its verdicts do not change', () => {
    // 20 rules: a check tries 14 more than the free ones, and again for each 64 chars of URL.
    expect(linearWork(20, 0)).toBe(14);
    expect(linearWork(20, 32)).toBe(21);
    expect(linearBudget(20)).toBe(7680);
    // URLs of 8 chars each.
    const urls = Array.from({ length: 1000 }, (_, i) => `/p${i % 24}`.padEnd(4, '/') + `?${String(i).padStart(3, '0')}`);
    const linearChecks = Math.floor(7680 / linearWork(20, 8));
    for (const mode of MODES) {
      const robots = RobotsTxt.parse(manyRules(20), { mode });
      const matcher = robots.matcher('Bot');
      const linearBytes = matcher.byteLength;
      const before = urls.slice(0, linearChecks).map((url) => matcher.explain(url));
      expect(matcher.byteLength).toBe(linearBytes);
      expect(matcher.explain(urls[linearChecks])).toEqual(fullExplanations(manyRules(20), mode, 'Bot', [urls[linearChecks]])[0]);
      // The threshold was crossed: the full table (a trie where the linear one has literal heads) is another size.
      expect(matcher.byteLength).not.toBe(linearBytes);
      expect(urls.slice(0, linearChecks).map((url) => matcher.explain(url))).toEqual(before);
      expect(Array.from(matcher.checkMany(urls.slice(0, linearChecks)))).toEqual(before.map((e) => (e.allowed ? 1 : 0)));
      robots.dispose();
    }
  });

  it('a batch past the budget upgrades first; checkLines counts its lines; a long URL counts more', () => {
    const body = manyRules(20);
    const linearChecks = Math.floor(linearBudget(20) / linearWork(20, 2));
    const robots = RobotsTxt.parse(body);
    const few = robots.matcher('Bot');
    const linearBytes = few.byteLength;
    few.checkLines(new TextEncoder().encode(Array(linearChecks).fill('/x').join('\n')));
    expect(few.byteLength).toBe(linearBytes);
    few.checkLines(new TextEncoder().encode('/y'));
    expect(few.byteLength).toBeGreaterThan(linearBytes);
    const many = RobotsTxt.parse(body).matcher('Bot');
    expect(Array.from(many.checkMany(Array(linearChecks + 1).fill('/p1')))).toEqual(Array(linearChecks + 1).fill(0));
    expect(many.byteLength).toBeGreaterThan(linearBytes);
    // A URL of 256 chars tries each rule 5 times; a batch's work is the sum of its URLs'.
    expect(linearWork(20, 256)).toBe(5 * linearWork(20, 0));
    const shortAfterLong = Math.floor((linearBudget(20) - 5 * linearWork(20, 256)) / linearWork(20, 2));
    const long = RobotsTxt.parse(body).matcher('Bot');
    long.checkMany([...Array(5).fill(`/${'y'.repeat(255)}`), ...Array(shortAfterLong).fill('/x')]);
    expect(long.byteLength).toBe(linearBytes);
    long.isAllowed('/x');
    expect(long.byteLength).toBeGreaterThan(linearBytes);
  });

  it('a file of few rules stays linear over any number of short checks, and upgrades once remaking its linear table adds up', () => {
    expect(LINEAR_FREE_RULES).toBe(6);
    const robots = RobotsTxt.parse(manyRules(6));
    const matcher = robots.matcher('Bot');
    const linearBytes = matcher.byteLength;
    const urls = Array.from({ length: 100_000 }, (_, i) => `/p${i % 8}/${i}`);
    const verdicts = matcher.checkMany(urls);
    expect(matcher.byteLength).toBe(linearBytes);
    // It held no table of its own: the thread's linear area is all it used.
    expect(heldTableBytes(matcher)).toBe(0);
    // Another matcher takes the linear area at each turn, so each check remakes the table:
    // the remakes, 736 units each, pass the budget of 3,200 on the fifth.
    const other = RobotsTxt.parse('User-agent: *\nDisallow: /other\n').matcher('Bot');
    let turns = 0;
    while (matcher.byteLength === linearBytes && turns < 20) {
      expect(other.isAllowed('/other')).toBe(false);
      expect(matcher.isAllowed('/p1')).toBe(false);
      turns++;
    }
    expect(turns).toBe(5);
    expect(heldTableBytes(matcher)).toBeGreaterThan(0);
    expect(matcher.checkMany(urls)).toEqual(verdicts);
    robots.dispose();
  });

  it('a file of few rules pays for long URLs: checks past LONG_URL_UNITS count, one by one or in a batch', () => {
    // Wildcards past the first bytes: each is matched over the whole of a long path.
    const body = 'User-agent: *\nDisallow: /abc*x*y*z\nDisallow: /abd*q$\nAllow: /abe*r*s\n';
    expect(linearWork(3, LONG_URL_UNITS)).toBe(0);
    expect(linearWork(3, LONG_URL_UNITS + 640)).toBe(30);
    const long = `/abc${'w'.repeat(60_000)}xyz`;
    for (const checks of [(m: Matcher) => m.isAllowed(long), (m: Matcher) => m.checkMany([long, '/abc']), (m: Matcher) => m.checkLines(new TextEncoder().encode(`${long}\n/abc`))]) {
      const robots = RobotsTxt.parse(body);
      const matcher = robots.matcher('Bot');
      const linearBytes = matcher.byteLength;
      // 60,000 chars past the first 256, for 3 rules: past the budget of 2,240 in one check.
      expect(linearWork(3, long.length)).toBeGreaterThan(linearBudget(3));
      checks(matcher);
      expect(matcher.byteLength).not.toBe(linearBytes);
      expect(matcher.isAllowed(long)).toBe(false);
      robots.dispose();
    }
    // Short URLs stay free: the same file over many of them keeps its linear table.
    const robots = RobotsTxt.parse(body);
    const matcher = robots.matcher('Bot');
    const linearBytes = matcher.byteLength;
    matcher.checkMany(Array.from({ length: 20_000 }, (_, i) => `/abc/${i}/x/y/z`));
    expect(matcher.byteLength).toBe(linearBytes);
    robots.dispose();
  });

  it('checkLines of more than LINES_LINEAR_BYTES makes the full table first, with the same verdicts', () => {
    const body = manyRules(3);
    const urls = Array.from({ length: 1000 }, (_, i) => `/p${i % 5}${i % 3 === 0 ? '' : `/${i}`}`);
    const text = new TextEncoder().encode(urls.join('\n'));
    expect(text.length).toBeGreaterThan(LINES_LINEAR_BYTES);
    const expected = fullExplanations(body, 'google', 'Bot', urls).map((e) => (e.allowed ? 1 : 0));
    const robots = RobotsTxt.parse(body);
    const matcher = robots.matcher('Bot');
    const linearBytes = matcher.byteLength;
    expect(Array.from(matcher.checkLines(text.subarray(0, text.indexOf(10, 2000))))).toEqual(expected.slice(0, urls.join('\n').slice(0, text.indexOf(10, 2000)).split('\n').length));
    expect(matcher.byteLength).toBe(linearBytes);
    expect(Array.from(matcher.checkLines(text))).toEqual(expected);
    expect(matcher.byteLength).not.toBe(linearBytes);
    expect(heldTableBytes(matcher)).toBeGreaterThan(0);
    robots.dispose();
  });

  it('a rule with a wildcard near its start counts as many rules tried: such a file upgrades where one of plain rules stays linear', () => {
    const plain = 'User-agent: *\nDisallow: /a\nDisallow: /b\nDisallow: /private\nAllow: /c\n';
    const early = 'User-agent: *\nDisallow: /a\nDisallow: /b\nDisallow: /*.pdf$\nAllow: *private\n';
    expect(linearTries(4, 2)).toBe(4 + 2 * (EARLY_WILDCARD_TRIES - 1));
    // URLs of 12 chars each.
    const checks = Math.floor(linearBudget(4) / linearWork(linearTries(4, 2), 12));
    const urls = Array.from({ length: checks }, (_, i) => `/d${String(i).padStart(4, '0')}/x.pdf`);
    const last = `/c${'z'.repeat(60)}`;
    for (const mode of MODES) {
      const stays = RobotsTxt.parse(plain, { mode }).matcher('Bot');
      const upgrades = RobotsTxt.parse(early, { mode }).matcher('Bot');
      const linearBytes = upgrades.byteLength;
      expect(earlyWildcards(upgrades)).toBe(2);
      expect(Array.from(upgrades.checkMany(urls))).toEqual(Array(checks).fill(0));
      expect(upgrades.byteLength).toBe(linearBytes);
      expect(upgrades.isAllowed(last)).toBe(true);
      expect(upgrades.byteLength).not.toBe(linearBytes);
      const plainBytes = stays.byteLength;
      stays.checkMany([...urls, ...urls]);
      expect(stays.byteLength).toBe(plainBytes);
    }
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

  it('a file of thousands of rules answers short URLs linearly, and a check that costs more than its whole budget from the full table', () => {
    const rules = Array.from({ length: 3000 }, (_, i) => `Disallow: /r${i}*x\n`).join('');
    const body = `User-agent: *\n${rules}`;
    const short = RobotsTxt.parse(body).matcher('Bot');
    expect(short.isAllowed(`/r2999/${'a'.repeat(200)}x`)).toBe(false);
    const linearBytes = short.byteLength;
    expect(linearBytes).toBeLessThan(short.toBytes().length);
    // 3000 rules x a URL of 30,000 chars is more linear work than compiling the full table.
    const long = RobotsTxt.parse(body).matcher('Bot');
    const url = `/r2999/${'a'.repeat(30_000)}x`;
    expect(linearWork(linearTriesOf(long), url.length)).toBeGreaterThan(linearBudget(3000));
    expect(long.isAllowed(url)).toBe(false);
    expect(long.byteLength).toBe(long.toBytes().length);
  });

  it('a file of 20,000 rules answers its first checks from the linear table, as it pays to', () => {
    const rules = Array.from({ length: 20_000 }, (_, r) => `disallow: /section-${r}/page`).join('\n');
    const matcher = RobotsTxt.parse(`user-agent: *\n${rules}\n`, { maxBytes: Infinity }).matcher('Bot');
    expect(matcher.checkMany(['/section-19999/page', '/section-20000/page', '/section-7/page/x', '/other'])).toEqual(new Uint8Array([0, 1, 0, 1]));
    expect(linearTriesOf(matcher)).toBe(20_000);
    expect(matcher.byteLength).toBeLessThan(matcher.toBytes().length);
  });
});
