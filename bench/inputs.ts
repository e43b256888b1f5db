// Benchmark inputs: the real files of bench/data, synthetic rule sets, and deterministic
// URL lists. Every list is built from a fixed seed, so runs compare the same work.

import { readFileSync } from 'node:fs';
import type { RobotsTxt } from 'robots-wasm';
import { random } from '../scripts/corpus-check.mjs';

export const ORIGIN = 'https://www.example.com';

/** A robots.txt of bench/data and the role it plays in the report. */
export interface BenchFile {
  name: string;
  role: string;
  body: string;
  bytes: number;
}

const FILES: [string, string][] = [
  ['www.bcg.com', 'small'],
  ['www.economie.gouv.fr', 'medium'],
  ['www.wayfair.com', 'typical 3 KB'],
  ['www.cnet.com', 'wildcards only'],
  ['www.alaskaair.com', 'large'],
  ['www.sophos.com', 'huge, wildcards'],
  ['www.caltech.edu_443', 'huge, literals'],
  ['www.smugmug.com', 'largest with rules'],
  ['www.renderotica.com', 'largest < 500 KiB'],
];

export function benchFiles(): BenchFile[] {
  return FILES.map(([name, role]) => {
    const raw = readFileSync(new URL(`../../bench/data/${name}`, import.meta.url));
    return { name, role, body: raw.toString('utf8'), bytes: raw.length };
  });
}

const SECTIONS = ['news', 'products', 'blog', 'category', 'search', 'user', 'static', 'en', 'about', 'help', 'shop', 'api'];
const WORDS = ['summer-sale', 'how-to-travel', 'item', 'index.html', 'report.pdf', 'photo.jpg', 'page', 'view', 'list', 'a', 'detail'];
const QUERIES = ['?id=', '?q=shoes&page=', '?utm_source=newsletter&utm_medium=email&id=', '?sort=price&ref=', '?session='];
const ESCAPES = ['%20', '%2F', '%C3%A9', '%7E', '%3D'];
const NON_ASCII = ['café', 'über', '日本', 'ñandú'];

/** A path that a rule pattern matches, or nearly matches. */
function pathFromPattern(pattern: string, next: () => number): string {
  const fillers = ['', 'x', 'abc/def', '2019/10'];
  let text = pattern.endsWith('$') ? pattern.slice(0, -1) : pattern;
  text = text.split('*').map((part, i) => (i === 0 ? part : fillers[Math.floor(next() * fillers.length)] + part)).join('');
  if (!text.startsWith('/')) text = `/${text}`;
  const roll = next();
  if (roll < 0.3) text += '/detail.html';
  else if (roll < 0.4 && text.length > 2) text = text.slice(0, -1);
  return text;
}

function genericPath(next: () => number): string {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  let path = `/${pick(SECTIONS)}`;
  const depth = 1 + Math.floor(next() * 3);
  for (let d = 0; d < depth; d++) path += `/${pick(WORDS)}${next() < 0.5 ? `-${Math.floor(next() * 100000)}` : ''}`;
  return path;
}

/**
 * `count` full URLs on one host: 25% made from the file's own rules (so rules fire), the
 * rest ordinary site paths; 30% with a query, 5% with a percent-escape, 2% with raw non-ASCII.
 * Returned as flat strings, as a crawler that splits a file into lines has them.
 */
export function benchUrls(count: number, robots: RobotsTxt | undefined, seed = 1): string[] {
  const patterns = robots === undefined ? [] : robots.groups.flatMap((g) => g.rules.map((r) => r.pattern));
  return urlsFromPatterns(count, patterns, seed);
}

/** benchUrls from a list of rule patterns, on `origin`. */
export function urlsFromPatterns(count: number, rulePatterns: readonly string[], seed = 1, origin = ORIGIN): string[] {
  const next = random(seed);
  const patterns = rulePatterns.filter((p) => p.length > 0);
  const urls: string[] = [];
  for (let i = 0; i < count; i++) {
    let path = patterns.length > 0 && next() < 0.25 ? pathFromPattern(patterns[Math.floor(next() * patterns.length)], next) : genericPath(next);
    if (next() < 0.3) path += QUERIES[Math.floor(next() * QUERIES.length)] + Math.floor(next() * 1e6);
    if (next() < 0.05) path += ESCAPES[Math.floor(next() * ESCAPES.length)];
    if (next() < 0.02) path += `/${NON_ASCII[Math.floor(next() * NON_ASCII.length)]}`;
    urls.push(origin + path);
  }
  return new TextDecoder().decode(new TextEncoder().encode(urls.join('\n'))).split('\n');
}

/** A crawl frontier over many origins: each origin's robots.txt and its share of the URLs. */
export interface Frontier {
  /** Origin -> robots.txt body. */
  bodies: Map<string, string>;
  urls: string[];
}

/**
 * `count` URLs over `origins` origins (https://site-<n>.example), whose robots.txt cycle
 * through `bodies`. A frontier comes in runs of one origin: runs of 1-64 URLs from origins
 * picked at random, until every origin's URLs (from benchUrls on its file) are out.
 */
export function frontierUrls(bodies: readonly string[], parse: (body: string) => RobotsTxt, origins: number, count: number, seed = 1): Frontier {
  const byOrigin = new Map<string, string>();
  const lists: string[][] = [];
  const perOrigin = Math.ceil(count / origins);
  for (let o = 0; o < origins; o++) {
    const origin = `https://site-${o}.example`;
    const body = bodies[o % bodies.length];
    byOrigin.set(origin, body);
    lists.push(benchUrls(perOrigin, parse(body), seed + o).map((url) => origin + url.slice(ORIGIN.length)));
  }
  return { bodies: byOrigin, urls: interleaveRuns(lists, count, seed) };
}

/** Up to `count` URLs of `lists` (one per origin) as a frontier has them: runs of 1-64 URLs of an origin picked at random (seeded). */
export function interleaveRuns(lists: readonly string[][], count: number, seed: number): string[] {
  const next = random(seed);
  const urls: string[] = [];
  const positions = lists.map(() => 0);
  let open = lists.map((_, o) => o).filter((o) => lists[o].length > 0);
  while (urls.length < count && open.length > 0) {
    const pick = Math.floor(next() * open.length);
    const o = open[pick];
    const run = 1 + Math.floor(next() * 64);
    const list = lists[o];
    for (let k = 0; k < run && positions[o] < list.length && urls.length < count; k++) urls.push(list[positions[o]++]);
    if (positions[o] === list.length) open = open.filter((x) => x !== o);
  }
  return urls;
}

/**
 * A `*` group of `count` literal rules; the rules of a smaller set are the first rules of a
 * larger one, so every set can be checked against the same URLs.
 */
export function syntheticRobots(count: number): string {
  const lines = ['User-agent: *'];
  for (let i = 0; i < count; i++) {
    lines.push(`${i % 7 === 0 ? 'Allow' : 'Disallow'}: /${SECTIONS[i % SECTIONS.length]}/${WORDS[i % WORDS.length]}-${i}${i % 3 === 0 ? '/' : ''}`);
  }
  return `${lines.join('\n')}\n`;
}
