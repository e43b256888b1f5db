// The answers robots-wasm gives to a fixed set of questions, as plain JSON. Every runtime the
// package claims to support (Node, browsers, Deno, Bun) runs this same file against the
// package as a user installs it; the harnesses compare the answers with Node's. Plain ESM
// with no imports and only web-platform globals, so that it runs unchanged everywhere.

/** A multi-group file touching every part of the parser and the matcher. */
export const ROBOTS_TXT = [
  '# robots.txt for the cross-runtime checks',
  'User-agent: ExampleBot',
  'User-agent: ExampleBot-News',
  'Crawl-delay: 2.5',
  'Disallow: /private/',
  'Allow: /private/press/',
  'Disallow: /*.pdf$',
  'Disallow: /search?q=',
  'Allow: /search?q=public',
  'Disallow: /caf%C3%A9/',
  'Disallow: /ümlaut/',
  'Disallow: /%7Euser/',
  'Disallow: /a%2fb',
  'Disallow: /x/../y/',
  'Allow: /d/index.html',
  'Disallow: /d/',
  'Disallow: /*/draft$',
  '',
  'User-agent: *',
  'Disallow: /',
  'Allow: /public/',
  'Allow: /$',
  'Crawl-delay: 10',
  'Disallow: /public/*?session=',
  '',
  'Sitemap: https://example.com/sitemap.xml',
  'Sitemap: https://example.com/news/sitemap.xml',
  'Sitemap: https://example.com/sitemap.xml',
  '',
  'User-agent: OtherBot',
  'Disalow: /typo-key/',
  'Allow: /',
  'Disallow: /blocked',
  'Disallow: /blocked',
  'Disallow: noslash',
  'Disallow: /end$tail',
  'Allow: /blocked/but/open/',
  'Disallow: /ĳ/',
  'Crawl-delay: soon',
  '',
].join('\n');

/** Agents asked about: one with a group of its own, one that shares it by prefix-free token, and one that falls back to `*`. */
export const AGENTS = ['ExampleBot/2.1 (+https://example.com/bot)', 'OtherBot', 'UnknownBot'];

/** URLs and paths whose verdicts depend on wildcards, anchors, encodings and dot segments. */
export const URLS = [
  'https://example.com/',
  'https://example.com',
  '/private/',
  '/private/secret.html',
  '/private/press/release.html',
  'http://example.com/PRIVATE/',
  '/docs/report.pdf',
  '/docs/report.pdf?download=1',
  '/docs/report.PDF',
  '/search?q=cats',
  '/search?q=public+records',
  '/search',
  '/café/menu',
  '/caf%c3%a9/menu',
  '/caf%C3%A9/menu',
  '/ümlaut/page',
  '/%C3%BCmlaut/page',
  '/~user/home',
  '/%7euser/home',
  '/a/b',
  '/a%2fb',
  '/a%2Fb',
  '/y/page',
  '/x/../y/page',
  '/x/./../y/page',
  '/d/index.html',
  '/d/',
  '/d/other',
  '/blog/post/draft',
  '/blog/post/draft/',
  '/public/page',
  '/public/page?session=abc',
  '/blocked/but/open/file',
  '/blocked-not',
  '/end$tail',
  '/ĳ/x',
  '/%C4%B3/x',
  '/robots.txt',
  'https://user:pass@example.com:8080/private/x?y#frag',
  '/path\twith\ttabs/private/',
  '\\private\\x',
];

const MODES = ['rfc', 'google'];

/** What a response says about its own use: Robots-Tag, X-Robots-Tag and a robots meta tag. */
const RESPONSE = {
  headers: {
    'X-Robots-Tag': ['noarchive, max-snippet:20', 'examplebot: noindex, unavailable_after: 2030-01-01T00:00:00Z'],
    'Robots-Tag': '*;max-image-preview=standard, otherbot;nofollow',
    'Cache-Control': 'max-age=3600',
    Date: 'Wed, 01 Jan 2025 00:00:00 GMT',
  },
  html:
    '<!doctype html><html><head><meta charset="utf-8">' +
    '<meta name="robots" content="nosnippet, max-video-preview:15">' +
    '<meta name="ExampleBot" content="notranslate">' +
    '<meta name="otherbot" content="none"></head><body>Ünïcode body</body></html>',
};
const NOW = Date.UTC(2025, 0, 1);

const encoder = new TextEncoder();

/** URLS one per line, LF and CRLF alternating, the last line without a line end. */
const LINES = encoder.encode(URLS.map((url, i) => (i === URLS.length - 1 ? url : url + (i % 2 ? '\r\n' : '\n'))).join(''));

/** A Uint8Array as a plain array, so that JSON holds the bytes and not an object of indices. */
const list = (bytes) => Array.from(bytes);

/** A rule map (Map of name to true | string | number) as an object with sorted keys. */
function ruleObject(rules) {
  return Object.fromEntries([...rules.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** FNV-1a of bytes: the compiled table is compared by digest, so a mismatch reads as one line. */
function fnv1a(bytes) {
  let h = 0x811c9dc5;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/** The TypeError a misuse throws: its class and message. */
function thrown(call) {
  try {
    call();
    return 'no error';
  } catch (error) {
    return `${error.constructor.name}: ${error.message}`;
  }
}

function controlsObject(controls) {
  return {
    ...controls,
    rules: ruleObject(controls.rules),
    unavailableAfter: controls.unavailableAfter?.toISOString(),
  };
}

function parsedFile(lib, body, mode) {
  const robots = lib.RobotsTxt.parse(body, { mode });
  const perAgent = {};
  for (const agent of AGENTS) {
    const matcher = robots.matcher(agent);
    perAgent[agent] = {
      isAllowed: URLS.map((url) => robots.isAllowed(url, agent)),
      checkMany: list(matcher.checkMany(URLS)),
      // One URL per line, some ending in CRLF, and a last line without a line end.
      checkLines: list(matcher.checkLines(LINES)),
      explain: URLS.map((url) => robots.explain(url, agent)),
      matcherExplain: URLS.slice(0, 8).map((url) => matcher.explain(url)),
      selectGroups: robots.selectGroups(agent),
      crawlDelay: robots.crawlDelay(agent) ?? null,
      ruleCount: matcher.ruleCount,
      table: { bytes: matcher.toBytes().length, fnv1a: fnv1a(matcher.toBytes()) },
      reloaded: list(lib.Matcher.fromBytes(matcher.toBytes()).checkMany(URLS)),
    };
  }
  return {
    mode: robots.mode,
    truncated: robots.truncated,
    parsedBytes: robots.parsedBytes,
    agents: robots.agents,
    sitemaps: robots.sitemaps,
    groups: robots.groups,
    perAgent,
  };
}

/**
 * fetchRobotsTxt of `origin`, whose server answers /robots.txt with ROBOTS_TXT gzipped and
 * `max-age=600`: the runtime's default transport (#transport) at work. Times are kept as the
 * freshness they give, and the origin (its port changes between runs) as a placeholder.
 */
async function fetched(lib, origin) {
  const result = await lib.fetchRobotsTxt(`${origin}/any/page?x=1`);
  return {
    status: result.status,
    origin: result.origin.replace(origin, '<origin>'),
    httpStatus: result.httpStatus,
    finalUrl: result.finalUrl.replace(origin, '<origin>'),
    redirects: result.redirects,
    freshnessMs: result.expiresAt - result.fetchedAt,
    error: result.error ?? null,
    bodyBytes: result.body?.length ?? null,
    etag: result.etag ?? null,
    revalidated: result.revalidated,
    sitemaps: result.robots.sitemaps,
    verdicts: AGENTS.map((agent) => list(result.robots.matcher(agent).checkMany(URLS))),
  };
}

/**
 * Runs every check against `lib`, the robots-wasm module namespace, and returns the answers.
 * With `init: true`, awaits `lib.init()` first (the asynchronous compile a page should use);
 * without it the kernel is compiled synchronously on first use. With `origin`, fetches that
 * origin's robots.txt (see fetched()).
 */
export async function runChecks(lib, { init = false, origin } = {}) {
  if (init) {
    if (typeof lib.init !== 'function') throw new Error('robots-wasm exports no init()');
    await lib.init();
    // Idempotent: a second call reuses the compiled module.
    await lib.init();
  }
  const out = {};
  for (const mode of MODES) {
    out[`text:${mode}`] = parsedFile(lib, ROBOTS_TXT, mode);
  }
  // The same file as bytes and as an ArrayBuffer must give the same answers as the string.
  const bytes = encoder.encode(ROBOTS_TXT);
  out.bytesBody = parsedFile(lib, bytes, 'rfc');
  out.arrayBufferBody = parsedFile(lib, bytes.slice().buffer, 'google');

  // A body past the default limit (RFC 9309 2.5): truncation, and kernel memory growth.
  const big = `user-agent: *\ndisallow: /early\n${'#'.repeat(600_000)}\ndisallow: /late\n`;
  const bigRobots = lib.RobotsTxt.parse(big);
  out.bigBody = {
    truncated: bigRobots.truncated,
    parsedBytes: bigRobots.parsedBytes,
    verdicts: ['/early', '/late', '/other'].map((u) => bigRobots.isAllowed(u, 'Bot')),
  };
  // A URL longer than one batch of checkMany, checked alone with a scratch block of its size.
  const longUrl = `/private/${'z'.repeat(300_000)}`;
  out.longUrl = list(lib.RobotsTxt.parse(ROBOTS_TXT).matcher('ExampleBot').checkMany(['/ok', longUrl, '/private/']));

  out.normalizePath = Object.fromEntries(MODES.map((mode) => [mode, URLS.map((url) => lib.normalizePath(url, mode))]));
  out.getPathParamsQuery = URLS.map((url) => lib.getPathParamsQuery(url));
  out.escapePattern = Object.fromEntries(
    MODES.map((mode) => [mode, ['/caf%c3%a9/', '/ümlaut/', '/%7Euser/', '/x/../y/', '/a b', encoder.encode('/ĳ/')].map((p) => lib.escapePattern(p, mode))]),
  );
  out.productToken = AGENTS.map((agent) => [lib.productToken(agent), lib.productToken(agent, 'google'), lib.isValidProductToken(agent)]);

  out.lint = Object.fromEntries(MODES.map((mode) => [mode, lib.lintRobotsTxt(ROBOTS_TXT, { mode })]));
  out.lintInvalidUtf8 = lib.lintRobotsTxt(new Uint8Array([...encoder.encode('user-agent: *\ndisallow: /a'), 0xff, 0xfe, 0x0a]));

  out.urlControls = Object.fromEntries(AGENTS.map((agent) => [agent, controlsObject(lib.urlControls(RESPONSE, agent, { now: NOW }))]));
  out.urlControlsHeadersObject = controlsObject(
    lib.urlControls({ headers: new Headers({ 'x-robots-tag': 'noindex, nofollow', expires: 'Wed, 01 Jan 2025 01:00:00 GMT', date: 'Wed, 01 Jan 2025 00:00:00 GMT' }) }, 'Bot', { now: NOW }),
  );
  out.urlControlsBytesHtml = controlsObject(lib.urlControls({ html: encoder.encode(RESPONSE.html) }, 'ExampleBot', { now: NOW }));
  out.parseRobotsTag = ruleObject(lib.parseRobotsTag(RESPONSE.headers['X-Robots-Tag'], { field: 'x-robots-tag' }).rulesFor('ExampleBot'));
  out.parseRobotsMeta = ruleObject(lib.parseRobotsMeta(RESPONSE.html).rulesFor('otherbot'));

  if (origin !== undefined) out.fetchRobotsTxt = await fetched(lib, origin);

  const robots = lib.RobotsTxt.parse(ROBOTS_TXT);
  out.misuse = [
    thrown(() => lib.RobotsTxt.parse(42)),
    thrown(() => lib.RobotsTxt.parse('', { mode: 'strict' })),
    thrown(() => robots.isAllowed(42, 'Bot')),
    thrown(() => robots.matcher('Bot').checkLines('/x')),
    thrown(() => lib.urlControls(null, 'Bot')),
  ];
  return out;
}
