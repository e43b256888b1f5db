#!/usr/bin/env node
// Compares robots-parser 3.0.1 with robots-wasm/robots-parser over a directory of robots.txt
// files and sorts every verdict they give differently by its cause, so that docs/migrating.md
// can name each kind of change a robots-parser user meets. The URLs of a file are made from
// its own rules (scripts/corpus-check.mjs), checked for `*` and for the first agents it names.
//
//   npm run build && node scripts/migration-diff.mjs ../shared/corpus/top10k-2019 [--examples N]
//
// A cause is found by undoing it: each cause below is a change to robots-parser's inputs (or
// to robots-wasm's) that gives both the same reading of that one thing; the causes are undone
// one after another, and a verdict's cause is the first one after which both agree. A verdict
// no undoing explains is printed as `unexplained`, a kind docs/migrating.md may be missing.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { agentsFor, random, urlsForPattern } from './corpus-check.mjs';

const require = createRequire(import.meta.url);
const robotsParser = require('robots-parser');
const robotsWasm = (await import(new URL('../dist/compat/robots-parser.js', import.meta.url).href)).default;
const lib = await import(new URL('../dist/index.js', import.meta.url).href);

/** Rule patterns read from a file's lines, as robots-parser splits them (its key and value, trimmed, comment dropped). */
function rulePatterns(body) {
  const patterns = [];
  for (const line of body.split(/\r\n|\r|\n/)) {
    const [key, value] = splitLine(line);
    if (value !== undefined && /^(dis)?allow$/i.test(key)) patterns.push(value);
  }
  return patterns;
}

/** A line's key and value as robots-parser reads them: split at the first ':' after dropping the comment, trimmed. */
function splitLine(line) {
  const text = line.split('#', 1)[0];
  const colon = text.indexOf(':');
  return colon < 0 ? [text.trim(), undefined] : [text.slice(0, colon).trim(), text.slice(colon + 1).trim()];
}

/** Patterns of a large file are sampled to this many, so that robots-parser's scan of every rule per URL stays affordable. */
const MAX_PATTERNS = 400;

/** The paths checked on a file: `/`, `/robots.txt` and near hits of its own patterns. */
function pathsFor(body, seed) {
  let patterns = [...new Set(rulePatterns(body))];
  if (patterns.length > MAX_PATTERNS) {
    // Patterns with a character other than letters, digits and `/._-*$` keep their place: they are where readings differ.
    const unusual = patterns.filter((p) => /[^\w/.*$-]/.test(p));
    const plain = patterns.filter((p) => !/[^\w/.*$-]/.test(p));
    const step = Math.ceil(plain.length / MAX_PATTERNS);
    patterns = [...unusual.slice(0, MAX_PATTERNS), ...plain.filter((_, i) => i % step === 0)];
  }
  const next = random(seed);
  const paths = new Set(['/', '/robots.txt']);
  for (const pattern of patterns) for (const url of urlsForPattern(pattern, next)) if (url.startsWith('/')) paths.add(url);
  return [...paths];
}

/** Every line of `body` passed through `edit(line, number)`, line ends kept. */
function mapLines(body, edit) {
  const parts = body.split(/(\r\n|\r|\n)/);
  for (let i = 0; i < parts.length; i += 2) parts[i] = edit(parts[i], i / 2 + 1);
  return parts.join('');
}

const UNRESERVED = /%(2[dD]|2[eE]|5[fF]|7[eE]|[46][1-9a-fA-F]|[57][0-9aA]|3[0-9])/g;
const decodeUnreserved = (text) => text.replace(UNRESERVED, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16)));

/** The characters encodeURI escapes in a pattern that the URL parser leaves as they are in a path or query. */
const KEPT_BY_URL = /[[\]|^\\{}`]/g;

/**
 * The causes, each a bullet of docs/migrating.md, in the order they are undone. Each changes robots-parser's body (`rp`), URL
 * (`url`) or agent (`ua`), or robots-wasm's body (`rw`), given the file's robots-wasm lint
 * diagnostics where it needs them. `test` instead marks a verdict that only this cause explains.
 */
const CAUSES = [
  { name: 'robots-txt', test: (url) => decodeUnreserved(new URL(url).pathname) === '/robots.txt' },
  {
    name: 'request-target',
    // robots-wasm also checks the URL as clients send it: the URL as Node's URL gives it is one reading only.
    rwUrl: (url) => {
      const parsed = new URL(url);
      parsed.hash = '';
      return parsed.href.replace(/\?$/, '');
    },
  },
  { name: 'percent-unreserved', rp: (body) => decodeUnreserved(body), url: decodeUnreserved },
  {
    name: 'unicode-whitespace',
    rw: (body) =>
      mapLines(body, (line) => {
        const hash = line.indexOf('#');
        const text = hash < 0 ? line : line.slice(0, hash);
        const colon = text.indexOf(':');
        if (colon < 0) return line;
        return `${text.slice(0, colon).trim()}: ${text.slice(colon + 1).trim()}${hash < 0 ? '' : ` ${line.slice(hash)}`}`;
      }),
  },
  {
    name: 'encodeURI-escapes',
    url: (url) => {
      const at = url.indexOf('/', url.indexOf('//') + 2);
      return url.slice(0, at) + url.slice(at).replace(KEPT_BY_URL, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    },
  },
  { name: 'dollar-escape', url: (url) => url.replace(/%24/gi, '$') },
  { name: 'lone-percent', rp: (body) => mapLines(body, (line) => (/^\s*(dis)?allow\s*:/i.test(line) ? line.replace(/%(?![0-9a-fA-F]{2})/g, '%25') : line)) },
  {
    name: 'product-token',
    rp: (body) =>
      mapLines(body, (line) => {
        const [key, value] = splitLine(line);
        return value !== undefined && key.toLowerCase() === 'user-agent' ? `User-agent: ${value === '*' ? '*' : lib.productToken(value)}` : line;
      }),
    ua: (ua) => (ua === '*' ? '*' : lib.productToken(ua)),
  },
  { name: 'lenient-keys', rp: (body, diagnostics) => lenientKeys(body, diagnostics) },
  { name: 'interleaved-group', rp: (body) => withoutInterleaving(body) },
  { name: 'empty-group', rp: (body) => `${body}\nAllow:` },
  { name: 'parse-limit', rp: (body) => parsedPart(body) },
];

/**
 * `body` with the keys robots-wasm reads leniently (a misspelling, a missing colon) written as
 * it reads them: the lines are the linter's, and a misspelling's directive is the one its message names.
 */
function lenientKeys(body, diagnostics) {
  const fixes = new Map();
  for (const d of diagnostics) {
    if (d.code === 'typo-key') fixes.set(d.line, (line) => line.replace(/^(\s*)[^:]*/, `$1${/write "([^"]+)"/.exec(d.message)[1]}`));
    if (d.code === 'missing-colon') fixes.set(d.line, (line) => line.replace(/^(\s*[^\s:]+)\s*/, '$1: '));
  }
  return mapLines(body, (line, n) => (fixes.has(n) ? fixes.get(n)(line) : line));
}

/** The part of `body` robots-wasm parses: the lines that end within the parse limit. */
function parsedPart(body) {
  const bytes = new TextEncoder().encode(body);
  if (bytes.length <= lib.DEFAULT_MAX_BYTES) return body;
  const end = bytes.subarray(0, lib.DEFAULT_MAX_BYTES).lastIndexOf(0x0a);
  return new TextDecoder().decode(bytes.subarray(0, end + 1));
}

/** `body` without the other lines (a Crawl-delay, a Sitemap) between user-agent lines, which robots-parser takes as group ends. */
function withoutInterleaving(body) {
  const lines = body.split(/\r\n|\r|\n/).map((line) => splitLine(line)[0].toLowerCase());
  const drop = new Set();
  let pending = [];
  let inAgents = false;
  lines.forEach((key, i) => {
    if (key === 'user-agent') {
      if (inAgents) for (const j of pending) drop.add(j);
      inAgents = true;
      pending = [];
    } else if (key === 'allow' || key === 'disallow') {
      inAgents = false;
    } else if (key !== '' && inAgents) {
      pending.push(i);
    }
  });
  return mapLines(body, (line, n) => (drop.has(n - 1) ? '' : line));
}

/** The stages of a file: after undoing causes 0..k, each side's robot, built when first asked for. */
class Stages {
  #stages = [];

  constructor(origin, body) {
    this.origin = origin;
    this.body = body;
    this.diagnostics = lib.lintRobotsTxt(body);
  }

  /** The inputs after undoing the first `k` causes (of CAUSES). */
  at(k) {
    while (this.#stages.length <= k) {
      const i = this.#stages.length;
      const prev = this.#stages[i - 1] ?? { rp: this.body, rw: this.body, url: (u) => u, rwUrl: (u) => u, ua: (a) => a };
      const cause = CAUSES[i - 1];
      const stage = i === 0 ? prev : { ...prev };
      if (cause?.rp) stage.rp = cause.rp(prev.rp, this.diagnostics);
      if (cause?.rw) stage.rw = cause.rw(prev.rw);
      if (cause?.url) stage.url = (u) => cause.url(prev.url(u));
      if (cause?.rwUrl) stage.rwUrl = (u) => cause.rwUrl(prev.rwUrl(u));
      if (cause?.ua) stage.ua = (a) => cause.ua(prev.ua(a));
      // A body no cause changed keeps its parse.
      stage.rpRobot = i > 0 && stage.rp === prev.rp ? prev.rpRobot : robotsParser(`${this.origin}/robots.txt`, stage.rp);
      stage.rwRobot = i > 0 && stage.rw === prev.rw ? prev.rwRobot : robotsWasm(`${this.origin}/robots.txt`, stage.rw);
      this.#stages.push(stage);
    }
    return this.#stages[k];
  }

  /** The first cause after whose undoing both verdicts agree, or `unexplained`. */
  cause(url, ua) {
    for (let k = 1; k <= CAUSES.length; k++) {
      const cause = CAUSES[k - 1];
      if (cause.test) {
        if (cause.test(url)) return cause.name;
        continue;
      }
      const s = this.at(k);
      const rp = s.rpRobot.isAllowed(s.url(url), s.ua(ua));
      const rw = s.rwRobot.isAllowed(s.rwUrl(url), ua);
      if (rp === rw) return cause.name;
    }
    return 'unexplained';
  }
}

function main() {
  const dir = process.argv[2];
  const examplesArg = process.argv.indexOf('--examples');
  const perClass = examplesArg > 0 ? Number(process.argv[examplesArg + 1]) : 3;
  if (!dir) {
    console.error('usage: node scripts/migration-diff.mjs <directory of robots.txt files> [--examples N]');
    process.exit(2);
  }
  const names = readdirSync(dir).filter((name) => statSync(join(dir, name)).isFile()).sort();
  const totals = { checked: 0, differing: 0, classes: new Map(), sitemapClasses: new Map(), perClass };
  for (const [index, name] of names.entries()) compareFile(dir, name, index + 1, totals);
  console.log(`${names.length} files, ${totals.checked} verdicts (URL x agent), ${totals.differing} differ`);
  printClasses(totals.classes, 'verdicts');
  console.log(`\nSitemap lists that differ: ${[...totals.sitemapClasses.values()].reduce((n, e) => n + e.count, 0)} files`);
  printClasses(totals.sitemapClasses, 'files');
  // An unexplained change is a kind docs/migrating.md may lack: the run fails on it.
  process.exit(totals.classes.has('unexplained') || totals.sitemapClasses.has('unexplained') ? 1 : 0);
}

/** Compares one file's verdicts (for `*` and its first agents) and Sitemap lists, adding to `totals`. */
function compareFile(dir, name, seed, totals) {
  // Decoded as fetch's text() decodes a response: UTF-8, a BOM dropped.
  const body = new TextDecoder().decode(readFileSync(join(dir, name)));
  const origin = `https://${name.replace(/_443$/, '')}`;
  const parsed = lib.RobotsTxt.parse(body);
  const agents = ['*', ...agentsFor(parsed, 3).slice(0, -1)];
  parsed.dispose();
  const rp = robotsParser(`${origin}/robots.txt`, body);
  const rw = robotsWasm(`${origin}/robots.txt`, body);
  const sitemapCause = sitemapChange(rp, rw, origin, body);
  if (sitemapCause !== undefined) tally(totals.sitemapClasses, sitemapCause, name, totals.perClass, () => `${name}  robots-parser: ${JSON.stringify(rp.getSitemaps())}, robots-wasm: ${JSON.stringify(rw.getSitemaps())}`);
  let stages;
  for (const path of pathsFor(body, seed)) {
    const url = origin + path;
    for (const ua of agents) {
      totals.checked++;
      const before = rp.isAllowed(url, ua);
      const after = rw.isAllowed(url, ua);
      if (before === after) continue;
      totals.differing++;
      stages ??= new Stages(origin, body);
      const verdict = (robot, allowed) => `${allowed ? 'allow' : 'disallow'} (line ${robot.getMatchingLineNumber(url, ua)})`;
      tally(totals.classes, stages.cause(url, ua), name, totals.perClass, () => `${name}  ua=${ua}  ${url}  robots-parser: ${verdict(rp, before)}, robots-wasm: ${verdict(rw, after)}`);
    }
  }
}

/** Counts one change of class `cause` in file `name`, keeping the first `perClass` files' examples. */
function tally(classes, cause, name, perClass, example) {
  const entry = classes.get(cause) ?? { count: 0, files: new Set(), examples: [] };
  classes.set(cause, entry);
  entry.count++;
  if (!entry.files.has(name) && entry.examples.length < perClass) entry.examples.push(example());
  entry.files.add(name);
}

function printClasses(classes, unit) {
  for (const [cause, entry] of [...classes].sort((a, b) => b[1].count - a[1].count)) {
    console.log(`\n${cause}: ${entry.count} ${unit}${unit === 'files' ? '' : ` in ${entry.files.size} files`}`);
    for (const example of entry.examples) console.log(`  ${example}`);
  }
}

const isAbsolute = (url) => URL.canParse(url);

/**
 * Why the two give different Sitemap lists, or undefined when they do not: robots-wasm keeps
 * absolute URLs, each once (`absolute-once`); a Unicode space robots-parser trims is part of
 * robots-wasm's value (`unicode-whitespace`).
 */
function sitemapChange(rp, rw, origin, body) {
  const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
  const before = rp.getSitemaps();
  const after = rw.getSitemaps();
  if (same(before, after)) return undefined;
  const expected = [...new Set(before.filter(isAbsolute))];
  if (same(expected, after)) return 'absolute-once';
  const trimmed = robotsWasm(`${origin}/robots.txt`, CAUSES.find((c) => c.name === 'unicode-whitespace').rw(body)).getSitemaps();
  return same(expected, trimmed) ? 'unicode-whitespace' : 'unexplained';
}

main();
