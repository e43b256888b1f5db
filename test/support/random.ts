// Deterministic random inputs for differential tests (fixed seeds: failures reproduce).
import { random } from '../../scripts/corpus-check.mjs';

export type Rng = () => number;

export function rng(seed: number): Rng {
  return random(seed) as Rng;
}

export function pick<T>(next: Rng, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)];
}

// Small alphabets make matches, near misses and shared prefixes likely. Paths also hold what a
// URL parser rewrites: dot segments (with %2e dots), '\\', tab and CR, a query's "'" (no LF:
// the paths are joined into lines too).
const PATH_BYTES = [
  '/', 'a', 'b', '.', '?', '=', '%', '2', 'F', 'f', '$', '*', 'é', ' ', '~', '%41', '%2f', ';',
  '/..', '/./', '%2e', '%2E.', '\\', '\t', '\r', "'", '#',
];
const PATTERN_BYTES = ['/', 'a', 'b', '.', '?', '*', '$', '%', '2', 'F', 'f', 'é', '~', '%41', '%2F', '%24', '%2A'];

export function randomText(next: Rng, alphabet: readonly string[], maxLength: number): string {
  const length = Math.floor(next() * (maxLength + 1));
  let text = '';
  for (let i = 0; i < length; i++) text += pick(next, alphabet);
  return text;
}

/** A path (never starting with "//", which a URL reader takes for an authority). */
export function randomPath(next: Rng, alphabet: readonly string[] = PATH_BYTES): string {
  const text = randomText(next, alphabet, 12);
  return text.startsWith('/') ? `/a${text}` : `/${text}`;
}

/** ASCII alphabets for table-level tests, where patterns are already escaped bytes. */
export const ASCII_PATH_BYTES = ['/', 'a', 'b', 'ab', '.', '?', '=', '$', '*', '%2F', 'x/'];
export const ASCII_PATTERN_BYTES = ['/', 'a', 'b', 'ab', '.', '?', '*', '*', '$', '%2F', 'x/'];

export function randomPattern(next: Rng): string {
  const body = randomText(next, PATTERN_BYTES, 8);
  const roll = next();
  if (roll < 0.7) return `/${body}`;
  if (roll < 0.85) return `*${body}`;
  return body;
}

const AGENTS = ['FooBot', 'foobot', 'BarBot', '*', 'Foo Bar', 'FooBot/1.0', '*bot', 'Baz_Bot-2'];
const KEYS = ['allow', 'disallow', 'Disallow', 'ALLOW', 'dissallow', 'sitemap', 'crawl-delay', 'user-agent', 'useragent'];

/** A random robots.txt: groups, merged agents, typos, comments, blank lines, odd line ends. */
export function randomRobots(next: Rng): string {
  const lines: string[] = [];
  const count = 1 + Math.floor(next() * 14);
  for (let i = 0; i < count; i++) {
    const roll = next();
    if (roll < 0.25) lines.push(`User-agent: ${pick(next, AGENTS)}`);
    else if (roll < 0.85) lines.push(`${pick(next, KEYS)}: ${randomPattern(next)}`);
    else if (roll < 0.9) lines.push('');
    else if (roll < 0.95) lines.push(`# ${randomText(next, PATH_BYTES, 5)}`);
    else lines.push(`disallow ${randomPattern(next)}`);
  }
  return lines.join(pick(next, ['\n', '\r\n', '\r']));
}

// Literal segments that wildcard rules share, in both modes' spellings (escapes normalise to
// other segments in rfc mode).
const SEGMENTS = ['ab', 'b', 'a', '.php', '?id=', '%41', 'A', '%2F', '/', 'x/', '~', '%7e', 'é', 'ab$c', '.'];

/**
 * A random robots.txt of many wildcard rules whose literal segments repeat within and across
 * rules, some anchored by '$', and URLs that hold those segments in any order.
 */
export function randomWildcardRobots(next: Rng): { body: string; urls: string[] } {
  const lines = [`User-agent: ${pick(next, ['*', 'FooBot'])}`];
  const count = 10 + Math.floor(next() * 60);
  for (let i = 0; i < count; i++) {
    const segments = Array.from({ length: 1 + Math.floor(next() * 4) }, () => pick(next, SEGMENTS));
    const literal = pick(next, ['/', '/a', '/ab/', '', '/x']);
    lines.push(`${next() < 0.35 ? 'Allow' : 'Disallow'}: ${literal}*${segments.join('*')}${next() < 0.3 ? '$' : next() < 0.2 ? '*' : ''}`);
  }
  const urls = Array.from({ length: 40 }, () => {
    let path = pick(next, ['/', '/a', '/ab/', '/x']);
    const pieces = Math.floor(next() * 10);
    for (let i = 0; i < pieces; i++) path += next() < 0.7 ? pick(next, SEGMENTS) : pick(next, PATH_BYTES);
    return next() < 0.2 ? `http://example.com${path}` : path;
  });
  return { body: lines.join('\n'), urls };
}
