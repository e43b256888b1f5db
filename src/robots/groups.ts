// lines -> groups: which rules belong to which user-agents (RFC 9309 2.1, 2.2.1).
// Consecutive user-agent lines open one group and a user-agent line after a rule opens the
// next; blank lines and other records (sitemap, crawl-delay, ...) never end a group; rules
// before the first user-agent line belong to no group and are ignored. Each other record's
// value goes where its directive's handler (DIRECTIVE_HANDLERS) puts it. The result is the
// packed RobotsStructure of structure.ts.

import { asciiLower } from './agent.js';
import { asciiString } from '../wasm/strings.js';
import { stringWriter, type StringWriter } from '../encoding.js';
import { kernel } from '../wasm/kernel.js';
import type { Mode } from './options.js';
import {
  DIRECTIVE_ALLOW, DIRECTIVE_DISALLOW, DIRECTIVE_NONE, DIRECTIVE_USER_AGENT, LINE_AGENT_GLOBAL,
} from './directives.js';
import { DIRECTIVE_IDS, forEachLineChunk, RECORD_WORDS, type ChunkVisitor, type LineReading } from './parse.js';
import {
  GROUP_DELAY_END, GROUP_DELAY_START, GROUP_GLOBAL, GROUP_WORDS, HEADER_WORDS, RULE_WORDS, STRING_VALUES_MAX,
  type KeptValues, type RobotsStructure,
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
 * `others`), the agent tokens and their groups, and the other values handlers keep, with the
 * ranges of the sitemaps and hosts among them.
 */
interface GroupsBuilder {
  readonly bytes: Uint8Array;
  readonly groups: number[];
  readonly tokens: string[];
  readonly tokenGroups: number[];
  readonly others: OtherValues;
  readonly sitemaps: number[];
  readonly hosts: number[];
}

/**
 * Takes the value bytes[valueStart, valueEnd) of a line whose directive is not user-agent,
 * allow or disallow (those make the groups). `group` is the group the line is in: the last one
 * opened, or -1 before the first user-agent line. A handler cannot end a group, and copies
 * what it keeps into b.others.
 */
type DirectiveHandler = (b: GroupsBuilder, group: number, valueStart: number, valueEnd: number) => void;

/** Where the value of each directive of DIRECTIVE_TABLE goes, by name; a directive without one is ignored. */
const DIRECTIVE_HANDLERS: { readonly [name: string]: DirectiveHandler } = {
  sitemap: (b, _group, start, end) => void b.sitemaps.push(b.others.add(b.bytes, start, end), b.others.size),
  // Yandex's preferred host, file-wide, which robots-parser reports.
  host: (b, _group, start, end) => void b.hosts.push(b.others.add(b.bytes, start, end), b.others.size),
  // The group's first valid crawl-delay.
  'crawl-delay': (b, group, start, end) => {
    const at = group * GROUP_WORDS;
    if (group >= 0 && b.groups[at + GROUP_DELAY_START] < 0 && isSeconds(b.bytes, start, end)) {
      b.groups[at + GROUP_DELAY_START] = b.others.add(b.bytes, start, end);
      b.groups[at + GROUP_DELAY_END] = b.others.size;
    }
  },
};

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
  const b: GroupsBuilder = { bytes, groups: [], tokens: [], tokenGroups: [], others: new OtherValues(), sitemaps: [], hosts: [] };
  const rules = new RuleWords();
  let group = -1;
  let inRules = false;
  // Where the next rule's value will be among the gathered values: every allow and disallow
  // line's value is gathered, a rule before the first group's too.
  let valueAt = 0;

  // The records are a view of kernel memory: nothing below may call into the kernel.
  const visit: ChunkVisitor = (records, first, count, firstLine) => {
    // Constants as locals (see RECORD_WORDS).
    const { stride, directiveFlagsAt, valueStartAt, valueEndAt, agentAt } = RECORD_WORDS;
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
        handlers[directive]?.(b, group, valueStart, valueEnd);
      }
    }
  };
  return { visit, finish: (reading) => pack(b, rules, reading) };
}

/** Bytes of the staging arrays kept between parses: larger ones are made for their parse alone. */
const KEPT_STAGING_BYTES = 64 * 1024;

/**
 * A growable array that a parse borrows and gives back, so that parsing a file allocates no
 * typed array (each is an ArrayBuffer the collector must sweep); a builder that finds it lent
 * out (a parse within a parse) makes its own.
 */
class Staging<T extends Uint8Array | Uint16Array> {
  #kept: T | undefined;
  #text: StringWriter | undefined;

  constructor(private readonly make: (length: number) => T) {
    this.#kept = make(4096);
  }

  borrow(): T {
    const array = this.#kept ?? this.make(4096);
    this.#kept = undefined;
    return array;
  }

  /** `array` with room for `length` elements, its first `used` kept. */
  grow(array: T, used: number, length: number): T {
    if (length <= array.length) return array;
    const grown = this.make(Math.max(2 * array.length, length));
    grown.set(array.subarray(0, used));
    return grown;
  }

  /** array[0, length) read as a string (`encoding`), and `array` given back. */
  giveBack(array: T, byteLength: number, encoding: 'latin1' | 'utf16le'): string {
    let text: StringWriter;
    if (array.byteLength <= KEPT_STAGING_BYTES) {
      if (array.buffer !== this.#lastBuffer) this.#text = stringWriter(array.buffer);
      this.#lastBuffer = array.buffer;
      text = this.#text!;
      this.#kept = array;
    } else {
      text = stringWriter(array.buffer);
    }
    return byteLength === 0 ? '' : text.read(0, byteLength, encoding);
  }

  /** Gives `array` back unread. */
  release(array: T): void {
    if (array.byteLength <= KEPT_STAGING_BYTES) this.#kept = array;
  }

  #lastBuffer: ArrayBufferLike | undefined;
}

const ruleStaging = new Staging((length) => new Uint16Array(length));
const otherStaging = new Staging((length) => new Uint8Array(length));

/**
 * The words of the rules being read (two per rule, RobotsStructure), as UTF-16 units after
 * HEADER_WORDS words left for pack(), in a borrowed array.
 */
class RuleWords {
  units = ruleStaging.borrow();
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
    this.units = ruleStaging.grow(this.units, this.length, this.length + units);
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
    return ruleStaging.giveBack(this.units, 2 * this.length, 'utf16le');
  }
}

/** The values handlers keep (sitemaps, hosts, crawl-delays), copied out of the body as they are read, in a borrowed array. */
class OtherValues {
  bytes = otherStaging.borrow();
  size = 0;

  /** Copies body[start, end) after the values so far; returns where it starts among them. */
  add(body: Uint8Array, start: number, end: number): number {
    const at = this.size;
    this.bytes = otherStaging.grow(this.bytes, at, at + end - start);
    const bytes = this.bytes;
    for (let i = start, o = at; i < end; i++, o++) bytes[o] = body[i];
    this.size = at + end - start;
    return at;
  }
}

/**
 * The builder's findings as a RobotsStructure. The values are the rules' (gathered by the line
 * reader) followed by the others'; the other values' ranges move up by the rules' bytes.
 */
function pack(b: GroupsBuilder, rules: RuleWords, reading: LineReading): RobotsStructure {
  const { groups, tokenGroups, sitemaps, hosts, others } = b;
  const base = reading.ruleBytes;
  rules.reserve(2 * (1 + groups.length + tokenGroups.length + sitemaps.length + hosts.length));
  rules.put(base);
  for (let g = 0; g < groups.length; g += GROUP_WORDS) {
    const hasDelay = groups[g + GROUP_DELAY_START] >= 0;
    for (let w = 0; w < GROUP_WORDS; w++) rules.put(hasDelay && w >= GROUP_DELAY_START ? base + groups[g + w] : groups[g + w]);
  }
  for (let t = 0; t < tokenGroups.length; t++) rules.put(tokenGroups[t]);
  for (let i = 0; i < sitemaps.length; i++) rules.put(base + sitemaps[i]);
  for (let i = 0; i < hosts.length; i++) rules.put(base + hosts[i]);
  const words = rules.finish([rules.count, groups.length / GROUP_WORDS, tokenGroups.length, sitemaps.length / 2, hosts.length / 2]);
  return { values: keptValues(reading, others), words, tokens: b.tokens.join('') };
}

/** The gathered rule values in kernel memory, then the other values, as KeptValues. */
function keptValues(reading: LineReading, others: OtherValues): KeptValues {
  const k = kernel();
  const start = reading.ruleValues;
  // The others go after the rules' values: together they are no longer than the body.
  const bytes = others.bytes;
  const u8 = k.u8;
  for (let i = 0, at = start + reading.ruleBytes; i < others.size; i++, at++) u8[at] = bytes[i];
  otherStaging.release(bytes);
  const end = start + reading.ruleBytes + others.size;
  return end - start <= STRING_VALUES_MAX ? k.readString(start, end, 'latin1') : k.u8.slice(start, end);
}
