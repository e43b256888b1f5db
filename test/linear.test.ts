// A matcher answers its first checks from a linear table (FLAG_LINEAR: the rules tried in
// strength order) and compiles the full table once its checks' work passes its linear budget
// (src/matcher.ts). These
// tests hold the two tables to the same answers, rule for rule, over the real files and
// generated URLs in both modes, and hold the upgrade to leaving answers and images unchanged.
import { describe, expect, it } from 'vitest';
import { Matcher, RobotsTxt, type Mode } from '../src/index.js';
import { LINES_LINEAR_BYTES, heldTableBytes, linearBudget, linearWorkLeft } from '../src/matcher.js';
import { FLAG_LINEAR, LINEAR_CHECK_SLACK, LINEAR_FREE_RULES, LINEAR_MATCH_WORK } from '../src/wasm/abi.js';
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

/**
 * explain() of each URL by fresh (linear) matchers, one URL after another until a check spends
 * the matcher's linear budget, then a fresh matcher for the rest.
 */
function linearExplanations(body: Uint8Array | string, mode: Mode, agent: string, urls: readonly string[]) {
  const out = [];
  let robots: RobotsTxt | undefined;
  let matcher: Matcher | undefined;
  for (const url of urls) {
    if (matcher === undefined || linearWorkLeft(matcher) === Infinity) {
      robots?.dispose();
      robots = RobotsTxt.parse(body, { mode, maxBytes: Infinity });
      matcher = robots.matcher(agent);
    }
    out.push(matcher.explain(url));
  }
  robots?.dispose();
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

  /** The linear work a fresh matcher of `body` spends on `check`, read from its budget. */
  function workOf(body: string, check: (m: Matcher) => unknown): number {
    const robots = RobotsTxt.parse(body);
    const matcher = robots.matcher('Bot');
    const before = linearWorkLeft(matcher);
    check(matcher);
    const work = before - linearWorkLeft(matcher);
    robots.dispose();
    return work;
  }

  it('the kernel counts a check\'s work: the rules it tried past the free ones, each match it began, and what its searches read', () => {
    // A path every head refuses: each rule tried once.
    expect(workOf(manyRules(20), (m) => m.isAllowed('/zzz'))).toBe(20 - LINEAR_FREE_RULES);
    expect(workOf(manyRules(4), (m) => m.isAllowed('/zzz'))).toBe(0);
    // A rule whose head passes begins a match; its search reads the path, and a longer path costs more.
    const wildcard = 'User-agent: *\nDisallow: /a*zq\n';
    const short = workOf(wildcard, (m) => m.isAllowed(`/a${'x'.repeat(100)}`));
    const long = workOf(wildcard, (m) => m.isAllowed(`/a${'x'.repeat(1000)}`));
    expect(short).toBeGreaterThanOrEqual(1 + LINEAR_MATCH_WORK - LINEAR_FREE_RULES + 100 / 4 - 2);
    expect(long - short).toBeGreaterThanOrEqual(900 / 4 - 2);
    // Candidates compared one by one cost more than bytes scanned: a path of b's for "bXb".
    const candidates = workOf('User-agent: *\nDisallow: /a*bXb\n', (m) => m.isAllowed(`/a${'b'.repeat(100)}`));
    expect(candidates).toBeGreaterThan(2 * short);
    // A batch costs what its URLs cost one by one, whichever way it comes.
    const urls = Array.from({ length: 30 }, (_, i) => `/q${i}/${'y'.repeat(i * 7)}`);
    const one = urls.reduce((sum, url) => sum + workOf(manyRules(20), (m) => m.isAllowed(url)), 0);
    expect(workOf(manyRules(20), (m) => m.checkMany(urls))).toBe(one);
    expect(workOf(manyRules(20), (m) => m.checkLines(new TextEncoder().encode(urls.join('\n'))))).toBe(one);
  });

  it('a matcher upgrades once its linear checks cost what the full compile does, and its verdicts do not change', () => {
    const urls = Array.from({ length: 1000 }, (_, i) => `/p${i % 24}`.padEnd(4, '/') + `?${String(i).padStart(3, '0')}`);
    for (const mode of MODES) {
      const robots = RobotsTxt.parse(manyRules(20), { mode });
      const matcher = robots.matcher('Bot');
      const linearBytes = matcher.byteLength;
      expect(linearWorkLeft(matcher)).toBe(linearBudget(20));
      const before = [];
      let spent = 0;
      for (const url of urls) {
        const left = linearWorkLeft(matcher);
        before.push(matcher.explain(url));
        if (linearWorkLeft(matcher) === Infinity) break;
        // Still the linear table, each check spending what it did.
        expect(matcher.byteLength).toBe(linearBytes);
        spent += left - linearWorkLeft(matcher);
      }
      // The check that passed the budget made the full table: another size, the same answers.
      expect(before.length).toBeLessThan(urls.length);
      expect(spent).toBeLessThanOrEqual(linearBudget(20));
      expect(matcher.byteLength).not.toBe(linearBytes);
      expect(before).toEqual(fullExplanations(manyRules(20), mode, 'Bot', urls.slice(0, before.length)));
      expect(urls.slice(0, before.length).map((url) => matcher.explain(url))).toEqual(before);
      robots.dispose();
    }
  });

  it('a batch that passes the budget is answered by the full table; checkLines of a few lines is checked linearly', () => {
    const body = manyRules(20);
    const robots = RobotsTxt.parse(body);
    const few = robots.matcher('Bot');
    const linearBytes = few.byteLength;
    few.checkLines(new TextEncoder().encode(Array(20).fill('/x').join('\n')));
    expect(few.byteLength).toBe(linearBytes);
    expect(linearWorkLeft(few)).toBe(linearBudget(20) - 20 * (20 - LINEAR_FREE_RULES));
    // More URLs than the budget pays for: the batch gives up and the full table answers all of it.
    const checks = Math.ceil(linearBudget(20) / (20 - LINEAR_FREE_RULES)) + 1;
    const many = RobotsTxt.parse(body).matcher('Bot');
    expect(Array.from(many.checkMany(Array(checks).fill('/zzz')))).toEqual(Array(checks).fill(1));
    expect(linearWorkLeft(many)).toBe(Infinity);
    expect(many.byteLength).toBeGreaterThan(linearBytes);
  });

  it('a file of few rules stays linear over any number of short checks, and upgrades once remaking its linear table adds up', () => {
    expect(LINEAR_FREE_RULES).toBe(6);
    const robots = RobotsTxt.parse(manyRules(6));
    const matcher = robots.matcher('Bot');
    const linearBytes = matcher.byteLength;
    const urls = Array.from({ length: 100_000 }, (_, i) => `/p${i % 8}/${i}`);
    const verdicts = matcher.checkMany(urls);
    expect(matcher.byteLength).toBe(linearBytes);
    expect(linearWorkLeft(matcher)).toBe(linearBudget(6));
    // It held no table of its own: the thread's linear area is all it used.
    expect(heldTableBytes(matcher)).toBe(0);
    // Another matcher takes the linear area at each turn, so each check remakes the table:
    // the remakes, 460 units each, pass the budget of 2,000 on the fifth.
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

  it('a long URL whose wildcard searches read it all costs its length: past what a check may cost, the full table answers it', () => {
    const body = 'User-agent: *\nDisallow: /abc*x*y*z\nDisallow: /abd*q$\nAllow: /abe*r*s\n';
    const long = `/abc${'w'.repeat(60_000)}xyz`;
    for (const checks of [(m: Matcher) => m.isAllowed(long), (m: Matcher) => m.checkMany([long, '/abc']), (m: Matcher) => m.checkLines(new TextEncoder().encode(`${long}\n/abc`))]) {
      const robots = RobotsTxt.parse(body);
      const matcher = robots.matcher('Bot');
      const linearBytes = matcher.byteLength;
      checks(matcher);
      expect(matcher.byteLength).not.toBe(linearBytes);
      expect(linearWorkLeft(matcher)).toBe(Infinity);
      expect(matcher.isAllowed(long)).toBe(false);
      robots.dispose();
    }
    // Short URLs cost little: the same file over many of them keeps its linear table.
    const robots = RobotsTxt.parse(body);
    const matcher = robots.matcher('Bot');
    const linearBytes = matcher.byteLength;
    matcher.checkMany(Array.from({ length: 100 }, (_, i) => `/abc/${i}/x/y/z`));
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

  it('rules with a wildcard near their start begin a match on most paths: such a file spends its budget where one of plain rules does not', () => {
    const plain = 'User-agent: *\nDisallow: /a\nDisallow: /b\nDisallow: /private\nAllow: /c\n';
    const early = 'User-agent: *\nDisallow: /a\nDisallow: /b\nDisallow: /*.pdf$\nAllow: *private\n';
    const urls = Array.from({ length: 2000 }, (_, i) => `/d${String(i).padStart(4, '0')}/x.pdf`);
    for (const mode of MODES) {
      const stays = RobotsTxt.parse(plain, { mode }).matcher('Bot');
      const upgrades = RobotsTxt.parse(early, { mode }).matcher('Bot');
      const linearBytes = upgrades.byteLength;
      expect(Array.from(upgrades.checkMany(urls))).toEqual(Array(urls.length).fill(0));
      expect(upgrades.byteLength).not.toBe(linearBytes);
      const plainBytes = stays.byteLength;
      stays.checkMany([...urls, ...urls]);
      expect(stays.byteLength).toBe(plainBytes);
      expect(linearWorkLeft(stays)).toBe(linearBudget(4));
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

  it('a file of thousands of rules answers URLs its heads refuse linearly, and a check whose searches cost more than one check may from the full table', () => {
    const rules = Array.from({ length: 3000 }, (_, i) => `Disallow: /r*x${i}\n`).join('');
    const body = `User-agent: *\n${rules}`;
    const refused = RobotsTxt.parse(body).matcher('Bot');
    expect(refused.isAllowed(`/s/${'a'.repeat(200)}x1`)).toBe(true);
    const linearBytes = refused.byteLength;
    expect(linearWorkLeft(refused)).toBe(linearBudget(3000) - (3000 - LINEAR_FREE_RULES));
    expect(linearBytes).toBeLessThan(refused.toBytes().length);
    // Every rule's head passes "/r" and its search reads 30,000 chars: the check gives up
    // within what one check of 3,000 rules may cost, far less than the budget, and the full
    // table answers it.
    const searched = RobotsTxt.parse(body).matcher('Bot');
    expect(3000 * (1 + LINEAR_MATCH_WORK) + LINEAR_CHECK_SLACK).toBeLessThan(linearBudget(3000) / 10);
    expect(searched.isAllowed(`/r${'a'.repeat(30_000)}x2999`)).toBe(false);
    expect(linearWorkLeft(searched)).toBe(Infinity);
    expect(searched.byteLength).toBe(searched.toBytes().length);
  });

  it('a file of 20,000 rules answers its first checks from the linear table, as it pays to', () => {
    const rules = Array.from({ length: 20_000 }, (_, r) => `disallow: /section-${r}/page`).join('\n');
    const matcher = RobotsTxt.parse(`user-agent: *\n${rules}\n`, { maxBytes: Infinity }).matcher('Bot');
    expect(matcher.checkMany(['/section-19999/page', '/section-20000/page', '/section-7/page/x', '/other'])).toEqual(new Uint8Array([0, 1, 0, 1]));
    expect(linearWorkLeft(matcher)).toBeLessThan(linearBudget(20_000));
    expect(matcher.byteLength).toBeLessThan(matcher.toBytes().length);
  });
});
