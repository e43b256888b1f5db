// AI usage signals of a robots.txt file: the Content-Usage rules of draft-ietf-aipref-attach
// (section 3) and Cloudflare's Content-Signal records, for the groups that apply to an agent.
//
// A Content-Usage rule is an optional path and a statement of preference (fields/usage.ts).
// Its paths are matched exactly as allow/disallow patterns are, by the same compiler and
// kernel: the rules' paths are compiled as the rules of a table of their own, whose deciding
// rule is the most specific path (longest encoded path). Rules with the identical path
// combine (vocab 5.1); a rule without a path applies to every path with length 0, so it
// answers only where no path matches. The most specific rule shadows shorter ones even when
// its statement states nothing known.
//
// A Content-Usage line is a rule, so in rfc mode a user-agent line after it opens the next
// group (assembly/groups.ts); google mode groups lines as Google's parser does, which has no
// Content-Usage and lets such a line continue the group. That is the one place the modes can
// differ here: Google's parser has nothing else to be exact with, so the paths are matched as
// RFC 9309 matches patterns in either mode.

import { compiledRules } from './compile/table.js';
import { combineUsage, readUsage, splitContentUsage, type UsagePreferences } from './fields/usage.js';
import { compiledRule, decide, matcherOf, type Matcher } from './matcher.js';
import { buildGroups } from './robots/groups.js';
import { DIRECTIVE_IDS } from './robots/parse.js';
import {
  extensionRecord, globalGroups, recordCount, recordDirective, recordGroup, type ExtensionRecord, type RobotsStructure,
} from './robots/structure.js';
import { escapePattern } from './url/path.js';
import { RESULT_NO_MATCH, RESULT_ROBOTS_TXT } from './wasm/abi.js';

const CONTENT_USAGE = DIRECTIVE_IDS.get('content-usage')!;
const CONTENT_SIGNAL = DIRECTIVE_IDS.get('content-signal')!;

/** A Content-Usage line as written, read. */
export interface ContentUsageRule {
  line: number;
  /** Its path, or '' when it has none. */
  path: string;
  /** The statement of preference as written. */
  value: string;
  /** What it states; undefined when the statement does not parse as a Dictionary. */
  usage: UsagePreferences | undefined;
}

/** The preferences that apply to a URL, and the rules they come from (none: no rule applies). */
export interface DecidedUsage {
  usage: UsagePreferences;
  rules: ContentUsageRule[];
}

/** The records of `directive` in `groups` (group numbers), in file order; only those are decoded. */
function recordsIn(s: RobotsStructure, groups: readonly number[], directive: number): ExtensionRecord[] {
  const wanted = new Set(groups);
  const found: ExtensionRecord[] = [];
  for (let r = 0; r < recordCount(s); r++) {
    if (recordDirective(s, r) === directive && wanted.has(recordGroup(s, r))) found.push(extensionRecord(s, r));
  }
  return found;
}

/** The Content-Usage rules of a set of groups, and the matcher of their paths (made on first use). */
export class ContentUsageRules {
  readonly rules: ContentUsageRule[];
  readonly #withPath: ContentUsageRule[];
  /** Each path-holding rule's path as the matcher compares it (made with the matcher). */
  #normalized: string[] = [];
  #matcher: Matcher | undefined;

  constructor(s: RobotsStructure, groups: readonly number[]) {
    this.rules = recordsIn(s, groups, CONTENT_USAGE).map(({ line, value }) => {
      const { path, statement } = splitContentUsage(value);
      return { line, path, value: statement, usage: readUsage(statement) };
    });
    this.#withPath = this.rules.filter((rule) => rule.path !== '');
  }

  /** The preferences for `url` (crawlable: the caller checks), with the rules they come from. */
  explain(url: string): DecidedUsage {
    const winner = this.#mostSpecific(url);
    const rules = winner < 0
      ? this.rules.filter((rule) => rule.path === '')
      : this.#withPath.filter((_, i) => this.#normalized[i] === this.#normalized[winner]);
    return { usage: combineUsage(...rules.map((rule) => rule.usage ?? {})), rules };
  }

  /** The index among the path-holding rules of the one that decides for `url` (longest path), or -1. */
  #mostSpecific(url: string): number {
    if (this.#withPath.length === 0) return -1;
    if (this.#matcher === undefined) {
      this.#matcher = pathMatcher(this.#withPath.map((rule) => rule.path));
      this.#normalized = this.#withPath.map((rule) => escapePattern(rule.path));
    }
    const r = decide(this.#matcher, url);
    if (r === RESULT_NO_MATCH || r === RESULT_ROBOTS_TXT) return -1;
    // Line 1 of the paths' file is its user-agent line; rule i is on line i + 2.
    return compiledRule(this.#matcher, r).line - 2;
  }

  /** The paths' matcher, if made: its owner counts and frees its table. */
  get matcher(): Matcher | undefined {
    return this.#matcher;
  }
}

/**
 * A matcher whose rule i (on line i + 2) is `paths[i]`: the paths as the disallow rules of one
 * group, parsed and compiled (rfc mode) as any file's rules are. No path holds a line end, '#'
 * or a blank: attach 3.2 ends a path at the first blank, and the line reader a value at '#'.
 */
function pathMatcher(paths: readonly string[]): Matcher {
  const body = `user-agent: *\n${paths.map((path) => `disallow: ${path}\n`).join('')}`;
  const s = buildGroups(new TextEncoder().encode(body), 'rfc');
  return matcherOf(compiledRules(s, globalGroups(s), 'rfc'));
}

/**
 * The Content-Signal keys known here, each with the values it takes: one line a key. A value is
 * matched in either case and returned lowercase.
 */
export const CONTENT_SIGNAL_KEYS = Object.freeze({
  search: ['yes', 'no'],
  'ai-input': ['yes', 'no'],
  'ai-train': ['yes', 'no'],
  use: ['immediate', 'reference', 'full'],
} as const);

/** A key of CONTENT_SIGNAL_KEYS. */
export type ContentSignalKey = keyof typeof CONTENT_SIGNAL_KEYS;

/** Content-Signal values by lowercased key: a known key's typed, any other key's as written. */
export type ContentSignals = { [K in ContentSignalKey]?: (typeof CONTENT_SIGNAL_KEYS)[K][number] } & { [key: string]: string };

/** Keys that CONTENT_SIGNAL_KEYS does not name kept at most: the rest are dropped, so that a hostile file costs little. */
export const MAX_UNKNOWN_SIGNALS = 32;

/** A known key's value as it is returned, or undefined when the key does not take it. */
function knownSignal(key: ContentSignalKey, value: string): string | undefined {
  const lower = value.toLowerCase();
  return (CONTENT_SIGNAL_KEYS[key] as readonly string[]).includes(lower) ? lower : undefined;
}

/**
 * The Content-Signal values of `groups` (Cloudflare's `key=value, ...` records), merged in file
 * order: a key given again takes its later value; keys are lowercased. A known key's value is
 * one it takes (any case, lowercased), else the part is skipped; other keys keep their values
 * as written, the first MAX_UNKNOWN_SIGNALS of them. A part without '=' or with an empty key is
 * skipped.
 */
export function contentSignals(s: RobotsStructure, groups: readonly number[]): ContentSignals {
  const signals: Record<string, string> = {};
  let unknown = 0;
  for (const { value } of recordsIn(s, groups, CONTENT_SIGNAL)) {
    for (const part of value.split(',')) {
      const [key, written] = signalPart(part);
      if (key === '' || key === '__proto__') continue;
      if (Object.hasOwn(CONTENT_SIGNAL_KEYS, key)) {
        const known = knownSignal(key as ContentSignalKey, written);
        if (known !== undefined) signals[key] = known;
      } else if (Object.hasOwn(signals, key) || unknown++ < MAX_UNKNOWN_SIGNALS) {
        signals[key] = written;
      }
    }
  }
  return signals as ContentSignals;
}

/** A `key=value` part's key, lowercased ('' when it has no '='), and its value as written, both trimmed. */
function signalPart(part: string): [string, string] {
  const eq = part.indexOf('=');
  return eq < 0 ? ['', ''] : [part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim()];
}
