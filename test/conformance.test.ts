// The reference implementation's own test vectors (test/fixtures/PROVENANCE.md).
import { describe, expect, it } from 'vitest';
import { escapePattern, getPathParamsQuery, isValidProductToken, RobotsTxt } from '../src/index.js';
import { EXTENSION_KEYS, parseLines, type RobotsLine } from '../src/robots/parse.js';
import { field, googleCases, googleOtherCases } from './support/fixtures.js';

const cases = googleCases();

const byId = <T extends { id: string }>(c: T): [string, T] => [c.id, c];

// Where RFC 9309 says otherwise than the reference, mode 'rfc' gives the opposite verdict.
const RFC_DIFFERENCES: Record<string, string> = {
  // 2.2.1: the product token is what is compared; the caller's "Foo Bar" is reduced to "Foo",
  // which the group "User-Agent: Foo Bar" (token "Foo") names.
  'GoogleOnly_AcceptUserAgentUpToFirstSpace#2': '2.2.1 product token of the caller',
  // 2.2.2 Figure 4: non-ASCII octets are percent-encoded in both the URL and the pattern, so
  // "Allow: /foo/bar/ツ" matches the URL /foo/bar/ツ and beats "Disallow: /".
  'ID_Encoding#3': '2.2.2 non-ASCII octets percent-encoded on both sides',
  // 2.2.2 Figure 4 (4th row): /foo/bar/%E3%83%84 is the encoded form of /foo/bar/ツ.
  'ID_Encoding#5': '2.2.2 encoded pattern matches the raw URL',
  // 2.2.2 Figure 4 (5th row): %62%61%7A are unreserved octets and are decoded: "baz".
  'ID_Encoding#6': '2.2.2 percent-encoded unreserved octets are decoded',
  // The index.htm-as-directory rule is Google's, not the RFC's.
  'GoogleOnly_IndexHTMLisDirectory#1': 'no index.htm rule outside google mode',
  // 2.5: the limit is on the file (at least 500 KiB), not on a line; the long rule applies whole.
  'GoogleOnly_LineTooLong#2': '2.5 no per-line cap',
  'GoogleOnly_LineTooLong#5': '2.5 no per-line cap',
};

describe('google-cases.jsonl (145 assertions of the reference test suite)', () => {
  it('holds 145 cases', () => {
    expect(cases).toHaveLength(145);
  });

  it.each(cases.map((c) => [c.id, c] as const))('google mode: %s', (_id, c) => {
    expect(RobotsTxt.parse(c.robots, { mode: 'google' }).isAllowed(c.url, c.agent)).toBe(c.allowed);
  });

  it.each(cases.map((c) => [c.id, c] as const))('rfc mode: %s', (id, c) => {
    const expected = id in RFC_DIFFERENCES ? !c.allowed : c.allowed;
    expect(RobotsTxt.parse(c.robots, { mode: 'rfc' }).isAllowed(c.url, c.agent)).toBe(expected);
  });

  it('every listed RFC difference names a real case', () => {
    const ids = new Set(cases.map((c) => c.id));
    for (const id of Object.keys(RFC_DIFFERENCES)) expect(ids.has(id)).toBe(true);
  });
});

describe('google-other-cases.json helper vectors', () => {
  const other = googleOtherCases();

  it.each(other.IsValidUserAgentToObey.map(byId))('agent validity %s', (_id, c) => {
    expect(isValidProductToken(c.input)).toBe(c.expected);
  });

  it.each(other.GetPathParamsQuery.map(byId))('path extraction %s', (_id, c) => {
    const url = new TextDecoder().decode(field(c, 'url'));
    expect(getPathParamsQuery(url)).toBe(new TextDecoder().decode(field(c, 'expected')));
  });

  it.each(other.MaybeEscapePattern.map(byId))('pattern escaping %s', (_id, c) => {
    expect(escapePattern(field(c, 'pattern'), 'google')).toBe(new TextDecoder().decode(field(c, 'expected')));
  });

  // The reference's reporters, rebuilt from the parser's per-line output.
  function report(bytes: Uint8Array) {
    const lines: { number: number; kind: RobotsLine['kind']; key: string; value: string; meta: Record<string, boolean>; typo: boolean }[] = [];
    parseLines(bytes, 'google', (line) => {
      lines.push({
        number: line.number,
        kind: line.kind,
        key: new TextDecoder().decode(bytes.subarray(line.keyStart, line.keyEnd)),
        value: new TextDecoder().decode(bytes.subarray(line.valueStart, line.valueEnd)),
        typo: line.typo,
        meta: {
          is_empty: line.isEmpty,
          has_directive: line.kind !== null,
          has_comment: line.hasComment,
          is_comment: line.isComment,
          is_acceptable_typo: line.typo,
          is_line_too_long: line.tooLong,
          is_missing_colon_separator: line.missingColon,
        },
      });
    });
    return lines;
  }
  const isValid = (kind: RobotsLine['kind']) => kind !== null && kind !== 'unknown';

  it.each(other.RobotsStatsReporter.cases.map(byId))('stats reporter %s', (_id, c) => {
    const lines = report(field(c, 'robots'));
    const directives = lines.filter((l) => l.kind !== null);
    const want = c.expect;
    if (want.valid_directives !== undefined) expect(directives.filter((l) => isValid(l.kind))).toHaveLength(want.valid_directives);
    if (want.unknown_directives !== undefined) expect(directives.filter((l) => l.kind === 'unknown')).toHaveLength(want.unknown_directives);
    if (want.last_line_seen !== undefined) expect(directives[directives.length - 1].number).toBe(want.last_line_seen);
    if (want.sitemap !== undefined) {
      expect(lines.filter((l) => l.kind === 'sitemap').map((l) => l.value).join('')).toBe(want.sitemap);
    }
  });

  it.each(other.RobotsParsingReporter.cases.map(byId))('parsing reporter %s', (_id, c) => {
    const lines = report(field(c, 'robots'));
    expect(lines.filter((l) => isValid(l.kind))).toHaveLength(c.expect.valid_directives!);
    expect(lines[lines.length - 1].number).toBe(c.expect.last_line_seen);
    if (c.expect.parse_results_size !== undefined) expect(lines).toHaveLength(c.expect.parse_results_size);
    for (const want of c.line_results ?? []) {
      const got = lines[want.line_num - 1];
      const tag = got.kind === null ? 'Unknown'
        : got.kind === 'unknown' ? (EXTENSION_KEYS.has(got.key.toLowerCase()) ? 'Unused' : 'Unknown')
        : { 'user-agent': 'UserAgent', allow: 'Allow', disallow: 'Disallow', sitemap: 'Sitemap' }[got.kind];
      expect({ line: got.number, tag, typo: got.typo, meta: got.meta }).toEqual({
        line: want.line_num, tag: want.tag_name, typo: want.is_typo, meta: want.metadata,
      });
    }
  });
});

describe('directive keys, as the reference recognises them', () => {
  const kindsOf = (text: string) => {
    const got: [RobotsLine['kind'], boolean][] = [];
    parseLines(new TextEncoder().encode(text), 'google', (line) => got.push([line.kind, line.typo]));
    return got;
  };

  it('every spelling it accepts, in any case, and by prefix', () => {
    const spellings: [string, RobotsLine['kind'], boolean][] = [
      ['user-agent', 'user-agent', false], ['useragent', 'user-agent', true], ['user agent', 'user-agent', true],
      ['allow', 'allow', false], ['disallow', 'disallow', false], ['dissallow', 'disallow', true],
      ['dissalow', 'disallow', true], ['disalow', 'disallow', true], ['diasllow', 'disallow', true],
      ['disallaw', 'disallow', true], ['sitemap', 'sitemap', false], ['site-map', 'sitemap', true],
    ];
    for (const [key, kind, typo] of spellings) {
      for (const written of [key, key.toUpperCase(), key[0].toUpperCase() + key.slice(1), `${key}s`]) {
        expect([written, ...kindsOf(`${written}: x`)[0]]).toEqual([written, kind, typo]);
      }
    }
  });

  it('keys that start with another byte, or are cut short, are unknown', () => {
    for (const key of ['xallow', '@user-agent', '0disallow', 'aisallow', 'ditemap', 'user', 'disallo', 'site', 'allo', 'crawl-delay', '{', 'ä-allow']) {
      expect([key, ...kindsOf(`${key}: x`)[0]]).toEqual([key, 'unknown', false]);
    }
  });
});
