// The WebAssembly matcher against the plain-JS model of the reference (test/oracle), which
// shares no code with src/.
import { describe, expect, it } from 'vitest';
import { Matcher, RobotsTxt, type Mode } from '../src/index.js';
import { comparablePaths, positionSetMatches, ReferenceRobots } from './oracle/reference.js';
import { corpusFiles } from './support/fixtures.js';
import { ASCII_PATH_BYTES, ASCII_PATTERN_BYTES, randomPath, randomRobots, randomText, randomWildcardRobots, rng } from './support/random.js';
import { compilePatterns, kernelLastIndexOf, kernelNibbleTables, kernelTwoWay, keyFilterCounts, type PatternRule } from './support/compile.js';
import { filterOf, readTable } from './support/table.js';
import { compiledRule, decide } from '../src/matcher.js';
import { ownSegments, padded, repeatedSegmentRules, sharedSegmentRules } from '../bench/adversarial.js';
import { agentsFor, random, urlsForPattern } from '../scripts/corpus-check.mjs';

const encoder = new TextEncoder();

describe('compiled table against brute force over the position-set matcher', () => {
  // ASCII patterns in google mode are compiled as they are, so the kernel sees exactly the
  // bytes positionSetMatches sees.
  it('picks the longest matching rule, allow on ties, on 400 random rule sets x 60 paths', () => {
    const next = rng(42);
    let decided = 0;
    for (let set = 0; set < 400; set++) {
      const rules: PatternRule[] = Array.from({ length: 1 + Math.floor(next() * 30) }, (_, id) => ({
        line: id + 1, allow: next() < 0.4,
        pattern: (next() < 0.8 ? '/' : '*') + randomText(next, ASCII_PATTERN_BYTES, 6),
      }));
      const matcher = compilePatterns(rules);
      for (let p = 0; p < 60; p++) {
        const path = randomPath(next, ASCII_PATH_BYTES);
        const pathBytes = encoder.encode(path);
        let best: PatternRule | undefined;
        for (const rule of rules) {
          if (!positionSetMatches(pathBytes, encoder.encode(rule.pattern))) continue;
          const longer = best === undefined || rule.pattern.length > best.pattern.length;
          const tieAllow = best !== undefined && rule.pattern.length === best.pattern.length && rule.allow && !best.allow;
          if (longer || tieAllow) best = rule;
        }
        const r = decide(matcher, path);
        const got = r < 0 ? undefined : compiledRule(matcher, r);
        expect({ path, allow: got?.allow, length: got?.pattern.length }).toEqual({ path, allow: best?.allow, length: best?.pattern.length });
        if (got !== undefined) {
          // The named rule really matches, and is the first such rule of its length and kind.
          expect(positionSetMatches(pathBytes, encoder.encode(got.pattern))).toBe(true);
          expect(got.line).toBe(rules.find((x) => x.pattern.length === got.pattern.length && x.allow === got.allow && positionSetMatches(pathBytes, encoder.encode(x.pattern)))!.line);
          decided++;
        }
      }
      matcher.dispose();
    }
    expect(decided).toBeGreaterThan(4000);
  });
});

/** The rule of the length and kind brute force picks for `bytes` (undefined for none). */
function bruteForceBest(rules: readonly PatternRule[], bytes: Uint8Array): PatternRule | undefined {
  const matching = rules.filter((rule) => positionSetMatches(bytes, encoder.encode(rule.pattern)));
  return matching.sort((a, b) => b.pattern.length - a.pattern.length || Number(b.allow) - Number(a.allow))[0];
}

/** The matcher decides `path` by a rule of the length and kind brute force picks (or none). */
function expectBruteForceVerdict(matcher: Matcher, rules: readonly PatternRule[], path: string): void {
  // RFC mode matches every request-target clients send ("/a?" is "/a?" and "/a"): brute force on
  // each; the first one disallowed decides, else the first.
  const bests = matcher.mode === 'rfc' ? comparablePaths(encoder.encode(path), 'rfc').map((bytes) => bruteForceBest(rules, bytes)) : [bruteForceBest(rules, encoder.encode(path))];
  const best = bests.find((rule) => rule !== undefined && !rule.allow) ?? bests[0];
  const r = decide(matcher, path);
  expect({ path, allow: r < 0 ? undefined : compiledRule(matcher, r).allow, length: r < 0 ? undefined : compiledRule(matcher, r).pattern.length })
    .toEqual({ path, allow: best?.allow, length: best?.pattern.length });
}

/** Whether a table image's key filter compares its gate pairs exactly (false without a filter). */
function exactGates(image: Uint8Array): boolean {
  return filterOf(image)?.exactGates ?? false;
}

/** How many trie nodes of each kind a table image holds, and child entries of long labels. */
function nodeKinds(image: Uint8Array): Record<'dense' | 'index4' | 'index16' | 'bitmap' | 'longLabel', number> {
  const kinds = { dense: 0, index4: 0, index16: 0, bitmap: 0, longLabel: 0 };
  for (const node of readTable(image).nodes()) {
    if (node.children.length === 0) continue;
    kinds[node.area]++;
    kinds.longLabel += node.children.filter((child) => child.long).length;
  }
  return kinds;
}

describe('trie nodes', () => {
  it('of every kind (dense runs, indexes of 1-4, 5-16 and 17+ children, labels of 7-17 and 255+ bytes) match like brute force', () => {
    const next = rng(9);
    const rules: PatternRule[] = [];
    const add = (pattern: string) => rules.push({ line: rules.length + 1, allow: next() < 0.4, pattern });
    for (let d = 0; d < 10; d++) if (d !== 4) add(`/n/${d}`); // a run of digits with a gap: dense
    for (const c of 'bkx') add(`/s/${c}`); // three scattered bytes: a 4-byte index
    for (const c of 'acegikmoqsu') add(`/m/${c}z`); // eleven: a 16-byte index
    for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') add(`/${c}`); // 26 + 3 under the root: a bitmap
    add(`/l/${'q'.repeat(300)}`); // labels longer than an entry says
    add(`/l/${'q'.repeat(300)}/r`);
    add(`/l/${'q'.repeat(254)}p`);
    add('/n/5$');
    add('/s/k*y');
    // Labels around the compare widths (8 and 16 bytes), and paths that differ at each byte.
    const widths = [7, 8, 9, 15, 16, 17];
    for (const w of widths) add(`/w${w}/${'abcdefghijklmnopqrstuvwxyz'.slice(0, w)}`);
    const matcher = compilePatterns(rules);
    const kinds = nodeKinds(matcher.toBytes());
    for (const kind of ['dense', 'index4', 'index16', 'bitmap', 'longLabel'] as const) expect([kind, kinds[kind] > 0]).toEqual([kind, true]);
    const paths = ['/', '/n/', '/n/4', '/n/5', '/n/55', '/n/9x', '/n/:', '/n//', '/s/k', '/s/kzy', '/s/c', '/m/az', '/m/a', '/m/bz', '/A', '/Ax',
      '/a', `/l/${'q'.repeat(299)}`, `/l/${'q'.repeat(300)}`, `/l/${'q'.repeat(300)}/r`, `/l/${'q'.repeat(254)}p`, `/l/${'q'.repeat(254)}`];
    for (const w of widths) {
      const label = 'abcdefghijklmnopqrstuvwxyz'.slice(0, w);
      for (let i = 0; i < w; i++) paths.push(`/w${w}/${label.slice(0, i)}_${label.slice(i + 1)}`);
      paths.push(`/w${w}/${label}`, `/w${w}/${label}x`, `/w${w}/${label.slice(0, -1)}`);
    }
    for (let i = 0; i < 300; i++) paths.push(`/${'nsmlAZ'[Math.floor(next() * 6)]}/${randomText(next, [...'0123456789abkxz/q'], 6)}`);
    for (const path of paths) expectBruteForceVerdict(matcher, rules, path);
    // A table image loaded from bytes walks the same nodes.
    const copy = Matcher.fromBytes(matcher.toBytes());
    for (const path of paths) expect([path, copy.isAllowed(path)]).toEqual([path, matcher.isAllowed(path)]);
    copy.dispose();
    matcher.dispose();
  });
});

describe('wildcard key filter', () => {
  it('nibble tables test set membership exactly up to 8 row patterns, and a superset beyond', () => {
    const next = rng(9);
    for (let round = 0; round < 200; round++) {
      const set = new Set(Array.from({ length: 1 + Math.floor(next() * 60) }, () => Math.floor(next() * 256)));
      const { lo, hi } = kernelNibbleTables(set);
      const rows = new Set([...set].map((b) => b >> 4));
      const patterns = new Set([...rows].map((h) => [...set].filter((b) => b >> 4 === h).map((b) => b & 15).sort().join()));
      for (let b = 0; b < 256; b++) {
        const member = (lo[b & 15] & hi[b >> 4]) !== 0;
        if (set.has(b)) expect(member).toBe(true);
        else if (patterns.size <= 8) expect(member).toBe(false);
      }
    }
  });

  it('keys with at most two gate pairs are compared exactly, with no candidates from a byte of each pair', () => {
    // "/*ab" and "/*cd": one pair each, so the filter keeps the pairs; nibble tables would
    // also let "ad" and "cb" through as candidates, which the verdicts cannot show but the
    // table's filter word does.
    const exact = RobotsTxt.parse('User-agent: *\nDisallow: /*ab\nDisallow: /*cd\n', { mode: 'google' }).matcher('Bot');
    expect(exactGates(exact.toBytes())).toBe(true);
    expect(exact.checkMany(['/xadcbx', '/xcdx', '/xabx', '/a', '/b/c/d'])).toEqual(new Uint8Array([1, 0, 0, 1, 1]));
    const three = RobotsTxt.parse('User-agent: *\nDisallow: /*ab\nDisallow: /*cd\nDisallow: /*ef\n', { mode: 'google' }).matcher('Bot');
    expect(exactGates(three.toBytes())).toBe(false);
    expect(three.checkMany(['/xadcbx', '/xefx', '/eaf'])).toEqual(new Uint8Array([1, 0, 1]));
  });

  it('filters with one or two gate pairs (exact gate compare) match like brute force', () => {
    // A small alphabet puts each pair's bytes, and the pairs crossed, all over the paths.
    const next = rng(15);
    const alphabet = 'abcd/.?='.split('');
    let exactSets = 0;
    for (let set = 0; set < 150; set++) {
      const rules: PatternRule[] = Array.from({ length: 2 + Math.floor(next() * 4) }, (_, id) => ({
        line: id + 1, allow: next() < 0.3,
        pattern: `/${next() < 0.5 ? '' : randomText(next, alphabet, 2)}*${randomText(next, alphabet, 2 + Math.floor(next() * 3))}${next() < 0.3 ? '*' : ''}${next() < 0.2 ? '$' : ''}`,
      }));
      const matcher = compilePatterns(rules);
      if (exactGates(matcher.toBytes())) exactSets++;
      for (let p = 0; p < 100; p++) {
        const text = randomText(next, alphabet, 1 + Math.floor(next() * 70));
        expectBruteForceVerdict(matcher, rules, text.startsWith('/') ? `/a${text}` : `/${text}`);
      }
      matcher.dispose();
    }
    expect(exactSets).toBeGreaterThan(30);
  });

  it.each<Mode>(['rfc', 'google'])('batch checks skip the key search only where no gate occurs in the path, mode %s', (mode) => {
    // checkMany and checkLines mark where exact gates occur in the whole batch and skip the
    // key search for a path with none (match.ts, mapKeyGates); isAllowed searches every path.
    // Keys at the path's start and end, past 64 bytes, in paths that are rewritten (escapes,
    // no leading '/') and followed by the gate's second byte in the next URL.
    const next = rng(16);
    const alphabet = ['a', 'b', 'c', '/', '.', '?', '=', '%61', '%2F', '\u00e9', 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'];
    let mappedSets = 0;
    for (let set = 0; set < 120; set++) {
      // Two keys of two or more bytes (at most two gate pairs: exact gates), and at times a
      // one-byte key.
      const keys = Array.from({ length: next() < 0.3 ? 3 : 2 }, (_, i) => randomText(next, ['a', 'b', 'c', '.', '?', '='], i < 2 ? 2 + Math.floor(next() * 3) : 1));
      const body = `User-agent: *\n${keys.map((key) => `${next() < 0.3 ? 'Allow' : 'Disallow'}: /*${key}${next() < 0.3 ? '$' : ''}\n`).join('')}Disallow: /a/\n`;
      const robots = RobotsTxt.parse(body, { mode });
      const matcher = robots.matcher('Bot');
      if (exactGates(matcher.toBytes())) mappedSets++;
      const urls = Array.from({ length: 200 }, () => {
        let path = '';
        const pieces = Math.floor(next() * 12);
        for (let i = 0; i < pieces; i++) path += next() < 0.2 ? keys[Math.floor(next() * keys.length)] : alphabet[Math.floor(next() * alphabet.length)];
        return next() < 0.8 ? `https://h.example/${path}` : `https://h.example${path.startsWith('/') ? '' : '?'}${path}`;
      });
      const want = Uint8Array.from(urls, (url) => (matcher.isAllowed(url) ? 1 : 0));
      expect(matcher.checkMany(urls)).toEqual(want);
      expect(matcher.checkLines(encoder.encode(urls.join('\n')))).toEqual(want);
    }
    expect(mappedSets).toBeGreaterThan(40);
  });

  it('large wildcard sets (merged nibble tables, one-byte keys) match like brute force', () => {
    const next = rng(11);
    const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789-_.=&?/%'.split('');
    for (let set = 0; set < 40; set++) {
      const rules: PatternRule[] = Array.from({ length: 20 + Math.floor(next() * 200) }, (_, id) => ({
        line: id + 1, allow: next() < 0.3,
        pattern: `/${next() < 0.5 ? '' : randomText(next, alphabet, 2)}*${randomText(next, alphabet, 1 + Math.floor(next() * 4))}${next() < 0.2 ? '$' : ''}`,
      }));
      const matcher = compilePatterns(rules);
      for (let p = 0; p < 300; p++) {
        const text = randomText(next, alphabet, 40);
        expectBruteForceVerdict(matcher, rules, text.startsWith('/') ? `/a${text}` : `/${text}`);
      }
      matcher.dispose();
    }
  });

  it('keys sharing long prefixes (one bucket, skipped by shared prefix) match like brute force', () => {
    // Many keys under one directory get the same gate, so a bucket scan compares them as a
    // sorted run: keys that are prefixes of others, paths ending inside a key, and paths that
    // sort between, before and after the keys all have to come out as brute force says.
    const next = rng(12);
    const dirs = ['/medialibrary/pdfs/', '/media-library/', '/medialibrary/pdfs/factsheets/'];
    const words = ['a', 'ab', 'abc', 'abd', 'b', 'ba', 'sophos', 'sophosa', 'sophosb', 'safe', 'safeguard', 'zz'];
    for (let set = 0; set < 30; set++) {
      const rules: PatternRule[] = Array.from({ length: 30 + Math.floor(next() * 90) }, (_, id) => {
        const key = dirs[Math.floor(next() * dirs.length)] + randomText(next, words, 1 + Math.floor(next() * 3));
        return { line: id + 1, allow: next() < 0.3, pattern: `/*${key}${next() < 0.3 ? '*' : ''}${next() < 0.2 ? '$' : ''}` };
      });
      const matcher = compilePatterns(rules);
      for (let p = 0; p < 200; p++) {
        const rule = rules[Math.floor(next() * rules.length)].pattern.replace(/[*$]/g, '');
        const cut = Math.floor(next() * (rule.length + 4));
        expectBruteForceVerdict(matcher, rules, `/x${rule.slice(0, cut)}${next() < 0.5 ? randomText(next, words, 2) : ''}`);
      }
      matcher.dispose();
    }
  });
});

/** Whether every literal segment of `pattern` (after its first '*') occurs in `path`: needed for a match. */
function segmentsOccur(path: string, pattern: string): boolean {
  const star = pattern.indexOf('*');
  return star < 0 || pattern.slice(star).replace(/\$$/, '').split('*').every((segment) => path.includes(segment));
}

/**
 * expectBruteForceVerdict for large rule sets: rules missing a segment are not given to the
 * oracle. Returns whether a rule matched.
 */
function expectVerdictOfRulesThatMayMatch(matcher: Matcher, rules: readonly PatternRule[], path: string): boolean {
  const bytes = encoder.encode(path);
  const matching = rules.filter((rule) => segmentsOccur(path, rule.pattern) && positionSetMatches(bytes, encoder.encode(rule.pattern)));
  const best = matching.sort((a, b) => b.pattern.length - a.pattern.length || Number(b.allow) - Number(a.allow))[0];
  const r = decide(matcher, path);
  expect({ path, allow: r < 0 ? undefined : compiledRule(matcher, r).allow, length: r < 0 ? undefined : compiledRule(matcher, r).pattern.length })
    .toEqual({ path, allow: best?.allow, length: best?.pattern.length });
  return best !== undefined;
}

describe('every literal segment a key: rules tried only when all their segments occur', () => {
  // Segments shared between rules, repeated within one, '$' anchors, literal parts, and paths
  // that hold the segments in any order, twice, or not at all.
  const POOL = ['ab', 'b', 'abc', 'ca', 'a', '.x', 'x=', '?', '/', 'bb', 'q!~', '!~', 'aab', '/?', 'a/'];

  function randomWildcardRule(next: () => number, id: number): PatternRule {
    const literal = ['/', '/a', '/ab/', '', '/x'][Math.floor(next() * 5)];
    const segments = Array.from({ length: 1 + Math.floor(next() * 4) }, () => POOL[Math.floor(next() * POOL.length)]);
    const tail = next() < 0.3 ? '$' : next() < 0.2 ? '*' : next() < 0.1 ? '*$' : '';
    return { line: id + 1, allow: next() < 0.35, pattern: `${literal}*${segments.join(next() < 0.2 ? '**' : '*')}${tail}` };
  }

  function randomPoolPath(next: () => number, pieces: number): string {
    let path = next() < 0.5 ? '/' : ['/a', '/ab/', '/x', '/ab/c'][Math.floor(next() * 4)];
    for (let i = 0; i < pieces; i++) path += next() < 0.6 ? POOL[Math.floor(next() * POOL.length)] : 'xyzc/'[Math.floor(next() * 5)];
    // A path starting "//" would be read as an authority.
    return path.startsWith('//') ? `/c${path.slice(1)}` : path;
  }

  it('multi-segment rules that share segments match like brute force, segments in and out of order', () => {
    const next = rng(21);
    const before = keyFilterCounts();
    for (let set = 0; set < 250; set++) {
      const rules = Array.from({ length: 2 + Math.floor(next() * 25) }, (_, id) => randomWildcardRule(next, id));
      const matcher = compilePatterns(rules, set % 2 === 0 ? 'google' : 'rfc');
      for (let p = 0; p < 40; p++) expectBruteForceVerdict(matcher, rules, randomPoolPath(next, Math.floor(next() * 14)));
      matcher.dispose();
    }
    // Most paths placed rules; none of these short paths made the pass give up.
    expect(keyFilterCounts().rulesPlaced - before.rulesPlaced).toBeGreaterThan(5000);
    expect(keyFilterCounts().passesGivenUp).toBe(before.passesGivenUp);
  });

  it('paths that make the key pass give up (one search per key) match like brute force', () => {
    // Every key holds the rare pair "!~", so one bucket holds them all and a path full of the
    // pair makes each of its candidates compare every key: past the budget, each key is
    // searched for from both ends of the path.
    const next = rng(22);
    const before = keyFilterCounts();
    let decided = 0;
    for (let set = 0; set < 30; set++) {
      const own = Array.from({ length: 60 }, (_, i) => `${'abc'[i % 3]}!~${i}`);
      const rules: PatternRule[] = Array.from({ length: 60 }, (_, id) => {
        const segments = [own[id], ...Array.from({ length: Math.floor(next() * 3) }, () => (next() < 0.5 ? own[Math.floor(next() * 60)] : POOL[Math.floor(next() * POOL.length)]))];
        if (next() < 0.3) segments.reverse();
        return { line: id + 1, allow: next() < 0.35, pattern: `/*${segments.join('*')}${next() < 0.3 ? '$' : ''}` };
      });
      const matcher = compilePatterns(rules);
      expect(filterOf(matcher.toBytes())?.automata).toBe(false);
      for (let p = 0; p < 12; p++) {
        let path = '/';
        for (let i = 0; i < 250; i++) path += next() < 0.9 ? '!~' : next() < 0.5 ? own[Math.floor(next() * 60)] : POOL[Math.floor(next() * POOL.length)];
        if (expectVerdictOfRulesThatMayMatch(matcher, rules, path)) decided++;
      }
      matcher.dispose();
    }
    expect(keyFilterCounts().passesGivenUp - before.passesGivenUp).toBe(30 * 12);
    expect(decided).toBeGreaterThan(200);
  });

  it('paths that make the key pass give up (automata, in a filter of many keys) match like brute force', () => {
    const next = rng(23);
    const before = keyFilterCounts();
    let decided = 0;
    for (let set = 0; set < 3; set++) {
      const count = 600;
      const own = Array.from({ length: count }, (_, i) => `${'abc'[i % 3]}!~${i}`);
      // Some segments are the tails of others ("!~12" of "b!~12"), found only inside them.
      const other = () => (next() < 0.5 ? own[Math.floor(next() * count)] : next() < 0.5 ? own[Math.floor(next() * count)].slice(1) : POOL[Math.floor(next() * POOL.length)]);
      const rules: PatternRule[] = Array.from({ length: count }, (_, id) => {
        const segments = [own[id], ...Array.from({ length: Math.floor(next() * 3) }, other)];
        if (next() < 0.3) segments.reverse();
        return { line: id + 1, allow: next() < 0.35, pattern: `/${next() < 0.2 ? 'a' : ''}*${segments.join('*')}${next() < 0.3 ? '$' : ''}` };
      });
      const matcher = compilePatterns(rules);
      expect(filterOf(matcher.toBytes())?.automata).toBe(true);
      for (let p = 0; p < 25; p++) {
        let path = next() < 0.5 ? '/' : '/a';
        for (let i = 0; i < 300; i++) path += next() < 0.85 ? '!~' : next() < 0.7 ? own[Math.floor(next() * count)] : POOL[Math.floor(next() * POOL.length)];
        if (expectVerdictOfRulesThatMayMatch(matcher, rules, path)) decided++;
      }
      // The same rules on short paths, which the pass finishes.
      for (let p = 0; p < 25; p++) expectVerdictOfRulesThatMayMatch(matcher, rules, `/${own[Math.floor(next() * count)]}${randomPoolPath(next, 3)}${own[Math.floor(next() * count)]}`);
      matcher.dispose();
    }
    expect(keyFilterCounts().passesGivenUp - before.passesGivenUp).toBe(3 * 25);
    expect(decided).toBeGreaterThan(40);
  });

  it('rules whose other segments are absent are never placed, however many share a segment (21,375 rules /*aaaaa*b<N>)', () => {
    // Before every segment was a key, the first check tried all 21,375 rules against the path.
    const { body, count } = sharedSegmentRules();
    const matcher = RobotsTxt.parse(body, { maxBytes: Infinity }).matcher('Bot');
    const own = ownSegments(count);
    const checked = (url: string) => {
      const before = keyFilterCounts();
      const allowed = matcher.isAllowed(url);
      const after = keyFilterCounts();
      return { allowed, placed: after.rulesPlaced - before.rulesPlaced, gaveUp: after.passesGivenUp - before.passesGivenUp };
    };
    expect(checked(`/${'a'.repeat(2048)}`)).toEqual({ allowed: true, placed: 0, gaveUp: 0 });
    expect(checked(`/${'a'.repeat(1 << 20)}`)).toEqual({ allowed: true, placed: 0, gaveUp: 0 });
    // A path full of one gate pair: past its budget the pass hands over to the automata.
    expect(checked(`/${'b1'.repeat(1 << 19)}`)).toEqual({ allowed: true, placed: 0, gaveUp: 1 });
    // Every b<N> before aaaaa: each rule is placed once, and fails at once (its b<N> last occurs before aaaaa).
    expect(checked(padded(`/${own}aaaaa`, 1 << 20))).toEqual({ allowed: true, placed: count, gaveUp: 1 });
    // Every b<N> after aaaaa: the first rule placed matches, and only stronger ones are placed after it.
    const after = checked(padded(`/aaaaa${own}`, 1 << 20));
    expect({ allowed: after.allowed, fewPlaced: after.placed < 200 }).toEqual({ allowed: false, fewPlaced: true });
    matcher.dispose();
  });

  it('a segment needed again is searched for only up to where the segments after it still fit (18,183 rules /*b<N>*a*b<N>*c)', () => {
    const { body, count } = repeatedSegmentRules('c');
    const matcher = RobotsTxt.parse(body, { maxBytes: Infinity }).matcher('Bot');
    const own = ownSegments(count);
    const url = `/c${own}a${'x'.repeat(300_000)}${own}`;
    const searches = () => keyFilterCounts().searches;
    // c occurs only before a: every rule is placed and fails by the bound of its second b<N>
    // (the last c less its length lies before a), with no search across the 300,000 x's.
    const before = searches();
    expect(matcher.isAllowed(url)).toBe(true);
    expect(searches() - before).toBe(0);
    // With a c at the end, a rule placed finds its second b<N> after a and matches; only the
    // few stronger rules placed after it search too.
    expect(matcher.isAllowed(`${url}c`)).toBe(false);
    expect(searches() - before).toBeGreaterThan(0);
    expect(searches() - before).toBeLessThan(100);
    matcher.dispose();
  });

  it('keys every literal segment; a rule hangs off the segment fewest rules hold; one-byte keys no rule hangs off are lazy', () => {
    const rules: PatternRule[] = [
      { line: 1, allow: false, pattern: '/*aaaaa*b1' },
      { line: 2, allow: false, pattern: '/*aaaaa*b2$' },
      { line: 3, allow: false, pattern: '/x*aaaaa*/*aaaaa' },
      { line: 4, allow: true, pattern: '/*?*q' },
      { line: 5, allow: false, pattern: '/*.pdf$' },
      { line: 6, allow: false, pattern: '/*/?*wxyz' },
    ];
    const matcher = compilePatterns(rules);
    const filter = filterOf(matcher.toBytes())!;
    expect([...filter.keys].sort()).toEqual(['.pdf', '/', '/?', '?', 'aaaaa', 'b1', 'b2', 'q', 'wxyz'].sort());
    // '/', 'q' and "/?" hang no rule, and most paths hold them (the only pair of "/?" holds a
    // '/'): the pass does not look for them ('?' is rule 4's key, the first of two equally
    // held one-byte segments).
    expect(filter.keys.slice(filter.lazy).sort()).toEqual(['/', '/?', 'q']);
    expect(filter.keys.slice(filter.singles, filter.lazy)).toEqual(['?']);
    const byLine = (line: number) => filter.rules.find((r) => compiledRule(matcher, r.rule).line === line)!;
    expect(byLine(1)).toMatchObject({ home: 'b1', segments: ['aaaaa', 'b1'], literal: 1, anchored: false });
    expect(byLine(2)).toMatchObject({ home: 'b2', segments: ['aaaaa', 'b2'], anchored: true });
    // Both of its multi-byte segments are held by three rules: the longer one wins.
    expect(byLine(3)).toMatchObject({ home: 'aaaaa', segments: ['aaaaa', '/', 'aaaaa'], literal: 2 });
    expect(byLine(4)).toMatchObject({ home: '?', segments: ['?', 'q'] });
    expect(byLine(5)).toMatchObject({ home: '.pdf', segments: ['.pdf'], anchored: true });
    expect(byLine(6)).toMatchObject({ home: 'wxyz', segments: ['/?', 'wxyz'] });
    const paths = ['/aaaaab1', '/b1aaaaa', '/aaaaab2', '/aaaaab2x', '/xaaaaa/aaaaa', '/xaaaaa/', '/?q', '/q?', '/a.pdf', '/a.pdfx', '/a/?wxyz', '/a?/wxyz', '/wxyz/?', '/?/?wxyz'];
    for (const path of paths) expectBruteForceVerdict(matcher, rules, path);
    matcher.dispose();
  });
});

describe('long segments: the linear-time search behind the candidate check', () => {
  /**
   * A search to make: small alphabets and repeated units make periodic needles and many partial
   * matches, the cases where the two-way algorithm's shifts and its memory of the matched prefix
   * are exercised.
   */
  function searchCase(next: () => number, trial: number): { haystack: string; needle: string; from: number } {
    const units = ['a', 'ab', 'aab', 'abaab', 'abcab', 'aaaaaaab', 'ba'];
    const unit = units[trial % units.length];
    const mutate = (text: string, rate: number) => Array.from(text, (c) => (next() < rate ? 'abc'[Math.floor(next() * 3)] : c)).join('');
    const needle = mutate(unit.repeat(1 + Math.floor(next() * 12)).slice(0, 1 + Math.floor(next() * 40)), next() < 0.5 ? 0 : 0.1);
    const haystack = mutate(unit.repeat(Math.floor(next() * 60)), next() < 0.3 ? 0 : 0.05);
    return { haystack, needle, from: Math.floor(next() * 5) };
  }
  const bytes = (text: string) => new TextEncoder().encode(text);

  it('the two-way search finds the leftmost occurrence like indexOf, on periodic and random texts', () => {
    const next = rng(14);
    let found = 0;
    for (let trial = 0; trial < 3000; trial++) {
      const { haystack, needle, from } = searchCase(next, trial);
      const expected = haystack.indexOf(needle, from);
      expect({ haystack, needle, from, at: kernelTwoWay(bytes(haystack), from, bytes(needle)) }).toEqual({ haystack, needle, from, at: expected });
      if (expected >= 0) found++;
    }
    expect(found).toBeGreaterThan(600);
  });

  it('the backward searches find the rightmost occurrence like lastIndexOf, on periodic and random texts', () => {
    const next = rng(24);
    let found = 0;
    for (let trial = 0; trial < 3000; trial++) {
      const { haystack, needle, from } = searchCase(next, trial);
      const last = haystack.lastIndexOf(needle);
      const expected = last >= from ? last : -1;
      for (const twoWay of [true, false]) {
        expect({ haystack, needle, from, twoWay, at: kernelLastIndexOf(bytes(haystack), from, bytes(needle), twoWay) }).toEqual({ haystack, needle, from, twoWay, at: expected });
      }
      if (expected >= 0) found++;
    }
    expect(found).toBeGreaterThan(600);
  });

  it('segments that nearly occur all along long paths match like brute force', () => {
    // Paths of mostly "a": every position is a candidate for a segment of mostly "a", and each
    // check runs long, so the search moves on to the two-way algorithm; repeated units give
    // periodic segments (its other branch). A second rule puts some sets behind the key filter.
    const next = rng(13);
    const units = ['a', 'ae', 'aae', 'aeaa', 'aaaaaaae'];
    const sprinkle = (length: number, rate: number) => Array.from({ length }, () => (next() < rate ? 'e' : 'a')).join('');
    for (let set = 0; set < 40; set++) {
      const unit = units[set % units.length];
      const length = 20 + Math.floor(next() * 200);
      const segment = set % 2 === 0 ? unit.repeat(Math.ceil(length / unit.length)).slice(0, length) : sprinkle(length, 0.02);
      const rules: PatternRule[] = [{ line: 1, allow: false, pattern: `/*${segment}` }];
      if (set % 3 === 0) rules.push({ line: 2, allow: true, pattern: `/*${segment.slice(0, -1)}e$` });
      const matcher = compilePatterns(rules, 'rfc');
      for (let p = 0; p < 15; p++) {
        // Periodic segments go into paths of the same unit with rare defects, so that long
        // stretches agree with the segment at every period.
        const pathLength = 500 + Math.floor(next() * 1000);
        let path = set % 2 === 0
          ? Array.from(unit.repeat(Math.ceil(pathLength / unit.length)).slice(0, pathLength), (c) => (next() < 0.004 ? (c === 'a' ? 'e' : 'a') : c)).join('')
          : sprinkle(pathLength, next() < 0.5 ? 0 : 0.003);
        const at = Math.floor(next() * path.length);
        const plant = next();
        // The segment itself, or with its last byte changed (a near miss at the very end).
        if (plant < 0.4) path = path.slice(0, at) + segment + path.slice(at);
        else if (plant < 0.7) path = `${path.slice(0, at)}${segment.slice(0, -1)}${segment.endsWith('a') ? 'e' : 'a'}${path.slice(at)}`;
        expectBruteForceVerdict(matcher, rules, `/${path}`);
      }
      matcher.dispose();
    }
  });
});

describe.each<Mode>(['rfc', 'google'])('whole files against the oracle, mode %s', (mode) => {
  it('agrees on 600 random robots.txt files x 40 URLs x agents', () => {
    const next = rng(mode === 'rfc' ? 7 : 8);
    let disallowed = 0;
    for (let f = 0; f < 600; f++) {
      const body = randomRobots(next);
      const robots = RobotsTxt.parse(body, { mode });
      const urls = Array.from({ length: 40 }, () => (next() < 0.2 ? `http://example.com${randomPath(next)}` : randomPath(next)));
      // Random files name "Baz_Bot-2": rfc mode reads it whole, google mode as "Baz_Bot-".
      for (const agent of ['FooBot', 'barbot', 'Foo Bar', 'FooBot/1.0', 'Nobody', '', 'Baz_Bot-2/3.1', 'Baz_Bot-']) {
        const oracle = new ReferenceRobots(body, agent, mode);
        const expected = urls.map((url) => oracle.isAllowed(url));
        expect({ body, agent, verdicts: urls.map((url) => robots.isAllowed(url, agent)) }).toEqual({ body, agent, verdicts: expected });
        expect(Array.from(robots.matcher(agent).checkMany(urls), (v) => v === 1)).toEqual(expected);
        disallowed += expected.filter((v) => !v).length;
      }
      robots.dispose();
    }
    expect(disallowed).toBeGreaterThan(2_000);
  });

  it('agrees on 300 random files of many wildcard rules sharing literal segments', () => {
    const next = rng(mode === 'rfc' ? 25 : 26);
    let disallowed = 0;
    for (let f = 0; f < 300; f++) {
      const { body, urls } = randomWildcardRobots(next);
      const robots = RobotsTxt.parse(body, { mode });
      const oracle = new ReferenceRobots(body, 'FooBot', mode);
      const expected = urls.map((url) => oracle.isAllowed(url));
      expect({ body, verdicts: urls.map((url) => robots.isAllowed(url, 'FooBot')) }).toEqual({ body, verdicts: expected });
      expect(Array.from(robots.matcher('FooBot').checkMany(urls), (v) => v === 1)).toEqual(expected);
      disallowed += expected.filter((v) => !v).length;
      robots.dispose();
    }
    expect(disallowed).toBeGreaterThan(1_500);
  });

  it.each(corpusFiles().map((f) => [f.name, f.bytes] as const))('agrees on the real file %s', (name, bytes) => {
    // The oracle has no UTF-16 bridge: give it the body the rfc mode parses.
    const utf16 = bytes[0] === 0xff && bytes[1] === 0xfe;
    const oracleBody = utf16 && mode === 'rfc' ? encoder.encode(new TextDecoder('utf-16le').decode(bytes.subarray(2))) : bytes;
    const robots = RobotsTxt.parse(bytes, { mode });
    const next = random(3);
    const urls: string[] = ['/', '', '/robots.txt'];
    for (const group of robots.groups) for (const rule of group.rules) urls.push(...urlsForPattern(rule.pattern, next));
    urls.length = Math.min(urls.length, 2000);
    for (const agent of agentsFor(robots, 4) as string[]) {
      const oracle = new ReferenceRobots(oracleBody, agent, mode);
      const verdicts = robots.matcher(agent).checkMany(urls);
      const mismatches = urls.filter((url, i) => (verdicts[i] === 1) !== oracle.isAllowed(url));
      expect({ name, agent, mismatches }).toEqual({ name, agent, mismatches: [] });
    }
    robots.dispose();
  });
});
