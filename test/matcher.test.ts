// Matcher: batch paths, table images and lifetime.
import { describe, expect, it } from 'vitest';
import { Matcher, RobotsTxt } from '../src/index.js';

const encoder = new TextEncoder();
const body = 'user-agent: *\ndisallow: /private\nallow: /private/ok\ndisallow: /*.pdf$\ndisallow: /é\n';

function expected(robots: RobotsTxt, urls: string[]): Uint8Array {
  return Uint8Array.from(urls, (url) => (robots.isAllowed(url, 'Bot') ? 1 : 0));
}

describe.each(['rfc', 'google'] as const)('batch verdicts agree with isAllowed, mode %s', (mode) => {
  const robots = RobotsTxt.parse(body, { mode });
  const matcher = robots.matcher('Bot');
  const urls = Array.from({ length: 20_000 }, (_, i) =>
    [`/private/${i}`, `/private/ok/${i}`, `/doc/${i}.pdf`, `/doc/${i}.pdf?x`, `https://h${i}.example/é${i}`, `/%C3%A9/${i}`, `/public/${i}#/private`][i % 7],
  );

  it('checkMany over more URLs than one batch holds', () => {
    const verdicts = matcher.checkMany(urls);
    expect(verdicts).toEqual(expected(robots, urls));
    expect(verdicts.filter((v) => v === 0).length).toBeGreaterThan(5000);
  });

  it('checkMany with a URL longer than a whole batch buffer', () => {
    const huge = `/private/${'x'.repeat(400_000)}`;
    const list = ['/a', huge, '/private', `/${'y'.repeat(300_000)}.pdf`, '/b'];
    expect(Array.from(matcher.checkMany(list))).toEqual([1, 0, 0, 0, 1]);
  });

  it('checkMany of nothing', () => {
    expect(matcher.checkMany([])).toEqual(new Uint8Array(0));
  });

  it('checkLines: one verdict per line, LF or CRLF, a last line without LF counts', () => {
    expect(Array.from(matcher.checkLines(encoder.encode('/private\r\n/public\n/x.pdf\n\n/private/ok')))).toEqual([0, 1, 0, 1, 1]);
    expect(Array.from(matcher.checkLines(encoder.encode('/private\n')))).toEqual([0]);
    expect(matcher.checkLines(new Uint8Array(0))).toEqual(new Uint8Array(0));
  });

  it('checkLines over a buffer spanning many chunks agrees with isAllowed', () => {
    const many = [...urls, ...urls, ...urls];
    const text = many.join('\n');
    // Several 256 KiB chunks, cut at line ends.
    expect(encoder.encode(text).length).toBeGreaterThan(1_000_000);
    expect(matcher.checkLines(encoder.encode(text))).toEqual(expected(robots, many));
  });

  it('checkLines finds where each path stops at any offset of the buffer and of the path', () => {
    // The path scan of a buffer of lines reads a bitmap of the whole buffer 57-64 positions at
    // a time: put the byte that stops it ('#', '%', '*', CR, LF, non-ASCII) at every offset
    // up to past two windows, after lines of every length, so each lands at every bit offset.
    const urls: string[] = [];
    for (let pad = 0; pad < 8; pad++) {
      for (let at = 0; at < 140; at++) {
        const stop = ['#/private', '%2Fx', '*', 'é', '.pdf', ''][(at + pad) % 6];
        urls.push(`${'https://h.example'.slice(0, 9 + pad)}/${'private/'.slice(0, (at * 7) % 9)}${'a'.repeat(at)}${stop}`);
      }
    }
    const lines = urls.map((url, i) => url + (i % 3 === 0 ? '\r\n' : '\n')).join('');
    const verdicts = matcher.checkLines(encoder.encode(lines));
    expect(verdicts).toEqual(expected(robots, urls));
    expect(verdicts.filter((v) => v === 0).length).toBeGreaterThan(100);
    expect(verdicts.filter((v) => v === 1).length).toBeGreaterThan(100);
  });

  it('checkLines with one line longer than a chunk', () => {
    const huge = `/private/${'z'.repeat(700_000)}`;
    expect(Array.from(matcher.checkLines(encoder.encode(`/a\n${huge}\n/b.pdf`)))).toEqual([1, 0, 0]);
  });
});

describe('table images', () => {
  const robots = RobotsTxt.parse(body);
  const matcher = robots.matcher('Bot');

  it('toBytes/fromBytes round-trips to a matcher with the same verdicts and rules', () => {
    const image = matcher.toBytes();
    expect(image.length).toBe(matcher.byteLength);
    const copy = Matcher.fromBytes(image);
    image.fill(0); // the loaded table is a copy
    for (const url of ['/private', '/private/ok', '/a.pdf', '/é', '/%C3%A9', '/x']) {
      expect(copy.explain(url)).toEqual(matcher.explain(url));
    }
    expect(copy.explain('/private/x')).toEqual({ allowed: false, rule: { kind: 'disallow', pattern: '/private', line: 2 } });
    expect(copy.explain('/%c3%a9x')).toEqual({ allowed: false, rule: { kind: 'disallow', pattern: '/%C3%A9', line: 5 } });
    expect(copy.mode).toBe('rfc');
    expect(copy.ruleCount).toBe(4);
    copy.dispose();
  });

  it('fromBytes rejects bytes that are not a table', () => {
    expect(() => Matcher.fromBytes(new Uint8Array(64))).toThrow(/bad magic/);
    expect(() => Matcher.fromBytes(matcher.toBytes().subarray(0, 40))).toThrow(/truncated/);
    expect(() => Matcher.fromBytes('x' as never)).toThrow(TypeError);
  });
});

describe('lifetime', () => {
  it('a disposed matcher throws on use, and dispose twice is harmless', () => {
    const matcher = RobotsTxt.parse(body).matcher('Bot');
    matcher.dispose();
    matcher.dispose();
    expect(matcher.disposed).toBe(true);
    expect(() => matcher.isAllowed('/x')).toThrow(/disposed/);
    expect(() => matcher.checkMany(['/x'])).toThrow(/disposed/);
    expect(() => matcher.toBytes()).toThrow(/disposed/);
  });

  it('a file with no rules compiles to a header-only table that allows everything', () => {
    const matcher = RobotsTxt.parse('').matcher('Bot');
    expect(matcher.ruleCount).toBe(0);
    expect(matcher.byteLength).toBe(40);
    expect(Array.from(matcher.checkMany(['/', '/x']))).toEqual([1, 1]);
  });
});
