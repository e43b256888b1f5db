// The built CLI (dist/cli/main.js, which `npm test` builds first) run as a child process:
// output and exit codes of every command, stdin, a 1M-line file in bounded memory, broken
// inputs, and commands that fetch from real servers on 127.0.0.1.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, watch, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RobotsTxt } from '../dist/index.js';
import { headerLine, recordLine } from '../dist/cli/cache-records.js';
import { refusedOrigin, serve, startSites, stopSites, type Site } from './support/servers.js';

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
function runAsync(args: string[], options: { stdout?: number; command?: string[] } = {}): Promise<{ code: number | null; stdout: string; bytes: Buffer; stderr: string }> {
  const [command, ...prefix] = options.command ?? [process.execPath];
  return new Promise((done) => {
    const child = spawn(command, [...prefix, CLI, ...args], { stdio: ['ignore', options.stdout ?? 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => chunks.push(d));
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('close', (code) => done({ code, stdout: Buffer.concat(chunks).toString(), bytes: Buffer.concat(chunks), stderr }));
  });
}

/** A CLI child whose stdin the test writes while it watches the output. */
function start(args: string[]) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [CLI, ...args]);
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.on('close', (code, signal) => done({ code, signal })));
  return { child, out: () => out, err: () => err, exit };
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Waits until `check()` holds; fails after `ms`. */
async function until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  for (const deadline = Date.now() + ms; !check(); await sleep(20)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
  }
}

/** A file of URL lines in a fresh directory, and a cache path next to it. */
function frontier(lines: string[]): { dir: string; urls: string; cache: string } {
  const dir = mkdtempSync(join(tmp, 'filter-'));
  const urls = join(dir, 'urls.txt');
  writeFileSync(urls, lines.map((l) => `${l}\n`).join(''));
  return { dir, urls, cache: join(dir, 'cache.json') };
}

/** The origins a cache file holds (a header line, then a checksum and a JSON record a line), sorted. */
function cachedOrigins(cache: string): string[] {
  const [header, ...lines] = readFileSync(cache, 'utf8').trimEnd().split('\n');
  expect(header).toMatch(/^robots-wasm-cache 2 [0-9]+ [0-9a-f]{32}$/);
  return lines.map((line) => JSON.parse(line.slice(9)).origin).sort();
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
    const gone = { origin: await refusedOrigin() };
    const r = await runAsync(['check', `${gone.origin}/robots.txt`, '--agent', 'x', '--strict', URLS]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^robots-wasm: ${gone.origin}: robots.txt unreachable \\(connect ECONNREFUSED [\\d.:]+\\): everything is disallowed\n$`));
    expect(r.stdout.split('\n').filter((l) => l.startsWith('allow')).map((l) => l.split('\t')[1])).toEqual(['https://www.example.com/robots.txt']);
  });
});

describe('robots-wasm check: lines are never split, output lines are input lines', () => {
  // The documented limit (README, Limits): a line of up to 8 MiB, not counting its line end.
  const MAX_LINE = 8 * 1024 * 1024;
  const longUrl = (bytes: number) => {
    const head = 'https://www.example.com/cart/';
    return head + 'x'.repeat(bytes - head.length);
  };

  it('a line over the limit gets one error line in its place and exit 1; a line at the limit is checked', () => {
    const atLimit = longUrl(MAX_LINE);
    const over = longUrl(MAX_LINE + 1);
    // CRLF: the CR is part of the line end, so this line is at the limit too.
    const lines = ['https://www.example.com/a', atLimit, over, `${atLimit}\r`, 'https://www.example.com/b'];
    const text = `${lines.join('\n')}\n`;
    const file = join(tmp, 'long-lines.txt');
    writeFileSync(file, text);
    const offset = 'https://www.example.com/a\n'.length + atLimit.length + 1;
    const error = `the line at byte ${offset} is ${MAX_LINE + 1} bytes long, more than ${MAX_LINE}: not checked`;
    for (const input of [file, '-']) {
      const r = run(['check', ROBOTS, '--agent', 'ExampleBot', input], input === '-' ? text : undefined);
      expect(r.code, input).toBe(1);
      expect(r.stdout.split('\n'), input).toEqual([
        'allow\thttps://www.example.com/a', `disallow\t${atLimit}\t18`, `error\t${error}`, `disallow\t${atLimit}\t18`, 'allow\thttps://www.example.com/b', '',
      ]);
      expect(r.stderr, input).toBe('');
    }
    const json = run(['check', ROBOTS, '--agent', 'ExampleBot', '--json', file]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout.split('\n')[2])).toEqual({ url: null, allowed: false, rule: null, error });
    const filtered = run(['check', ROBOTS, '--agent', 'ExampleBot', '--filter', file]);
    expect(filtered).toMatchObject({ code: 1, stdout: 'https://www.example.com/a\nhttps://www.example.com/b\n', stderr: `robots-wasm: ${error}\n` });
  });

  it('a line longer than the old 64 MiB read chunk is not split into a URL that was never in the input', () => {
    // Before, the first 64 MiB were checked as one URL and the rest as another: this line's
    // tail is an allowed URL that --filter printed.
    const line = longUrl(64 * 1024 * 1024) + 'https://www.example.com/never-in-the-input';
    const file = join(tmp, 'huge-line.txt');
    writeFileSync(file, `https://www.example.com/a\n${line}\nhttps://www.example.com/b`);
    const r = run(['check', ROBOTS, '--agent', 'ExampleBot', '--filter', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('https://www.example.com/a\nhttps://www.example.com/b\n');
    expect(r.stderr).toBe(`robots-wasm: the line at byte 26 is ${line.length} bytes long, more than ${MAX_LINE}: not checked\n`);
    rmSync(file);
  });
});

describe('every command: one line on failure, never a stack trace', () => {
  it('a full disk as stdout (/dev/full): "cannot write the output", exit 1', async () => {
    const full = openSync('/dev/full', 'w');
    const urls = join(tmp, 'full-frontier.txt');
    writeFileSync(urls, `${sites[0].origin}/a\n${sites[0].origin}/b\n`);
    const cases = [
      ['check', ROBOTS, '--agent', 'x', URLS], ['check', ROBOTS, '--agent', 'x', '--json', URLS], ['check', ROBOTS, '--agent', 'x', '--filter', URLS],
      ['lint', ROBOTS], ['lint', ROBOTS, '--json'], ['explain', ROBOTS, '--agent', 'x', '/a'], ['tags', '--agent', 'x', '--header', 'X-Robots-Tag: noindex'],
      ['fetch', sites[0].origin, '--agent', 'x'], ['filter', '--agent', 'x', urls], ['--help'], ['--version'],
    ];
    for (const args of cases) {
      const r = await runAsync(args, { stdout: full });
      expect(r.stderr, args.join(' ')).toBe('robots-wasm: cannot write the output: no space left on device (ENOSPC)\n');
      expect(r.code, args.join(' ')).toBe(1);
    }
  });

  it('the error prefix is printed once, and a bad URL argument is a usage error', async () => {
    for (const args of [['check', 'http://[::1', '--agent', 'x', URLS], ['explain', 'https://exa mple.com/robots.txt', '--agent', 'x', '/a'], ['lint', 'http://[::1']]) {
      const r = await runAsync(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/^robots-wasm: not an absolute http\(s\) URL: "[^"]*"\n$/);
    }
  });

  it('--version prints the package version', () => {
    const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8'));
    expect(run(['--version'])).toMatchObject({ code: 0, stdout: `robots-wasm ${version}\n`, stderr: '' });
  });

  it('--timeout takes 1 to 2^31-1 ms and --agent must not be empty; anything else is a usage error', async () => {
    for (const timeout of ['0', '-1', '2147483648', '99999999999', '1.5', 'abc', '']) {
      for (const args of [['filter', '--agent', 'x', `--timeout=${timeout}`, URLS], ['fetch', sites[0].origin, '--agent', 'x', `--timeout=${timeout}`]]) {
        const r = await runAsync(args);
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stderr, args.join(' ')).toBe(`robots-wasm: --timeout must be an integer from 1 to 2147483647, got ${timeout}\n`);
      }
    }
    expect((await runAsync(['fetch', sites[0].origin, '--agent', 'x', '--timeout', '2147483647'])).code).toBe(0);
    for (const args of [
      ['check', ROBOTS, '--agent', '', URLS], ['check', ROBOTS, '--agent', ' ', URLS], ['filter', '--agent', '', URLS], ['explain', ROBOTS, '--agent', '', '/a'],
      ['fetch', sites[0].origin, '--agent', ''], ['tags', '--agent', '', '--header', 'X-Robots-Tag: noindex'],
    ]) {
      expect(await runAsync(args), args.join(' ')).toMatchObject({ code: 2, stdout: '', stderr: 'robots-wasm: --agent must not be empty\n' });
    }
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
    expect(JSON.parse(j.stdout)).toEqual({
      url: '/x/z', allowed: false, rule: { kind: 'disallow', pattern: '/x', line: 2 }, contentUsage: { usage: {}, rules: [] }, contentSignal: {},
      group: { source: 'merged', lines: [1, 7] },
    });
  });

  it('explain: a URL that clients send differently names the request-target that decided', () => {
    const file = join(tmp, 'readings.txt');
    writeFileSync(file, 'User-agent: *\nDisallow: /search?\nDisallow: /private/\n');
    const r = run(['explain', file, '--agent', 'a', 'https://h/search?', 'https://h/private/%2e%2e/public', 'https://h/a/../b']);
    expect(r.stdout.split('\n').slice(1)).toEqual([
      'disallow\thttps://h/search?\tdisallow: /search? (line 2)\t(undici reading: /search?)',
      'disallow\thttps://h/private/%2e%2e/public\tdisallow: /private/ (line 3)\t(curl reading: /private/../public)',
      'allow\thttps://h/a/../b\tno rule matches\t(whatwg reading: /b)',
      '',
    ]);
    const j = run(['explain', file, '--agent', 'a', '--json', 'https://h/search?']);
    expect(JSON.parse(j.stdout).reading).toEqual({ client: 'undici', path: '/search?' });
  });

  it('explain: the Content-Signal of the group, and under each allowed URL its Content-Usage preferences and rules', () => {
    const file = join(tmp, 'usage.txt');
    writeFileSync(file, 'User-Agent: *\nContent-Signal: search=yes, ai-train=no\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\nContent-Usage: /ai-ok/ search=n\n');
    const r = run(['explain', file, '--agent', 'ExampleBot', '/page', '/never/x', '/ai-ok/x']);
    expect(r.stdout).toBe(
      'group: no group names ExampleBot: the * group (line 1)\n' +
      'content-signal: search=yes, ai-train=no\n' +
      'allow\t/page\tno rule matches\n' +
      '\tcontent-usage: train-ai=n\ttrain-ai=n (line 4)\n' +
      'disallow\t/never/x\tdisallow: /never/ (line 3)\n' +
      'allow\t/ai-ok/x\tno rule matches\n' +
      '\tcontent-usage: train-ai=y, search=n\t/ai-ok/ train-ai=y (line 5); /ai-ok/ search=n (line 6)\n',
    );
    const j = JSON.parse(run(['explain', file, '--agent', 'ExampleBot', '--json', '/ai-ok/x']).stdout);
    expect(j.contentUsage).toEqual({ usage: { 'train-ai': 'y', search: 'n' }, rules: [{ line: 5, path: '/ai-ok/', value: 'train-ai=y' }, { line: 6, path: '/ai-ok/', value: 'search=n' }] });
    expect(j.contentSignal).toEqual({ search: 'yes', 'ai-train': 'no' });
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

  it('lint: what robots-parser read otherwise, a line between user-agent lines and a Unicode space', () => {
    const file = join(tmp, 'lint-migrating.txt');
    writeFileSync(file, 'User-agent: a\nCrawl-delay: 1\nUser-agent: *\nDisallow: /members\u2002\n');
    const human = run(['lint', file]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(`${file}:2: warning [interleaved-group] this line does not end the group of line 1`);
    expect(human.stdout).toContain(`${file}:4: warning [unicode-space] the value ends with U+2002`);
    expect(run(['lint', '--help']).stdout).toContain('(interleaved-group)');
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

// A Crawl-delay or Sitemap line between user-agent lines makes them one group under RFC 9309
// (bitbucket.org's pattern), which the author may not have meant: explain and fetch say so
// where the verdict's rule or the pacing comes from such a group.
describe('robots-wasm explain and fetch: groups with lines between their user-agent lines', () => {
  const BITBUCKET = 'User-agent: a\nCrawl-delay: 1\nUser-agent: *\nDisallow: /\n\nUser-agent: c\nDisallow: /c\n';

  it('explain notes the group of the deciding rule, and nothing for another group or no rule', () => {
    const file = join(tmp, 'interleaved.txt');
    writeFileSync(file, BITBUCKET);
    expect(run(['explain', file, '--agent', 'b', '/x']).stdout).toBe(
      'group: no group names b: the * group (line 1)\n' +
      'disallow\t/x\tdisallow: / (line 4)\n' +
      '\tnote: the rule comes from the group at line 1, whose user-agent lines have line 2 between them: under RFC 9309 all its agents share it\n',
    );
    expect(JSON.parse(run(['explain', file, '--agent', 'a', '--json', '/x']).stdout).interleaving).toEqual({ group: 1, lines: [2] });
    const other = run(['explain', file, '--agent', 'c', '/c/1', '/d']);
    expect(other.stdout).toBe('group: the group naming c (line 6)\ndisallow\t/c/1\tdisallow: /c (line 7)\nallow\t/d\tno rule matches\n');
    expect(JSON.parse(run(['explain', file, '--agent', 'c', '--json', '/c/1']).stdout).interleaving).toBe(undefined);
  });

  it('explain notes the interleaved group of the agent when no rule matches: it kept the agent from the * groups', () => {
    // A real file's shape: Googlebot shares the first * group, so the later one's rule is not its.
    const file = join(tmp, 'interleaved-no-rule.txt');
    writeFileSync(file, 'User-agent: Googlebot\nNoindex: /x\nUser-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /craft/\n');
    expect(run(['explain', file, '--agent', 'Googlebot', '/craft/']).stdout).toBe(
      'group: the group naming Googlebot (line 1)\n' +
      'allow\t/craft/\tno rule matches\n' +
      '\tnote: the verdict comes from the group at line 1, whose user-agent lines have line 2 between them: under RFC 9309 all its agents share it\n',
    );
    expect(JSON.parse(run(['explain', file, '--agent', 'Googlebot', '--json', '/craft/']).stdout).interleaving).toEqual({ group: 1, lines: [2] });
    expect(JSON.parse(run(['explain', file, '--agent', 'Googlebot', '--json', '/a']).stdout).interleaving).toEqual({ group: 1, lines: [2] });
  });

  it("explain follows each mode's groups: a Content-Usage line is a rule in rfc mode, another record in google mode", () => {
    const file = join(tmp, 'usage-between.txt');
    writeFileSync(file, 'User-agent: a\nContent-Usage: train-ai=n\nUser-agent: b\nDisallow: /x\n');
    expect(JSON.parse(run(['explain', file, '--agent', 'b', '--json', '/x']).stdout).interleaving).toBe(undefined);
    expect(JSON.parse(run(['explain', file, '--agent', 'b', '--mode', 'google', '--json', '/x']).stdout).interleaving).toEqual({ group: 1, lines: [2] });
  });

  /** fetch's pacing lines (and the line after them) for `agent`, and the pacing of its JSON. */
  async function fetchedPacing(origin: string, agent: string): Promise<{ lines: string[]; json: unknown[] }> {
    const human = await runAsync(['fetch', origin, '--agent', agent]);
    const json = JSON.parse((await runAsync(['fetch', origin, '--agent', agent, '--json'])).stdout);
    return { lines: human.stdout.split('\n').slice(5, 10), json: [json.pacing, json.pacingInterleaving] };
  }

  it('fetch prints the pacing the file asks of the agent, and notes a pacing from such a group', async () => {
    const [site] = await startSites(1, serve(`${BITBUCKET}\nUser-agent: d\nRequest-rate: 1/5s 0600-0845\nVisit-time: 2300-0300\nDisallow: /d\n`));
    expect(await fetchedPacing(site.origin, 'b')).toEqual({
      lines: [
        '  crawl-delay 1',
        '  request-rate none',
        '  visit-time  none',
        '  delay       1000 ms between requests',
        '  note        the pacing comes from the group at line 1, whose user-agent lines have line 2 between them: under RFC 9309 all its agents share it',
      ],
      json: [{ crawlDelayMs: 1000, requestRate: null, visitTime: null, delayMs: 1000 }, { group: 1, lines: [2] }],
    });
    expect(await fetchedPacing(site.origin, 'd')).toEqual({
      lines: [
        '  crawl-delay none',
        '  request-rate 1 per 5000 ms 0600-0845 UTC',
        '  visit-time  2300-0300 UTC',
        '  delay       5000 ms between requests',
        '  agents      a, c, d',
      ],
      json: [{ crawlDelayMs: null, requestRate: { requests: 1, perMs: 5000, window: { start: 360, end: 525 } }, visitTime: [{ start: 1380, end: 180 }], delayMs: 5000 }, undefined],
    });
    await stopSites([site]);
  });
});

describe('robots-wasm filter and fetch: reports, order, bytes', () => {
  it('fetch exits 1 when the origin is unreachable, 0 when unavailable', async () => {
    const gone = { origin: await refusedOrigin() };
    const json = await runAsync(['fetch', gone.origin, '--agent', 'x', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'unreachable', error: `connect ECONNREFUSED ${new URL(gone.origin).host}` });
    expect((await runAsync(['fetch', gone.origin, '--agent', 'x'])).code).toBe(1);
    const [missing] = await startSites(1, serve('', {}, 404));
    expect((await runAsync(['fetch', missing.origin, '--agent', 'x'])).code).toBe(0);
    await stopSites([missing]);
  });

  it('filter and check <URL> name each unreachable or unavailable origin once on stderr, with the reason', async () => {
    const [down, missing] = await startSites(2, serve('', {}, 503));
    missing.handler = serve('', {}, 404);
    const gone = { origin: await refusedOrigin() };
    const ok = sites[0];
    ok.handler = serve('User-agent: *\nDisallow: /private\n');
    const lines = [ok, down, missing, gone, ok, down, missing, gone].flatMap((s) => [`${s.origin}/a`, `${s.origin}/private/b`]);
    const { urls } = frontier(lines);
    const r = await runAsync(['filter', '--agent', 'Bot', urls]);
    expect(r.code).toBe(0);
    const allowed = lines.filter((l) => (l.startsWith(`${ok.origin}/`) && !l.includes('/private')) || l.startsWith(`${missing.origin}/`));
    expect(r.stdout).toBe(allowed.map((l) => `${l}\n`).join(''));
    expect(r.stderr.split('\n').sort()).toEqual([
      '',
      `robots-wasm: ${down.origin}: robots.txt unreachable (HTTP 503): everything is disallowed`,
      `robots-wasm: ${gone.origin}: robots.txt unreachable (connect ECONNREFUSED ${new URL(gone.origin).host}): everything is disallowed`,
      `robots-wasm: ${missing.origin}: robots.txt unavailable (HTTP 404): everything is allowed`,
    ].sort());
    const check = await runAsync(['check', `${missing.origin}/robots.txt`, '--agent', 'Bot', URLS]);
    expect(check.code).toBe(0);
    expect(check.stderr).toBe(`robots-wasm: ${missing.origin}: robots.txt unavailable (HTTP 404): everything is allowed\n`);
    await stopSites([down, missing]);
  });

  it('filter writes each decided line as it goes, not at the end', async () => {
    const r = start(['filter', '--agent', 'Bot', '-']);
    r.child.stdin.write(`${sites[0].origin}/first\n`);
    await until('the first verdict is written while stdin is open', () => r.out() === `${sites[0].origin}/first\n`, 5000);
    r.child.stdin.write(`${sites[1].origin}/private/x\n${sites[1].origin}/second\n`);
    await until('the second verdict is written', () => r.out() === `${sites[0].origin}/first\n${sites[1].origin}/second\n`, 5000);
    r.child.stdin.end();
    expect((await r.exit).code).toBe(0);
  });

  it('filter writes allowed lines byte for byte and never splits a line; a line over the limit is reported', async () => {
    const o = sites[0].origin;
    sites[0].handler = serve('User-agent: *\nDisallow: /private\n');
    const long = `${o}/${'x'.repeat(8 * 1024 * 1024)}${o}/tail`;
    const input = Buffer.concat([
      Buffer.from(`${o}/caf`), Buffer.from([0xe9]), Buffer.from(`\r\n${o}/private/x\n\nnot a url\n${long}\n${o}/`), Buffer.from([0xff, 0xfe]), Buffer.from(`/b`),
    ]);
    const { urls } = frontier([]);
    writeFileSync(urls, input);
    const r = await runAsync(['filter', '--agent', 'Bot', urls]);
    expect(r.code).toBe(1);
    expect(r.bytes.equals(Buffer.concat([Buffer.from(`${o}/caf`), Buffer.from([0xe9]), Buffer.from(`\n${o}/`), Buffer.from([0xff, 0xfe]), Buffer.from('/b\n')]))).toBe(true);
    const at = `${o}/caf\xe9\r\n${o}/private/x\n\nnot a url\n`.length;
    expect(r.stderr).toBe([
      `robots-wasm: the line at byte ${at} is ${long.length} bytes long, more than ${8 * 1024 * 1024}: not checked\n`,
      'robots-wasm: 1 line skipped (not an absolute http(s) URL), first at line 4: "not a url"\n',
    ].join(''));
  });

  it('filter counts the lines that are no absolute http(s) URL on stderr; --strict exits 1 after printing the allowed ones', async () => {
    const o = sites[0].origin;
    sites[0].handler = serve('User-agent: *\nDisallow: /private\n');
    const { urls, cache } = frontier([`${o}/a`, 'not a url', 'http://[::1', '', 'ftp://example.com/x', '/relative', `${o}/private/x`, `${o}/b`]);
    const said = 'robots-wasm: 4 lines skipped (not absolute http(s) URLs), first at line 2: "not a url"\n';
    const expected = { stdout: `${o}/a\n${o}/b\n`, stderr: said };
    expect(await runAsync(['filter', '--agent', 'Bot', urls])).toMatchObject({ code: 0, ...expected });
    expect(await runAsync(['filter', '--agent', 'Bot', '--strict', urls])).toMatchObject({ code: 1, ...expected });
    expect(await runAsync(['filter', '--agent', 'Bot', '--strict', '--cache', cache, urls])).toMatchObject({ code: 1, ...expected });
    expect(await runAsync(['filter', '--agent', 'Bot', '--strict=yes', urls])).toMatchObject({ code: 2, stdout: '' });
    const clean = frontier([`${o}/a`, '', `${o}/private/x`]);
    expect(await runAsync(['filter', '--agent', 'Bot', '--strict', clean.urls])).toMatchObject({ code: 0, stdout: `${o}/a\n`, stderr: '' });
    const odd = `say "hi"\t${'y'.repeat(300)}`;
    const quoted = frontier([`${o}/a`, odd]);
    expect(await runAsync(['filter', '--agent', 'Bot', quoted.urls])).toMatchObject({
      code: 0, stderr: `robots-wasm: 1 line skipped (not an absolute http(s) URL), first at line 2: ${JSON.stringify(`${odd.slice(0, 200)}...`)}\n`,
    });
  });

  // script(1) (util-linux, in every Debian install) gives the CLI a terminal.
  it('on a terminal, filter clears its progress line before a message about an origin, then draws it again', async () => {
    const slow = (await startSites(1, (_req, res) => setTimeout(() => res.writeHead(503).end(), 1500)))[0];
    const o = sites[0].origin;
    sites[0].handler = serve('User-agent: *\nDisallow: /private\n');
    // Over 8 MiB, the least input that shows progress; the slow origin halfway, once progress is drawn.
    const lines = Array.from({ length: 300_000 }, (_, i) => `${o}/page/${i}`);
    lines.splice(150_000, 0, `${slow.origin}/a`);
    const { urls, dir } = frontier(lines);
    expect(statSync(urls).size).toBeGreaterThan(8 << 20);
    // stderr on the terminal, stdout to a file.
    const command = `'${process.execPath}' '${CLI}' filter --agent Bot '${urls}' > '${join(dir, 'out')}'`;
    const child = spawn('script', ['-qefc', command, '/dev/null'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let tty = '';
    child.stdout.on('data', (d) => (tty += d));
    const code = await new Promise((done) => child.on('close', done));
    await stopSites([slow]);
    expect(code).toBe(0);
    expect(readFileSync(join(dir, 'out'), 'utf8').split('\n').length).toBe(300_001);
    const message = `robots-wasm: ${slow.origin}: robots.txt unreachable (HTTP 503): everything is disallowed`;
    expect(tty).toMatch(/\r[0-9,]+ URLs kept, [0-9]+%/);
    expect(tty).toContain(`\r\u001b[K${message}\r\n\r`);
    expect(tty.split(message)[1]).toMatch(/^\r\n\r[0-9,]+ URLs kept, [0-9]+%/);
  });

  it('help examples run from an installed copy, in its project and in any other directory', () => {
    const root = join(import.meta.dirname, '..');
    const packed = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], { cwd: root, encoding: 'utf8' });
    expect(packed.status, packed.stderr).toBe(0);
    const project = join(tmp, 'installed');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), '{"private":true}');
    const tarball = join(tmp, JSON.parse(packed.stdout)[0].filename);
    const installed = spawnSync('npm', ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', tarball], { cwd: project, encoding: 'utf8' });
    expect(installed.status, installed.stderr).toBe(0);
    const env = { ...process.env, PATH: `${join(project, 'node_modules', '.bin')}:${process.env.PATH}` };
    for (const cwd of [project, mkdtempSync(join(tmp, 'elsewhere-'))]) {
      for (const command of [[], ['check'], ['explain'], ['lint'], ['tags'], ['filter'], ['fetch']]) {
        const help = spawnSync('robots-wasm', [...command, '--help'], { cwd, env, encoding: 'utf8' });
        const example = /\nexample: (robots-wasm .*)\n$/.exec(help.stdout)![1];
        const files = example.split(' ').filter((word) => word.includes('examples/'));
        for (const file of files) expect(existsSync(resolve(cwd, file)), `${cwd}: ${example}`).toBe(true);
        // filter and fetch go to www.example.com: only their files are checked here.
        if (command[0] === 'filter' || command[0] === 'fetch') continue;
        const r = spawnSync('sh', ['-c', example], { cwd, env, encoding: 'utf8' });
        expect(r.status, `${cwd}: ${example}\n${r.stderr}`).toBe(0);
        expect(r.stdout.length).toBeGreaterThan(0);
        expect(r.stderr).toBe('');
      }
    }
  });
});

describe('robots-wasm filter --cache: a crash, a full disk or a run beside it loses nothing', () => {
  const RULES = 'User-agent: *\nDisallow: /private\n';

  it('a cache in a missing directory, or that is a directory, is a usage error before any fetch', async () => {
    sites[0].handler = serve(RULES);
    sites[0].hits.clear();
    const { urls } = frontier([`${sites[0].origin}/a`]);
    const missing = join(tmp, 'no-such-dir', 'cache.json');
    expect(await runAsync(['filter', '--agent', 'Bot', '--cache', missing, urls])).toMatchObject({
      code: 2, stdout: '', stderr: `robots-wasm: cannot write the cache ${missing} in ${join(tmp, 'no-such-dir')}: no such file or directory (ENOENT)\n`,
    });
    expect(await runAsync(['filter', '--agent', 'Bot', '--cache', tmp, urls])).toMatchObject({ code: 2, stdout: '', stderr: `robots-wasm: --cache ${tmp} is not a regular file\n` });
    expect(sites[0].hits.get('/robots.txt')).toBeUndefined();
  });

  it('a corrupt cache is reported, set aside (renamed, not deleted), and the run goes on with an empty cache', async () => {
    sites[0].handler = serve(RULES);
    const now = Date.now();
    const pwned = { status: 'pwned', origin: 'https://a.example', httpStatus: 200, finalUrl: 'https://a.example/robots.txt', redirects: 0, fetchedAt: now, expiresAt: now + 1000 };
    const contents: [string, RegExp][] = [
      ['garbage\n{', /no robots-wasm-cache header/],
      ['', /an empty file/],
      ['{"version":1,"entries":[', /JSON/],
      [JSON.stringify({ version: 1, entries: [pwned] }), /RobotsCache snapshot entries\[0\] \(https:\/\/a\.example\): status must be "ok", "unavailable" or "unreachable", got "pwned"/],
      [JSON.stringify({ version: 1, entries: [null] }), /RobotsCache snapshot entries\[0\] must be an object, got null/],
    ];
    for (const [content, why] of contents) {
      const { dir, urls, cache } = frontier([`${sites[0].origin}/a`, `${sites[0].origin}/private/b`]);
      writeFileSync(cache, content);
      const r = await runAsync(['filter', '--agent', 'Bot', '--cache', cache, urls]);
      expect(r.code, content).toBe(0);
      expect(r.stdout).toBe(`${sites[0].origin}/a\n`);
      const aside = readdirSync(dir).filter((name) => name.startsWith('cache.json.corrupt-'));
      expect(aside, content).toHaveLength(1);
      expect(readFileSync(join(dir, aside[0]), 'utf8')).toBe(content);
      const [line, ...rest] = r.stderr.split('\n');
      expect(rest).toEqual(['']);
      expect(line.startsWith(`robots-wasm: ${cache} is not a usable cache (`)).toBe(true);
      expect(line.endsWith(`): moved to ${join(dir, aside[0])}, starting with an empty cache`)).toBe(true);
      expect(line).toMatch(why);
      expect(cachedOrigins(cache)).toEqual([sites[0].origin]);
    }
  });

  it('a write that fails midway (a file size limit, like a full disk) leaves the old cache whole, says so and exits 1', async () => {
    const big = `${RULES}${'# a long comment line to make the cache file large\n'.repeat(8000)}`;
    const [large, other] = await startSites(2, serve(big));
    const { dir, urls, cache } = frontier([`${large.origin}/a`]);
    expect((await runAsync(['filter', '--agent', 'Bot', '--cache', cache, urls])).code).toBe(0);
    const before = readFileSync(cache);
    expect(before.length).toBeGreaterThan(300_000);
    writeFileSync(urls, `${other.origin}/a\n${other.origin}/private/b\n`);
    // A shell sets a 128 KiB file size limit for the run: writes past it fail (EFBIG).
    const limited = await runAsync(['filter', '--agent', 'Bot', '--cache', cache, urls], { command: ['sh', '-c', 'ulimit -f 256 && exec "$0" "$@"', process.execPath] });
    expect(limited).toMatchObject({ code: 1, stdout: `${other.origin}/a\n`, stderr: `robots-wasm: cannot write the cache ${cache}: file too large (EFBIG)\n` });
    expect(readFileSync(cache).equals(before)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['cache.json', 'urls.txt']);
    const next = await runAsync(['filter', '--agent', 'Bot', '--cache', cache, urls]);
    expect(next).toMatchObject({ code: 0, stdout: `${other.origin}/a\n`, stderr: '' });
    expect(cachedOrigins(cache)).toEqual([large.origin, other.origin].sort());
    await stopSites([large, other]);
  });

  it('/dev/full as stdout: the run fails with one line, and the cache is still written', async () => {
    sites[0].handler = serve(RULES);
    const { cache, urls } = frontier([`${sites[0].origin}/a`]);
    const r = await runAsync(['filter', '--agent', 'Bot', '--cache', cache, urls], { stdout: openSync('/dev/full', 'w') });
    expect(r).toMatchObject({ code: 1, stderr: 'robots-wasm: cannot write the output: no space left on device (ENOSPC)\n' });
    expect(cachedOrigins(cache)).toEqual([sites[0].origin]);
  });

  it('a reader that closes the pipe early (`| head`) ends the run quietly, and the cache is still written', async () => {
    sites[0].handler = serve(RULES);
    sites[1].handler = serve(RULES);
    const { cache } = frontier([]);
    for (const args of [['filter', '--agent', 'Bot', '--cache', cache, '-'], ['check', ROBOTS, '--agent', 'Bot', '-']]) {
      const r = start(args);
      r.child.stdin.write(`${sites[0].origin}/a\n`);
      await until('the first line is written', () => r.out().startsWith(args[0] === 'check' ? 'allow\t' : sites[0].origin), 5000);
      r.child.stdout.destroy();
      // Written into the closed pipe; stdin stays open, and the run ends all the same.
      r.child.stdin.write(`${sites[1].origin}/a\n`);
      expect(await r.exit, args[0]).toEqual({ code: 0, signal: null });
      expect(r.err(), args[0]).toBe('');
    }
    expect(cachedOrigins(cache)).toEqual([sites[0].origin, sites[1].origin].sort());
  });

  it('kill -9 while the cache is written: the next run finds it whole, takes over the lock and removes the temporary file', async () => {
    sites[0].handler = serve(RULES);
    const { dir, urls, cache } = frontier([`${sites[0].origin}/a`]);
    // A large cache (about 40 MB), so that writing it takes a while.
    const now = Date.now();
    const body = Buffer.from(Array.from({ length: 25_000 }, (_, i) => `Disallow: /path-${i}/x\n`).join('').slice(0, 500_000)).toString('base64');
    const entries = Array.from({ length: 60 }, (_, i) => ({
      status: 'ok', origin: `https://seed-${i}.example`, httpStatus: 200, finalUrl: `https://seed-${i}.example/robots.txt`, redirects: 0,
      fetchedAt: now, expiresAt: now + 3_600_000, body,
    }));
    const seededText = `${headerLine({ generation: 1, id: '0'.repeat(32) })}${entries.map((e) => recordLine(e)).join('')}`;
    // The kill must land while the temporary file is written: on a busy machine it may come
    // after the rename, so the scenario is tried again (every try checks the same outcome).
    let midWrite = false;
    for (let attempt = 0; attempt < 4 && !midWrite; attempt++) {
      writeFileSync(cache, seededText);
      const seeded = statSync(cache).size;
      const child = spawn(process.execPath, [CLI, 'filter', '--agent', 'Bot', '--cache', cache, urls], { stdio: 'ignore' });
      // Killed as soon as the write starts: a temporary file appears, or the cache file changes.
      const watcher = watch(dir, (_event, name) => {
        const writing = name !== null && ((name.endsWith('.tmp') && existsSync(join(dir, name))) || (name === 'cache.json' && statSync(cache).size !== seeded));
        if (writing) child.kill('SIGKILL');
      });
      const signal = await new Promise((done) => child.on('exit', (_code, s) => done(s)));
      watcher.close();
      expect(signal).toBe('SIGKILL');
      const left = readdirSync(dir);
      const origins = cachedOrigins(cache);
      expect([entries.length, entries.length + 1]).toContain(origins.length);
      const again = await runAsync(['filter', '--agent', 'Bot', '--cache', cache, urls]);
      expect(again).toMatchObject({ code: 0, stdout: `${sites[0].origin}/a\n`, stderr: '' });
      expect(readdirSync(dir).sort()).toEqual(['cache.json', 'urls.txt']);
      expect(cachedOrigins(cache)).toEqual([...entries.map((e) => e.origin), sites[0].origin].sort());
      midWrite = left.some((name) => name.endsWith('.tmp'));
      if (midWrite) expect(left).toContain('cache.json.lock');
    }
    expect(midWrite).toBe(true);
  });

  it('two runs at once keep both runs\' entries', async () => {
    const slow = await startSites(4, (req, res, site) => setTimeout(() => serve(RULES)(req, res, site), 300));
    const { cache, urls } = frontier([`${slow[0].origin}/a`, `${slow[1].origin}/a`]);
    const other = join(tmp, 'other-urls.txt');
    writeFileSync(other, `${slow[2].origin}/a\n${slow[3].origin}/a\n`);
    const [a, b] = await Promise.all([runAsync(['filter', '--agent', 'Bot', '--cache', cache, urls]), runAsync(['filter', '--agent', 'Bot', '--cache', cache, other])]);
    expect([a.code, b.code, a.stderr, b.stderr]).toEqual([0, 0, '', '']);
    expect(cachedOrigins(cache)).toEqual(slow.map((s) => s.origin).sort());
    await stopSites(slow);
  });

  it('a lock held by a live run is waited for; one left by a dead run is taken over', async () => {
    sites[0].handler = serve(RULES);
    const { cache, urls } = frontier([`${sites[0].origin}/a`]);
    const lock = `${cache}.lock`;
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), since: Date.now() }));
    const r = start(['filter', '--agent', 'Bot', '--cache', cache, urls]);
    await sleep(700);
    expect(r.child.exitCode).toBeNull();
    expect(r.out()).toBe('');
    rmSync(lock);
    expect(await r.exit).toEqual({ code: 0, signal: null });
    expect(cachedOrigins(cache)).toEqual([sites[0].origin]);
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(lock, JSON.stringify({ pid: dead, host: hostname(), since: Date.now() }));
    expect(await runAsync(['filter', '--agent', 'Bot', '--cache', cache, urls])).toMatchObject({ code: 0, stderr: '' });
    expect(existsSync(lock)).toBe(false);
  });

  it('checkpoints: the cache is written every --checkpoint ms while the run goes, so kill -9 loses at most one interval', async () => {
    sites[0].handler = serve(RULES);
    sites[0].hits.clear();
    const { cache, urls } = frontier([`${sites[0].origin}/a`]);
    const r = start(['filter', '--agent', 'Bot', '--cache', cache, '--checkpoint', '100', '-']);
    r.child.stdin.write(`${sites[0].origin}/a\n`);
    await until('a checkpoint holds the origin', () => existsSync(cache) && readFileSync(cache, 'utf8').includes(sites[0].origin), 5000);
    r.child.kill('SIGKILL');
    expect((await r.exit).signal).toBe('SIGKILL');
    const again = await runAsync(['filter', '--agent', 'Bot', '--cache', cache, urls]);
    expect(again).toMatchObject({ code: 0, stdout: `${sites[0].origin}/a\n` });
    expect(sites[0].hits.get('/robots.txt')).toBe(1);
  });

  it('SIGTERM, SIGINT: the cache is written, then the run exits with 128 + the signal', async () => {
    sites[0].handler = serve(RULES);
    for (const [signal, code] of [['SIGTERM', 143], ['SIGINT', 130]] as const) {
      const { cache } = frontier([]);
      const r = start(['filter', '--agent', 'Bot', '--cache', cache, '-']);
      r.child.stdin.write(`${sites[0].origin}/a\n`);
      await until('the verdict is written', () => r.out() === `${sites[0].origin}/a\n`, 5000);
      r.child.kill(signal);
      expect(await r.exit, signal).toEqual({ code, signal: null });
      expect(cachedOrigins(cache), signal).toEqual([sites[0].origin]);
    }
  });
});
