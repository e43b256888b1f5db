// lintRobotsTxt: every diagnostic code on a line that triggers it, and none on clean files.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lintRobotsTxt } from '../src/index.js';
import { groupPerAgent } from './support/fixtures.js';
import {
  lintDuplicateRules, lintInterleavedAgents, lintLongLine, lintLongShadowingRule, lintMergedLargeGroups, lintOverlappingGroups, lintShadowingWildcards, lintTwoGroups,
  lintUnknownKeys,
} from '../bench/adversarial.js';

const codes = (body: string | Uint8Array, options?: Parameters<typeof lintRobotsTxt>[1]) => lintRobotsTxt(body, options).map((d) => `${d.line} ${d.severity} ${d.code}`);

describe('lintRobotsTxt', () => {
  it('finds each kind of mistake on its line', () => {
    const body = [
      'Allow: /before', // 1
      'User-agent: Googlebot/2.1', // 2
      'User-agent: 123', // 3
      'Useragent: bingbot', // 4
      'Disallow /no-colon', // 5
      'Disallow: page.html', // 6
      'Disallow: /a$b', // 7
      'Disallow: /dup', // 8
      'Disallow: /dup', // 9
      'Disallow: /same', // 10
      'Allow: /same*', // 11
      'just words here', // 12
      'Crawl-delay: 3', // 13
      'Frobnicate: 1', // 14
    ].join('\n');
    expect(codes(body)).toEqual([
      '1 warning rule-outside-group',
      '2 warning invalid-product-token',
      '3 warning invalid-product-token',
      '4 warning typo-key',
      '5 warning missing-colon',
      '6 warning pattern-start',
      '7 warning dollar-not-at-end',
      '9 info duplicate-rule',
      '10 warning shadowed-rule',
      '12 error unparseable',
      '13 info extension-key',
      '14 info unknown-key',
    ]);
  });

  it('rfc mode: a pattern whose path has a dot segment or a backslash, which no fetched path has', () => {
    const body = 'User-agent: *\nDisallow: /a/../b\nDisallow: /a/./\nDisallow: /a/%2E%2e$\nDisallow: /a\\b\nDisallow: /a..b/.c\nDisallow: /x?y=/../z\n';
    expect(codes(body)).toEqual(['2 warning dot-segment', '3 warning dot-segment', '4 warning dot-segment', '5 warning dot-segment']);
    expect(codes(body, { mode: 'google' })).toEqual([]);
  });

  it('user-agent values that are not RFC 9309 product tokens, with what each mode reads', () => {
    const body = groupPerAgent(['MJ12bot', '008', 'Screaming Frog SEO Spider 20', 'bot.example', '/x', 'Example_Bot-2', 'ExampleBot', '*']);
    const problem = (value: string) => `"${value}" is not a product token (RFC 9309 allows letters, '_' and '-' only)`;
    const expected = [
      `1 ${problem('MJ12bot')}: rfc mode reads it as "MJ12bot", google mode as "MJ"`,
      `4 ${problem('008')}: rfc mode reads it as "008", google mode as no product token (the group applies to no crawler)`,
      `7 ${problem('Screaming Frog SEO Spider 20')}: it is read as "Screaming"`,
      `10 ${problem('bot.example')}: it is read as "bot"`,
      `13 ${problem('/x')}: it has none, and this group applies to no crawler`,
      `16 ${problem('Example_Bot-2')}: rfc mode reads it as "Example_Bot-2", google mode as "Example_Bot-"`,
    ];
    for (const mode of ['rfc', 'google'] as const) {
      const found = lintRobotsTxt(body, { mode }).filter((d) => d.code === 'invalid-product-token');
      expect(found.map((d) => `${d.line} ${d.message}`)).toEqual(expected);
      expect(found.every((d) => d.severity === 'warning')).toBe(true);
    }
  });

  it('bytes: invalid UTF-8, over-long lines, the parse limit', () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('User-agent: *\nDisallow: /caf'), 0xe9, 0x0a, ...new TextEncoder().encode(`Disallow: /${'x'.repeat(20_000)}\nDisallow: /last\n`)]);
    expect(codes(bytes)).toEqual(['2 warning invalid-utf8', '3 warning line-too-long']);
    expect(codes(bytes, { maxBytes: 40 })).toEqual(['2 warning invalid-utf8', '3 warning past-parse-limit']);
    const limit = lintRobotsTxt(bytes, { maxBytes: 40 }).find((d) => d.code === 'past-parse-limit')!;
    expect(limit.message).toBe(`${bytes.length - 30} bytes past the 40-byte parse limit are ignored (RFC 9309 2.5)`);
  });

  it('a group naming one agent twice is not merged with itself', () => {
    expect(codes('User-agent: a\nUser-agent: a\nDisallow: /a\n')).toEqual([]);
    expect(codes('User-agent: a\nUser-agent: A\nDisallow: /a\nDisallow: /a\n')).toEqual(['4 info duplicate-rule']);
    expect(codes('User-agent: a\nUser-agent: a\nDisallow: /a\n\nUser-agent: a\nAllow: /a\n')).toEqual(['3 warning shadowed-rule']);
  });

  it('a merge reports against the first set that beats a rule, also when its groups met in an earlier merge', () => {
    const body = [
      'User-agent: a', // 1
      'User-agent: b', // 2
      'Disallow: /x', // 3
      'Disallow: /y', // 4
      '',
      'User-agent: a', // 6
      'User-agent: c', // 7
      'Allow: /x', // 8
      'Disallow: /y*', // 9
      '',
      'User-agent: b', // 11
      'User-agent: c', // 12
      'Allow: /y', // 13
    ].join('\n');
    const message = (body: string) => lintRobotsTxt(body).map((d) => `${d.line} ${d.code} ${d.message}`);
    expect(message(body)).toEqual([
      '3 shadowed-rule "disallow: /x" never decides: "allow: /x" (line 8) matches the same paths and wins',
      '4 duplicate-rule "disallow: /y" repeats the rule of line 9',
      '13 shadowed-rule "allow: /y" never decides: "disallow: /y*" (line 9) matches the same paths and wins',
    ]);
    // Groups 1 and 2 met in a's merge; b's merges them with group 3, which beats them.
    expect(message('User-agent: a\nUser-agent: b\nDisallow: /x\n\nUser-agent: a\nUser-agent: b\nAllow: /x\n\nUser-agent: b\nDisallow: /x*\n')).toEqual([
      '3 shadowed-rule "disallow: /x" never decides: "allow: /x" (line 7) matches the same paths and wins',
      '7 shadowed-rule "allow: /x" never decides: "disallow: /x*" (line 10) matches the same paths and wins',
    ]);
  });

  it('shadowing across groups an agent merges, and not across agents', () => {
    expect(codes('User-agent: a\nDisallow: /x\n\nUser-agent: b\nAllow: /x\n')).toEqual([]);
    expect(codes('User-agent: a\nDisallow: /x\n\nUser-agent: a\nAllow: /x\n')).toEqual(['2 warning shadowed-rule']);
    // A longer pattern of the other kind is not a shadow: it matches fewer paths.
    expect(codes('User-agent: *\nDisallow: /x\nAllow: /x/y\nDisallow: /%7e\nAllow: /~\n')).toEqual(['4 warning shadowed-rule']);
  });

  describe('what robots-parser read otherwise', () => {
    const migrating = (name: string) => new Uint8Array(readFileSync(new URL(`fixtures/migrating/${name}`, import.meta.url)));
    const found = (body: string | Uint8Array, code: string, options?: Parameters<typeof lintRobotsTxt>[1]) =>
      lintRobotsTxt(body, options).filter((d) => d.code === code).map((d) => `${d.line} ${d.severity} ${d.message}`);

    it('a rule or Sitemap value that starts or ends with a Unicode space, which robots-parser trimmed', () => {
      const body = 'User-agent: *\nAllow: /\nDisallow: /members\u2002\nSitemap:\u00a0 https://example.com/s.xml\nDisallow: /a\u00a0b\nDisallow: /ok \t\nDisallow: /bom\ufeff # note\n';
      const space = (at: string, code: string, part: string) => `warning the value ${at} with ${code}, a Unicode space that is part of the ${part} (RFC 9309 trims only spaces and tabs; robots-parser trimmed it)`;
      expect(found(body, 'unicode-space')).toEqual([`3 ${space('ends', 'U+2002', 'path')}`, `4 ${space('starts', 'U+00A0', 'URL')}`, `7 ${space('ends', 'U+FEFF', 'path')}`]);
      // www.noip.com: `Disallow: /members` and U+2002; www.cfainstitute.org: `Sitemap:`, U+00A0, the URL.
      expect(codes(migrating('www.noip.com'))).toEqual(['19 warning unicode-space']);
      expect(codes(migrating('www.cfainstitute.org'))).toEqual(['3 warning unicode-space']);
    });

    it('a line between user-agent lines, which does not end their group', () => {
      const between = (group: number) => `warning this line does not end the group of line ${group} (only a rule line ends one): the user-agent lines above and below it form one group, and all its agents get its rules`;
      expect(found('User-agent: a\nCrawl-delay: 1\nUser-agent: *\nDisallow: /\n', 'interleaved-group')).toEqual([`2 ${between(1)}`]);
      expect(codes('User-agent: a\nSitemap: https://example.com/s.xml\nFrobnicate: 1\nUser-agent: b\nDisallow: /\n')).toEqual(['2 warning interleaved-group', '3 info unknown-key', '3 warning interleaved-group']);
      // After a rule, a Crawl-delay line is the group's own, and the next user-agent line starts a group.
      expect(codes('User-agent: a\nDisallow: /x\nCrawl-delay: 1\nUser-agent: *\nDisallow: /\n')).toEqual(['3 info extension-key']);
      // A Content-Usage line is a rule in rfc mode only.
      const usage = 'User-agent: a\nContent-Usage: train-ai=n\nUser-agent: b\nDisallow: /x\n';
      expect(found(usage, 'interleaved-group')).toEqual([]);
      expect(found(usage, 'interleaved-group', { mode: 'google' })).toEqual([`2 ${between(1)}`]);
      // bitbucket.org: `User-Agent: *` (43), `Crawl-delay: 120`, `User-agent: 008`, `Disallow: /`.
      for (const mode of ['rfc', 'google'] as const) expect(found(migrating('bitbucket.org'), 'interleaved-group', { mode })).toEqual([`44 ${between(43)}`]);
    });
  });

  it('a clean file has no diagnostics; hostile input still returns', () => {
    expect(codes('User-agent: *\nDisallow: /private/\nAllow: /private/ok\nSitemap: https://example.com/s.xml\n')).toEqual([]);
    expect(lintRobotsTxt(`User-agent: *\nDisallow: /${'*'.repeat(200_000)}x\nAllow: /${'*'.repeat(200_000)}x\n`).map((d) => d.code)).toEqual(['line-too-long', 'shadowed-rule', 'line-too-long']);
  });

  describe('hostile files finish in linear time, with their diagnostics', () => {
    /** The file's diagnostics, and the count of each code; the lint must take under 10 s. */
    const lintTimed = (body: string) => {
      const start = performance.now();
      const found = lintRobotsTxt(body);
      expect(performance.now() - start).toBeLessThan(10_000);
      const counts: Record<string, number> = {};
      for (const d of found) counts[d.code] = (counts[d.code] ?? 0) + 1;
      return { found, counts, at: (line: number) => found.filter((d) => d.line === line).map((d) => `${d.code} ${d.message}`) };
    };
    const shadowed = (kind: string, pattern: string, winner: string, line: number) => `shadowed-rule "${kind}: ${pattern}" never decides: "${winner}" (line ${line}) matches the same paths and wins`;
    const TIME_LIMIT = 30_000;

    it('two groups naming the same 7,000 agents, 7,000 rules each', () => {
      const body = lintTwoGroups();
      expect(body.length).toBeGreaterThan(450_000);
      const { counts, at } = lintTimed(body);
      expect(counts).toEqual({ 'invalid-product-token': 14_000, 'shadowed-rule': 7000 });
      // Group 1's rules are lines 7001-14000, group 2's 21002-28001.
      expect(at(7001)).toEqual([shadowed('disallow', '/0', 'allow: /0', 21_002)]);
      expect(at(14_000)).toEqual([shadowed('disallow', '/6999', 'allow: /6999', 28_001)]);
      expect(at(21_002)).toEqual([]);
    }, TIME_LIMIT);

    it('200 groups each naming 50 agents, each agent merging its own 50 groups', () => {
      const { counts, at } = lintTimed(lintOverlappingGroups());
      // All 20,000 rules but group 1's (the first allow of each path) are reported.
      expect(counts).toEqual({ 'invalid-product-token': 10_000, 'shadowed-rule': 10_000, 'duplicate-rule': 9900 });
      // Group g (151 lines from line 1 + 151 g) names 50 agents, then 100 rules.
      expect(at(51)).toEqual([]);
      expect(at(202)).toEqual([shadowed('disallow', '/p0', 'allow: /p0', 51)]);
      expect(at(353)).toEqual(['duplicate-rule "allow: /p0" repeats the rule of line 51']);
    }, TIME_LIMIT);

    it('two 9,000-rule groups in 3,300 different merges with small groups', () => {
      const { counts, at } = lintTimed(lintMergedLargeGroups());
      expect(counts).toEqual({ 'invalid-product-token': 13_200, 'shadowed-rule': 9000 });
      expect(at(3301)).toEqual([shadowed('disallow', '/0', 'allow: /0', 15_602)]);
      expect(at(12_300)).toEqual([shadowed('disallow', '/8999', 'allow: /8999', 24_601)]);
    }, TIME_LIMIT);

    it('39,000 duplicate rules', () => {
      const { found, counts } = lintTimed(lintDuplicateRules());
      expect(counts).toEqual({ 'duplicate-rule': 38_999 });
      expect(found.every((d, i) => d.line === i + 3 && d.message === '"disallow: /x" repeats the rule of line 2')).toBe(true);
    }, TIME_LIMIT);

    it('wildcard rules that shadow one another quote a long winner shortened', () => {
      const { counts, at } = lintTimed(lintShadowingWildcards());
      // /x with 0 ... 990 stars, disallow first: the last, a disallow, is the longest.
      expect(counts).toEqual({ 'duplicate-rule': 495, 'shadowed-rule': 495 });
      expect(at(2)).toEqual(['duplicate-rule "disallow: /x" repeats the rule of line 992']);
      expect(at(3)).toEqual([shadowed('allow', '/x*', `disallow: /x${'*'.repeat(198)}...`, 992)]);
      expect(at(992)).toEqual([]);
    }, TIME_LIMIT);

    it('a 400,000-star rule shadowing 7,000 others: the messages stay short', () => {
      const { found, counts, at } = lintTimed(lintLongShadowingRule());
      expect(counts).toEqual({ 'line-too-long': 1, 'shadowed-rule': 7000 });
      expect(at(7002)).toEqual([shadowed('disallow', '/x', `allow: /x${'*'.repeat(198)}...`, 2)]);
      expect(Math.max(...found.map((d) => d.message.length))).toBeLessThan(300);
    }, TIME_LIMIT);

    it('one 500 KiB line, of a rule, of words, of a Content-Usage value and of dot segments', () => {
      expect(codes(lintLongLine())).toEqual(['2 warning line-too-long']);
      const words = lintTimed(lintLongLine('', 'word '));
      expect(words.at(2)).toEqual(['line-too-long the line is longer than 16663 bytes; Google reads only that much of it', `unparseable no "key: value" here: "${'word '.repeat(12)}" is ignored`]);
      expect(codes(lintLongLine('Content-Usage: train-ai=n, ', 'A'))).toEqual(['2 warning line-too-long', '2 info extension-key', '2 warning usage-uppercase-key']);
      expect(codes(lintLongLine('Disallow: ', '/./..'))).toEqual(['2 warning line-too-long', '2 warning dot-segment']);
    }, TIME_LIMIT);

    it('500 KiB of unknown keys, misspelt keys and lines without a colon', () => {
      const { found, counts } = lintTimed(lintUnknownKeys());
      // Line 2 sits between the user-agent lines 1 and 3.
      expect(counts).toEqual({ 'unknown-key': 12_961, 'typo-key': 12_961, 'missing-colon': 12_960, 'extension-key': 6480, 'duplicate-rule': 12_958, 'interleaved-group': 1 });
      expect(found.slice(0, 8).map((d) => `${d.line} ${d.code}`)).toEqual(['2 unknown-key', '2 interleaved-group', '3 typo-key', '4 typo-key', '5 missing-colon', '6 extension-key', '7 missing-colon', '7 unknown-key']);
      expect(found.find((d) => d.code === 'duplicate-rule')!.message).toBe('"disallow: /x" repeats the rule of line 4');
    }, TIME_LIMIT);

    it('500 KiB of user-agent lines with a Crawl-delay between each two, and a long value of Unicode spaces', () => {
      const { found, counts } = lintTimed(lintInterleavedAgents());
      // n agents and n Crawl-delay lines; the last of these is followed by the rule, not an agent.
      const n = counts['invalid-product-token'];
      expect(n).toBeGreaterThan(15_000);
      expect(counts).toEqual({ 'extension-key': n, 'interleaved-group': n - 1, 'invalid-product-token': n });
      expect(found.filter((d) => d.code === 'interleaved-group').every((d, i) => d.line === 2 * i + 2 && d.message.includes('the group of line 1 '))).toBe(true);
      expect(codes(`User-agent: *\nDisallow: /${'x\u2002'.repeat(80_000)}\n`)).toEqual(['2 warning line-too-long', '2 warning unicode-space']);
    }, TIME_LIMIT);
  });
});
