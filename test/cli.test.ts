// The built CLI (dist/cli/main.js, which `npm test` builds first) run as a child process:
// output and exit codes of every command, stdin, a 1M-line file in bounded memory, broken
// inputs, and commands that fetch from real servers on 127.0.0.1.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RobotsTxt } from '../dist/index.js';
import { serve, startSites, stopSites, type Site } from './support/servers.js';

const CLI = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js');
const RSS = join(import.meta.dirname, 'support', 'report-rss.mjs');
const ROBOTS = join(import.meta.dirname, '..', 'examples', 'robots.txt');
const URLS = join(import.meta.dirname, '..', 'examples', 'urls.txt');
const tmp = mkdtempSync(join(tmpdir(), 'robots-wasm-cli-'));

function run(args: string[], input?: string | Uint8Array) {
  const r = spawnSync(process.execPath, [CLI, ...args], { input, encoding: 'utf8', maxBuffer: 1 << 28 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Like run, without blocking the event loop (for commands that fetch from the test's servers). */
function runAsync(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let sites: Site[] = [];
beforeAll(async () => {
  sites = await startSites(3, serve('User-agent: *\nDisallow: /private\nSitemap: https://example.com/sitemap.xml\nCrawl-delay: 3\n'));
});
afterAll(async () => {
  await stopSites(sites);
  rmSync(tmp, { recursive: true, force: true });
});

describe('robots-wasm check', () => {
  it('one verdict per URL with the line of the deciding rule', () => {
    const r = run(['check', ROBOTS, '--agent', 'ExampleBot', URLS]);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').slice(0, 5)).toEqual([
      'allow\thttps://www.example.com/',
      'allow\thttps://www.example.com/products/shoes/running-shoe-42',
      'disallow\thttps://www.example.com/products/shoes?sort=price\t21',
      'disallow\thttps://www.example.com/cart/\t18',
      'disallow\thttps://www.example.com/cart/add?item=42\t18',
    ]);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(14);
  });

  it('--filter prints the allowed URLs; --strict exits 1 when any is disallowed; stdin works', () => {
    const urls = readFileSync(URLS, 'utf8');
    const filtered = run(['check', ROBOTS, '--agent', 'OtherBot', '--filter', '--strict', '-'], urls);
    expect(filtered.code).toBe(1);
    const robots = RobotsTxt.parse(readFileSync(ROBOTS));
    expect(filtered.stdout).toBe(urls.split('\n').filter((u) => u !== '' && robots.isAllowed(u, 'OtherBot')).map((u) => `${u}\n`).join(''));
    const piped = run(['check', ROBOTS, '--agent', 'OtherBot', '--filter'], '/a\r\n\n/cart/x\n/b');
    expect(piped).toMatchObject({ code: 0, stdout: '/a\n/b\n' });
  });

  it('--json gives the deciding rule as written', () => {
    const r = run(['check', ROBOTS, '--agent', 'SomeBot', '--json', '-'], 'https://www.example.com/a.pdf\n/search/help\n');
    expect(r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual([
      { url: 'https://www.example.com/a.pdf', allowed: false, rule: { kind: 'disallow', pattern: '/*.pdf$', line: 11 } },
      { url: '/search/help', allowed: true, rule: { kind: 'allow', pattern: '/search/help', line: 12 } },
    ]);
  });

  it('1,000,000 URLs stream through in bounded memory with the library verdicts', () => {
    const file = join(tmp, 'urls-1m.txt');
    const paths = ['/cart/x', '/products/a', '/private/b', '/search?q=1', '/x?sort=price', '/caf%C3%A9', '/café/é'];
    const lines = Array.from({ length: 1_000_000 }, (_, i) => `https://www.example.com${paths[i % paths.length]}${i}`);
    const bytes = new TextEncoder().encode(`${lines.join('\n')}\n`);
    writeFileSync(file, bytes);
    const expected = RobotsTxt.parse(readFileSync(ROBOTS)).matcher('ExampleBot').checkLines(bytes).reduce((a, b) => a + b, 0);
    const out = join(tmp, 'allowed.txt');
    const r = spawnSync(process.execPath, ['--import', RSS, CLI, 'check', ROBOTS, '--agent', 'ExampleBot', '--filter', file], {
      stdio: ['ignore', openSync(out, 'w'), 'pipe'],
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    const allowed = readFileSync(out, 'utf8').split('\n').length - 1;
    expect(allowed).toBe(expected);
    const rssKb = Number(/max-rss-kb (\d+)/.exec(r.stderr)![1]);
    // The input is 60 MB; reading it whole would show here. Node itself takes about 50 MB.
    expect(rssKb).toBeLessThan(150_000);
  });

  it('output to a file (written straight from WebAssembly memory) equals output to a pipe, block after block', () => {
    const file = join(tmp, 'urls-blocks.txt');
    const paths = ['/cart/x', '/products/a', '/private/b', '/search?q=1', '/x?sort=price', '/caf%C3%A9', '/café/é', ''];
    const lines = Array.from({ length: 60_000 }, (_, i) => (i % 97 === 0 ? '' : `https://www.example.com${paths[i % paths.length]}${i}`));
    writeFileSync(file, `${lines.join('\n')}\n`); // about 2.5 MB: ten read blocks
    for (const extra of [[], ['--filter']]) {
      const args = ['check', ROBOTS, '--agent', 'ExampleBot', ...extra, file];
      const piped = run(args);
      const out = join(tmp, 'to-file.txt');
      const r = spawnSync(process.execPath, [CLI, ...args], { stdio: ['ignore', openSync(out, 'w'), 'pipe'] });
      expect(r.status).toBe(0);
      expect(piped.stdout.length).toBeGreaterThan(1_000_000);
      expect(readFileSync(out, 'utf8')).toBe(piped.stdout);
    }
  });

  it('lines cut by the read blocks, and a line longer than a block, from a file and from stdin', () => {
    // The CLI reads 256 KiB blocks: these lines end at every offset around the block edges,
    // with CRLF, blank lines, one 600 KB line and a last line without a line end.
    const paths = ['/cart/x', '/products/a', '/search?q=1', '/caf%C3%A9', '/x?sort=price'];
    const lines: string[] = [];
    for (let i = 0; i < 12_000; i++) lines.push(`https://www.example.com${paths[i % paths.length]}/${'y'.repeat(i % 97)}`);
    lines.splice(7_000, 0, `https://www.example.com/cart/${'z'.repeat(600_000)}`, '');
    const text = lines.map((l, i) => (i % 5 === 0 ? `${l}\r\n` : `${l}\n`)).join('') + 'https://www.example.com/cart/last';
    const file = join(tmp, 'blocks.txt');
    writeFileSync(file, text);
    const robots = RobotsTxt.parse(readFileSync(ROBOTS));
    const expected = [...lines, 'https://www.example.com/cart/last'].filter((l) => l !== '').map((url) => {
      const { allowed, rule } = robots.explain(url, 'ExampleBot');
      return allowed ? `allow\t${url}` : `disallow\t${url}\t${rule!.line}`;
    });
    expect(expected.filter((l) => l.startsWith('disallow')).length).toBeGreaterThan(4_000);
    for (const r of [run(['check', ROBOTS, '--agent', 'ExampleBot', file]), run(['check', ROBOTS, '--agent', 'ExampleBot', '-'], text)]) {
      expect(r.code).toBe(0);
      expect(r.stdout.split('\n')).toEqual([...expected, '']);
    }
  });

  it('broken inputs: one line on stderr, exit 2, no stack trace', () => {
    for (const args of [
      ['check', join(tmp, 'missing.txt'), '--agent', 'x', URLS],
      ['check', ROBOTS, '--agent', 'x', join(tmp, 'missing-urls.txt')],
      ['check', ROBOTS, URLS],
      ['check', ROBOTS, '--agent', 'x', '--bogus', URLS],
      ['check', ROBOTS, '--agent', 'x', '--mode', 'strict', URLS],
      ['check', tmp, '--agent', 'x', URLS],
      ['frobnicate'],
    ]) {
      const r = run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trimEnd().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr).toMatch(/^robots-wasm: /);
    }
    expect(run(['check', ROBOTS, '--agent', 'x', '--bogus']).stderr).toBe("robots-wasm: unknown option '--bogus'\n");
  });

  it('a binary robots.txt and binary URL lines are read, not rejected', () => {
    const binary = join(tmp, 'binary.txt');
    writeFileSync(binary, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)));
    const r = run(['check', binary, '--agent', 'x', binary]);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').every((l) => l === '' || l.startsWith('allow\t'))).toBe(true);
  });

  it('a robots.txt URL that is unreachable disallows everything, and says so', async () => {
    const [gone] = await startSites(1, serve(''));
    await stopSites([gone]);
    const r = await runAsync(['check', `${gone.origin}/robots.txt`, '--agent', 'x', '--strict', URLS]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^robots-wasm: robots.txt unreachable \(connect ECONNREFUSED [\d.:]+\): everything is disallowed/);
    expect(r.stdout.split('\n').filter((l) => l.startsWith('allow')).map((l) => l.split('\t')[1])).toEqual(['https://www.example.com/robots.txt']);
  });
});

describe('robots-wasm explain, lint, tags, fetch, filter', () => {
  it('explain: verdict, rule and line, and which group applied', () => {
    const r = run(['explain', ROBOTS, '--agent', 'ExampleBot', 'https://www.example.com/private/press-kit/a.png', '/shop']);
    expect(r.stdout).toBe(
      'group: the group naming ExampleBot (line 16)\n' +
      'allow\thttps://www.example.com/private/press-kit/a.png\tallow: /private/press-kit/ (line 22)\n' +
      'allow\t/shop\tno rule matches\n',
    );
    const none = run(['explain', '-', '--agent', 'x', '/a']);
    expect(none.code).toBe(2);
    const merged = join(tmp, 'merged.txt');
    writeFileSync(merged, 'User-agent: a\nDisallow: /x\n\nUser-agent: *\nDisallow: /\n\nUser-agent: a\nAllow: /x/y\n');
    const j = run(['explain', merged, '--agent', 'a', '--json', '/x/z']);
    expect(JSON.parse(j.stdout)).toEqual({ url: '/x/z', allowed: false, rule: { kind: 'disallow', pattern: '/x', line: 2 }, group: { source: 'merged', lines: [1, 7] } });
  });

  it('lint: diagnostics with lines, JSON, exit 1 on errors', () => {
    const file = join(tmp, 'lint.txt');
    writeFileSync(file, 'Disallow: /early\nUser-agent: Googlebot/2.1\nDissallow: /x\nAllow: /x\nthis is not a rule\n');
    const human = run(['lint', file]);
    expect(human.code).toBe(1);
    expect(human.stdout).toContain(`${file}:3: warning [typo-key]`);
    const json = JSON.parse(run(['lint', file, '--json']).stdout);
    expect(json.map((d: { line: number; code: string }) => [d.line, d.code])).toEqual([
      [1, 'rule-outside-group'], [2, 'invalid-product-token'], [3, 'typo-key'], [3, 'shadowed-rule'], [5, 'unparseable'],
    ]);
    expect(run(['lint', ROBOTS]).code).toBe(0);
  });

  it('tags: headers and HTML given on the command line', () => {
    const r = run(['tags', '--agent', 'ExampleBot', '--header', 'X-Robots-Tag: examplebot: noindex', '--html', join(import.meta.dirname, '..', 'examples', 'page.html'), '--json']);
    expect(JSON.parse(r.stdout)).toMatchObject({ noindex: true, noarchive: true, nofollow: false, maxSnippet: 120, maxImagePreview: 'large' });
    expect(run(['tags', '--agent', 'x', '--header', 'no colon']).code).toBe(2);
  });

  it('tags: a fetched page', async () => {
    const [site] = await startSites(1, (_req, res) => {
      res.writeHead(200, { 'x-robots-tag': 'noarchive', 'content-type': 'text/html' }).end('<head><meta name=robots content=nofollow></head>');
    });
    const r = await runAsync(['tags', '--agent', 'x', `${site.origin}/page`, '--json']);
    expect(JSON.parse(r.stdout)).toMatchObject({ noarchive: true, nofollow: true, noindex: false });
    await stopSites([site]);
  });

  it('fetch: the access result and what the file says', async () => {
    const r = await runAsync(['fetch', sites[0].origin, '--agent', 'Bot', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      origin: sites[0].origin, status: 'ok', httpStatus: 200, redirects: 0, sitemaps: ['https://example.com/sitemap.xml'], crawlDelay: 3,
      groups: { source: 'global', lines: [1] },
    });
    const human = await runAsync(['fetch', sites[0].origin, '--agent', 'Bot']);
    expect(human.stdout).toContain('crawl-delay 3');
    expect((await runAsync(['fetch', 'ftp://x', '--agent', 'Bot'])).code).toBe(2);
  });

  it('filter: URLs on several hosts, each robots.txt fetched once, the cache kept in a file', async () => {
    for (const site of sites) site.hits.clear();
    sites[2].handler = serve('', {}, 503);
    const urls = join(tmp, 'frontier.txt');
    const lines = sites.flatMap((s) => [`${s.origin}/a`, `${s.origin}/private/b`, 'not a url', `${s.origin}/c`]);
    writeFileSync(urls, lines.join('\n'));
    const cache = join(tmp, 'cache.json');
    const first = await runAsync(['filter', '--agent', 'Bot', '--cache', cache, urls]);
    expect(first.code).toBe(0);
    expect(first.stdout.trimEnd().split('\n')).toEqual([`${sites[0].origin}/a`, `${sites[0].origin}/c`, `${sites[1].origin}/a`, `${sites[1].origin}/c`]);
    expect(sites.map((s) => s.hits.get('/robots.txt'))).toEqual([1, 1, 1]);
    expect(existsSync(cache)).toBe(true);
    const second = await runAsync(['filter', '--agent', 'Bot', '--cache', cache, urls]);
    expect(second.stdout).toBe(first.stdout);
    // Every entry came from the file: the unreachable one too, which stands for 10 minutes.
    expect(sites.map((s) => s.hits.get('/robots.txt'))).toEqual([1, 1, 1]);
    sites[2].handler = serve('User-agent: *\nDisallow: /a\n');
  });

  it('--help on every command shows an example', () => {
    for (const command of ['check', 'filter', 'explain', 'lint', 'fetch', 'tags']) {
      const r = run([command, '--help']);
      expect(r.code, command).toBe(0);
      expect(r.stdout, command).toMatch(new RegExp(`^usage: robots-wasm ${command}[\\s\\S]*\\nexample: robots-wasm ${command} `));
    }
    expect(run(['--help']).stdout).toMatch(/^usage: robots-wasm <command>/);
  });
});
