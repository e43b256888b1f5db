#!/usr/bin/env node
// Checks a directory of robots.txt files against the library: every file parses without a
// throw, and for each agent the file names (and one it does not), checkMany, checkLines and a
// matcher reloaded with fromBytes agree with isAllowed on URLs made from the file's own
// rules, in both modes; and for the first agent, fresh matchers - which answer their first
// checks from a linear table - agree with the full table of the reloaded one.
//
//   npm run build && node scripts/corpus-check.mjs ../shared/corpus/top10k-2019
//
// The test suite runs the same checkRobotsFile() on the fixture files.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Deterministic PRNG (mulberry32), so every run checks the same URLs. */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EXTRA = ['', 'a', '/', '/x.html', '?q=1', '%2F', '%41', 'é', '$', '*', ';p', '#frag'];

/** URLs that exercise a pattern: its literal text, near misses, encodings and wildcard fillers. */
export function urlsForPattern(pattern, next) {
  const urls = [];
  let base = pattern.endsWith('$') ? pattern.slice(0, -1) : pattern;
  const fillers = ['', 'x', 'x/y.php'];
  for (const filler of fillers) {
    const text = base.split('*').join(filler);
    const path = text.startsWith('/') ? text : `/${text}`;
    urls.push(path);
    urls.push(path + EXTRA[Math.floor(next() * EXTRA.length)]);
    if (path.length > 1) urls.push(path.slice(0, -1));
    const at = Math.floor(next() * path.length);
    const c = path.charCodeAt(at);
    if (c > 0x20 && c < 0x7f) {
      urls.push(path.slice(0, at) + `%${c.toString(16).padStart(2, '0')}` + path.slice(at + 1));
      urls.push(path.slice(0, at) + path[at].toUpperCase() + path.slice(at + 1));
    }
  }
  base = base.split('*').join('');
  urls.push(`https://example.com${base.startsWith('/') ? '' : '/'}${base}`);
  return urls;
}

/** Agents to try on a parsed file: up to `limit` it names, plus one it does not. */
export function agentsFor(robots, limit = 5) {
  return [...robots.agents.filter((a) => a.length > 0).slice(0, limit), 'UnnamedTestBot'];
}

function sameVerdicts(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * A matcher's first checks, at least 160 of URLs under 64 chars, are answered by its linear
 * table (linearBudget in src/matcher.ts): verdicts for the first LINEAR_MATCHERS * LINEAR_URLS of
 * `urls` from fresh matchers, LINEAR_URLS each, linear as long as the URLs are short (each
 * parses the file again: more would cost the run most of its time).
 */
const LINEAR_URLS = 16;
const LINEAR_MATCHERS = 8;

function linearVerdicts(lib, bytes, mode, agent, urls) {
  const out = new Uint8Array(Math.min(urls.length, LINEAR_URLS * LINEAR_MATCHERS));
  for (let i = 0; i < out.length; i += LINEAR_URLS) {
    const robots = lib.RobotsTxt.parse(bytes, { mode });
    const matcher = robots.matcher(agent);
    for (let j = i; j < Math.min(i + LINEAR_URLS, out.length); j++) out[j] = matcher.isAllowed(urls[j]) ? 1 : 0;
    robots.dispose();
  }
  return out;
}

/**
 * Runs every check on one file with the given library ({ RobotsTxt, Matcher }); returns a
 * list of problems (empty when all agree) and how many verdicts were compared.
 */
export function checkRobotsFile(lib, bytes, seed = 1) {
  const problems = [];
  let verdicts = 0;
  for (const mode of ['rfc', 'google']) {
    let robots;
    try {
      robots = lib.RobotsTxt.parse(bytes, { mode });
    } catch (error) {
      problems.push(`${mode}: parse threw ${error}`);
      continue;
    }
    const next = random(seed);
    const urls = ['/', '', '/robots.txt'];
    for (const group of robots.groups) for (const rule of group.rules) urls.push(...urlsForPattern(rule.pattern, next));
    const agents = agentsFor(robots);
    for (const agent of agents) {
      const matcher = robots.matcher(agent);
      const expected = Uint8Array.from(urls, (url) => (robots.isAllowed(url, agent) ? 1 : 0));
      const many = matcher.checkMany(urls);
      const lineUrls = urls.filter((u) => !u.includes('\n') && !u.includes('\r'));
      const lines = matcher.checkLines(new TextEncoder().encode(lineUrls.join('\n')));
      const lineExpected = Uint8Array.from(lineUrls, (url) => (robots.isAllowed(url, agent) ? 1 : 0));
      const reloaded = lib.Matcher.fromBytes(matcher.toBytes());
      const fromBytes = reloaded.checkMany(urls);
      reloaded.dispose();
      if (!sameVerdicts(many, expected)) problems.push(`${mode}/${agent}: checkMany disagrees with isAllowed`);
      if (!sameVerdicts(lines, lineExpected)) problems.push(`${mode}/${agent}: checkLines disagrees with isAllowed`);
      if (!sameVerdicts(fromBytes, expected)) problems.push(`${mode}/${agent}: fromBytes disagrees with isAllowed`);
      if (agent === agents[0] && !sameVerdicts(linearVerdicts(lib, bytes, mode, agent, urls), fromBytes.subarray(0, LINEAR_URLS * LINEAR_MATCHERS))) problems.push(`${mode}/${agent}: the linear table disagrees with the full one`);
      verdicts += urls.length;
    }
    robots.dispose();
  }
  return { problems, verdicts };
}

async function main() {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node scripts/corpus-check.mjs <directory of robots.txt files>');
    process.exit(2);
  }
  const lib = await import(new URL('../dist/index.js', import.meta.url).href);
  const names = readdirSync(dir).filter((name) => statSync(join(dir, name)).isFile()).sort();
  let failed = 0;
  let verdicts = 0;
  const started = performance.now();
  for (const name of names) {
    const { problems, verdicts: n } = checkRobotsFile(lib, new Uint8Array(readFileSync(join(dir, name))));
    verdicts += n;
    if (problems.length > 0) {
      failed++;
      console.log(`${name}: ${problems.join('; ')}`);
    }
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`${names.length} files, ${verdicts} verdicts compared per path, ${failed} files with disagreements (${seconds} s)`);
  process.exit(failed === 0 ? 0 : 1);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
