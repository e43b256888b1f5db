// The URL standard's reading of a URL (what `new URL(url).pathname + search` gives: tabs and
// newlines removed, '\' read as '/', dot segments resolved), normalised for RFC mode, is always
// one of the request-targets a URL is checked as (test/readings.test.ts holds the others): no
// spelling of a URL is more permissive than the URL a fetch requests. Every entry point is
// held to it (RobotsCache and the CLI's filter in google mode too), on a table of spellings and
// on 100,000 generated URLs compared with Node's WHATWG URL parser.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizePath, RobotsCache, RobotsTxt, type Mode } from '../dist/index.js';
import { RobotsPool } from '../dist/pool/index.js';
import { requestPath } from '../dist/url/path.js';
import { checkManyAsFetched } from '../dist/matcher.js';
import { cliFilter } from './support/cli-filter.js';
import { serve, startSites, stopSites, type Site } from './support/servers.js';
import { pick, rng, type Rng } from './support/random.js';


/** The rules every spelling is checked against: each spelling's verdict must be its fetch's. */
const RULES = [
  'User-agent: *',
  'Disallow: /private/',
  'Allow: /private/public',
  'Disallow: /*.pdf$',
  'Disallow: /public/..;',
  'Disallow: /?q=/private',
  'Disallow: /*%27',
  'Disallow: /$',
].join('\n');

/**
 * Spellings of URLs on the origin `o` (an "http://host" origin, `h` its host): dot segments
 * at the start, middle and end, with queries and fragments, %2e/%2E mixes, ".." above the root,
 * backslashes, tabs and newlines, "//" runs (kept), odd scheme slashes and case.
 */
function spellings(o: string, h: string): string[] {
  return [
    `${o}/public/../private/x`, `${o}/./private/x`, `${o}/%2e%2e/private/x`, `${o}/%2E/private/x`,
    `${o}/public/%2e%2E/private/x`, `${o}/public/.%2e/private/x`, `${o}/public/%2E./private/x`, `${o}/a/b/../../private/x`,
    `${o}/../../private/x`, `${o}/private/./x`, `${o}/private/x/.`, `${o}/private/x/..`, `${o}/private/x/..?q=1`,
    `${o}/private/x/.?q=1`, `${o}/public/..?q=/private`, `${o}/public/../private/x?a=/../b`, `${o}/public/../private/x#f/../..`,
    `${o}/private/..%2fx`, `${o}/private/...`, `${o}/private/.x`, `${o}/.well-known/x`, `${o}//private/x`,
    `${o}/public//../private/x`, `${o}\\private\\x`, `${o}/private\\x`, `${o}/public\\..\\private\\x`, `${o}/public/..\\private/x`,
    `${o}\\..\\private\\x`, `${o}/private/x?y=\\z`, `${o}/pri\tvate/x`, `${o}/private/\tx`, `${o}/private/x\t`,
    `${o}/pr\nivate/x`, `${o}/pr\rivate/x`, `${o}/private/x\r\n`, ` ${o}/private/x `, `\t${o}/private/x`,
    `${o}/private/x%20`, `${o}/private/x`, `${o}/public/x`, `${o}/public/..`, `${o}/..`, `${o}/.`, `${o}/%2e`,
    `${o}/public/%2e%2e`, `${o}/public/./`, `${o}/a/.%2E/private/x`, `${o}/a/%2e%2e%2fprivate/x`, `${o}/private/x?q='a'`,
    `${o}/p'rivate/x`, `${o}/priv%61te/x`, `${o}/PRIVATE/x`, `${o}/private/x/../../public/y`, `${o}/public/../../../private/x`,
    `${o}/private/x/../y/./z`, `${o}?q=/private/x`, `${o}#/private/x`, `${o}/private/x/%2e%2e/%2e`, `${o}/public/..;/private/x`,
    `${o}/public/.. /private/x`, `${o}/%2e%2e%2e/private`, `${o}/public/%2e%2e\\private\\x`, `${o}/files/a.pdf/.`,
    `${o}/files/a.pdf/./`, `${o}/files/../a.pdf`, `http:/${h}/private/x`, `http:///${h}/private/x`, `http:\\\\${h}\\private\\x`,
    `HTTP://${h}/private/x`, `http:${h}/private/x`, `ht\ttp://${h}/private/x`, `http://${h}\t/private/x`,
    `http:/\t/${h}/private/x`, `http://${h}/public/..%2F..%2Fprivate/x`,
    // An escape first (percent-normalising alone would do), then what a fetch rewrites.
    `${o}/a%41/../private/x`, `${o}/private/x%41 `, `${o}/private/%41?`, `${o}/private/x?%41'`, `${o}/%41/%2e%2E/private/x`,
  ];
}

/** Spellings with no origin (checked as paths, as against an http origin). */
const PATH_SPELLINGS = [
  '/public/../private/x', '\\private\\x', '/./private/x', '//h/private/x', '/\\h/private/x', '/\t/h/private/x',
  '?q=/private', '/private/x/..', '/public/%2e%2e/private/x', '/files/a.pdf/..', ' /private/x',
];

/** The fetched URL on origin http://h (its path alone would read "//x" as a host to a URL parser). */
function fetchedUrl(url: string): string {
  return `http://h${fetchedPath(url)}`;
}

/**
 * What `new URL` says a fetch of `url` requests: a URL with a scheme is parsed alone (against
 * a base, "http:/h/p" would be relative to it); a path (what starts with '/' or '\\': "//x" too)
 * is the path of an http origin; anything else is resolved against one. Throws for what is not
 * a URL.
 */
function fetchedPath(url: string): string {
  const trimmed = url.replace(/^[\x00-\x20]+/, '');
  const hasScheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.test(trimmed.replace(/[\t\n\r]/g, ''));
  const isPath = /^[/\\]/.test(trimmed);
  const parsed = hasScheme ? new URL(url) : isPath ? new URL(`http://h${trimmed}`) : new URL(url, 'http://h/');
  return parsed.pathname + parsed.search;
}

/** Verdicts (true: allowed) that allow a URL the fetched URL's verdict (`fetched`) disallows. */
function morePermissive(urls: readonly string[], got: ArrayLike<boolean | number>, fetched: ArrayLike<boolean | number>): string[] {
  return urls.filter((_, i) => Boolean(got[i]) && !fetched[i]);
}

describe('a table of spellings: the fetched URL is one of the readings checked', () => {
  const table = [...spellings('http://h', 'h'), ...PATH_SPELLINGS];
  const robots = RobotsTxt.parse(RULES);
  const google = RobotsTxt.parse(RULES, { mode: 'google' });
  const matcher = robots.matcher('Bot');
  const fetched = table.map((url) => robots.isAllowed(fetchedUrl(url), 'Bot'));
  const expected = table.map((url) => robots.isAllowed(url, 'Bot'));

  it(`holds ${table.length} spellings, with both verdicts`, () => {
    expect(table.length).toBeGreaterThanOrEqual(80);
    expect(fetched.filter((v) => !v).length).toBeGreaterThan(40);
    expect(expected.filter((v) => v).length).toBeGreaterThan(10);
  });

  it('normalizePath gives the fetched path, normalised; in fetch form, the fetched path itself', () => {
    expect(table.map((url) => [url, normalizePath(url)])).toEqual(table.map((url) => [url, normalizePath(fetchedUrl(url))]));
    expect(table.map((url) => [url, requestPath(url)])).toEqual(table.map((url) => [url, fetchedPath(url)]));
  });

  it('each spelling is disallowed by a rule naming exactly its fetched path', () => {
    for (const url of table) {
      const rule = normalizePath(fetchedUrl(url));
      const exact = RobotsTxt.parse(`User-agent: *\nDisallow: ${rule}$\n`);
      // A fragment changes nothing (after the URL's trailing spaces, which are dropped).
      const withFragment = `${url.replace(/[\x00-\x20]+$/, '')}#x`;
      expect([url, exact.isAllowed(url, 'Bot'), exact.isAllowed(withFragment, 'Bot')]).toEqual([url, false, false]);
    }
  });

  it('isAllowed, explain, checkMany and checkLines: never more permissive than the fetched URL', () => {
    expect(morePermissive(table, expected, fetched)).toEqual([]);
    // Other readings disallow some spellings whose fetched URL is allowed.
    expect(table.filter((_, i) => fetched[i] && !expected[i]).length).toBeGreaterThan(0);
    expect(table.map((url) => [url, robots.explain(url, 'Bot').allowed])).toEqual(table.map((url, i) => [url, expected[i]]));
    expect(Array.from(matcher.checkMany(table), Boolean)).toEqual(expected);
    // A line ends at LF: the spellings holding one are not lines.
    const lines = table.map((url, i) => [url, expected[i]] as const).filter(([url]) => !url.includes('\n'));
    const bytes = new TextEncoder().encode(lines.map(([url]) => url).join('\n'));
    expect(Array.from(matcher.checkLines(bytes), Boolean)).toEqual(lines.map(([, v]) => v));
  });

  it('RobotsPool.checkMany and checkLines', async () => {
    const pool = new RobotsPool({ threads: 2, cpus: 3, minUrls: 1, minBytes: 1 });
    try {
      const many = Array.from({ length: 40 }, () => table).flat();
      expect(Array.from(await pool.checkMany(matcher, many), Boolean)).toEqual(Array.from({ length: 40 }, () => expected).flat());
      const lines = table.filter((url) => !url.includes('\n'));
      const bytes = new TextEncoder().encode(Array.from({ length: 40 }, () => lines.join('\n')).join('\n'));
      expect(Array.from(await pool.checkLines(matcher, bytes))).toEqual(Array.from(matcher.checkLines(bytes)));
    } finally {
      await pool.close();
    }
  });

  it("google mode matches a path as given, and a URL as every client sends it", () => {
    expect(google.isAllowed('/public/../private/x', 'Bot')).toBe(true);
    expect(google.isAllowed('http://h/public/../private/x', 'Bot')).toBe(false);
    expect(google.isAllowed('http://h/private/x', 'Bot')).toBe(false);
  });
});

describe("RobotsCache and the CLI filter: never more permissive than the fetched path, in both modes", () => {
  let sites: Site[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'robots-wasm-urls-'));
  beforeAll(async () => {
    sites = await startSites(1, serve(RULES));
  });
  afterAll(async () => {
    await stopSites(sites);
    rmSync(dir, { recursive: true, force: true });
  });

  /** The spellings on the server's origin, the verdict of each fetched URL in `mode`, and RobotsCache's. */
  async function onServer(mode: Mode) {
    const origin = sites[0].origin;
    const urls = spellings(origin, origin.slice('http://'.length));
    const robots = RobotsTxt.parse(RULES, { mode });
    const fetched = urls.map((url) => robots.isAllowed(`${origin}${new URL(url).pathname}${new URL(url).search}`, 'Bot'));
    const cache = new RobotsCache({ agent: 'Bot', mode });
    return { urls, fetched, cache, expected: Array.from(await cache.checkMany(urls), Boolean) };
  }

  it.each(['rfc', 'google'] as const)('RobotsCache, mode %s', async (mode) => {
    const { urls, fetched, cache, expected } = await onServer(mode);
    expect(morePermissive(urls, expected, fetched)).toEqual([]);
    expect(expected.filter(Boolean).length).toBeGreaterThan(5);
    const one: boolean[] = [];
    for (const url of urls) one.push(await cache.isAllowed(url));
    expect(one).toEqual(expected);
    const allowed: string[] = [];
    for await (const url of cache.filter(urls)) allowed.push(url);
    expect(allowed).toEqual(urls.filter((_, i) => expected[i]));
    // In google mode a raw "/public/../private/x" is allowed; the fetch of it is not.
    expect(expected[0]).toBe(false);
  });

  it.each(['rfc', 'google'] as const)('robots-wasm filter, mode %s', async (mode) => {
    const { urls, expected } = await onServer(mode);
    // One URL per line: the spellings with CR or LF are not lines, and readline ends a line at CR.
    const lines = urls.map((url, i) => [url, expected[i]] as const).filter(([url]) => !/[\r\n]/.test(url));
    expect(await cliFilter(dir, lines.map(([url]) => url), mode)).toEqual(lines.filter(([, v]) => v).map(([url]) => url));
  });
});

describe('100,000 generated URLs against the WHATWG URL parser', () => {
  // Pieces a URL is built of: dot segments and their escapes, both slashes, tabs, newlines
  // and spaces, escapes, non-ASCII, a query's quote, and ordinary bytes. ('^' is left out: the
  // URL standard added it to the path's escape set after the parser in this Node.)
  const PIECES = [
    '/', '/', '/', 'a', 'b', 'x.y', '.', '..', '%2e', '%2E', '.%2e', '%2e.', '\\', '\t', '\n', '\r', ' ', '%41', '%2f',
    '%7e', '%zz', '%', '?', '?', '#', "'", '"', '<', '`', '{', '|', 'é', '日', '*', '$', ';', '=', '&', '~', '@', ':',
  ];
  const PREFIXES = ['http://h', 'https://h:8443', 'HTTP://H', 'http:/h', 'http:\\\\h', 'http:h', ' http://h', 'http://u@h', ''];

  function generate(next: Rng): string {
    let url = pick(next, PREFIXES);
    const count = 1 + Math.floor(next() * 14);
    if (url === '' || next() < 0.9) url += '/';
    for (let i = 0; i < count; i++) url += pick(next, PIECES);
    return url;
  }

  const next = rng(27);
  const urls: string[] = [];
  while (urls.length < 100_000) {
    const url = generate(next);
    // Only URLs a fetch could request: with a host the parser accepts.
    try {
      fetchedPath(url);
      urls.push(url);
    } catch {
      // not a URL
    }
  }

  it('the fetch form is what the parser gives, and RFC mode its normalised form', () => {
    const wrongFetch = urls.filter((url) => requestPath(url) !== fetchedPath(url));
    expect(wrongFetch.slice(0, 5)).toEqual([]);
    const wrongRfc = urls.filter((url) => normalizePath(url) !== normalizePath(fetchedUrl(url)));
    expect(wrongRfc.slice(0, 5)).toEqual([]);
  });

  it.each(['rfc', 'google'] as const)('batch checks (checkMany, fetch form in google mode) are never more permissive than the fetched URLs, mode %s', (mode) => {
    // Rules naming exactly the fetched paths of every third URL: each URL's verdict shows
    // whether its path was read as the fetch reads it.
    const pattern = (url: string) => (mode === 'rfc' ? normalizePath(fetchedUrl(url)) : fetchedPath(url));
    const body = `User-agent: *\n${urls.filter((_, i) => i % 3 === 0).map((url) => `Disallow: ${pattern(url)}$`).join('\n')}\n`;
    const matcher = RobotsTxt.parse(body, { mode, maxBytes: Infinity }).matcher('Bot');
    const fetched = urls.map(fetchedUrl);
    const want = mode === 'rfc' ? matcher.checkMany(fetched) : checkManyAsFetched(matcher, fetched);
    expect(want.filter((v) => v === 0).length).toBeGreaterThan(20_000);
    const got = mode === 'rfc' ? matcher.checkMany(urls) : checkManyAsFetched(matcher, urls);
    expect(morePermissive(urls, got, want).slice(0, 5)).toEqual([]);
    // Nearly every URL has one reading, the fetched one.
    expect(urls.filter((_, i) => got[i] !== want[i]).length).toBeLessThan(urls.length / 10);
    if (mode === 'rfc') {
      const lines = urls.filter((url) => !url.includes('\n'));
      const verdicts = matcher.checkLines(new TextEncoder().encode(lines.join('\n')));
      expect(Array.from(verdicts)).toEqual(Array.from(matcher.checkMany(lines)));
    }
  });
});
