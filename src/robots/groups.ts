// lines -> groups: which rules belong to which user-agents (RFC 9309 2.1, 2.2.1).
// Consecutive user-agent lines open one group and a user-agent line after a rule opens the
// next; blank lines and other records (sitemap, crawl-delay, ...) never end a group; rules
// before the first user-agent line belong to no group and are ignored. In rfc mode a
// Content-Usage line is a rule too (draft-ietf-aipref-attach 3 extends RFC 9309's rules), so
// it ends a group as allow and disallow do; google mode groups as Google's parser, which does
// not know it. Each other record's
// value goes where its directive's handler (DIRECTIVE_HANDLERS) puts it. The result is the
// packed RobotsStructure of structure.ts.

import { asciiLower } from './agent.js';
import { asciiString } from '../wasm/strings.js';
import { stringWriter, type StringWriter } from '../encoding.js';
import { kernel } from '../wasm/kernel.js';
import type { Mode } from './options.js';
import {
  DIRECTIVE_ALLOW, DIRECTIVE_DISALLOW, DIRECTIVE_NONE, DIRECTIVE_UNKNOWN, DIRECTIVE_USER_AGENT, LINE_AGENT_GLOBAL,
} from './directives.js';
import { DIRECTIVE_IDS, forEachLineChunk, RECORD_WORDS, type ChunkVisitor, type LineReading } from './parse.js';
import {
  GROUP_DELAY_END, GROUP_DELAY_START, GROUP_GLOBAL, GROUP_WORDS, HEADER_WORDS, RECORD_WORDS as RECORD_FIELDS, RULE_WORDS,
  STRING_VALUES_MAX, type KeptValues, type RobotsStructure,
} from './structure.js';

/** A non-negative decimal number (`10`, `0.5`): no exponents, signs or hex. */
function isSeconds(bytes: Uint8Array, start: number, end: number): boolean {
  let digits = 0;
  let dots = 0;
  for (let i = start; i < end; i++) {
    const c = bytes[i];
    if (c >= 0x30 && c <= 0x39) digits++;
    else if (c === 0x2e && dots === 0) dots++;
    else return false;
  }
  return digits > 0;
}

/**
 * What a group builder collects before pack() makes the RobotsStructure: the rules' words as
 * they will be kept (RuleWords), the groups (GROUP_WORDS each, the crawl-delay as a range of
 * `others`), the agent tokens and their groups, and the extension records (RECORD_FIELDS
 * each, their keys and values ranges of `others`).
 */
interface GroupsBuilder {
  readonly bytes: Uint8Array;
  readonly groups: number[];
  readonly tokens: string[];
  readonly tokenGroups: number[];
  readonly others: OtherValues;
  readonly records: number[];
}

/**
 * Reads more into an extension record than the record itself (every extension line is kept as
 * a record, key and value as written): its value is bytes[valueStart, valueEnd) of the body,
 * kept at `kept` among b.others. `group` is the group the line is in: the last one opened, or
 * -1 before the first user-agent line. A handler cannot end a group.
 */
type DirectiveHandler = (b: GroupsBuilder, group: number, valueStart: number, valueEnd: number, kept: number) => void;

/** What a directive of DIRECTIVE_TABLE means beyond its records, by name; most need nothing. */
const DIRECTIVE_HANDLERS: { readonly [name: string]: DirectiveHandler } = {
  // The group's first valid crawl-delay.
  'crawl-delay': (b, group, start, end, kept) => {
    const at = group * GROUP_WORDS;
    if (group >= 0 && b.groups[at + GROUP_DELAY_START] < 0 && isSeconds(b.bytes, start, end)) {
      b.groups[at + GROUP_DELAY_START] = kept;
      b.groups[at + GROUP_DELAY_END] = kept + end - start;
    }
  },
};

/**
 * Whether body[start, end), a key no directive names, is kept as a record: a token
 * ([A-Za-z][A-Za-z0-9_-]*), as record keys are written; the colon-holding lines of an HTML
 * page or a script served as robots.txt are not records.
 */
function isRecordKey(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = bytes[i] | 0x20;
    const letter = c >= 0x61 && c <= 0x7a;
    if (!(letter || (i > start && ((bytes[i] >= 0x30 && bytes[i] <= 0x39) || bytes[i] === 0x2d || bytes[i] === 0x5f)))) return false;
  }
  return end > start;
}

const DIRECTIVE_CONTENT_USAGE = DIRECTIVE_IDS.get('content-usage')!;

/** DIRECTIVE_HANDLERS by directive id (a line record's low byte). */
const HANDLERS_BY_ID = Array.from({ length: 256 }, (): DirectiveHandler | undefined => undefined);
for (const [name, handler] of Object.entries(DIRECTIVE_HANDLERS)) {
  const id = DIRECTIVE_IDS.get(name);
  if (id === undefined) throw new Error(`robots-wasm: a handler for "${name}", which DIRECTIVE_TABLE does not name`);
  HANDLERS_BY_ID[id] = handler;
}

/** Builds the group structure of a robots.txt body; it keeps a copy of the values it needs, not `bytes`. */
export function buildGroups(bytes: Uint8Array, mode: Mode): RobotsStructure {
  const builder = groupsBuilder(bytes, mode);
  return builder.finish(forEachLineChunk(bytes, mode, builder.visit, true));
}

/**
 * The group builder of buildGroups, for a caller that reads the line records itself (the
 * linter): `visit` takes every chunk of records in order, `finish` takes what the reading
 * gathered (forEachLineChunk with gatherRules) and returns the structure.
 */
export function groupsBuilder(bytes: Uint8Array, mode: Mode): { visit: ChunkVisitor; finish: (reading: LineReading) => RobotsStructure } {
  const b: GroupsBuilder = { bytes, groups: [], tokens: [], tokenGroups: [], others: new OtherValues(), records: [] };
  const rules = new RuleWords();
  let group = -1;
  let inRules = false;
  // Where the next rule's value will be among the gathered values: every allow and disallow
  // line's value is gathered, a rule before the first group's too.
  let valueAt = 0;

  // The records are a view of kernel memory: nothing below may call into the kernel.
  const visit: ChunkVisitor = (records, first, count, firstLine) => {
    // Constants as locals (see RECORD_WORDS).
    const { stride, directiveFlagsAt, keyStartAt, keyEndAt, valueStartAt, valueEndAt, agentAt } = RECORD_WORDS;
    const none = DIRECTIVE_NONE;
    const userAgent = DIRECTIVE_USER_AGENT;
    const allow = DIRECTIVE_ALLOW;
    const disallow = DIRECTIVE_DISALLOW;
    const handlers = HANDLERS_BY_ID;
    const { groups } = b;
    for (let r = 0, at = first; r < count; r++, at += stride) {
      const directive = records[at + directiveFlagsAt] & 0xff;
      if (directive === none) continue;
      const valueStart = records[at + valueStartAt];
      const valueEnd = records[at + valueEndAt];
      if (directive === allow || directive === disallow) {
        if (group >= 0) {
          rules.add(valueAt, 2 * (firstLine + r) + (directive === allow ? 1 : 0));
          inRules = true;
        }
        valueAt += valueEnd - valueStart;
      } else if (directive === userAgent) {
        if (group < 0 || inRules) {
          group++;
          groups.push(firstLine + r, rules.count, 0, -1, -1);
          inRules = false;
        }
        const token = records[at + agentAt];
        if (token === LINE_AGENT_GLOBAL) {
          groups[group * GROUP_WORDS + GROUP_GLOBAL] = 1;
          continue;
        }
        // An empty token (`*bot`, `/x`) names no product; only the reference's quirk of
        // comparing it with an empty caller agent keeps it, in google mode.
        if (token === 0 && mode === 'rfc') continue;
        b.tokens.push(asciiLower(asciiString(bytes, valueStart, valueStart + token)), '\n');
        b.tokenGroups.push(group);
      } else {
        const keyStart = records[at + keyStartAt];
        const keyEnd = records[at + keyEndAt];
        if (directive === DIRECTIVE_UNKNOWN && !isRecordKey(bytes, keyStart, keyEnd)) continue;
        const keyAt = b.others.add(keyStart, keyEnd);
        const kept = b.others.add(valueStart, valueEnd);
        b.records.push(firstLine + r, group + 1, directive, keyAt, kept, b.others.size);
        handlers[directive]?.(b, group, valueStart, valueEnd, kept);
        if (directive === DIRECTIVE_CONTENT_USAGE && mode === 'rfc' && group >= 0) inRules = true;
      }
    }
  };
  return { visit, finish: (reading) => pack(b, rules, reading) };
}

/** Bytes of a words array kept between parses: a larger one is made for its parse alone. */
const KEPT_WORDS_BYTES = 64 * 1024;

/**
 * The array of UTF-16 units a parse borrows to write its words into and gives back, so that
 * parsing a file allocates no typed array (each is an ArrayBuffer the collector must sweep);
 * a builder that finds it lent out (a parse within a parse) makes its own.
 */
const wordStaging = {
  kept: new Uint16Array(4096) as Uint16Array | undefined,
  reader: undefined as { buffer: ArrayBufferLike; text: StringWriter } | undefined,

  borrow(): Uint16Array {
    const units = this.kept ?? new Uint16Array(4096);
    this.kept = undefined;
    return units;
  },

  /** `units` with room for `length` units, its first `used` kept. */
  grow(units: Uint16Array, used: number, length: number): Uint16Array {
    if (length <= units.length) return units;
    const grown = new Uint16Array(Math.max(2 * units.length, length));
    grown.set(units.subarray(0, used));
    return grown;
  },

  /** units[0, length) as a string; `units` given back. */
  giveBack(units: Uint16Array, length: number): string {
    if (this.reader?.buffer !== units.buffer) this.reader = { buffer: units.buffer, text: stringWriter(units.buffer) };
    const text = this.reader.text.read(0, 2 * length, 'utf16le');
    if (units.byteLength <= KEPT_WORDS_BYTES) this.kept = units;
    else this.reader = undefined;
    return text;
  },
};

/**
 * The words of the rules being read (two per rule, RobotsStructure), as UTF-16 units after
 * HEADER_WORDS words left for pack(), in a borrowed array.
 */
class RuleWords {
  units = wordStaging.borrow();
  /** Units written, the header's included. */
  length = 2 * HEADER_WORDS;
  count = 0;

  add(valueAt: number, lineAllow: number): void {
    if (this.length + 2 * RULE_WORDS > this.units.length) this.reserve(2 * RULE_WORDS);
    this.put(valueAt);
    this.put(lineAllow);
    this.count++;
  }

  /** Room for `units` more units. */
  reserve(units: number): void {
    this.units = wordStaging.grow(this.units, this.length, this.length + units);
  }

  put(value: number): void {
    this.units[this.length++] = value & 0xffff;
    this.units[this.length++] = value >>> 16;
  }

  /** The units as a string, with `header` written first; the array goes back. */
  finish(header: readonly number[]): string {
    for (let w = 0; w < header.length; w++) {
      this.units[2 * w] = header[w] & 0xffff;
      this.units[2 * w + 1] = header[w] >>> 16;
    }
    return wordStaging.giveBack(this.units, this.length);
  }
}

/**
 * The keys and values of the extension records, as ranges of the body: pack() has them copied
 * after the rules' values, in the order added.
 */
class OtherValues {
  readonly ranges: number[] = [];
  /** Bytes of the values added so far. */
  size = 0;

  /** Keeps body[start, end) after the values so far; returns where it will start among them. */
  add(start: number, end: number): number {
    const at = this.size;
    this.ranges.push(start, end);
    this.size = at + end - start;
    return at;
  }
}

/**
 * The builder's findings as a RobotsStructure. The values are the rules' (gathered by the line
 * reader) followed by the others'; the other values' ranges move up by the rules' bytes.
 */
function pack(b: GroupsBuilder, rules: RuleWords, reading: LineReading): RobotsStructure {
  const { groups, tokenGroups, records, others } = b;
  const base = reading.ruleBytes;
  rules.reserve(2 * (1 + groups.length + tokenGroups.length + records.length));
  rules.put(base);
  for (let g = 0; g < groups.length; g += GROUP_WORDS) {
    const hasDelay = groups[g + GROUP_DELAY_START] >= 0;
    for (let w = 0; w < GROUP_WORDS; w++) rules.put(hasDelay && w >= GROUP_DELAY_START ? base + groups[g + w] : groups[g + w]);
  }
  for (let t = 0; t < tokenGroups.length; t++) rules.put(tokenGroups[t]);
  // A record's line, group and directive, then its three offsets among the values.
  for (let i = 0; i < records.length; i++) rules.put(i % RECORD_FIELDS < 3 ? records[i] : base + records[i]);
  const words = rules.finish([rules.count, groups.length / GROUP_WORDS, tokenGroups.length, records.length / RECORD_FIELDS]);
  return { values: keptValues(reading, others), words, tokens: b.tokens.join('') };
}

/** The gathered rule values in kernel memory, then the other values, as KeptValues. */
function keptValues(reading: LineReading, others: OtherValues): KeptValues {
  const k = kernel();
  const start = reading.ruleValues;
  // The others go after the rules' values (together they are no longer than the body), copied
  // by the kernel from the body, their ranges written where the records were.
  const { ranges } = others;
  const perCall = Math.floor(reading.spareBytes / 8);
  const words = reading.spare / 4;
  let end = start + reading.ruleBytes;
  for (let i = 0; i < ranges.length; ) {
    let n = 0;
    for (; n < perCall && i < ranges.length; n++, i += 2) {
      k.u32[words + 2 * n] = ranges[i];
      k.u32[words + 2 * n + 1] = ranges[i + 1];
    }
    end += k.fn.gatherRanges(reading.body, reading.spare, n, end);
  }
  return end - start <= STRING_VALUES_MAX ? k.readString(start, end, 'latin1') : k.u8.slice(start, end);
}
