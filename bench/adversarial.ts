// Adversarial inputs (`npm run bench -- adversarial`): each is parsed, compiled and checked,
// and its cost per check is printed next to a normal file's, and as a multiple of it, so that a
// super-linear blow-up shows. The generators are shared with test/limits.test.ts, which asserts
// the answers.

import { lintRobotsTxt, RobotsTxt } from 'robots-wasm';
import { formatRatio, formatTime, printTable } from './report.js';

/** 500 KiB of rules like `Disallow: /*a*a*a*...*a$`. */
export function deepWildcards(): string {
  const rules: string[] = [];
  let size = 0;
  for (let i = 0; size < 500 * 1024; i++) {
    const rule = `Disallow: /${'*a'.repeat(20 + (i % 30))}${i % 2 ? '$' : `b${i}`}`;
    rules.push(rule);
    size += rule.length + 1;
  }
  return `User-agent: *\n${rules.join('\n')}\n`;
}

/**
 * A rule whose literal segment of `bytes` bytes is all "a" but for one "e" in the middle
 * (a near miss at every position of a path of "a"s), and with `filter` a second wildcard rule,
 * so that the key filter looks for it.
 */
export function nearMissSegment(bytes = 30_000, filter = false): string {
  const half = 'a'.repeat(bytes >> 1);
  return `User-agent: *\nDisallow: /*${half}e${half}\n${filter ? 'Disallow: /*.pdf$\n' : ''}`;
}

/** The printable ASCII a one-byte key can be (not `*`, `$`, `#`, `%` or `/`). */
export const ONE_BYTE_KEYS = Array.from({ length: 0x7f - 0x21 }, (_, i) => String.fromCharCode(0x21 + i)).filter((c) => !'*$#%/'.includes(c));

/** A rule `/*c$` for every byte of ONE_BYTE_KEYS: a filter of one-byte keys only. */
export function oneByteKeys(): string {
  return `User-agent: *\n${ONE_BYTE_KEYS.map((c) => `Disallow: /*${c}$`).join('\n')}\n`;
}

/** A path of `bytes` bytes cycling through ONE_BYTE_KEYS, ending in `last`. */
export function oneByteKeyPath(bytes = 1 << 20, last = '/'): string {
  return `/${Array.from({ length: bytes }, (_, i) => ONE_BYTE_KEYS[i % ONE_BYTE_KEYS.length]).join('')}${last}`;
}

/** One group of `count` literal rules. */
export function manyRules(count = 100_000): string {
  return `User-agent: *\n${Array.from({ length: count }, (_, i) => `Disallow: /r${i}/`).join('\n')}\n`;
}

/**
 * `count` groups of one rule each (26 product tokens, each named by count / 26 groups, as
 * `botc/2`, `botc/28`, ...: an agent's merged group gathers thousands), then `*`.
 */
export function manyGroups(count = 100_000): string {
  const groups = Array.from({ length: count }, (_, i) => `User-agent: bot${String.fromCharCode(97 + (i % 26))}/${i}\nDisallow: /g${i}/`);
  return `${groups.join('\n')}\nUser-agent: *\nDisallow: /all/\n`;
}

/** A rule on one line of `bytes` bytes, then a short one. */
export function longLine(bytes = 10 << 20): string {
  return `User-agent: *\nDisallow: /${'x'.repeat(bytes)}\nDisallow: /after\n`;
}

/** `Disallow: pattern(i)` for i = 0, 1, ... until the body passes `bytes`; and how many rules. */
function rulesUntil(pattern: (i: number) => string, bytes = 511 * 1024): { body: string; count: number } {
  const rules: string[] = [];
  let size = 'User-agent: *\n'.length;
  for (let i = 0; size < bytes; i++) {
    const rule = `Disallow: ${pattern(i)}`;
    rules.push(rule);
    size += rule.length + 1;
  }
  return { body: `User-agent: *\n${rules.join('\n')}\n`, count: rules.length };
}

/**
 * 511 KiB of rules `Disallow: /*aaaaa*b<N>` (21,375 of them): one segment that every path of a's
 * holds, shared by all, and one only its own rule has.
 */
export function sharedSegmentRules(): { body: string; count: number } {
  return rulesUntil((i) => `/*aaaaa*b${i}`);
}

/** The segments b0, b1, ... b<count - 1>, one after the other. */
export function ownSegments(count: number): string {
  return Array.from({ length: count }, (_, i) => `b${i}`).join('');
}

/**
 * 511 KiB of rules `Disallow: /*b<N>*a*b<N>*<last>` (18,183 of them): each needs its own segment
 * again after an "a", then `last`.
 */
export function repeatedSegmentRules(last: string): { body: string; count: number } {
  return rulesUntil((i) => `/*b${i}*a*b${i}*${last}`);
}

/**
 * A path of `bytes` bytes for repeatedSegmentRules: the segments `own` (b0b1...), an "a", x's and
 * `own` again, with `last` first ('c': before the first b<N>) or right before the second `own`
 * ('d': between a and every second b<N>).
 */
export function repeatedSegmentPath(own: string, last: 'c' | 'd', bytes: number): string {
  const tail = last === 'c' ? own : `d${own}`;
  return padded(last === 'c' ? `/c${own}a` : `/${own}a`, bytes - tail.length) + tail;
}

/** Bytes 2 and 3 of a bait key: letters and digits but 'a', 'b' and 'd' (the bytes the paths place around keys). */
const BAIT_INNER = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZcefghijklmnopqrstuvwxyz0123456789'];
/** Bytes 1 and 4 of a bait key, one per BAIT_INNER² keys. */
const BAIT_BRACKETS = 'bcefghijklmnopqrstuvwxyz';

/** `count` distinct 4-byte keys `cXYc` (c a bracket byte), none of them 'a', 'd' or all b's. */
export function baitKeys(count: number): string[] {
  const per = BAIT_INNER.length ** 2;
  return Array.from({ length: count }, (_, i) => {
    const c = BAIT_BRACKETS[Math.floor(i / per)];
    return `${c}${BAIT_INNER[Math.floor((i % per) / BAIT_INNER.length)]}${BAIT_INNER[i % BAIT_INNER.length]}${c}`;
  });
}

/**
 * Key bait: a rule `Disallow: /*K*a*K*d` per key K of baitKeys(count) (6,400: 162 KiB; 19,357:
 * 492 KiB), each rule with a key of its own, so that no search of one rule helps another.
 */
export function keyBait(count: number): string {
  return `User-agent: *\n${baitKeys(count).map((k) => `Disallow: /*${k}*a*${k}*d`).join('\n')}\n`;
}

/**
 * A path of about `bytes` bytes for keyBait: every key, an "a", a run of b's, a "d", every key
 * again. Each rule's key is needed again between the a and the d, and its last start (in the
 * tail) leaves the whole run to search. With `disallowed` the last key the path holds lies in
 * the middle of the run, so its rule matches after every stronger rule has been tried.
 */
export function keyBaitPath(keys: readonly string[], bytes: number, disallowed: boolean): string {
  // As many keys as leave room for a run of 16 b's (a short path holds the first keys only).
  const fit = keys.slice(0, Math.max(1, Math.floor((bytes - 19) / 8)));
  const all = fit.join('');
  const run = Math.max(16, bytes - 3 - 2 * all.length);
  const last = fit[fit.length - 1];
  const middle = disallowed ? `${'b'.repeat(run >> 1)}${last}${'b'.repeat(run - (run >> 1) - last.length)}` : 'b'.repeat(run);
  return `/${all}a${middle}d${all}`;
}

/** Linear bait: `count` rules `Disallow: /xx*b<XYZ>b` (26,000: 508 KiB), each with a key of its own that every rule's literal head "/xx" lets a linear check search for. */
export function linearBait(count = 26_000): string {
  const n = BAIT_INNER.length;
  const key = (i: number) => `b${BAIT_INNER[Math.floor(i / (n * n)) % n]}${BAIT_INNER[Math.floor(i / n) % n]}${BAIT_INNER[i % n]}b`;
  return `User-agent: *\n${Array.from({ length: count }, (_, i) => `Disallow: /xx*${key(i)}`).join('\n')}\n`;
}

/** `path` padded with `fill` to `bytes` bytes. */
export function padded(path: string, bytes: number, fill = 'x'): string {
  return path + fill.repeat(Math.max(0, bytes - path.length));
}

/** A URL of about `bytes` bytes, and one with `count` percent-escapes. */
export function longUrl(bytes = 1 << 20): string {
  return `https://example.com/${'a'.repeat(bytes)}`;
}

export function escapedUrl(count = 10_000): string {
  return `https://example.com/${'%41'.repeat(count)}b`;
}

interface Case {
  name: string;
  body: string;
  urls: string[];
  agent?: string;
}

/** Groups for agents named like Object.prototype members (they must stay ordinary agents). */
export function prototypeAgents(): string {
  return ['__proto__', 'constructor', 'hasOwnProperty', 'toString'].map((agent) => `User-agent: ${agent}\nDisallow: /${agent}/\n`).join('\n');
}

function time(fn: () => void): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

interface TargetCase {
  name: string;
  body: string;
  url: string;
  allowed: boolean;
  /** The most a check may take, first check of a fresh RobotsTxt included. */
  targetMs: number;
}

/** The key bait and linear bait cases, each URL with the time a check of it is to stay under. */
function targetCases(): TargetCase[] {
  const small = baitKeys(6_400);
  const large = baitKeys(19_357);
  const bait6400 = keyBait(6_400);
  const bait19357 = keyBait(19_357);
  const linear = linearBait();
  const kb = (bytes: number) => (bytes >= 1 << 20 ? `${bytes / (1 << 20)} MB` : `${Math.round(bytes / 1000)} KB`);
  const cases: TargetCase[] = [];
  for (const [body, keys, bytes, targetMs] of [[bait6400, small, 2048, 1], [bait6400, small, 100_000, 20], [bait19357, large, 1 << 20, 200]] as const) {
    for (const allowed of [false, true]) {
      cases.push({ name: `key bait, ${keys.length.toLocaleString('en')} rules (${kb(body.length)}), a ${kb(bytes)} URL, ${allowed ? 'allowed' : 'disallowed'}`, body, url: keyBaitPath(keys, bytes, !allowed), allowed, targetMs });
    }
  }
  for (const [bytes, targetMs] of [[2048, 1], [19_000, 20]]) {
    cases.push({ name: `linear bait, 26,000 rules /xx*b<XYZ>b (${kb(linear.length)}), a ${kb(bytes)} URL`, body: linear, url: padded('/xx', bytes, 'b'), allowed: true, targetMs });
  }
  return cases;
}

/** The median of `runs` timings of `fn`, each given a fresh RobotsTxt of `body`. */
function medianFresh(body: string, runs: number, fn: (robots: RobotsTxt) => void): number {
  const times = Array.from({ length: runs }, () => {
    const robots = RobotsTxt.parse(body);
    const ms = time(() => fn(robots));
    robots.dispose();
    return ms;
  });
  return times.sort((a, b) => a - b)[runs >> 1]!;
}

/**
 * Times, for each target case, the first check of a fresh RobotsTxt (parsed before the clock
 * starts; medians of 3), the full compile of its matcher alone, and the checks after; prints
 * them beside the target and throws on a wrong verdict. A first check must compile the file,
 * which no check can skip: its target is the compile's time plus the check's.
 */
export function runTargets(): Record<string, { firstMs: number; compileMs: number; checkMs: number; targetMs: number }> {
  const results: Record<string, { firstMs: number; compileMs: number; checkMs: number; targetMs: number }> = {};
  for (const c of targetCases()) {
    const robots = RobotsTxt.parse(c.body);
    if (robots.isAllowed(c.url, 'ExampleBot') !== c.allowed) throw new Error(`${c.name}: expected ${c.allowed ? 'allowed' : 'disallowed'}`);
    const repeats = 5;
    const checkMs = time(() => {
      for (let i = 0; i < repeats; i++) robots.isAllowed(c.url, 'ExampleBot');
    }) / repeats;
    robots.dispose();
    const firstMs = medianFresh(c.body, 3, (fresh) => fresh.isAllowed(c.url, 'ExampleBot'));
    const compileMs = medianFresh(c.body, 3, (fresh) => fresh.matcher('ExampleBot').toBytes());
    results[c.name] = { firstMs, compileMs, checkMs, targetMs: c.targetMs };
  }
  const met = (ms: number, target: number) => (ms < target ? 'yes' : 'NO');
  printTable('Key bait and linear bait: the first check of a fresh RobotsTxt, its compile alone, and each check after, against the target',
    ['input', 'URL bytes', 'first check', 'compile', 'per check after', 'target', 'met (first - compile / after)'],
    targetCases().map((c) => {
      const r = results[c.name];
      return [c.name, c.url.length.toLocaleString('en'), formatTime(r.firstMs), formatTime(r.compileMs), formatTime(r.checkMs), formatTime(r.targetMs),
        `${met(r.firstMs - r.compileMs, r.targetMs)} / ${met(r.checkMs, r.targetMs)}`];
    }));
  return results;
}

/** Runs every case and prints the table. */
export function runAdversarial(normalBody: string, normalName: string): Record<string, { parseMs: number; tableBytes: number; checkMs: number }> {
  const typical = ['https://example.com/a/b/c?d=1', '/r5/x', `/${'a'.repeat(2000)}`];
  const shared = sharedSegmentRules();
  const own = ownSegments(shared.count);
  const repeated = repeatedSegmentRules('c');
  const ownTwice = ownSegments(repeated.count);
  const between = repeatedSegmentRules('d');
  const MiB = 1 << 20;
  const cases: Case[] = [
    { name: `normal file (${normalName})`, body: normalBody, urls: typical },
    { name: 'normal file, a 1 MB URL', body: normalBody, urls: [longUrl()] },
    { name: 'normal file, 10,000 %-escapes in a URL', body: normalBody, urls: [escapedUrl()] },
    { name: '500 KiB of /*a*a*...*a$ rules', body: deepWildcards(), urls: [...typical, `/${'a'.repeat(2000)}b`] },
    { name: '500 KiB of /*a*a*...*a$ rules, a 1 MB URL', body: deepWildcards(), urls: [longUrl()] },
    { name: 'a 30,000-byte near-miss segment, a 1 MB URL', body: nearMissSegment(), urls: [longUrl()] },
    { name: 'the same with the key filter, a 1 MB URL', body: nearMissSegment(30_000, true), urls: [longUrl()] },
    { name: `${ONE_BYTE_KEYS.length} one-byte keys, a 1 MB path of them`, body: oneByteKeys(), urls: [oneByteKeyPath()] },
    { name: `${shared.count.toLocaleString('en')} rules /*aaaaa*b<N>, a 2 KB URL of a's`, body: shared.body, urls: [longUrl(2048)] },
    { name: 'the same, a 1 MB URL of a\'s', body: shared.body, urls: [longUrl()] },
    { name: 'the same, 1 MB: aaaaa then every b<N>', body: shared.body, urls: [padded(`/aaaaa${own}`, MiB)] },
    { name: 'the same, 1 MB: every b<N> then aaaaa (wrong order)', body: shared.body, urls: [padded(`/${own}aaaaa`, MiB)] },
    { name: 'the same, 1 MB of b1b1... (the key pass gives up)', body: shared.body, urls: [`/${'b1'.repeat(MiB / 2)}`] },
    { name: `${repeated.count.toLocaleString('en')} rules /*b<N>*a*b<N>*c, 1 MB: c, every b<N>, a, every b<N>`, body: repeated.body, urls: [repeatedSegmentPath(ownTwice, 'c', MiB)] },
    { name: `${between.count.toLocaleString('en')} rules /*b<N>*a*b<N>*d, 2 KB: every b<N> twice, a and d between`, body: between.body, urls: [repeatedSegmentPath(ownTwice.slice(0, 600), 'd', 2048)] },
    { name: 'the same, 1 MB (the search left: each b<N> between a and d)', body: between.body, urls: [repeatedSegmentPath(ownTwice, 'd', MiB)] },
    { name: '100,000 rules in one group', body: manyRules(), urls: typical },
    { name: '100,000 groups', body: manyGroups(), urls: typical },
    { name: 'one 10 MB line', body: longLine(), urls: [...typical, `/${'x'.repeat(10 << 20)}`] },
    { name: 'agents named __proto__, constructor, hasOwnProperty', body: prototypeAgents(), urls: typical, agent: '__proto__' },
  ];
  const results: Record<string, { parseMs: number; tableBytes: number; checkMs: number }> = {};
  // Warm the kernel and the JIT on the normal file first, so its row is not a cold start.
  for (let i = 0; i < 200; i++) RobotsTxt.parse(normalBody).matcher('ExampleBot').checkMany(typical);
  for (const c of cases) {
    let robots: RobotsTxt | undefined;
    let tableBytes = 0;
    const parseMs = time(() => {
      robots = RobotsTxt.parse(c.body, { maxBytes: Infinity });
      tableBytes = robots.matcher(c.agent ?? 'ExampleBot').byteLength;
    });
    const matcher = robots!.matcher(c.agent ?? 'ExampleBot');
    matcher.checkMany(c.urls);
    const checkMs = time(() => matcher.checkMany(c.urls)) / c.urls.length;
    results[c.name] = { parseMs, tableBytes, checkMs };
    robots!.dispose();
  }
  const normal = results[cases[0].name].checkMs;
  printTable('Adversarial inputs (parse + compile with no byte limit; time per check, and as a multiple of the normal file\'s)',
    ['input', 'bytes', 'parse + compile', 'table bytes', 'per check', 'vs normal'],
    cases.map((c) => [c.name, c.body.length.toLocaleString('en'), formatTime(results[c.name].parseMs), results[c.name].tableBytes.toLocaleString('en'),
      formatTime(results[c.name].checkMs), formatRatio(results[c.name].checkMs / normal)]));
  return results;
}

// Lint (`robots-wasm lint`): constructions that made a quadratic step show, each about 500 KiB,
// timed against the 1 s target. Shared with test/lint.test.ts, which asserts the diagnostics.

/** The target for linting any 500 KiB file. */
export const LINT_TARGET_MS = 1000;

/** The user-agent lines `User-agent: <prefix>0` ... for `count` agents. */
function agentLines(count: number, prefix = 'a'): string {
  return Array.from({ length: count }, (_, i) => `User-agent: ${prefix}${i}`).join('\n');
}

/** Rules `<kind>: /<prefix>0` ... for `count` rules. */
function ruleLines(kind: 'Allow' | 'Disallow', count: number, prefix = ''): string {
  return Array.from({ length: count }, (_, i) => `${kind}: /${prefix}${i}`).join('\n');
}

/** Two groups naming the same `agents` agents, the first disallowing `/0` ... and the second allowing the same paths. */
export function lintTwoGroups(agents = 7000, rules = 7000): string {
  return `${agentLines(agents)}\n${ruleLines('Disallow', rules)}\n\n${agentLines(agents)}\n${ruleLines('Allow', rules)}\n`;
}

/**
 * `groups` groups, group g naming agents g ... g + span - 1 (of `groups`, wrapping round) and
 * `rules` rules on paths all groups share, allowing in even groups and disallowing in odd
 * ones: each agent merges its own set of `span` groups.
 */
export function lintOverlappingGroups(groups = 200, span = 50, rules = 100): string {
  return Array.from({ length: groups }, (_, g) => {
    const agents = Array.from({ length: span }, (_, i) => `User-agent: a${(g + i) % groups}`).join('\n');
    return `${agents}\n${ruleLines(g % 2 === 0 ? 'Allow' : 'Disallow', rules, 'p')}\n`;
  }).join('\n');
}

/**
 * Two groups of `rules` rules on the same paths (disallowed by the first, allowed by the
 * second) and `small` groups of one rule, and `agents` agents, each naming both large groups
 * and its own two small ones: thousands of different merges that hold both large groups.
 */
export function lintMergedLargeGroups(agents = 3300, rules = 9000, small = 100): string {
  const pairs = Array.from({ length: agents }, (_, i) => [i % small, (i + 1 + Math.floor(i / small)) % small]);
  const smallGroups = Array.from({ length: small }, (_, s) => {
    const names = pairs.flatMap(([x, y], i) => (x === s || y === s ? [`User-agent: a${i}`] : []));
    return `${names.join('\n')}\nAllow: /s${s}\n`;
  });
  return `${agentLines(agents)}\n${ruleLines('Disallow', rules)}\n\n${agentLines(agents)}\n${ruleLines('Allow', rules)}\n\n${smallGroups.join('\n')}`;
}

/** Bytes a lint construction fills: what fits under the default parse limit of 500 KiB. */
const LINT_BYTES = 500 * 1024 - 64;

/** One group of the same rule `count` times. */
export function lintDuplicateRules(count = 39_000): string {
  return `User-agent: *\n${'Disallow: /x\n'.repeat(count)}`;
}

/**
 * One group of rules `/x`, `/x*`, `/x**`, ... with up to `stars` stars, allow and disallow
 * in turn: they all match the same paths, and the longest wins over every other.
 */
export function lintShadowingWildcards(stars = 990): string {
  return `User-agent: *\n${Array.from({ length: stars + 1 }, (_, i) => `${i % 2 ? 'Allow' : 'Disallow'}: /x${'*'.repeat(i)}`).join('\n')}\n`;
}

/** A rule with `stars` stars after `/x` that shadows `count` short rules `Disallow: /x`. */
export function lintLongShadowingRule(stars = 400_000, count = 7000): string {
  return `User-agent: *\nAllow: /x${'*'.repeat(stars)}\n${'Disallow: /x\n'.repeat(count)}`;
}

/** The line `prefix` followed by `fill` repeated up to `bytes` bytes in all, in a group. */
export function lintLongLine(prefix = 'Disallow: /', fill = 'x', bytes = LINT_BYTES): string {
  return `User-agent: *\n${prefix}${fill.repeat(Math.ceil(bytes / fill.length)).slice(0, bytes - prefix.length)}\n`;
}

/** 500 KiB of unknown keys, misspelt keys and lines without a colon, in turn. */
export function lintUnknownKeys(bytes = LINT_BYTES): string {
  const lines = ['Frobnicate: 1', 'Useragent: bot', 'Disalow: /x', 'Disallow /y', 'Crawl-delay: 1', 'just words'];
  const out: string[] = ['User-agent: *'];
  for (let i = 0, size = 0; size < bytes; i++) {
    out.push(lines[i % lines.length]);
    size += lines[i % lines.length].length + 1;
  }
  return `${out.join('\n')}\n`;
}

/**
 * 500 KiB of user-agent lines with a Crawl-delay line between each two, then one rule: one
 * group whose user-agent lines are interleaved at every line.
 */
export function lintInterleavedAgents(bytes = LINT_BYTES): string {
  const out: string[] = [];
  for (let i = 0, size = 0; size < bytes - 16; i++) {
    const pair = `User-agent: a${i}\nCrawl-delay: 1`;
    out.push(pair);
    size += pair.length + 1;
  }
  return `${out.join('\n')}\nDisallow: /\n`;
}

/** The lint constructions, by name. */
export function lintCases(): { name: string; body: string }[] {
  return [
    { name: 'two groups naming the same 7,000 agents, 7,000 rules each', body: lintTwoGroups() },
    { name: '200 groups of 100 rules, each agent merging its own 50', body: lintOverlappingGroups() },
    { name: 'two 9,000-rule groups in 3,300 different merges', body: lintMergedLargeGroups() },
    { name: '39,000 duplicate rules', body: lintDuplicateRules() },
    { name: '991 wildcard rules /x, /x*, /x**, ...', body: lintShadowingWildcards() },
    { name: 'a 400,000-star rule shadowing 7,000 others', body: lintLongShadowingRule() },
    { name: 'one 500 KiB rule line', body: lintLongLine() },
    { name: 'one 500 KiB line without a colon', body: lintLongLine('', 'word ') },
    { name: 'one 500 KiB Content-Usage line', body: lintLongLine('Content-Usage: train-ai=n, ', 'A') },
    { name: 'one 500 KiB line of dot segments', body: lintLongLine('Disallow: ', '/./..') },
    { name: '500 KiB of unknown and misspelt keys', body: lintUnknownKeys() },
    { name: '500 KiB of user-agent lines, a Crawl-delay between each two', body: lintInterleavedAgents() },
  ];
}

/** Lints each construction (the median of three runs) and prints the times beside the target. */
export function runLintAdversarial(normalBody: string): Record<string, { bytes: number; lintMs: number; diagnostics: number }> {
  // Warm the JIT on the normal file first, so the first row is not a cold start.
  for (let i = 0; i < 50; i++) lintRobotsTxt(normalBody);
  const results: Record<string, { bytes: number; lintMs: number; diagnostics: number }> = {};
  for (const c of lintCases()) {
    let diagnostics = 0;
    const runs = [0, 1, 2].map(() => time(() => (diagnostics = lintRobotsTxt(c.body).length))).sort((a, b) => a - b);
    results[c.name] = { bytes: c.body.length, lintMs: runs[1], diagnostics };
  }
  printTable(`lintRobotsTxt on hostile files (median of 3; target ${formatTime(LINT_TARGET_MS)} for any 500 KiB file)`,
    ['input', 'bytes', 'lint', 'target', 'diagnostics'],
    Object.entries(results).map(([name, r]) => [name, r.bytes.toLocaleString('en'), formatTime(r.lintMs), formatTime(LINT_TARGET_MS), r.diagnostics.toLocaleString('en')]));
  return results;
}
