#!/usr/bin/env node
// npm run test:browser: the packed package, bundled for the browser the way an application
// bundles it (esbuild, platform browser, nothing external, no polyfills), gives headless
// Chromium the same answers to test/runtimes/checks.mjs as Node gives. Runs: a page that
// awaits init() first, a page that does not (synchronous compile on first use), a module
// worker, and a page under a Content-Security-Policy with 'wasm-unsafe-eval' (and one without
// it, which must be refused). Any page error or console error fails the test. A run navigates Chromium to
// the readings spellings (test/fixtures/readings) on a recorder of raw request-targets: no
// target it sends may escape the rule that names it (test/readings.test.ts does the same for
// Node's clients, curl, wget and Python).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertSameAnswers } from '../test/runtimes/compare.mjs';
import { answersFrom, installPacked } from '../test/runtimes/packed.mjs';
import { startServer } from '../test/runtimes/server.mjs';
import { startRecorder } from '../test/support/recorder.mjs';
import { RobotsTxt } from '../dist/index.js';

// playwright-core never downloads a browser itself; this keeps any tool it calls from trying.
process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1';
const CHROMIUM = '/usr/bin/chromium';
const PAGE_TIMEOUT_MS = 60_000;

/** Debian's Chromium: installed with apt-get when missing and this runs as root, else a clear failure. */
function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  if (process.getuid?.() !== 0) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium) and rerun`);
  }
  console.log(`${CHROMIUM} is missing: apt-get install -y chromium`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-q'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-q', 'chromium'], { stdio: 'inherit', env });
}

/** The page and worker bundles, made from the application folder where the package is installed. */
async function bundle(dir) {
  const { build } = await import('esbuild');
  const outdir = mkdtempSync(join(tmpdir(), 'robots-wasm-bundle-'));
  try {
    const result = await build({
      entryPoints: { page: join(dir, 'page.mjs'), worker: join(dir, 'worker.mjs') },
      absWorkingDir: dir,
      bundle: true,
      platform: 'browser',
      format: 'esm',
      outdir,
      write: false,
      logLevel: 'silent',
    });
    const files = Object.fromEntries(result.outputFiles.map((file) => [`/${file.path.slice(outdir.length + 1)}`, file.text]));
    for (const [name, text] of Object.entries(files)) {
      // A `node:` specifier left in a bundle is an import no browser can resolve.
      const nodeSpecifier = text.match(/["'`]node:[\w/]+["'`]/);
      if (nodeSpecifier) throw new Error(`${name} holds the Node specifier ${nodeSpecifier[0]}`);
    }
    return files;
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** Loads the page with `query` in a fresh context and returns its answers; page errors throw. */
async function pageAnswers(browser, origin, query) {
  const context = await browser.newContext();
  const problems = [];
  try {
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.stack ?? error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()} (${message.location().url})`);
    });
    page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`));
    await page.goto(`${origin}/${query}`, { waitUntil: 'load', timeout: PAGE_TIMEOUT_MS });
    await page.waitForFunction(() => window.robotsAnswers !== undefined, undefined, { timeout: PAGE_TIMEOUT_MS });
    const json = await page.evaluate(() => window.robotsAnswers);
    if (problems.length > 0) throw new Error(problems.join('\n'));
    return JSON.parse(json);
  } catch (error) {
    if (problems.length > 0 && !error.message.includes(problems[0])) error.message += `\n${problems.join('\n')}`;
    throw error;
  } finally {
    await context.close();
  }
}

/** A robots.txt whose one rule names exactly `target` (a latin1 string): '#' and controls escaped. */
function disallowing(target) {
  const pattern = target.replace(/[#\x00-\x20]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  return Uint8Array.from(`User-agent: *\nDisallow: ${pattern}$\n`, (c) => c.charCodeAt(0));
}

/** Navigates to each hand-written readings spelling; returns the targets that escaped their rule. */
async function chromiumEscapes(browser) {
  const { cases } = JSON.parse(readFileSync(new URL('../test/fixtures/readings/targets.json', import.meta.url), 'utf8'));
  const paths = cases.filter((c) => c.kind === 'hand' && !c.path.includes('\0')).map((c) => c.path);
  const recorder = await startRecorder(paths);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    for (const url of recorder.urls) await page.goto(url, { timeout: PAGE_TIMEOUT_MS }).catch(() => undefined);
  } finally {
    await context.close();
    await recorder.stop();
  }
  const heard = recorder.targets.filter((t) => t.length > 0).length;
  if (heard < paths.length * 0.9) throw new Error(`Chromium sent ${heard} of ${paths.length} spellings`);
  const escapes = [];
  for (const mode of ['rfc', 'google']) {
    recorder.urls.forEach((url, i) => {
      // Chromium asks each new origin for its icon as well.
      for (const target of recorder.targets[i].filter((t) => t !== '/favicon.ico')) {
        const robots = RobotsTxt.parse(disallowing(target), { mode });
        if (!robots.isAllowed(target, 'Bot') && robots.isAllowed(url, 'Bot')) escapes.push(`${mode}: ${JSON.stringify(paths[i])} sent as ${JSON.stringify(target)}`);
        robots.dispose();
      }
    });
  }
  return { heard, escapes };
}

ensureChromium();
const app = installPacked();
let passed = 0;
let failed = 0;
let browser;
let server;
try {
  const site = await startServer(await bundle(app.dir));
  server = site.server;
  const expected = await answersFrom(app.dir, process.execPath, ['answers.mjs', `--origin=${site.origin}`]);
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // No sandbox as root; no background traffic to hosts this machine cannot reach.
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const runs = [
    ['browser (init)', '?init'],
    ['browser', ''],
    ['browser worker', '?worker'],
    // What the README asks of a page with a Content-Security-Policy.
    ['browser (init) under script-src \'self\' \'wasm-unsafe-eval\'', `?init&csp=${encodeURIComponent("script-src 'self' 'wasm-unsafe-eval'")}`],
  ];
  try {
    const { heard, escapes } = await chromiumEscapes(browser);
    if (escapes.length > 0) throw new Error(escapes.slice(0, 10).join('\n'));
    console.log(`browser request-targets: ${heard} spellings sent, none escapes its rule`);
    passed++;
  } catch (error) {
    failed++;
    console.error(`browser request-targets: ${error.message}`);
  }
  for (const [name, query] of runs) {
    try {
      console.log(assertSameAnswers(name, expected, await pageAnswers(browser, site.origin, query)));
      passed++;
    } catch (error) {
      failed++;
      console.error(error.message.startsWith(name) ? error.message : `${name}: ${error.message}`);
    }
  }
  // Without 'wasm-unsafe-eval' the kernel cannot compile: the requirement the README states is real.
  try {
    const refused = await pageAnswers(browser, site.origin, `?init&csp=${encodeURIComponent("script-src 'self'")}`).then(() => undefined, (error) => error.message);
    if (refused === undefined || !/Content Security Policy/i.test(refused)) throw new Error(`expected a Content Security Policy refusal, got ${refused ?? 'answers'}`);
    console.log("browser under script-src 'self': the kernel is refused, as the README says");
    passed++;
  } catch (error) {
    failed++;
    console.error(`browser CSP: ${error.message}`);
  }
} catch (error) {
  failed++;
  console.error(`test:browser: ${error.message}`);
} finally {
  await browser?.close();
  server?.close();
  app.remove();
}
// Read by .ci/run, which adds these runs to the test totals.
console.log(`browser: ${passed} passed, ${failed} failed`);
if (failed > 0) process.exitCode = 1;
