// lines -> groups: which rules belong to which user-agents (RFC 9309 2.1, 2.2.1).
// Consecutive user-agent lines open one group and a user-agent line after a rule opens the
// next; blank lines and other records (sitemap, crawl-delay, ...) never end a group; rules
// before the first user-agent line belong to no group and are ignored.

import { agentKey, asciiLower, tokenPrefixLength } from './agent.js';
import type { Mode } from './options.js';
import { isSpace, parseLines, type RobotsLine } from './parse.js';

export interface RuleRecord {
  allow: boolean;
  /** 1-based line number in the file. */
  line: number;
  /** Byte range of the pattern as written (trimmed, comment removed) in the parsed body. */
  valueStart: number;
  valueEnd: number;
}

export interface GroupRecord {
  /** Lowercased product tokens of the group's user-agent lines (`*` lines excluded). */
  agents: string[];
  /** A `user-agent: *` line names this group. */
  global: boolean;
  /** Line of the group's first user-agent line. */
  line: number;
  /** The group's rules are rules[ruleStart, ruleEnd). */
  ruleStart: number;
  ruleEnd: number;
  /** First valid crawl-delay of the group, in seconds. */
  crawlDelay: number | undefined;
}

export interface RobotsStructure {
  rules: RuleRecord[];
  groups: GroupRecord[];
  sitemaps: string[];
  /** Group indices by lowercased product token. */
  agentGroups: Map<string, number[]>;
  /** Indices of the groups a `*` line names. */
  globalGroups: number[];
}

const decoder = new TextDecoder();

function isCrawlDelayKey(bytes: Uint8Array, start: number, end: number): boolean {
  // crawl-delay, with the spellings seen in the wild: crawldelay, crawl_delay, crawl delay.
  const want = 'crawldelay';
  let k = 0;
  for (let i = start; i < end; i++) {
    let c = bytes[i];
    if (c === 0x2d || c === 0x5f || c === 0x20) continue;
    if (c >= 0x41 && c <= 0x5a) c += 32;
    if (k >= want.length || c !== want.charCodeAt(k)) return false;
    k++;
  }
  return k === want.length;
}

/** A non-negative decimal number (`10`, `0.5`), or undefined; no exponents, signs or hex. */
function parseSeconds(bytes: Uint8Array, start: number, end: number): number | undefined {
  let digits = 0;
  let dots = 0;
  for (let i = start; i < end; i++) {
    const c = bytes[i];
    if (c >= 0x30 && c <= 0x39) digits++;
    else if (c === 0x2e && dots === 0) dots++;
    else return undefined;
  }
  if (digits === 0) return undefined;
  return Number(decoder.decode(bytes.subarray(start, end)));
}

function hasScheme(text: string): boolean {
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    const alpha = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
    if (!(alpha || (i > 0 && ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e)))) break;
    i++;
  }
  return i > 0 && text.charCodeAt(i) === 0x3a;
}

/** Builds the group structure of a robots.txt body. */
export function buildGroups(bytes: Uint8Array, mode: Mode): RobotsStructure {
  const rules: RuleRecord[] = [];
  const groups: GroupRecord[] = [];
  const sitemaps: string[] = [];
  const seenSitemaps = new Set<string>();
  const agentGroups = new Map<string, number[]>();
  const globalGroups: number[] = [];
  let current: GroupRecord | undefined;
  let inRules = false;

  const onUserAgent = (line: RobotsLine): void => {
    if (current === undefined || inRules) {
      current = { agents: [], global: false, line: line.number, ruleStart: rules.length, ruleEnd: rules.length, crawlDelay: undefined };
      groups.push(current);
      inRules = false;
    }
    const index = groups.length - 1;
    const { valueStart: vs, valueEnd: ve } = line;
    if (ve > vs && bytes[vs] === 0x2a && (ve - vs === 1 || isSpace(bytes[vs + 1]))) {
      if (!current.global) {
        current.global = true;
        globalGroups.push(index);
      }
      return;
    }
    const token = asciiLower(decoder.decode(bytes.subarray(vs, vs + tokenPrefixLength(bytes, vs, ve))));
    // An empty token (`*bot`, `/x`) names no product; only the reference's quirk of comparing
    // it with an empty caller agent keeps it, in google mode.
    if (token.length === 0 && mode === 'rfc') return;
    current.agents.push(token);
    const list = agentGroups.get(token);
    if (list === undefined) agentGroups.set(token, [index]);
    else if (list[list.length - 1] !== index) list.push(index);
  };

  parseLines(bytes, mode, (line) => {
    switch (line.kind) {
      case 'user-agent':
        onUserAgent(line);
        break;
      case 'allow':
      case 'disallow':
        if (current === undefined) break;
        rules.push({ allow: line.kind === 'allow', line: line.number, valueStart: line.valueStart, valueEnd: line.valueEnd });
        current.ruleEnd = rules.length;
        inRules = true;
        break;
      case 'sitemap': {
        const url = decoder.decode(bytes.subarray(line.valueStart, line.valueEnd));
        if (hasScheme(url) && !seenSitemaps.has(url)) {
          seenSitemaps.add(url);
          sitemaps.push(url);
        }
        break;
      }
      case 'unknown':
        if (current !== undefined && current.crawlDelay === undefined && isCrawlDelayKey(bytes, line.keyStart, line.keyEnd)) {
          current.crawlDelay = parseSeconds(bytes, line.valueStart, line.valueEnd);
        }
        break;
    }
  });
  return { rules, groups, sitemaps, agentGroups, globalGroups };
}

/**
 * The groups whose rules apply to `agent`: every group naming it, merged; or, when none
 * does, every `*` group (RFC 9309 2.2.1). Also says which of the two it was.
 */
export function groupsFor(structure: RobotsStructure, agent: string, mode: Mode): { groups: number[]; specific: boolean } {
  const key = agentKey(agent, mode);
  const named = key === undefined ? undefined : structure.agentGroups.get(key);
  if (named !== undefined) return { groups: named, specific: true };
  return { groups: structure.globalGroups, specific: false };
}
