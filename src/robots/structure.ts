// groups -> the parsed file as a cache keeps it: what the kernel's group builder
// (assembly/groups.ts) builds from the line records, packed into three values (bytes, numbers,
// agent names) rather than an object per rule and group, because a crawler keeps one per host
// for a day; and the readers of it.

import { latin1Bytes } from '../encoding.js';
import { agentKey } from './agent.js';
import { DIRECTIVE_SITEMAP } from './directives.js';
import type { Mode } from './options.js';
import { DIRECTIVE_IDS } from './parse.js';
import {
  GROUP_DELAY_END, GROUP_DELAY_START, GROUP_FIRST_RULE, GROUP_GLOBAL, GROUP_LINE, GROUP_WORDS, HEADER_WORDS, RECORD_DIRECTIVE, RECORD_END,
  RECORD_GROUP, RECORD_KEY, RECORD_LINE, RECORD_VALUE, RECORD_WORDS, RULE_WORDS,
} from './layout.js';

/**
 * A parsed file's groups, rules and file-wide values. `words` holds the integers of
 * src/robots/layout.ts as UTF-16 units: one each in a narrow structure (every word fits 16
 * bits, as in most files; 0xffff is -1), else two (low half, high half). A string rather than
 * an Int32Array, which would cost an ArrayBuffer and an allocation outside the JS heap per
 * parsed file, several times the time and bytes of a small string.
 */
export interface RobotsStructure {
  /** The values kept: the rules' (back to back, in file order), then the others'. */
  readonly values: KeptValues;
  readonly words: string;
  /** Two units a word, not one. */
  readonly wide: boolean;
  /** The lowercased product token of each user-agent line but `*` ones, each followed by '\n', in file order. */
  readonly tokens: string;
}

/**
 * RobotsStructure.values: the bytes, as a Latin-1 string (one char per byte) up to
 * STRING_VALUES_MAX bytes: a typed array of its own is an allocation outside the JS heap,
 * dearer than a small string on it; a larger string would go to the heap's large-object
 * space, dearer than the typed array.
 */
export type KeptValues = string | Uint8Array;

/** Kept values up to this many bytes are a string (see KeptValues). */
export const STRING_VALUES_MAX = 32 * 1024;

/** Agent tokens past this many are looked up through a map (agentIndex) rather than a scan. */
const SCANNED_TOKENS = 32;

const decoder = new TextDecoder();

/** The word at `index` of s.words. */
export function word(s: RobotsStructure, index: number): number {
  if (s.wide) return s.words.charCodeAt(2 * index) | (s.words.charCodeAt(2 * index + 1) << 16);
  const unit = s.words.charCodeAt(index);
  return unit === 0xffff ? -1 : unit;
}

export function ruleCount(s: RobotsStructure): number {
  return word(s, 0);
}

export function groupCount(s: RobotsStructure): number {
  return word(s, 1);
}

function tokenCount(s: RobotsStructure): number {
  return word(s, 2);
}

function groupsAt(s: RobotsStructure): number {
  return HEADER_WORDS + RULE_WORDS * ruleCount(s) + 1;
}

function tokensAt(s: RobotsStructure): number {
  return groupsAt(s) + GROUP_WORDS * groupCount(s);
}

function recordsAt(s: RobotsStructure): number {
  return tokensAt(s) + tokenCount(s);
}

export function recordCount(s: RobotsStructure): number {
  return word(s, 3);
}

function recordWord(s: RobotsStructure, record: number, field: number): number {
  return word(s, recordsAt(s) + RECORD_WORDS * record + field);
}

/** The directive id of extension record `r`. */
export function recordDirective(s: RobotsStructure, r: number): number {
  return recordWord(s, r, RECORD_DIRECTIVE);
}

/** The group extension record `r` is in, or -1 before the first user-agent line. */
export function recordGroup(s: RobotsStructure, r: number): number {
  return recordWord(s, r, RECORD_GROUP) - 1;
}

export function ruleValueStart(s: RobotsStructure, rule: number): number {
  return word(s, HEADER_WORDS + RULE_WORDS * rule);
}

export function ruleValueEnd(s: RobotsStructure, rule: number): number {
  return word(s, HEADER_WORDS + RULE_WORDS * (rule + 1));
}

export function ruleLine(s: RobotsStructure, rule: number): number {
  return word(s, HEADER_WORDS + RULE_WORDS * rule + 1) >>> 1;
}

export function ruleAllows(s: RobotsStructure, rule: number): boolean {
  return (word(s, HEADER_WORDS + RULE_WORDS * rule + 1) & 1) === 1;
}

/**
 * The words of rules [from, to) and the value start of rule `to` (its end, for the last rule),
 * as the string holds them: the compiler's input (src/wasm/abi.ts).
 */
export function ruleWordsText(s: RobotsStructure, from: number, to: number): string {
  const units = s.wide ? 2 : 1;
  return s.words.slice(units * (HEADER_WORDS + RULE_WORDS * from), units * (HEADER_WORDS + RULE_WORDS * to + 1));
}

/** The rule's value as written (trimmed, comment removed). */
export function ruleText(s: RobotsStructure, rule: number): string {
  return valueText(s.values, ruleValueStart(s, rule), ruleValueEnd(s, rule));
}

/** Index of the rule on `line`, which holds a rule (rules are in file order, one per line). */
export function ruleOnLine(s: RobotsStructure, line: number): number {
  let lo = 0;
  let hi = ruleCount(s) - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ruleLine(s, mid) < line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A group's field (GROUP_*). */
export function groupWord(s: RobotsStructure, group: number, field: number): number {
  return word(s, groupsAt(s) + GROUP_WORDS * group + field);
}

/** The group's rules are [groupRuleStart, groupRuleEnd). */
export function groupRuleStart(s: RobotsStructure, group: number): number {
  return groupWord(s, group, GROUP_FIRST_RULE);
}

export function groupRuleEnd(s: RobotsStructure, group: number): number {
  return group + 1 < groupCount(s) ? groupRuleStart(s, group + 1) : ruleCount(s);
}

/** The longest crawl-delay given, in seconds (a day): a longer one asks as plainly to crawl slowly, and no crawler schedules on 1e20 s. */
export const MAX_CRAWL_DELAY_S = 86_400;

/** The group's first valid crawl-delay, in seconds, clamped to MAX_CRAWL_DELAY_S. */
export function groupCrawlDelay(s: RobotsStructure, group: number): number | undefined {
  const start = groupWord(s, group, GROUP_DELAY_START);
  return start < 0 ? undefined : Math.min(Number(valueText(s.values, start, groupWord(s, group, GROUP_DELAY_END))), MAX_CRAWL_DELAY_S);
}

/** A group, decoded. */
export interface GroupRecord {
  /** Lowercased product tokens of the group's user-agent lines (`*` lines excluded). */
  agents: string[];
  /** A `user-agent: *` line names this group. */
  global: boolean;
  /** Line of the group's first user-agent line. */
  line: number;
  /** The group's rules are rules [ruleStart, ruleEnd). */
  ruleStart: number;
  ruleEnd: number;
  crawlDelay: number | undefined;
}

/** Every group, decoded, in file order. */
export function groupRecords(s: RobotsStructure): GroupRecord[] {
  const groups: GroupRecord[] = [];
  for (let g = 0; g < groupCount(s); g++) {
    groups.push({
      agents: [], global: groupWord(s, g, GROUP_GLOBAL) === 1, line: groupWord(s, g, GROUP_LINE), ruleStart: groupRuleStart(s, g),
      ruleEnd: groupRuleEnd(s, g), crawlDelay: groupCrawlDelay(s, g),
    });
  }
  forEachToken(s, (token, group) => groups[group].agents.push(token));
  return groups;
}

/** Calls `visit` with each agent token of the file and its group, in file order. */
function forEachToken(s: RobotsStructure, visit: (token: string, group: number) => void): void {
  const { tokens } = s;
  const at = tokensAt(s);
  for (let t = 0, from = 0; from < tokens.length; t++) {
    const end = tokens.indexOf('\n', from);
    visit(tokens.slice(from, end), word(s, at + t));
    from = end + 1;
  }
}

/** The distinct agent tokens, in file order. */
export function agentTokens(s: RobotsStructure): string[] {
  const seen = new Set<string>();
  forEachToken(s, (token) => seen.add(token));
  return [...seen];
}

/** Groups by agent token, for files with many tokens (see groupsFor). */
export type AgentIndex = Map<string, number[]>;

/** The groups naming each agent token, in file order. */
export function agentIndex(s: RobotsStructure): AgentIndex {
  const index: AgentIndex = new Map();
  forEachToken(s, (token, group) => {
    const list = index.get(token);
    if (list === undefined) index.set(token, [group]);
    else if (list[list.length - 1] !== group) list.push(group);
  });
  return index;
}

/** Whether the file has so many agent tokens that groupsFor wants an AgentIndex. */
export function wantsAgentIndex(s: RobotsStructure): boolean {
  return tokenCount(s) > SCANNED_TOKENS;
}

/** The groups a token of the file names, in file order, by a scan of the tokens. */
function groupsNaming(s: RobotsStructure, key: string): number[] {
  const { tokens } = s;
  const at = tokensAt(s);
  const groups: number[] = [];
  for (let t = 0, from = 0; from < tokens.length; t++) {
    const end = tokens.indexOf('\n', from);
    if (end - from === key.length && tokens.startsWith(key, from)) {
      const group = word(s, at + t);
      if (groups[groups.length - 1] !== group) groups.push(group);
    }
    from = end + 1;
  }
  // A copy of exactly its length: a matcher keeps it, and push leaves room for more.
  return groups.slice();
}

/** The groups a `*` line names, in file order. */
export function globalGroups(s: RobotsStructure): number[] {
  const groups: number[] = [];
  for (let g = 0; g < groupCount(s); g++) if (groupWord(s, g, GROUP_GLOBAL) === 1) groups.push(g);
  // A copy of exactly its length: a matcher keeps it, and push leaves room for more.
  return groups.slice();
}

/**
 * The groups whose rules apply to `agent`: every group naming it, merged; or, when none
 * does, every `*` group (RFC 9309 2.2.1). Also says which of the two it was. `index`: the
 * file's AgentIndex, when wantsAgentIndex says it has one.
 */
export function groupsFor(s: RobotsStructure, agent: string, mode: Mode, index?: AgentIndex): { groups: number[]; specific: boolean } {
  const key = agentKey(agent, mode);
  if (key !== undefined) {
    const named = index !== undefined ? index.get(key) ?? [] : groupsNaming(s, key);
    if (named.length > 0) return { groups: named, specific: true };
  }
  return { groups: globalGroups(s), specific: false };
}

/** An extension record of the file, decoded. */
export interface ExtensionRecord {
  /** The key as written. */
  key: string;
  value: string;
  line: number;
  /** Its directive id (a line record's low byte; DIRECTIVE_UNKNOWN for a key the table does not name). */
  directive: number;
  /** The group the line is in, or -1 before the first user-agent line. */
  group: number;
}

/** Extension record `r` (in file order). */
export function extensionRecord(s: RobotsStructure, r: number): ExtensionRecord {
  const value = recordWord(s, r, RECORD_VALUE);
  return {
    key: valueText(s.values, recordWord(s, r, RECORD_KEY), value),
    value: valueText(s.values, value, recordWord(s, r, RECORD_END)),
    line: recordWord(s, r, RECORD_LINE),
    directive: recordDirective(s, r),
    group: recordGroup(s, r),
  };
}

/** The values of the records of `directive`, in file order. */
function valuesOf(s: RobotsStructure, directive: number): string[] {
  const texts: string[] = [];
  for (let r = 0; r < recordCount(s); r++) {
    if (recordDirective(s, r) === directive) texts.push(valueText(s.values, recordWord(s, r, RECORD_VALUE), recordWord(s, r, RECORD_END)));
  }
  return texts;
}

/** The absolute URLs among the values of `directive`'s records, as written, each once, in file order. */
function absoluteUrls(s: RobotsStructure, directive: number): string[] {
  return [...new Set(valuesOf(s, directive).filter(hasScheme))];
}

/** The absolute sitemap URLs among the sitemap values, as written, each once, in file order. */
export function sitemapUrls(s: RobotsStructure): string[] {
  return absoluteUrls(s, DIRECTIVE_SITEMAP);
}

/** The directive id of `License:` (RSL 1.0), a record of the whole file rather than of the group it stands in. */
export const DIRECTIVE_LICENSE = DIRECTIVE_IDS.get('license')!;

/** The absolute URLs of the `License:` lines, wherever they stand, as written, each once, in file order. */
export function licenseUrls(s: RobotsStructure): string[] {
  return absoluteUrls(s, DIRECTIVE_LICENSE);
}

/** Does `text` start with a URL scheme and ':' (what sitemaps and licenses keep)? */
export function hasScheme(text: string): boolean {
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    const alpha = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
    if (!(alpha || (i > 0 && ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e)))) break;
    i++;
  }
  return i > 0 && text.charCodeAt(i) === 0x3a;
}

const DIRECTIVE_HOST = DIRECTIVE_IDS.get('host')!;

/** The texts of the `Host:` values, in file order. */
export function hostTexts(s: RobotsStructure): string[] {
  return valuesOf(s, DIRECTIVE_HOST);
}

/** The bytes values[start, end). */
function valueBytes(values: KeptValues, start: number, end: number): Uint8Array {
  return typeof values === 'string' ? latin1Bytes(values.slice(start, end)) : values.subarray(start, end);
}

/** The text of values[start, end), decoded as UTF-8. */
export function valueText(values: KeptValues, start: number, end: number): string {
  return decoder.decode(valueBytes(values, start, end));
}

/** Bytes of the object and string headers a structure holds besides its contents, about. */
const STRUCTURE_OVERHEAD_BYTES = 3 * 64;

/** About how many bytes the structure holds (RobotsTxt.retainedBytes). */
export function structureBytes(s: RobotsStructure): number {
  return s.values.length + 2 * s.words.length + s.tokens.length + STRUCTURE_OVERHEAD_BYTES;
}
