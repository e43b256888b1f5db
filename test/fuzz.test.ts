// Fuzzing with fixed seeds. `npm run fuzz` runs this file with FUZZ_SCALE=40 (2,000,000
// pattern/path pairs, 4x the files); the test suite runs it at scale 1. FUZZ_SEED=n (n > 0)
// shifts every seed, for a long run over inputs the suite has not seen.
//   - pattern/path pairs: the kernel against the position-set oracle (test/oracle/reference.ts)
//   - files: random bytes, mutated real files, generated hostile files: parse never throws,
//     every verdict path agrees (isAllowed, checkMany, checkLines, fromBytes, the pool), the
//     oracle agrees, and explain names a rule that really matches
//   - Robots-Tag / X-Robots-Tag values and HTML: random and mutated, never a throw
import { afterAll, describe, expect, it } from 'vitest';
import { Matcher, parseRobotsMeta, parseRobotsTag, RobotsTxt, urlControls, type Mode } from '../dist/index.js';
import { RobotsPool } from '../dist/pool/index.js';
import { urlsForPattern } from '../scripts/corpus-check.mjs';
import { ReferenceRobots } from './oracle/reference.js';
import { corpusFiles } from './support/fixtures.js';
import { readTable, reseal } from './support/table.js';
import { pick, randomPath, rng, type Rng } from './support/random.js';

const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
// FUZZ_SEED=n moves every generator to other fixed seeds, for runs that explore new inputs.
const SEED_OFFSET = 1000 * Number(process.env.FUZZ_SEED ?? 0);
const seeded = (seed: number) => rng(seed + SEED_OFFSET);
// Whole files cost far more than pairs: they grow with a tenth of the scale.
const FILE_SCALE = Math.max(1, Math.round(SCALE / 10));
const encoder = new TextEncoder();

const PATTERN_PIECES = ['/', 'a', 'b', '.', '*', '**', '$', '%', '%2F', '%2f', '%61', '%7E', '~', 'é', '?', '=', '&', ';', ' ', 'index.htm', '%%', '%E9'];

function randomPattern(next: Rng): string {
  const deep = next() < 0.05;
  const length = deep ? 40 + Math.floor(next() * 40) : Math.floor(next() * 10);
  let p = next() < 0.85 ? '/' : '*';
  for (let i = 0; i < length; i++) p += deep && i % 2 ? '*' : pick(next, PATTERN_PIECES);
  return p;
}

describe.each<Mode>(['rfc', 'google'])('pattern/path pairs against the position-set oracle, mode %s', (mode) => {
  it(`${(25_000 * SCALE).toLocaleString('en')} pairs`, () => {
    const next = seeded(mode === 'rfc' ? 101 : 102);
    const mismatches: string[] = [];
    let disallowed = 0;
    for (let i = 0; i < 2500 * SCALE; i++) {
      const pattern = randomPattern(next);
      const body = `User-agent: *\n${next() < 0.3 ? 'Allow' : 'Disallow'}: ${pattern}\n`;
      const matcher = RobotsTxt.parse(body, { mode }).matcher('Bot');
      const oracle = new ReferenceRobots(body, 'Bot', mode);
      const paths = [...(urlsForPattern(pattern, next) as string[]).slice(0, 5)];
      while (paths.length < 10) paths.push(randomPath(next));
      const verdicts = matcher.checkMany(paths);
      paths.forEach((path, k) => {
        const expected = oracle.isAllowed(path);
        if (!expected) disallowed++;
        if ((verdicts[k] === 1) !== expected && mismatches.length < 5) mismatches.push(`${JSON.stringify(pattern)} vs ${JSON.stringify(path)}`);
      });
      matcher.dispose();
    }
    expect(mismatches).toEqual([]);
    expect(disallowed).toBeGreaterThan(2000 * SCALE);
  });
});

// ---------------------------------------------------------------------------------------
// Whole files

const HOSTILE_BYTES = [0x00, 0x0d, 0x0a, 0xff, 0xfe, 0xc3, 0x2a, 0x24, 0x23, 0x3a, 0x25, 0x20, 0x09];

function randomBytes(next: Rng, length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = next() < 0.3 ? pick(next, HOSTILE_BYTES) : Math.floor(next() * 256);
  return out;
}

function mutate(next: Rng, bytes: Uint8Array): Uint8Array {
  const out = Array.from(bytes);
  const edits = 1 + Math.floor(next() * 20);
  for (let e = 0; e < edits && out.length > 0; e++) {
    const at = Math.floor(next() * out.length);
    const r = next();
    if (r < 0.3) out[at] = pick(next, HOSTILE_BYTES);
    else if (r < 0.5) out.splice(at, 1 + Math.floor(next() * 20));
    else if (r < 0.7) out.splice(at, 0, ...encoder.encode(pick(next, ['\nUser-agent: *\n', '\nDisallow: /*a*$\n', '\nAllow: /\n', '\r', '\u0000', 'é', '%'])));
    else out.splice(at, 0, ...out.slice(Math.max(0, at - 50), at));
  }
  return new Uint8Array(out);
}

/**
 * `count` rules of one to four literal segments each, from a small set plus one of their own
 * ("b!~7": every such segment holds the gate pair "!~"), some anchored.
 */
function segmentedRules(next: Rng, count: number): string {
  const shared = ['ab', '/', '?', 'x=', 'q!~', '.pdf'];
  const rules = Array.from({ length: count }, (_, i) => {
    const segments = [`${'abc'[i % 3]}!~${i}`, ...Array.from({ length: Math.floor(next() * 3) }, () => pick(next, shared))];
    return `${next() < 0.3 ? 'Allow' : 'Disallow'}: /${next() < 0.3 ? 'a' : ''}*${segments.join('*')}${next() < 0.3 ? '$' : ''}`;
  });
  return `User-agent: *\n${rules.join('\n')}\n`;
}

/** Whether a table image's key filter has automata. */
function filterAutomata(image: Uint8Array): boolean {
  return readTable(image).filter()?.automata ?? false;
}

function generated(next: Rng): Uint8Array {
  const lines: string[] = [];
  const groups = 1 + Math.floor(next() * 30);
  for (let g = 0; g < groups; g++) {
    lines.push(`User-agent: ${pick(next, ['*', 'Bot', 'bot', 'OtherBot', 'Bot/1.0', '__proto__', 'constructor'])}`);
    const rules = Math.floor(next() * 12);
    for (let r = 0; r < rules; r++) lines.push(`${pick(next, ['Allow', 'Disallow', 'disallow', 'ALLOW'])}: ${randomPattern(next)}`);
    if (next() < 0.05) lines.push(`Disallow: /${'x'.repeat(2000 + Math.floor(next() * 18_000))}`);
    if (next() < 0.1) lines.push('Disallow: /nul\u0000after');
  }
  const text = lines.join(pick(next, ['\n', '\r\n', '\r']));
  const r = next();
  if (r < 0.1) return new Uint8Array([0xff, 0xfe, ...new Uint8Array(Uint16Array.from(text, (c) => c.charCodeAt(0)).buffer)]);
  if (r < 0.2) return new Uint8Array([...encoder.encode(text), 0xc3, 0x28, 0xa0, 0xa1, ...encoder.encode('\nDisallow: /after-invalid\n')]);
  return encoder.encode(text);
}

const pool = new RobotsPool({ threads: 2, minUrls: 1, minBytes: 1, jobUrls: 16, jobBytes: 512 });
afterAll(() => pool.close());

async function checkFile(bytes: Uint8Array, mode: Mode, next: Rng, usePool: boolean): Promise<string[]> {
  const problems: string[] = [];
  const robots = RobotsTxt.parse(bytes, { mode });
  const utf16 = bytes[0] === 0xff && bytes[1] === 0xfe;
  const urls = ['/', '/robots.txt', 'http://example.com/a?b#c'];
  for (const group of robots.groups) for (const rule of group.rules.slice(0, 5)) urls.push(...(urlsForPattern(rule.pattern, next) as string[]).slice(0, 3));
  while (urls.length < 20) urls.push(randomPath(next));
  const lineUrls = urls.filter((u) => !/[\r\n]/.test(u));
  const lines = encoder.encode(lineUrls.join('\n'));
  for (const agent of ['Bot', 'bot/2.0', '*', '', '__proto__', ...robots.agents.slice(0, 2)]) {
    const matcher = robots.matcher(agent);
    const single = urls.map((u) => (robots.isAllowed(u, agent) ? 1 : 0));
    const many = Array.from(matcher.checkMany(urls));
    const fromLines = Array.from(matcher.checkLines(lines));
    const copy = Matcher.fromBytes(matcher.toBytes());
    const restored = Array.from(copy.checkMany(urls));
    copy.dispose();
    if (many.join() !== single.join()) problems.push(`checkMany differs for ${agent}`);
    if (restored.join() !== single.join()) problems.push(`fromBytes differs for ${agent}`);
    if (fromLines.join() !== lineUrls.map((u) => single[urls.indexOf(u)]).join()) problems.push(`checkLines differs for ${agent}`);
    if (usePool) {
      if (Array.from(await pool.checkMany(matcher, urls)).join() !== single.join()) problems.push(`pool.checkMany differs for ${agent}`);
      if (Array.from(await pool.checkLines(matcher, lines)).join() !== fromLines.join()) problems.push(`pool.checkLines differs for ${agent}`);
    }
    if (!(utf16 && mode === 'rfc')) {
      const oracle = new ReferenceRobots(bytes, agent, mode);
      urls.forEach((u, i) => {
        if ((single[i] === 1) !== oracle.isAllowed(u)) problems.push(`oracle differs for ${agent} on ${JSON.stringify(u)}`);
      });
    }
    // explain names a rule that matches the URL on its own.
    for (const url of urls.slice(0, 8)) {
      const { allowed, rule } = robots.explain(url, agent);
      if (allowed !== (single[urls.indexOf(url)] === 1)) problems.push(`explain's verdict differs on ${url}`);
      if (rule === null) continue;
      const alone = RobotsTxt.parse(`User-agent: *\nDisallow: ${rule.pattern}\n`, { mode });
      if (alone.isAllowed(url, 'x')) problems.push(`explain names ${JSON.stringify(rule.pattern)} (line ${rule.line}), which does not match ${JSON.stringify(url)}`);
      alone.dispose();
    }
  }
  robots.dispose();
  return problems;
}

describe.each<Mode>(['rfc', 'google'])('files, mode %s: parse never throws and every verdict path agrees', (mode) => {
  const count = 150 * FILE_SCALE;
  it(`${count} random byte files`, async () => {
    const next = seeded(mode === 'rfc' ? 201 : 202);
    for (let i = 0; i < count; i++) expect(await checkFile(randomBytes(next, Math.floor(next() * 3000)), mode, next, i < 10)).toEqual([]);
  });

  it(`${count} mutated real files`, async () => {
    const next = seeded(mode === 'rfc' ? 203 : 204);
    const files = corpusFiles();
    for (let i = 0; i < count; i++) expect(await checkFile(mutate(next, files[i % files.length].bytes), mode, next, i < 10)).toEqual([]);
  });

  it(`${count} generated files (many groups, long lines, deep wildcards, NUL, invalid UTF-8, UTF-16, CR-only)`, async () => {
    const next = seeded(mode === 'rfc' ? 205 : 206);
    for (let i = 0; i < count; i++) expect(await checkFile(generated(next), mode, next, i < 10)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------
// URL-level controls

const TAG_PIECES = ['noindex', 'nofollow', 'googlebot', '*', ';', ',', '=', ':', '"', '\\', '(', ')', ' ', '?1', '@12', 'max-snippet', '-1', '20', 'unavailable_after', 'Friday, 25-Jun-10', 'é', '\u0000', '%"x"'];
const HTML_PIECES = ['<', '>', '</', '<!--', '-->', '<meta', ' name=', 'robots', ' content=', '"', "'", 'noindex', '<script>', '</script>', '<head>', '</head>', '<body>', '<title>', '&amp;', '&#', ';', '/>', '\u0000', 'é', ' '];

function pieces(next: Rng, from: readonly string[], count: number): string {
  let s = '';
  for (let i = 0; i < count; i++) s += pick(next, from);
  return s;
}

describe('damaged table images', () => {
  // fromBytes must refuse an image the matcher cannot walk safely; what it accepts may give
  // other verdicts, but every check ends with one (no trap out of bounds, no endless walk). The
  // checksum refuses every such image as it is; with the checksum recomputed (as a crafted
  // image would carry it), the structure is what is checked.
  const count = 300 * FILE_SCALE;
  it(`${count} images with one word changed: refused by the checksum; resealed, refused by fromBytes or every check gives a verdict`, () => {
    const next = seeded(77);
    // Tables of files with many rules, each with URLs made from its rules, which walk deep; and
    // tables of wildcard rules with many segments (records, lazy keys) and with automata, with
    // paths full of one gate pair, which make the key pass give up and run the automata.
    const files = corpusFiles().map((f) => RobotsTxt.parse(f.bytes)).filter((robots) => robots.matcher('Bot').ruleCount >= 20).slice(0, 40);
    files.push(RobotsTxt.parse(segmentedRules(next, 40)), RobotsTxt.parse(segmentedRules(next, 700)));
    const sources = files.map((robots) => {
      const urls = ['/', 'https://example.com/search?q=1', '/%E9t%C3%A9', ...Array.from({ length: 10 }, () => randomPath(next))];
      for (const group of robots.groups) for (const rule of group.rules.slice(0, 30)) urls.push(...(urlsForPattern(rule.pattern, next) as string[]).slice(0, 2));
      urls.push(`/${'!~'.repeat(3000)}b!~7/a`, `/a!~1${'!~'.repeat(2000)}/c!~2`);
      return { image: robots.matcher('Bot').toBytes(), urls, lines: encoder.encode(urls.filter((u) => !/[\r\n]/.test(u)).join('\n')) };
    });
    expect(sources.filter((source) => filterAutomata(source.image)).length).toBe(1);
    let refused = 0;
    let loaded = 0;
    for (let i = 0; i < count; i++) {
      // A third of the images are of the two segmented tables, whose filters are the largest.
      const source = next() < 0.33 ? sources[sources.length - 1 - Math.floor(next() * 2)] : pick(next, sources);
      const { urls, lines } = source;
      const image = source.image.slice();
      const view = new DataView(image.buffer);
      const { rootAt: root, filterAt: filter } = readTable(image);
      // Mostly inside the trie, where the walk follows what it reads, or the key filter, whose
      // records and automata the matcher follows too; otherwise anywhere.
      const place = next();
      const from = filter > 0 && place < 0.4 ? filter : root > 0 && place < 0.75 ? root : 8;
      const at = (from + Math.floor(next() * (image.length - from - 4))) & ~3;
      const old = view.getUint32(at, true);
      const kind = next();
      const value = kind < 0.3 ? old ^ (1 << Math.floor(next() * 32)) : kind < 0.6 ? old + Math.floor(next() * 64) - 32 : kind < 0.8 ? view.getUint32((Math.floor(next() * (image.length - 4))) & ~3, true) : Math.floor(next() * 2 ** 32);
      view.setUint32(at, value >>> 0, true);
      if (value >>> 0 !== old) expect(() => Matcher.fromBytes(image)).toThrow(/damaged \(checksum\)|truncated|bad magic|format version/);
      reseal(image);
      let copy: Matcher;
      try {
        copy = Matcher.fromBytes(image);
      } catch (error) {
        expect(error).toBeInstanceOf(TypeError);
        expect(String(error)).toMatch(/damaged|truncated|bad magic|format version/);
        refused++;
        continue;
      }
      loaded++;
      const many = copy.checkMany(urls);
      const fromLines = copy.checkLines(lines);
      expect(many.length).toBe(urls.length);
      expect([...many, ...fromLines].every((v) => v === 0 || v === 1)).toBe(true);
      copy.dispose();
    }
    expect(refused).toBeGreaterThan(count / 10);
    expect(loaded).toBeGreaterThan(count / 10);
  });
});

describe('URL-level controls: random and mutated input never throws', () => {
  it(`${(2000 * SCALE).toLocaleString('en')} header values and documents`, () => {
    const next = seeded(301);
    let withRules = 0;
    for (let i = 0; i < 2000 * SCALE; i++) {
      const value = pieces(next, TAG_PIECES, Math.floor(next() * 40));
      for (const field of ['robots-tag', 'x-robots-tag'] as const) {
        const rules = parseRobotsTag([value, pieces(next, TAG_PIECES, 5)], { field }).rulesFor('googlebot');
        expect(rules instanceof Map).toBe(true);
        if (rules.size > 0) withRules++;
      }
      const html = pieces(next, HTML_PIECES, Math.floor(next() * 60));
      expect(parseRobotsMeta(html).rulesFor('bot') instanceof Map).toBe(true);
      const c = urlControls({ headers: { 'x-robots-tag': value, 'cache-control': pieces(next, TAG_PIECES, 3) }, html, renderedHtml: encoder.encode(html) }, 'googlebot', { now: 0 });
      expect(typeof c.noindex).toBe('boolean');
    }
    expect(withRules).toBeGreaterThan(100 * SCALE);
  });

  it('megabyte inputs finish and keep what was readable', () => {
    const next = seeded(302);
    for (let i = 0; i < 3; i++) {
      const big = pieces(next, TAG_PIECES, 200_000);
      expect(parseRobotsTag(`*;noindex, ${big}`).rulesFor('x').get('noindex')).toBe(true);
      expect(parseRobotsTag(`noindex, ${big}`, { field: 'x-robots-tag' }).rulesFor('x').get('noindex')).toBe(true);
      const html = `<head><meta name=robots content=noindex>${pieces(next, HTML_PIECES, 200_000)}`;
      expect(parseRobotsMeta(html).rulesFor('x').get('noindex')).toBe(true);
    }
  });
});
