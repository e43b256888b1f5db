import { readFileSync } from 'node:fs';
import { describe, it, expect } from 'vitest';
import {
  ReferenceRobots,
  positionSetMatches,
  referenceIsAllowed,
  referencePath,
} from './reference.js';

/** Checks the test oracle itself: google mode against Google's own vectors, rfc mode by hand. */

interface ConformanceCase {
  id: string;
  robots: string;
  agent: string;
  url: string;
  allowed: boolean;
}

const casesFile = new URL('../fixtures/conformance/google-cases.jsonl', import.meta.url);
const cases: ConformanceCase[] = readFileSync(casesFile, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as ConformanceCase);

const enc = new TextEncoder();
const dec = new TextDecoder();

describe('reference oracle, google mode, upstream vectors', () => {
  it('has all 145 vectors', () => {
    expect(cases).toHaveLength(145);
  });

  it.each(cases)('$id', (c) => {
    expect(referenceIsAllowed(c.robots, c.agent, c.url, 'google')).toBe(c.allowed);
  });
});

describe('reference oracle helpers', () => {
  it('extracts paths like GetPathParamsQuery', () => {
    const path = (url: string): string => dec.decode(referencePath(enc.encode(url)));
    expect(path('')).toBe('/');
    expect(path('a/b')).toBe('/b');
    expect(path('example.com?a')).toBe('/?a');
    expect(path('http://u:p/ss@x/a')).toBe('/ss@x/a');
    expect(path('x?y://z/w')).toBe('/?y://z/w');
    expect(path('//a/b#c')).toBe('/b');
    expect(path('http://h#x/y')).toBe('/');
  });

  it('matches with the position-set algorithm', () => {
    const m = (path: string, pattern: string): boolean => positionSetMatches(enc.encode(path), enc.encode(pattern));
    expect(m('/fish.html', '/fish')).toBe(true);
    expect(m('/a/b/c', '/*/c$')).toBe(true);
    expect(m('/a/b/c/', '/*/c$')).toBe(false);
    expect(m('/a$b', '/a$b')).toBe(true);
    expect(m('/', '$')).toBe(false);
    expect(m('/x', '')).toBe(true);
  });

  it('limits the body to maxBytes and drops a cut line', () => {
    const body = 'user-agent: *\ndisallow: /a\ndisallow: /bcdef\n';
    // Cut inside "disallow: /bcdef": the partial line is dropped, not read as "/b".
    const cut = new ReferenceRobots(body, 'x', 'google', body.indexOf('cdef'));
    expect(cut.isAllowed('/a')).toBe(false);
    expect(cut.isAllowed('/bcdef')).toBe(true);
    // Cut exactly before a line end: the last line is complete and kept.
    const exact = new ReferenceRobots(body, 'x', 'google', body.length - 1);
    expect(exact.isAllowed('/bcdef')).toBe(false);
  });
});

describe('reference oracle, rfc mode', () => {
  const rfc = (robots: string, agent: string, url: string | Uint8Array): boolean =>
    referenceIsAllowed(robots, agent, url, 'rfc');

  it('is the default mode', () => {
    expect(referenceIsAllowed('user-agent: FooBot\ndisallow: /\n', 'FooBot/2.1', '/x')).toBe(false);
  });

  it('reduces the caller agent to its product token', () => {
    expect(rfc('user-agent: FooBot\ndisallow: /\n', 'FooBot/2.1', 'http://foo.bar/x')).toBe(false);
    // In google mode the caller string is compared verbatim and never matches.
    expect(referenceIsAllowed('user-agent: FooBot\ndisallow: /\n', 'FooBot/2.1', 'http://foo.bar/x', 'google')).toBe(true);
  });

  it('gives an empty caller token only the * group', () => {
    expect(rfc('user-agent: *bot\ndisallow: /\n', '', '/x')).toBe(true);
    expect(rfc('user-agent: *\ndisallow: /\n', '/1.0', '/x')).toBe(false);
  });

  it('decodes percent-encoded unreserved bytes in the URL', () => {
    expect(rfc('user-agent: *\ndisallow: /foo/baz\n', 'FooBot', '/foo/%62%61%7A')).toBe(false);
  });

  it('matches %2A in a pattern against a literal * in the URL', () => {
    const robots = 'user-agent: *\ndisallow: /path/file-with-a-%2A.html\n';
    expect(rfc(robots, 'FooBot', 'https://www.example.com/path/file-with-a-*.html')).toBe(false);
    expect(rfc(robots, 'FooBot', 'https://www.example.com/path/file-with-a-x.html')).toBe(true);
  });

  it('matches %24 in a pattern against a literal $ in the URL', () => {
    expect(rfc('user-agent: *\ndisallow: /foo-%24\n', 'FooBot', '/foo-$')).toBe(false);
  });

  it('always allows /robots.txt', () => {
    expect(rfc('user-agent: *\ndisallow: /\n', 'FooBot', 'https://example.com/robots.txt')).toBe(true);
    expect(rfc('user-agent: *\ndisallow: /\n', 'FooBot', 'https://example.com/other')).toBe(false);
  });

  it('encodes raw non-ASCII URL bytes and patterns alike', () => {
    expect(rfc('user-agent: *\ndisallow: /%C3%A9\n', 'FooBot', '/é')).toBe(false);
    expect(rfc('user-agent: *\ndisallow: /é\n', 'FooBot', '/é')).toBe(false);
    expect(rfc('user-agent: *\ndisallow: /é\n', 'FooBot', enc.encode('/%c3%a9'))).toBe(false);
  });

  it('keeps reserved characters encoded', () => {
    const robots = 'user-agent: *\ndisallow: /a%2fb\n';
    expect(rfc(robots, 'FooBot', '/a%2Fb')).toBe(false);
    expect(rfc(robots, 'FooBot', '/a/b')).toBe(true);
  });

  it('has no index.htm quirk (google mode has)', () => {
    const robots = 'user-agent: *\ndisallow: /d/\nallow: /d/index.html\n';
    expect(rfc(robots, 'FooBot', '/d/')).toBe(false);
    expect(referenceIsAllowed(robots, 'FooBot', '/d/', 'google')).toBe(true);
  });
});
