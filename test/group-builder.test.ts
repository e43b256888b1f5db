// The kernel's group builder (assembly/groups.ts) starts with room for ordinary files; a line
// that does not fit makes its region grow, and the reading goes on from that line. Each body
// here outgrows one region; whether the body reaches the parser as text (read where it was
// encoded) or as bytes, every group, agent, rule, record and verdict must come out as the file
// says.

import { describe, expect, it } from 'vitest';
import { lintRobotsTxt, RobotsTxt, wasmMemoryStats } from '../src/index.js';
import { buildGroups, readGroups } from '../src/robots/groups.js';
import { corpusFiles } from './support/fixtures.js';
import { kernel } from '../src/wasm/kernel.js';

const lines = (count: number, line: (i: number) => string) => Array.from({ length: count }, (_, i) => line(i)).join('\n');
const forms = (body: string) => [['text', RobotsTxt.parse(body)], ['bytes', RobotsTxt.parse(new TextEncoder().encode(body))]] as const;

describe('group builder regions', () => {
  it('records: thousands of short extension lines, a crawl-delay and rules after them', () => {
    const body = `User-agent: Bot\n${lines(20_000, (i) => `k${i % 7}: v${i}`)}\nCrawl-delay: 2.5\nDisallow: /private\nAllow: /private/open`;
    for (const [form, robots] of forms(body)) {
      const records = robots.records();
      expect(records.length, form).toBe(20_001);
      expect(records[0], form).toEqual({ key: 'k0', name: 'k0', value: 'v0', line: 2, group: 1 });
      expect(records[19_999], form).toEqual({ key: 'k0', name: 'k0', value: 'v19999', line: 20_001, group: 1 });
      expect(records[20_000], form).toEqual({ key: 'Crawl-delay', name: 'crawl-delay', value: '2.5', line: 20_002, group: 1 });
      expect(robots.crawlDelay('Bot'), form).toBe(2.5);
      expect(robots.isAllowed('https://a.test/private/x', 'Bot'), form).toBe(false);
      expect(robots.isAllowed('https://a.test/private/open', 'Bot'), form).toBe(true);
    }
  });

  it('groups: one short group per agent', () => {
    const body = lines(6_000, (i) => `User-agent: b${String.fromCharCode(97 + (i % 26))}${i}x\nDisallow: /${i}/`);
    for (const [form, robots] of forms(body)) {
      expect(robots.groups.length, form).toBe(6_000);
      expect(robots.groups[5_999], form).toEqual({ agents: ['bt5999x'], global: false, line: 11_999, rules: [{ kind: 'disallow', pattern: '/5999/', line: 12_000 }], crawlDelay: undefined });
      expect(robots.isAllowed('https://a.test/5999/', 'bt5999x'), form).toBe(false);
      expect(robots.isAllowed('https://a.test/5998/', 'bt5999x'), form).toBe(true);
    }
  });

  it('agents: many user-agent lines in one group, and long product tokens', () => {
    const long = 'z'.repeat(400);
    const body = `${lines(8_000, (i) => `User-agent: a${i.toString(26).replace(/\d/g, (d) => 'qrstuvwxyz'[Number(d)])}`)}\n${lines(300, (i) => `User-agent: ${long}${i.toString(26).replace(/\d/g, (d) => 'qrstuvwxyz'[Number(d)])}`)}\nDisallow: /`;
    for (const [form, robots] of forms(body)) {
      expect(robots.groups.length, form).toBe(1);
      expect(robots.agents.length, form).toBe(8_300);
      expect(robots.agents[8_299].startsWith(long), form).toBe(true);
      expect(robots.isAllowed('https://a.test/x', robots.agents[8_299]), form).toBe(false);
      expect(robots.isAllowed('https://a.test/x', 'other'), form).toBe(true);
    }
  });

  it('rules: a file of nothing but the shortest rules', () => {
    const body = `User-agent: *\n${lines(30_000, (i) => (i === 29_999 ? 'Allow:/a' : 'Allow:/'))}\nDisallow:/a`;
    for (const [form, robots] of forms(body)) {
      expect(robots.groups[0].rules.length, form).toBe(30_001);
      expect(robots.explain('https://a.test/a', 'Bot').rule, form).toEqual({ kind: 'allow', pattern: '/a', line: 30_001 });
    }
  });

  it('regions a large file made grow are given back after its parse', () => {
    // The same body size without records first, so that the scratch block the body is read in is as large.
    const filler = `User-agent: Bot\n${'#'.repeat(2_000_000)}`;
    const big = { maxBytes: 4_000_000 };
    RobotsTxt.parse(filler, big);
    const before = wasmMemoryStats().usedBytes;
    const robots = RobotsTxt.parse(`User-agent: Bot\n${lines(200_000, (i) => `k: ${i}`)}`.padEnd(filler.length, ' '), big);
    expect(robots.records().length).toBe(200_000);
    expect(wasmMemoryStats().usedBytes - before).toBeLessThan(1 << 20);
  });

  it('the linter reads the same lines once, while the regions grow', () => {
    const body = `User-agent: Bot\n${lines(5_000, (i) => `k${i}: v`)}\nDisallow: /a\nDisallow: /a`;
    const diagnostics = lintRobotsTxt(body);
    expect(diagnostics.filter((d) => d.code === 'unknown-key').length).toBe(5_000);
    expect(diagnostics.filter((d) => d.code === 'duplicate-rule' || d.code === 'shadowed-rule').map((d) => d.line)).toEqual([5_003]);
  });

  it('a parse reads the same structure as a reading that hands every line out (the linter\'s)', () => {
    // A parse skips lines whose first byte starts no key; the linter's reading reads every line whole.
    const odd = '-crawl-delay: 5\n_Crawl_Delay: 6\n<b>Disallow: /x</b>\n{ color: red }\n1disallow: /y\n#Disallow: /z\n  User-agent: a\n\tDisallow: /q\n%host: x\n';
    const bodies = [...corpusFiles().map((f) => f.bytes), new TextEncoder().encode(`User-agent: *\n${odd}`), new TextEncoder().encode(odd)];
    for (const bytes of bodies) {
      for (const mode of ['rfc', 'google'] as const) {
        expect(buildGroups(bytes, mode)).toEqual(readGroups(bytes, mode, () => {}).structure);
      }
    }
    const robots = RobotsTxt.parse(`User-agent: *\n${odd}`);
    expect(robots.crawlDelay('Bot')).toBe(5);
    expect(robots.records().map((r) => r.key)).toEqual(['-crawl-delay', '_Crawl_Delay']);
    // The two user-agent lines, with no rule between, open one group.
    expect(robots.groups.map((g) => [g.agents, g.global, g.rules.map((r) => r.pattern)])).toEqual([[['a'], true, ['/q']]]);
  });

  it('a structure is narrow (16-bit words) up to 32,766 lines and 65,534 bytes of values, and wide past them, with the same answers', () => {
    const groups = 'User-agent: a\nDisallow: /x\n\nUser-agent: b\nCrawl-delay: 3\nDisallow: /y\nAllow: /y/z';
    for (const lastLine of [32_766, 32_767, 32_768]) {
      const body = `${'#\n'.repeat(lastLine - 7)}${groups}`;
      const robots = RobotsTxt.parse(body, { maxBytes: 1_000_000 });
      expect(kernel().fn.groupsWide(), String(lastLine)).toBe(lastLine > 32_766 ? 1 : 0);
      expect(robots.groups.map((g) => [g.agents, g.line, g.crawlDelay, g.rules.map((r) => r.line)]), String(lastLine)).toEqual([
        [['a'], lastLine - 6, undefined, [lastLine - 5]],
        [['b'], lastLine - 3, 3, [lastLine - 1, lastLine]],
      ]);
      expect(robots.explain('https://a.test/y/z', 'b').rule).toEqual({ kind: 'allow', pattern: '/y/z', line: lastLine });
      expect(robots.records().map((r) => r.line)).toEqual([lastLine - 2]);
    }
    // The other values: Crawl-delay, 2, Sitemap and its URL (39 bytes), and /q.
    for (const length of [65_534 - 41, 65_534 - 40, 70_000]) {
      const long = `/${'p'.repeat(length - 1)}`;
      const body = `User-agent: *\nCrawl-delay: 2\nDisallow: ${long}\nAllow: /q\nSitemap: https://a.test/s.xml`;
      const robots = RobotsTxt.parse(body);
      expect(kernel().fn.groupsWide(), String(length)).toBe(length > 65_534 - 41 ? 1 : 0);
      expect(robots.groups[0].rules.map((r) => r.pattern.length), String(length)).toEqual([length, 2]);
      expect(robots.crawlDelay('Bot')).toBe(2);
      expect(robots.sitemaps).toEqual(['https://a.test/s.xml']);
      expect(robots.isAllowed(`https://a.test${long}`, 'Bot')).toBe(false);
      expect(robots.isAllowed('https://a.test/q', 'Bot')).toBe(true);
    }
  });
});
