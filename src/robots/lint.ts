// robots.txt diagnostics: what a file's author should fix, with line numbers. It reads the
// same line records (parse.ts) and groups (groups.ts) the matcher is built from, so what it
// reports is what the parser did.

import { GOOGLE_MAX_LINE_BYTES, lineCollector, EXTENSION_KEYS } from './parse.js';
import { prepareBody, type RobotsBody } from './body.js';
import { interleavingReader, readGroups } from './groups.js';
import { groupRecords, hasScheme, ruleAllows, ruleCount, ruleLine, ruleText, type GroupRecord, type RobotsStructure } from './structure.js';
import { resolveParseOptions, type Mode, type ParseOptions } from './options.js';
import { isValidProductToken, productToken } from './agent.js';
import { escapePattern } from '../url/path.js';
import { readUsage, splitContentUsage } from '../fields/usage.js';
import { isCrawlDelay, parseRequestRate, parseVisitTime } from './pacing.js';

export type Severity = 'error' | 'warning' | 'info';

/** One finding, at a 1-based line. */
export interface Diagnostic {
  line: number;
  severity: Severity;
  /** Stable identifier (`typo-key`, `shadowed-rule`, ...). */
  code: string;
  message: string;
}

const decoder = new TextDecoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a pattern's path (before its '?') holds what a fetched path never does: a dot
 * segment (".", "..", with dots also as %2e) followed by '/' or ending it, or a '\\'.
 */
function hasUnfetchablePath(pattern: string): boolean {
  const query = pattern.indexOf('?');
  const path = query >= 0 ? pattern.slice(0, query) : pattern;
  return path.includes('\\') || /(^|\/)(\.|%2e){1,2}(\/|\$?$)/i.test(path);
}

/**
 * Diagnostics for a robots.txt body, by line: lenient spellings, lines without a colon or
 * without a key, rules outside any group, invalid product tokens, patterns that do not start
 * with '/' or '*', '$' before the end, dot segments a fetched path never has, bytes past the
 * parse limit, invalid UTF-8, over-long lines, duplicate rules, rules that can never decide,
 * Crawl-delay, Request-rate and Visit-time values no crawler can read, a rule or Sitemap value
 * that starts or ends with a Unicode space, and lines between the user-agent lines of a group.
 */
export function lintRobotsTxt(body: RobotsBody, options?: ParseOptions): Diagnostic[] {
  const resolved = resolveParseOptions(options);
  const prepared = prepareBody(body, resolved);
  // A string body is still in kernel scratch memory, which the checks below reuse.
  const bytes = typeof body === 'string' ? prepared.bytes.slice() : prepared.bytes;
  const out: Diagnostic[] = [];
  const add = (line: number, severity: Severity, code: string, message: string) => out.push({ line, severity, code, message });
  const text = (start: number, end: number) => decoder.decode(bytes.subarray(start, end));
  const utf8 = isValidUtf8(bytes);

  let seenAgent = false;
  // The group builder reads the same records, so the body is read once.
  const collector = lineCollector();
  const { structure, lines } = readGroups(bytes, resolved.mode, collector.visit);
  const interleaving = interleavingReader(structure);
  collector.emit((l) => {
    interleaving.read(l);
    if (!utf8 && !isValidUtf8(bytes.subarray(l.start, l.end))) add(l.number, 'warning', 'invalid-utf8', 'the line is not valid UTF-8 (RFC 9309 2.3 requires UTF-8)');
    if (l.tooLong || l.end - l.start > GOOGLE_MAX_LINE_BYTES) {
      add(l.number, 'warning', 'line-too-long', `the line is longer than ${GOOGLE_MAX_LINE_BYTES} bytes; Google reads only that much of it`);
    }
    if (l.unparseable) {
      add(l.number, 'error', 'unparseable', `no "key: value" here: ${JSON.stringify(text(l.start, l.end).trim().slice(0, 60))} is ignored`);
      return;
    }
    if (l.kind === null) return;
    const key = text(l.keyStart, l.keyEnd);
    const value = text(l.valueStart, l.valueEnd);
    if (l.typo) add(l.number, 'warning', 'typo-key', `"${key}" is a misspelling, accepted leniently: write "${l.directive}"`);
    if (l.missingColon) add(l.number, 'warning', 'missing-colon', `no ':' between "${key}" and its value (accepted leniently)`);
    if (l.kind === 'unknown') {
      const known = EXTENSION_KEYS.has(key.toLowerCase());
      add(l.number, 'info', known ? 'extension-key' : 'unknown-key', known ? `"${key}" is not part of RFC 9309; some crawlers read it, others ignore it` : `unknown key "${key}" is ignored`);
      if (l.directive === 'content-usage' || l.directive === 'content-signal') signalDiagnostics(l.number, l.directive, value, seenAgent, add);
      if (l.directive === 'license' && !hasScheme(value)) {
        add(l.number, 'warning', 'license-not-absolute', `"${value}" is not an absolute URL: RSL license URLs need a scheme and host, and this one is ignored`);
      }
      pacingDiagnostics(l.number, l.directive, value, seenAgent, add);
      return;
    }
    if (l.kind === 'user-agent') {
      seenAgent = true;
      if (l.agentToken !== -1 && !isValidProductToken(value)) add(l.number, 'warning', 'invalid-product-token', productTokenMessage(value));
      return;
    }
    if (l.kind === 'allow' || l.kind === 'disallow' || l.kind === 'sitemap') unicodeSpace(l.number, l.kind, value, add);
    if (l.kind === 'allow' || l.kind === 'disallow') {
      if (!seenAgent) add(l.number, 'warning', 'rule-outside-group', `this ${l.kind} rule comes before any user-agent line and is ignored`);
      if (value !== '' && value[0] !== '/' && value[0] !== '*') add(l.number, 'warning', 'pattern-start', `"${value}" does not start with '/' or '*'; crawlers may read it differently`);
      const dollar = value.indexOf('$');
      if (dollar >= 0 && dollar < value.length - 1) add(l.number, 'warning', 'dollar-not-at-end', `'$' only anchors at the end of a pattern; in "${value}" it is an ordinary character`);
      if (resolved.mode === 'rfc' && hasUnfetchablePath(value)) {
        add(l.number, 'warning', 'dot-segment', `"${value}" has a dot segment or a '\\' in its path, which no fetched path has (a fetch resolves them): that part never matches`);
      }
    }
  });

  if (prepared.truncated) {
    add(lines, 'warning', 'past-parse-limit', `${prepared.originalLength - bytes.length} bytes past the ${resolved.maxBytes}-byte parse limit are ignored (RFC 9309 2.5)`);
  }
  redundantRules(structure, resolved.mode, add);
  interleavedLines(interleaving.interleaved, add);
  return out.sort((a, b) => a.line - b.line);
}

/** Whitespace that String.prototype.trim() removes and RFC 9309 does not: any but ASCII's. */
const UNICODE_SPACE = /^[^\S\x00-\x7f]|[^\S\x00-\x7f]$/u;

/**
 * A rule or Sitemap value that starts or ends with a non-ASCII space (U+00A0, U+2002, ...):
 * RFC 9309 trims only spaces and tabs, so it is part of the path or URL, where an author meant
 * nothing (robots-parser trimmed it).
 */
function unicodeSpace(line: number, kind: 'allow' | 'disallow' | 'sitemap', value: string, add: Add): void {
  const found = UNICODE_SPACE.exec(value);
  if (found === null) return;
  const at = found.index === 0 ? 'starts' : 'ends';
  const code = `U+${found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  const part = kind === 'sitemap' ? 'URL' : 'path';
  add(line, 'warning', 'unicode-space', `the value ${at} with ${code}, a Unicode space that is part of the ${part} (RFC 9309 trims only spaces and tabs; robots-parser trimmed it)`);
}

/**
 * Lines between the user-agent lines of one group (interleavingReader): they do not end it,
 * so the agents above such a line share the rules below it, though robots-parser, and maybe
 * the author, read a new group there.
 */
function interleavedLines(interleaved: Map<number, number[]>, add: Add): void {
  for (const [group, lines] of interleaved) {
    for (const line of lines) {
      add(line, 'warning', 'interleaved-group', `this line does not end the group of line ${group} (only a rule line ends one): the user-agent lines above and below it form one group, and all its agents get its rules`);
    }
  }
}

/**
 * What is wrong with an AI usage line: outside any group (a group record, ignored there), and
 * for Content-Usage, a statement that is not a Structured Fields Dictionary, which states
 * nothing (an uppercase key, the most common way to get one wrong, is named as such).
 */
function signalDiagnostics(line: number, directive: string, value: string, inGroup: boolean, add: Add): void {
  const name = directive === 'content-usage' ? 'Content-Usage' : 'Content-Signal';
  if (!inGroup) add(line, 'warning', 'signal-outside-group', `this ${name} line comes before any user-agent line and applies to no crawler`);
  if (directive !== 'content-usage') return;
  const { statement } = splitContentUsage(value);
  if (readUsage(statement) !== undefined) return;
  if (/[A-Z]/.test(statement) && readUsage(statement.toLowerCase()) !== undefined) {
    add(line, 'warning', 'usage-uppercase-key', `"${statement}" has uppercase keys: preference keys are case sensitive and lowercase, so it states no preference`);
  } else {
    add(line, 'warning', 'usage-unparseable', `"${statement}" is not a Structured Fields Dictionary (RFC 9651), so it states no preference`);
  }
}

/** What each pacing line must look like: its check, its code, and its form for the message. */
const PACING_FORMS = new Map<string, { name: string; valid: (value: string) => boolean; code: string; form: string }>([
  ['crawl-delay', { name: 'Crawl-delay', valid: isCrawlDelay, code: 'invalid-crawl-delay', form: 'a number of seconds (`10`, `0.5`)' }],
  [
    'request-rate',
    {
      name: 'Request-rate',
      valid: (v) => parseRequestRate(v) !== undefined,
      code: 'invalid-request-rate',
      form: 'a positive rate `n/m` with an optional s, m or h and UTC window (`1/10s`, `3/1h 0600-0845`)',
    },
  ],
  ['visit-time', { name: 'Visit-time', valid: (v) => parseVisitTime(v) !== undefined, code: 'invalid-visit-time', form: 'a UTC window `HHMM-HHMM` (`0600-0845`)' }],
]);

/**
 * A Crawl-delay, Request-rate or Visit-time line no crawler reads: before any user-agent line
 * (a group record outside a group), or with a value RobotsTxt.pacing cannot read.
 */
function pacingDiagnostics(line: number, directive: string | null, value: string, inGroup: boolean, add: Add): void {
  const form = directive === null ? undefined : PACING_FORMS.get(directive);
  if (form === undefined) return;
  if (!inGroup) add(line, 'warning', 'pacing-outside-group', `this ${form.name} line comes before any user-agent line and applies to no crawler`);
  if (form.valid(value)) return;
  const shown = JSON.stringify(value.length > QUOTED_PATTERN_MAX ? `${value.slice(0, QUOTED_PATTERN_MAX)}...` : value);
  add(line, 'warning', form.code, `${shown} is not ${form.form}, so the line is ignored`);
}

/**
 * Why a user-agent value is not an RFC 9309 product token, and how each mode reads it: the
 * modes differ when it holds digits (rfc mode keeps them, google mode stops at the first).
 */
function productTokenMessage(value: string): string {
  const rfc = productToken(value, 'rfc');
  const google = productToken(value, 'google');
  const reading = (token: string) => (token === '' ? 'no product token (the group applies to no crawler)' : `"${token}"`);
  const problem = `"${value}" is not a product token (RFC 9309 allows letters, '_' and '-' only)`;
  if (rfc === google) return rfc === '' ? `${problem}: it has none, and this group applies to no crawler` : `${problem}: it is read as "${rfc}"`;
  return `${problem}: rfc mode reads it as ${reading(rfc)}, google mode as ${reading(google)}`;
}

type Add = (line: number, severity: Severity, code: string, message: string) => void;

/** A shadowing rule's pattern is quoted up to this many characters: a message per shadowed rule must not repeat a huge one. */
const QUOTED_PATTERN_MAX = 200;

/**
 * The file's rules as redundantRules ranks them, by rule index, and its scratch: each rule's
 * meaning (an id of its normalised pattern up to trailing '*', -1 for an empty pattern), the
 * normalised pattern's length, and per meaning the best rule of the set being read (`best`,
 * valid where `mark` holds the set's stamp).
 */
interface RankedRules {
  structure: RobotsStructure;
  patterns: string[];
  meaning: Int32Array;
  length: Int32Array;
  allows: Uint8Array;
  meanings: number;
  reported: Uint8Array;
  mark: Int32Array;
  best: Int32Array;
  stamp: number;
}

/**
 * Duplicate rules, and rules that can never decide: for every rule, another one of the other
 * kind matches the same paths (the same pattern, up to trailing '*') and wins (longer, or
 * allow at equal length). Checked within each group, then across each set of groups one agent
 * merges, each rule reported once, against the winner of the first set that beats it.
 */
function redundantRules(structure: RobotsStructure, mode: Mode, add: Add): void {
  const rules = rankRules(structure, mode);
  const groups = groupRecords(structure);
  const winners = groups.map((g) => groupWinners(rules, g.ruleStart, g.ruleEnd, add));
  const merges = new Merges(rules, sharedWinners(rules, winners));
  for (const members of mergedSets(groups)) merges.read(members, add);
}

/** Reads each rule's pattern, meaning, length and kind (see RankedRules). */
function rankRules(structure: RobotsStructure, mode: Mode): RankedRules {
  const count = ruleCount(structure);
  const ids = new Map<string, number>();
  const meaning = new Int32Array(count).fill(-1);
  const length = new Int32Array(count);
  const allows = new Uint8Array(count);
  const patterns: string[] = [];
  for (let r = 0; r < count; r++) {
    const pattern = ruleText(structure, r);
    patterns.push(pattern);
    allows[r] = ruleAllows(structure, r) ? 1 : 0;
    if (pattern === '') continue;
    // Normalised patterns are ASCII: their length is their length in octets.
    const normalised = escapePattern(pattern, mode);
    let end = normalised.length;
    if (!normalised.endsWith('$')) while (end > 0 && normalised.charCodeAt(end - 1) === 0x2a) end--;
    const key = normalised.slice(0, end);
    let id = ids.get(key);
    if (id === undefined) ids.set(key, (id = ids.size));
    meaning[r] = id;
    length[r] = normalised.length;
  }
  const meanings = ids.size;
  return { structure, patterns, meaning, length, allows, meanings, reported: new Uint8Array(count), mark: new Int32Array(meanings).fill(-1), best: new Int32Array(meanings), stamp: 0 };
}

/**
 * Whether rule `a` decides over rule `b` of the same meaning: longer, or allow at equal
 * length, or else the earlier (sets are read in rule order, and the first best one wins).
 */
function outranks(rules: RankedRules, a: number, b: number): boolean {
  if (rules.length[a] !== rules.length[b]) return rules.length[a] > rules.length[b];
  if (rules.allows[a] !== rules.allows[b]) return rules.allows[a] === 1;
  return a < b;
}

/** Reports the group's rules [start, end) that another of it outranks; returns its winner for each meaning. */
function groupWinners(rules: RankedRules, start: number, end: number, add: Add): number[] {
  const { meaning, mark, best } = rules;
  const stamp = ++rules.stamp;
  const meanings: number[] = [];
  for (let r = start; r < end; r++) {
    const m = meaning[r];
    if (m < 0) continue;
    if (mark[m] !== stamp) {
      mark[m] = stamp;
      best[m] = r;
      meanings.push(m);
    } else if (outranks(rules, r, best[m])) {
      best[m] = r;
    }
  }
  for (let r = start; r < end; r++) if (meaning[r] >= 0 && best[meaning[r]] !== r) report(rules, r, best[meaning[r]], add);
  return meanings.map((m) => best[m]);
}

/** Each group's winners whose meaning some other group has too: the only rules a merge can report. */
function sharedWinners(rules: RankedRules, winners: number[][]): number[][] {
  const groupsWith = new Int32Array(rules.meanings);
  for (const list of winners) for (const w of list) groupsWith[rules.meaning[w]]++;
  return winners.map((list) => list.filter((w) => groupsWith[rules.meaning[w]] > 1));
}

/**
 * The distinct sets of two or more groups one agent merges (`*` for the global groups), in
 * the order of their first agent: agents naming the same groups share one reading of them.
 */
function mergedSets(groups: GroupRecord[]): number[][] {
  const byAgent = new Map<string, number[]>();
  groups.forEach((g, i) => {
    for (const agent of g.global ? ['*', ...g.agents] : g.agents) {
      const list = byAgent.get(agent);
      if (list === undefined) byAgent.set(agent, [i]);
      // A group naming an agent twice is merged once, not with itself.
      else if (list[list.length - 1] !== i) list.push(i);
    }
  });
  const seen = new Set<string>();
  const sets: number[][] = [];
  for (const list of byAgent.values()) {
    const key = list.join(',');
    if (list.length > 1 && !seen.has(key)) sets.push(list), seen.add(key);
  }
  return sets;
}

/** Merges of up to this many groups (with shared winners) remember each pair they brought together. */
const REMEMBERED_MERGE = 32;

/**
 * Reads the sets of groups agents merge, in order. A rule a merge reports is outranked by a
 * member it never met in an earlier merge (one it met would have reported it then), so
 * members that all met one another are looked up rather than walked: a large group merged
 * with many small ones is walked once, not once per merge. Members met when they were in one
 * merge: the last each was in, or a remembered pair.
 */
class Merges {
  readonly #rules: RankedRules;
  readonly #shared: number[][];
  readonly #indexes: (Map<number, number> | undefined)[] = [];
  readonly #met = new Set<number>();
  /** The last merge each group was in, -1 before its first. */
  readonly #last: Int32Array;
  #merges = 0;

  constructor(rules: RankedRules, shared: number[][]) {
    this.#rules = rules;
    this.#shared = shared;
    this.#last = new Int32Array(shared.length).fill(-1);
  }

  /** Reports the shared winners of merged groups `members` that a winner of another member outranks. */
  read(members: number[], add: Add): void {
    const live = members.filter((g) => this.#shared[g].length > 0);
    if (live.length < 2) return;
    const { walked, looked } = this.#split(live);
    const meanings = this.#walk(walked);
    this.#lookUp(looked, meanings, add);
    const { meaning, best } = this.#rules;
    for (const g of walked) for (const w of this.#shared[g]) if (best[meaning[w]] !== w) report(this.#rules, w, best[meaning[w]], add);
    this.#remember(live);
  }

  /**
   * The members to walk and those to look up (that all met): the largest only, or members
   * that met one another, when that walks less.
   */
  #split(live: number[]): { walked: number[]; looked: number[] } {
    const shared = this.#shared;
    const bySize = [...live].sort((a, b) => shared[b].length - shared[a].length);
    const plain = { walked: bySize.slice(1), looked: bySize.slice(0, 1) };
    const looked = live.length <= REMEMBERED_MERGE ? this.#metLargest(bySize) : this.#lastTogether(bySize);
    const lookedUp = new Set(looked);
    const walked = bySize.filter((g) => !lookedUp.has(g));
    const size = (list: number[]) => list.reduce((n, g) => n + shared[g].length, 0);
    return size(walked) * looked.length < size(plain.walked) ? { walked, looked } : plain;
  }

  /** Members from the largest down that met every one taken before them. */
  #metLargest(bySize: number[]): number[] {
    const looked: number[] = [];
    for (const g of bySize) if (looked.every((h) => this.#haveMet(g, h))) looked.push(g);
    return looked;
  }

  /** The members whose last merge was the same, the one holding the most shared winners. */
  #lastTogether(bySize: number[]): number[] {
    const sizes = new Map<number, number>();
    for (const g of bySize) if (this.#last[g] >= 0) sizes.set(this.#last[g], (sizes.get(this.#last[g]) ?? 0) + this.#shared[g].length);
    let last = -1;
    for (const [merge, size] of sizes) if (last < 0 || size > sizes.get(last)!) last = merge;
    return last < 0 ? bySize.slice(0, 1) : bySize.filter((g) => this.#last[g] === last);
  }

  #haveMet(a: number, b: number): boolean {
    return (this.#last[a] >= 0 && this.#last[a] === this.#last[b]) || this.#met.has(this.#pair(a, b));
  }

  /** Walks the members' shared winners: the best of each meaning among them; returns the meanings met. */
  #walk(walked: number[]): number[] {
    const rules = this.#rules;
    const { meaning, mark, best } = rules;
    const stamp = ++rules.stamp;
    const meanings: number[] = [];
    for (const g of walked) {
      for (const w of this.#shared[g]) {
        const m = meaning[w];
        if (mark[m] !== stamp) {
          mark[m] = stamp;
          best[m] = w;
          meanings.push(m);
        } else if (outranks(rules, w, best[m])) {
          best[m] = w;
        }
      }
    }
    return meanings;
  }

  /** Folds the looked-up members' winners of `meanings` into the best, and reports those it outranks. */
  #lookUp(looked: number[], meanings: number[], add: Add): void {
    const rules = this.#rules;
    const { best } = rules;
    const indexes = looked.map((g) => this.#index(g));
    for (const m of meanings) {
      for (const index of indexes) {
        const w = index.get(m);
        if (w !== undefined && outranks(rules, w, best[m])) best[m] = w;
      }
      for (const index of indexes) {
        const w = index.get(m);
        if (w !== undefined && w !== best[m]) report(rules, w, best[m], add);
      }
    }
  }

  /** A group's shared winners by meaning. */
  #index(g: number): Map<number, number> {
    const meaning = this.#rules.meaning;
    return (this.#indexes[g] ??= new Map(this.#shared[g].map((w) => [meaning[w], w])));
  }

  #pair(a: number, b: number): number {
    return a < b ? a * this.#shared.length + b : b * this.#shared.length + a;
  }

  #remember(live: number[]): void {
    const merge = this.#merges++;
    for (const g of live) this.#last[g] = merge;
    if (live.length > REMEMBERED_MERGE) return;
    for (let i = 0; i < live.length; i++) for (let j = i + 1; j < live.length; j++) this.#met.add(this.#pair(live[i], live[j]));
  }
}

/** Reports `rule`, which `winner` outranks, unless it was reported already: a duplicate when of the same kind, else shadowed. */
function report(rules: RankedRules, rule: number, winner: number, add: Add): void {
  if (rules.reported[rule] === 1) return;
  rules.reported[rule] = 1;
  const { structure, patterns, allows } = rules;
  const kind = (r: number) => (allows[r] === 1 ? 'allow' : 'disallow');
  const line = ruleLine(structure, rule);
  const winnerLine = ruleLine(structure, winner);
  if (allows[rule] === allows[winner]) {
    add(line, 'info', 'duplicate-rule', `"${kind(rule)}: ${patterns[rule]}" repeats the rule of line ${winnerLine}`);
  } else {
    const quoted = patterns[winner].length > QUOTED_PATTERN_MAX ? `${patterns[winner].slice(0, QUOTED_PATTERN_MAX)}...` : patterns[winner];
    add(line, 'warning', 'shadowed-rule', `"${kind(rule)}: ${patterns[rule]}" never decides: "${kind(winner)}: ${quoted}" (line ${winnerLine}) matches the same paths and wins`);
  }
}
