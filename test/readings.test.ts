// One URL, several request-targets: clients send a URL's path differently (an empty query, dot
// segments, "%2e", '\', tabs, a second '#', and in google mode their percent-encoding), and a
// URL is allowed only if every reading of it is (assembly/readings.ts). Held here to:
//   - the targets 22 real clients sent for 696 spellings (test/fixtures/readings), and the
//     targets this machine's clients send now, live, to a recorder on 127.0.0.1: whenever a
//     rule disallows a target as the mode compares it, the URL is disallowed;
//   - the independent model of each reading (test/oracle), reading by reading;
//   - this runtime's own URL parser, whose target is always one of the readings;
//   - every entry point giving isAllowed's answer, and explain naming the reading that decided.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RobotsCache, RobotsTxt, type Mode } from '../src/index.js';
import { RobotsPool } from '../src/pool/index.js';
import { READING_CLIENTS } from '../src/url/path.js';
import { kernel } from '../src/wasm/kernel.js';
import { CLIENT_READINGS, clientTarget, comparableTarget, ReferenceRobots } from './oracle/reference.js';
import { sendFromNode, sendFromTools } from './support/clients.js';
import { startRecorder, type Recorder } from './support/recorder.mjs';
import { cliFilter } from './support/cli-filter.js';
import { serve, startSites, stopSites, type Site } from './support/servers.js';
import { pick, rng, type Rng } from './support/random.js';

const MODES: readonly Mode[] = ['rfc', 'google'];
const encoder = new TextEncoder();
const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

interface RecordedCase {
  kind: string;
  path: string;
  targets: Record<string, string[]>;
}
const RECORDED: { clients: string[]; cases: RecordedCase[] } = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'readings', 'targets.json'), 'utf8'));

/** A robots.txt that disallows exactly `target`: its bytes as a pattern, '#' and controls escaped (a line cannot hold them). */
function disallowing(target: Uint8Array): Uint8Array {
  const pattern: number[] = [];
  for (const b of target) {
    if (b === 0x23 || b <= 0x20) pattern.push(...encoder.encode(`%${b.toString(16).toUpperCase().padStart(2, '0')}`));
    else pattern.push(b);
  }
  return Uint8Array.from([...encoder.encode('User-agent: *\nDisallow: '), ...pattern, ...encoder.encode('$\n')]);
}

/**
 * The targets of `url` whose exact rule the URL escapes: those that the rule disallows (as the
 * independent model compares them in `mode`) while the library allows the URL under it.
 */
function escapingTargets(url: string, targets: Iterable<string>, mode: Mode): string[] {
  const escaped: string[] = [];
  for (const target of targets) {
    const bytes = latin1(target);
    const body = disallowing(bytes);
    if (new ReferenceRobots(body, 'Bot', mode).isPathAllowed(comparableTarget(bytes, mode))) continue;
    const robots = RobotsTxt.parse(body, { mode });
    if (robots.isAllowed(url, 'Bot')) escaped.push(target);
    robots.dispose();
  }
  return escaped;
}

describe('the targets real clients sent: none escapes a rule', () => {
  // Python requests decodes escapes of unreserved bytes ("%62" -> "b"), which robots.cc, and so
  // google mode, holds to be other bytes (Google's ID_Encoding tests): its targets are held in
  // rfc mode, which normalises both alike.
  const heldIn = (client: string, mode: Mode) => mode === 'rfc' || !client.endsWith('-requests');

  it.each(MODES)('%s mode: 696 spellings, 22 clients (Node 20, 22, 24, 26, curl, wget, Python, Chromium)', (mode) => {
    const escapes: string[] = [];
    let checked = 0;
    for (const { path, targets } of RECORDED.cases) {
      const url = `http://127.0.0.1:8080${path}`;
      const held = Object.keys(targets).filter((target) => targets[target].some((client) => heldIn(client, mode)));
      checked += held.length;
      for (const target of escapingTargets(url, held, mode)) escapes.push(`${JSON.stringify(path)} sent as ${JSON.stringify(target)} by ${targets[target].join(', ')}`);
    }
    expect(escapes.slice(0, 10)).toEqual([]);
    expect(checked).toBeGreaterThan(1200);
  });

  it('the recorded spellings have several targets, and clients disagree on them', () => {
    const several = RECORDED.cases.filter((c) => Object.keys(c.targets).length > 1);
    expect(several.length).toBeGreaterThan(500);
    expect(RECORDED.clients.length).toBe(22);
  });
});

/** Paths of `count` pieces that make clients disagree (the fixture's generated sets' alphabets, and more). */
function generatedPaths(next: Rng, count: number): string[] {
  const PIECES = ['/', '/', '.', '..', '%2e', '%2E', '.%2e', '%2e.', '\\', '?', "'", 'x', '.x', '..x', '#', '/.', '/..', '/.x', ' ', '"', '|', '^', 'é', '%41', '%zz'];
  return Array.from({ length: count }, () => `/${Array.from({ length: 3 + Math.floor(next() * 8) }, () => pick(next, PIECES)).join('')}`);
}

describe("the targets this machine's clients send now, to a recorder on 127.0.0.1", () => {
  const hand = RECORDED.cases.filter((c) => c.kind === 'hand').map((c) => c.path).filter((p) => !p.includes('\0'));
  const paths = [...hand, ...generatedPaths(rng(45), 150)];
  let recorder: Recorder;
  beforeAll(async () => {
    recorder = await startRecorder(paths);
    await sendFromNode(recorder.urls);
    await sendFromTools(recorder.urls);
  }, 300_000);
  afterAll(() => recorder.stop());

  it('each client was heard: several targets for most spellings that make clients disagree', () => {
    const heard = recorder.targets.filter((t) => t.length > 0).length;
    expect(heard).toBe(paths.length);
    expect(recorder.targets.filter((t) => t.length > 1).length).toBeGreaterThan(120);
  });

  it.each(MODES)('%s mode: no target escapes the rule that names it', (mode) => {
    const escapes = recorder.urls.flatMap((url, i) => escapingTargets(url, recorder.targets[i], mode).map((t) => `${JSON.stringify(paths[i])} sent as ${JSON.stringify(t)}`));
    expect(escapes.slice(0, 10)).toEqual([]);
  });
});

describe('each reading against its independent model', () => {
  const PREFIXES = ['http://h', 'https://h:8443', 'HTTP://H', 'http:/h', 'http:\\\\h', 'http://u@h', ' http://h', ''];
  const next = rng(31);
  const urls = Array.from({ length: 20_000 }, () => pick(next, PREFIXES) + generatedPaths(next, 1)[0] + (next() < 0.2 ? pick(next, ['?', '?#', '#a#b', '\t', '\n/..']) : ''));

  it.each(MODES)('%s mode: every reading of 20,000 URLs is the model client\'s target', (mode) => {
    const wrong: string[] = [];
    const k = kernel();
    READING_CLIENTS.forEach((client, i) => {
      for (const url of urls) {
        const got = k.readingPath(url, i, mode === 'rfc');
        const want = clientTarget(encoder.encode(url), CLIENT_READINGS[i]!, mode);
        if (Buffer.compare(got, want) !== 0 && wrong.length < 10) wrong.push(`${client} ${JSON.stringify(url)}: ${Buffer.from(got).toString('latin1')} vs ${Buffer.from(want).toString('latin1')}`);
      }
    });
    expect(wrong).toEqual([]);
    expect(CLIENT_READINGS.length).toBe(READING_CLIENTS.length);
  });

  it("this runtime's URL parser requests one of the readings of each URL", () => {
    const k = kernel();
    const missed: string[] = [];
    for (const url of urls) {
      let parsed: URL;
      try {
        parsed = new URL(url.trim().startsWith('/') ? `http://h${url.trim()}` : url);
      } catch {
        continue;
      }
      const own = `${parsed.pathname}${parsed.search}`;
      const readings = READING_CLIENTS.map((_, i) => Buffer.from(k.readingPath(url, i, false)).toString('latin1'));
      if (!readings.includes(own) && missed.length < 10) missed.push(`${JSON.stringify(url)} -> ${own}`);
    }
    expect(missed).toEqual([]);
  });
});

/** The rules the spellings below are checked against. */
const RULES = ['User-agent: *', 'Disallow: /private/', 'Allow: /private/public', 'Disallow: /*.pdf$', 'Disallow: /search?', 'Disallow: /*?$', 'Disallow: /*%27', 'Disallow: /$'].join('\n');

/** Spellings on the origin `o`: dot segments, "%2e", '\\', empty queries, tabs, two '#', quotes. */
function spellings(o: string): string[] {
  return [
    `${o}/public/../private/x`, `${o}/private/.x/../../public`, `${o}/private/%2e%2e/public`, `${o}/private/.%2E/public`, `${o}/private\\..\\public`,
    `${o}/search?`, `${o}/search?#f`, `${o}/page?`, `${o}/a?b?`, `${o}/private/x`, `${o}/public/x`, `${o}/x.pdf/.`, `${o}/x.pdf#a#b`,
    `${o}/p'rivate?q='a'`, `${o}/pri\tvate/x`, `${o}/files/../x.pdf`, `${o}/a/.x/..`, `${o}\\private\\x`, `${o}/%2e%2e/private/x`, `${o}/..`,
    `${o}/public/.%2e/private/x?`, `${o}/é/../private/x`,
  ];
}

/** The same spellings as paths. */
const PATHS = ['/public/../private/x', '/private/%2e%2e/public', '/search?', '//foo;p', '/\\private\\x', '\\private\\x', '/private/x', '?q=1'];

describe('every entry point gives isAllowed its answer', () => {
  const table = [...spellings('http://h'), ...PATHS];
  let sites: Site[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'robots-wasm-readings-'));
  beforeAll(async () => {
    sites = await startSites(1, serve(RULES));
  });
  afterAll(async () => {
    await stopSites(sites);
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(MODES)('%s mode: isAllowed is the model\'s answer, with both verdicts; explain, checkMany, checkLines and the pool agree', async (mode) => {
    const robots = RobotsTxt.parse(RULES, { mode });
    const oracle = new ReferenceRobots(RULES, 'Bot', mode);
    const expected = table.map((url) => oracle.isAllowed(url));
    expect(table.map((url) => [url, robots.isAllowed(url, 'Bot')])).toEqual(table.map((url, i) => [url, expected[i]]));
    expect(expected.filter((v) => !v).length).toBeGreaterThan(15);
    expect(expected.filter((v) => v).length).toBeGreaterThan(3);
    expect(table.map((url) => robots.explain(url, 'Bot').allowed)).toEqual(expected);
    const matcher = robots.matcher('Bot');
    expect(Array.from(matcher.checkMany(table), Boolean)).toEqual(expected);
    const lines = table.map((url, i) => [url, expected[i]] as const).filter(([url]) => !/[\r\n]/.test(url));
    expect(Array.from(matcher.checkLines(encoder.encode(lines.map(([url]) => url).join('\n'))), Boolean)).toEqual(lines.map(([, v]) => v));
    const pool = new RobotsPool({ threads: 2, cpus: 3, minUrls: 1, minBytes: 1 });
    try {
      const many = Array.from({ length: 40 }, () => table).flat();
      expect(Array.from(await pool.checkMany(matcher, many), Boolean)).toEqual(Array.from({ length: 40 }, () => expected).flat());
    } finally {
      await pool.close();
    }
  });

  it.each(MODES)('%s mode: RobotsCache and the CLI filter read each URL every way too', async (mode) => {
    const origin = sites[0].origin;
    const urls = spellings(origin);
    const oracle = new ReferenceRobots(RULES, 'Bot', mode);
    // RobotsCache matches the URL it is about to fetch: as clients request it, without robots.cc's own reading.
    const expected = urls.map((url) => oracle.isAllowed(url, true));
    expect(expected.filter((v) => !v).length).toBeGreaterThan(15);
    const cache = new RobotsCache({ agent: 'Bot', mode });
    expect(Array.from(await cache.checkMany(urls), Boolean)).toEqual(expected);
    const one: boolean[] = [];
    for (const url of urls) one.push(await cache.isAllowed(url));
    expect(one).toEqual(expected);
    const lines = urls.map((url, i) => [url, expected[i]] as const).filter(([url]) => !/[\r\n]/.test(url));
    expect(await cliFilter(dir, lines.map(([url]) => url), mode)).toEqual(lines.filter(([, v]) => v).map(([url]) => url));
  });

  it('a bare path is a path: "//foo;p" is matched as the path //foo;p, not as a host', () => {
    const robots = RobotsTxt.parse('User-agent: *\nDisallow: //foo;p\nDisallow: /\\x\n');
    expect(robots.isAllowed('//foo;p', 'Bot')).toBe(false);
    expect(robots.isAllowed('//foo;q', 'Bot')).toBe(true);
    // As written and with '\\' read as '/': both readings of a path are checked.
    expect(robots.isAllowed('/\\x', 'Bot')).toBe(false);
    // google mode reads a path as robots.cc does, byte for byte: "//foo;p" names a host there.
    expect(RobotsTxt.parse('User-agent: *\nDisallow: /;p\n', { mode: 'google' }).isAllowed('//foo;p', 'Bot')).toBe(false);
  });

  it('explain names the reading that decided, and the path it matched', () => {
    const robots = RobotsTxt.parse(RULES);
    expect(robots.explain('https://h/search?', 'Bot')).toEqual({
      allowed: false, rule: { kind: 'disallow', pattern: '/search?', line: 5 }, reading: { client: 'undici', path: '/search?' },
    });
    expect(robots.explain('https://h/private/%2e%2e/public', 'Bot')).toEqual({
      allowed: false, rule: { kind: 'disallow', pattern: '/private/', line: 2 }, reading: { client: 'curl', path: '/private/../public' },
    });
    expect(robots.explain('https://h/private/.x/../../public', 'Bot')).toEqual({
      allowed: false, rule: { kind: 'disallow', pattern: '/private/', line: 2 }, reading: { client: 'urllib', path: '/private/.x/../../public' },
    });
    // One reading: no reading named.
    expect(robots.explain('https://h/private/x', 'Bot')).toEqual({ allowed: false, rule: { kind: 'disallow', pattern: '/private/', line: 2 } });
    // Several, all allowed: the URL standard's is named.
    expect(robots.explain('https://h/a/../b', 'Bot')).toEqual({ allowed: true, rule: null, reading: { client: 'whatwg', path: '/b' } });
    const google = RobotsTxt.parse(RULES, { mode: 'google' });
    expect(google.explain('https://h/a/../private/x', 'Bot').reading).toEqual({ client: 'whatwg', path: '/private/x' });
  });
});
