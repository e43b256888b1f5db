// lines -> groups: which rules belong to which user-agents (RFC 9309 2.1, 2.2.1).
// Consecutive user-agent lines open one group and a user-agent line after a rule opens the
// next; blank lines and other records (sitemap, crawl-delay, ...) never end a group; rules
// before the first user-agent line belong to no group and are ignored. Each other record's
// value goes where its directive's handler (DIRECTIVE_HANDLERS) puts it.

import { agentKey, asciiLower } from './agent.js';
import { asciiString } from '../wasm/strings.js';
import { latin1Bytes, latin1Runs } from '../encoding.js';
import type { Mode } from './options.js';
import {
  DIRECTIVE_ALLOW, DIRECTIVE_DISALLOW, DIRECTIVE_NONE, DIRECTIVE_USER_AGENT, LINE_AGENT_GLOBAL,
} from './directives.js';
import { DIRECTIVE_IDS, forEachLineChunk, RECORD_WORDS } from './parse.js';

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
   * The bytes of the values the structure keeps (rules, sitemaps, hosts), copied out of the
   * body: a parsed file holds neither the body (often mostly comments, or an HTML page) nor
   * the kernel memory a string body was read from. Up to STRING_VALUES_MAX bytes they are a
   * string, one char per byte (Latin-1): a typed array of its own is an allocation outside
   * the JS heap, dearer than a small string on it; a larger string would go to the heap's
   * large-object space, dearer than the typed array.
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

/** What a directive's handler may add to: the structure being built, and the body it reads. */
interface GroupsBuilder {
  readonly bytes: Uint8Array;
  readonly kept: ValueRuns;
  readonly sitemapRanges: number[];
  readonly hostRanges: number[];
}

/**
 * Takes the value bytes[valueStart, valueEnd) of a line on `line` whose directive is not
 * user-agent, allow or disallow (those make the groups). `group` is the group the line is in:
 * the last one opened, or undefined before the first user-agent line. A handler cannot end
 * a group.
 */
type DirectiveHandler = (b: GroupsBuilder, group: GroupRecord | undefined, line: number, valueStart: number, valueEnd: number) => void;

/** Keeps bytes[start, end) and adds its range in RobotsStructure.values to `ranges`. */
function keepRange(b: GroupsBuilder, ranges: number[], start: number, end: number): void {
  const at = b.kept.keep(start, end);
  ranges.push(at, at + end - start);
}

/** Where the value of each directive of DIRECTIVE_TABLE goes, by name; a directive without one is ignored. */
const DIRECTIVE_HANDLERS: { readonly [name: string]: DirectiveHandler } = {
  sitemap: (b, _group, _line, start, end) => keepRange(b, b.sitemapRanges, start, end),
  // Yandex's preferred host, file-wide, which robots-parser reports.
  host: (b, _group, _line, start, end) => keepRange(b, b.hostRanges, start, end),
  // The group's first valid crawl-delay.
  'crawl-delay': (b, group, _line, start, end) => {
    if (group !== undefined && group.crawlDelay === undefined) group.crawlDelay = parseSeconds(b.bytes, start, end);
  },
};

/** DIRECTIVE_HANDLERS by directive id (a line record's low byte). */
const HANDLERS_BY_ID = Array.from({ length: 256 }, (): DirectiveHandler | undefined => undefined);
for (const [name, handler] of Object.entries(DIRECTIVE_HANDLERS)) {
  const id = DIRECTIVE_IDS.get(name);
  if (id === undefined) throw new Error(`robots-wasm: a handler for "${name}", which DIRECTIVE_TABLE does not name`);
  HANDLERS_BY_ID[id] = handler;
}

/** Reads a chunk of line records (see forEachLineChunk). */
export type ChunkVisitor = (records: Uint32Array, count: number, firstLine: number) => void;

/**
 * Builds the group structure of a robots.txt body. The structure keeps a copy of the values
 * it needs, not `bytes`.
 */
export function buildGroups(bytes: Uint8Array, mode: Mode): RobotsStructure {
  const builder = groupsBuilder(bytes, mode);
  forEachLineChunk(bytes, mode, builder.visit);
  return builder.finish();
}

/**
 * The group builder of buildGroups, for a caller that reads the line records itself (the
 * linter): `visit` takes every chunk of records in order, `finish` returns the structure.
 */
export function groupsBuilder(bytes: Uint8Array, mode: Mode): { visit: ChunkVisitor; finish: () => RobotsStructure } {
  const rules: RuleRecord[] = [];
  const groups: GroupRecord[] = [];
  const sitemapRanges: number[] = [];
  const hostRanges: number[] = [];
  const agentGroups = new Map<string, number[]>();
  const globalGroups: number[] = [];
  const kept = new ValueRuns();
  const builder: GroupsBuilder = { bytes, kept, sitemapRanges, hostRanges };
  let current: GroupRecord | undefined;
  let inRules = false;

  // The records are a view of kernel memory: nothing below may call into the kernel.
  const visit: ChunkVisitor = (records, count, firstLine) => {
    // Constants as locals (see RECORD_WORDS).
    const { stride, directiveFlagsAt, valueStartAt, valueEndAt, agentAt } = RECORD_WORDS;
    const none = DIRECTIVE_NONE;
    const userAgent = DIRECTIVE_USER_AGENT;
    const allow = DIRECTIVE_ALLOW;
    const disallow = DIRECTIVE_DISALLOW;
    const handlers = HANDLERS_BY_ID;
    for (let r = 0, at = 0; r < count; r++, at += stride) {
      const directive = records[at + directiveFlagsAt] & 0xff;
      if (directive === none) continue;
      const line = firstLine + r;
      const valueStart = records[at + valueStartAt];
      const valueEnd = records[at + valueEndAt];
      if (directive === userAgent) {
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
      } else if (directive === allow || directive === disallow) {
        if (current === undefined) continue;
        const at = kept.keep(valueStart, valueEnd);
        rules.push({ allow: directive === allow, line, valueStart: at, valueEnd: at + valueEnd - valueStart });
        current.ruleEnd = rules.length;
        inRules = true;
      } else {
        handlers[directive]?.(builder, current, line, valueStart, valueEnd);
      }
    }
  };
  const finish = () => ({ values: kept.copy(bytes), rules, groups, sitemapRanges, hostRanges, agentGroups, globalGroups });
  return { visit, finish };
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
