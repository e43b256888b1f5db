// lintRobotsTxt: every diagnostic code on a line that triggers it, and none on clean files.
import { describe, expect, it } from 'vitest';
import { lintRobotsTxt } from '../src/index.js';
import { groupPerAgent } from './support/fixtures.js';

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

  it('shadowing across groups an agent merges, and not across agents', () => {
    expect(codes('User-agent: a\nDisallow: /x\n\nUser-agent: b\nAllow: /x\n')).toEqual([]);
    expect(codes('User-agent: a\nDisallow: /x\n\nUser-agent: a\nAllow: /x\n')).toEqual(['2 warning shadowed-rule']);
    // A longer pattern of the other kind is not a shadow: it matches fewer paths.
    expect(codes('User-agent: *\nDisallow: /x\nAllow: /x/y\nDisallow: /%7e\nAllow: /~\n')).toEqual(['4 warning shadowed-rule']);
  });

  it('a clean file has no diagnostics; hostile input still returns', () => {
    expect(codes('User-agent: *\nDisallow: /private/\nAllow: /private/ok\nSitemap: https://example.com/s.xml\n')).toEqual([]);
    expect(lintRobotsTxt(`User-agent: *\nDisallow: /${'*'.repeat(200_000)}x\nAllow: /${'*'.repeat(200_000)}x\n`).map((d) => d.code)).toEqual(['line-too-long', 'shadowed-rule', 'line-too-long']);
  });
});
