// Inputs of the frontier benchmark (bench/frontier.ts): one host per robots.txt file of a
// directory, and a crawl frontier of URLs split over the hosts by a seeded Zipf law. Every
// process that runs a contender builds the same inputs from the same seed, without parsing
// anything with a contender, so no contender's code runs in another's process.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { random } from '../scripts/corpus-check.mjs';
import { urlsFromPatterns } from './inputs.js';

/** The agents of the frontier, taking the URLs of each host in turn. */
export const FRONTIER_AGENTS = ['ExampleBot', 'Googlebot'] as const;

/** The default host directories: bench/data and test/fixtures/corpus (when it exists). */
export function defaultHostDirs(): string[] {
  const root = new URL('../../', import.meta.url);
  return ['bench/data', 'test/fixtures/corpus'].map((dir) => new URL(dir, root).pathname).filter((dir) => existsSync(dir));
}

/** A host of the frontier: its origin, its robots.txt, and its URLs for each agent. */
export interface FrontierHost {
  origin: string;
  body: string;
  /** urls[a]: the URLs checked for FRONTIER_AGENTS[a]. */
  urls: string[][];
}

/**
 * How the URL strings are held: 'text', split from each host's decoded text (as from a file
 * read whole: two-byte strings, since the text holds non-ASCII URLs), or 'href', each one as
 * `new URL(url).href` gives it (one-byte, non-ASCII percent-encoded), as a crawler that
 * normalises its URLs holds them.
 */
export type UrlStrings = 'text' | 'href';

/** How the URLs are split over the hosts. */
export interface FrontierShape {
  name: string;
  /** URLs in all. */
  count: number;
  /** Zipf exponent: the host of rank r gets a share proportional to 1 / r^exponent (0: the same share each). */
  exponent: number;
}

/** Every file of `dirs` (not the Markdown notes), one host each, by file name; a name seen twice is kept once. */
export function loadHostFiles(dirs: readonly string[]): { name: string; body: string }[] {
  const byName = new Map<string, string>();
  for (const dir of dirs) {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (name.endsWith('.md') || byName.has(name) || !statSync(path).isFile()) continue;
      byName.set(name, readFileSync(path, 'utf8'));
    }
  }
  return [...byName].map(([name, body]) => ({ name, body }));
}

/** `https://<file name>` (a name ending in `_443`, as www.caltech.edu_443, is that host on the default port). */
function originOf(name: string): string {
  return `https://${name.replace(/_443$/, '')}`;
}

/** The patterns of a body's allow and disallow lines, read as plain text: what the URLs are made from. */
export function rulePatterns(body: string): string[] {
  const patterns: string[] = [];
  for (const line of body.split(/\r\n|\r|\n/)) {
    const match = /^\s*(?:dis)?allow\s*:\s*([^\s#]*)/i.exec(line);
    if (match !== null) patterns.push(match[1]);
  }
  return patterns;
}

/**
 * URLs per host: `count` split by a Zipf law over the hosts in a seeded random order of rank,
 * largest remainder first, so the split is exact and the same in every process.
 */
export function zipfSplit(hosts: number, count: number, exponent: number, seed: number): number[] {
  const next = random(seed);
  const rankOf = Array.from({ length: hosts }, (_, i) => i);
  for (let i = hosts - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [rankOf[i], rankOf[j]] = [rankOf[j], rankOf[i]];
  }
  const weights = rankOf.map((rank) => 1 / (rank + 1) ** exponent);
  const total = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (w / total) * count);
  const counts = exact.map(Math.floor);
  let left = count - counts.reduce((a, b) => a + b, 0);
  const byRemainder = exact.map((e, i) => [e - Math.floor(e), i]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let k = 0; left > 0; k++, left--) counts[byRemainder[k % hosts][1]]++;
  return counts;
}

/**
 * The frontier of a shape over the files of `dirs`: each host's URLs built from its own rules
 * and generic paths (bench/inputs.ts), held as `strings` says, the agents taking them in turn.
 */
export function buildFrontier(dirs: readonly string[], shape: FrontierShape, seed: number, strings: UrlStrings = 'text'): FrontierHost[] {
  const files = loadHostFiles(dirs);
  const counts = zipfSplit(files.length, shape.count, shape.exponent, seed);
  return files.map((file, h) => {
    const origin = originOf(file.name);
    const text = urlsFromPatterns(counts[h], rulePatterns(file.body), seed + h, origin);
    const all = strings === 'href' ? text.map((url) => new URL(url).href) : text;
    const urls = FRONTIER_AGENTS.map((_, a) => all.filter((_, i) => i % FRONTIER_AGENTS.length === a));
    return { origin, body: file.body, urls };
  });
}
