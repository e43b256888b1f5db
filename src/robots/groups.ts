// lines -> groups: which rules belong to which user-agents (RFC 9309 2.1, 2.2.1).
// Consecutive user-agent lines open one group and a user-agent line after a rule opens the
// next; blank lines and other records (sitemap, crawl-delay, ...) never end a group; rules
// before the first user-agent line belong to no group and are ignored.

import { agentKey, asciiLower } from './agent.js';
import { asciiString } from '../wasm/strings.js';
import { latin1Bytes, latin1Runs } from '../encoding.js';
import type { Mode } from './options.js';
import {
  KIND_ALLOW, KIND_DISALLOW, KIND_NONE, KIND_SITEMAP, KIND_USER_AGENT, LINE_AGENT_GLOBAL,
} from '../wasm/abi.js';
import { forEachLineChunk, RECORD_WORDS } from './parse.js';

export interface RuleRecord {
  allow: boolean;
  /** 1-based line number in the file. */
  line: number;
  /** Byte range of the pattern as written (trimmed, comment removed) in RobotsStructure.values. */
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
  /**
   * The bytes of the rule and sitemap values, copied out of the body: a parsed file holds
   * neither the body (often mostly comments, or an HTML page) nor the kernel memory a string
   * body was read from. Up to STRING_VALUES_MAX bytes they are a string, one char per byte
   * (Latin-1): a typed array of its own is an allocation outside the JS heap, which cost
   * about 6% of a 3 KB parse, while a small string is allocated on the heap. Above it, a
   * string goes to the heap's large-object space, which cost a 150 KB file 16% of its parse.
   */
  values: KeptValues;
  rules: RuleRecord[];
  groups: GroupRecord[];
  /** Byte ranges (start, end pairs) of the sitemap values in `values`, in file order. */
  sitemapRanges: number[];
  /** Byte ranges (start, end pairs) of the `Host:` values in `values`, in file order. */
  hostRanges: number[];
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

/** The key is `host` (any case): Yandex's preferred-host record, which robots-parser reports. */
function isHostKey(bytes: Uint8Array, start: number, end: number): boolean {
  if (end - start !== 4) return false;
  // `| 0x20` lowercases a letter, and turns no other byte into one of these four.
  for (let i = 0; i < 4; i++) if ((bytes[start + i] | 0x20) !== 'host'.charCodeAt(i)) return false;
  return true;
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

/** RobotsStructure.values: bytes, as a Latin-1 string when they are few. */
export type KeptValues = string | Uint8Array;

/** Kept values up to this many bytes are a string (see RobotsStructure.values). */
const STRING_VALUES_MAX = 32 * 1024;

/** The bytes values[start, end) (see RobotsStructure.values). */
function valueBytes(values: KeptValues, start: number, end: number): Uint8Array {
  return typeof values === 'string' ? latin1Bytes(values.slice(start, end)) : values.subarray(start, end);
}

/** The text of values[start, end) (see RobotsStructure.values), decoded as UTF-8. */
export function valueText(values: KeptValues, start: number, end: number): string {
  return decoder.decode(valueBytes(values, start, end));
}

/** The texts of the value ranges (start, end pairs) of `values`, in order. */
export function valueTexts(values: KeptValues, ranges: readonly number[]): string[] {
  const texts: string[] = [];
  for (let i = 0; i < ranges.length; i += 2) texts.push(valueText(values, ranges[i], ranges[i + 1]));
  return texts;
}

/** The absolute sitemap URLs among the recorded values, as written, each once, in file order. */
export function sitemapUrls(values: KeptValues, ranges: readonly number[]): string[] {
  return [...new Set(valueTexts(values, ranges).filter(hasScheme))];
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

/**
 * Values closer than this share one copy: copying the bytes between them costs less than one
 * more copy call.
 */
const MAX_GAP = 256;

/**
 * Collects the value ranges a structure keeps, in file order, as runs of body bytes, and
 * says where each range will be in the copy of those runs.
 */
class ValueRuns {
  /** Start, end pairs in the body. */
  readonly #runs: number[] = [];
  /** Bytes of the copy taken by the runs before the last. */
  #before = 0;

  /** Where `start` will be in the copy; ranges come in ascending order. */
  keep(start: number, end: number): number {
    const runs = this.#runs;
    const last = runs.length - 2;
    if (last < 0 || start - runs[last + 1] > MAX_GAP) {
      if (last >= 0) this.#before += runs[last + 1] - runs[last];
      runs.push(start, end);
      return this.#before;
    }
    runs[last + 1] = end;
    return this.#before + start - runs[last];
  }

  /** The runs of `bytes`, one after the other (see RobotsStructure.values). */
  copy(bytes: Uint8Array): KeptValues {
    const runs = this.#runs;
    let size = 0;
    for (let r = 0; r < runs.length; r += 2) size += runs[r + 1] - runs[r];
    if (size <= STRING_VALUES_MAX) return latin1Runs(bytes, runs);
    const values = new Uint8Array(size);
    for (let r = 0, at = 0; r < runs.length; at += runs[r + 1] - runs[r], r += 2) values.set(bytes.subarray(runs[r], runs[r + 1]), at);
    return values;
  }
}

/**
 * Builds the group structure of a robots.txt body. The structure keeps a copy of the values
 * it needs, not `bytes`.
 */
export function buildGroups(bytes: Uint8Array, mode: Mode): RobotsStructure {
  const rules: RuleRecord[] = [];
  const groups: GroupRecord[] = [];
  const sitemapRanges: number[] = [];
  const hostRanges: number[] = [];
  const agentGroups = new Map<string, number[]>();
  const globalGroups: number[] = [];
  const kept = new ValueRuns();
  let current: GroupRecord | undefined;
  let inRules = false;

  // The records are a view of kernel memory: nothing below may call into the kernel.
  forEachLineChunk(bytes, mode, (records, count, firstLine) => {
    // Constants as locals (see RECORD_WORDS): with imports, this loop was 12 of the 146 us of
    // parsing an HTML page (renderotica).
    const { stride, kindFlagsAt, valueStartAt, valueEndAt, agentAt, keyStartAt, keyEndAt } = RECORD_WORDS;
    const none = KIND_NONE;
    const userAgent = KIND_USER_AGENT;
    for (let r = 0, at = 0; r < count; r++, at += stride) {
      const kind = records[at + kindFlagsAt] & 0xff;
      if (kind === none) continue;
      const line = firstLine + r;
      const valueStart = records[at + valueStartAt];
      const valueEnd = records[at + valueEndAt];
      if (kind === userAgent) {
        if (current === undefined || inRules) {
          current = { agents: [], global: false, line, ruleStart: rules.length, ruleEnd: rules.length, crawlDelay: undefined };
          groups.push(current);
          inRules = false;
        }
        const index = groups.length - 1;
        const token = records[at + agentAt];
        if (token === LINE_AGENT_GLOBAL) {
          if (!current.global) {
            current.global = true;
            globalGroups.push(index);
          }
          continue;
        }
        const name = asciiLower(asciiString(bytes, valueStart, valueStart + token));
        // An empty token (`*bot`, `/x`) names no product; only the reference's quirk of
        // comparing it with an empty caller agent keeps it, in google mode.
        if (name.length === 0 && mode === 'rfc') continue;
        current.agents.push(name);
        const list = agentGroups.get(name);
        if (list === undefined) agentGroups.set(name, [index]);
        else if (list[list.length - 1] !== index) list.push(index);
      } else if (kind === KIND_ALLOW || kind === KIND_DISALLOW) {
        if (current === undefined) continue;
        const at = kept.keep(valueStart, valueEnd);
        rules.push({ allow: kind === KIND_ALLOW, line, valueStart: at, valueEnd: at + valueEnd - valueStart });
        current.ruleEnd = rules.length;
        inRules = true;
      } else if (kind === KIND_SITEMAP) {
        const at = kept.keep(valueStart, valueEnd);
        sitemapRanges.push(at, at + valueEnd - valueStart);
      } else {
        // Other records: a group's first crawl-delay, and Host values (a file-wide record).
        const keyStart = records[at + keyStartAt];
        const keyEnd = records[at + keyEndAt];
        if (isHostKey(bytes, keyStart, keyEnd)) {
          const at = kept.keep(valueStart, valueEnd);
          hostRanges.push(at, at + valueEnd - valueStart);
        } else if (current !== undefined && current.crawlDelay === undefined && isCrawlDelayKey(bytes, keyStart, keyEnd)) {
          current.crawlDelay = parseSeconds(bytes, valueStart, valueEnd);
        }
      }
    }
  });
  return { values: kept.copy(bytes), rules, groups, sitemapRanges, hostRanges, agentGroups, globalGroups };
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
