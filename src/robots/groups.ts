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
import { alignUp } from '../wasm/memory.js';
import type { Mode } from './options.js';
import {
  DIRECTIVE_ALLOW, DIRECTIVE_DISALLOW, DIRECTIVE_NONE, DIRECTIVE_USER_AGENT, LINE_AGENT_GLOBAL,
} from './directives.js';
import { DIRECTIVE_IDS, forEachLineChunk, LINE_READER_ROOM, RECORD_WORDS, type ChunkVisitor } from './parse.js';
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
 * What a group builder collects, in body positions, before finish() packs it: the rules
 * (value start, value end, line * 2 + allow), the groups (GROUP_WORDS each, crawl-delay as a
 * body range), the agent tokens and their groups, and the file-wide values' ranges.
 */
interface GroupsBuilder {
  readonly bytes: Uint8Array;
  readonly rules: number[];
  readonly groups: number[];
  readonly tokens: string[];
  readonly tokenGroups: number[];
  readonly sitemaps: number[];
  readonly hosts: number[];
}

/**
 * Takes the value bytes[valueStart, valueEnd) of a line whose directive is not user-agent,
 * allow or disallow (those make the groups). `group` is the group the line is in: the last one
 * opened, or -1 before the first user-agent line. A handler cannot end a group.
 */
type DirectiveHandler = (b: GroupsBuilder, group: number, valueStart: number, valueEnd: number) => void;

/** Where the value of each directive of DIRECTIVE_TABLE goes, by name; a directive without one is ignored. */
const DIRECTIVE_HANDLERS: { readonly [name: string]: DirectiveHandler } = {
  sitemap: (b, _group, start, end) => void b.sitemaps.push(start, end),
  // Yandex's preferred host, file-wide, which robots-parser reports.
  host: (b, _group, start, end) => void b.hosts.push(start, end),
  // The group's first valid crawl-delay.
  'crawl-delay': (b, group, start, end) => {
    const at = group * GROUP_WORDS;
    if (group >= 0 && b.groups[at + GROUP_DELAY_START] < 0 && isSeconds(b.bytes, start, end)) {
      b.groups[at + GROUP_DELAY_START] = start;
      b.groups[at + GROUP_DELAY_END] = end;
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
  forEachLineChunk(bytes, mode, builder.visit);
  return builder.finish();
}

/**
 * The group builder of buildGroups, for a caller that reads the line records itself (the
 * linter): `visit` takes every chunk of records in order, `finish` returns the structure.
 */
export function groupsBuilder(bytes: Uint8Array, mode: Mode): { visit: ChunkVisitor; finish: () => RobotsStructure } {
  const b: GroupsBuilder = { bytes, rules: [], groups: [], tokens: [], tokenGroups: [], sitemaps: [], hosts: [] };
  let group = -1;
  let inRules = false;

  // The records are a view of kernel memory: nothing below may call into the kernel.
  const visit: ChunkVisitor = (records, first, count, firstLine) => {
    // Constants as locals (see RECORD_WORDS).
    const { stride, directiveFlagsAt, valueStartAt, valueEndAt, agentAt } = RECORD_WORDS;
    const none = DIRECTIVE_NONE;
    const userAgent = DIRECTIVE_USER_AGENT;
    const allow = DIRECTIVE_ALLOW;
    const disallow = DIRECTIVE_DISALLOW;
    const handlers = HANDLERS_BY_ID;
    const { rules, groups } = b;
    for (let r = 0, at = first; r < count; r++, at += stride) {
      const directive = records[at + directiveFlagsAt] & 0xff;
      if (directive === none) continue;
      const valueStart = records[at + valueStartAt];
      const valueEnd = records[at + valueEndAt];
      if (directive === userAgent) {
        if (group < 0 || inRules) {
          group++;
          groups.push(firstLine + r, rules.length / 3, 0, -1, -1);
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
      } else if (directive === allow || directive === disallow) {
        if (group < 0) continue;
        rules.push(valueStart, valueEnd, 2 * (firstLine + r) + (directive === allow ? 1 : 0));
        inRules = true;
      } else {
        handlers[directive]?.(b, group, valueStart, valueEnd);
      }
    }
  };
  return { visit, finish: () => pack(b) };
}

/** Bytes of the staging arrays kept between parses: larger ones are made for their parse alone. */
const KEPT_STAGING_BYTES = 64 * 1024;

/** A reusable array for what a parse sets aside, and a reader of it as a string. */
class Staging<T extends Uint8Array | Uint16Array> {
  #array: T;
  #text: StringWriter;

  constructor(private readonly make: (length: number) => T) {
    this.#array = make(4096);
    this.#text = stringWriter(this.#array.buffer);
  }

  /** An array of at least `length` elements, this one's when it is large enough. */
  take(length: number): T {
    if (length <= this.#array.length) return this.#array;
    const fresh = this.make(Math.max(length, 2 * this.#array.length));
    if (fresh.byteLength <= KEPT_STAGING_BYTES) {
      this.#array = fresh;
      this.#text = stringWriter(fresh.buffer);
    }
    return fresh;
  }

  /** array[0, length) as UTF-16 units, `array` being what take() returned. */
  units(array: T, length: number): string {
    const text = array === this.#array ? this.#text : stringWriter(array.buffer);
    return text.read(0, 2 * length, 'utf16le');
  }
}

const wordStaging = new Staging((length) => new Uint16Array(length));
const otherStaging = new Staging((length) => new Uint8Array(length));

/** The builder's findings as a RobotsStructure: values copied back to back, body ranges turned into value ranges. */
function pack(b: GroupsBuilder): RobotsStructure {
  const { rules, groups, tokenGroups, sitemaps, hosts } = b;
  const ruleTotal = rules.length / 3;
  const count = HEADER_WORDS + RULE_WORDS * ruleTotal + 1 + groups.length + tokenGroups.length + sitemaps.length + hosts.length;
  const units = wordStaging.take(2 * count);
  let at = 0;
  const put = (value: number) => {
    units[at++] = value & 0xffff;
    units[at++] = value >>> 16;
  };
  put(ruleTotal);
  put(groups.length / GROUP_WORDS);
  put(tokenGroups.length);
  put(sitemaps.length / 2);
  put(hosts.length / 2);
  const values = new KeptValuesBuilder(b);
  for (let r = 0, valueAt = 0; r < rules.length; r += 3) {
    put(valueAt);
    put(rules[r + 2]);
    valueAt += rules[r + 1] - rules[r];
  }
  put(values.ruleBytes);
  // The other values follow the rules' in this order: crawl-delays, sitemaps, hosts.
  let otherAt = values.ruleBytes;
  for (let g = 0; g < groups.length; g += GROUP_WORDS) {
    const delayStart = groups[g + GROUP_DELAY_START];
    for (let w = 0; w < GROUP_WORDS; w++) {
      if (w === GROUP_DELAY_START && delayStart >= 0) put(otherAt);
      else if (w === GROUP_DELAY_END && delayStart >= 0) put((otherAt += groups[g + GROUP_DELAY_END] - delayStart));
      else put(groups[g + w]);
    }
  }
  for (const group of tokenGroups) put(group);
  for (const ranges of [sitemaps, hosts]) {
    for (let i = 0; i < ranges.length; i += 2) {
      put(otherAt);
      put((otherAt += ranges[i + 1] - ranges[i]));
    }
  }
  return { values: values.finish(), words: wordStaging.units(units, at), tokens: b.tokens.join('') };
}

/** Rule ranges written per gatherRanges call: their records fill the line reader's room above the body. */
const GATHER_RANGES = LINE_READER_ROOM / 8;

/**
 * The values a structure keeps, copied out of the body in the order pack() places them: the
 * rules' values moved together by the kernel in the body's own block (only down, so the body
 * is read as it is overwritten), then the others' (crawl-delays, sitemaps, hosts), which are
 * few, set aside in JS before that and written after them.
 */
class KeptValuesBuilder {
  readonly ruleBytes: number;
  readonly #b: GroupsBuilder;

  constructor(b: GroupsBuilder) {
    this.#b = b;
    let ruleBytes = 0;
    for (let r = 0; r < b.rules.length; r += 3) ruleBytes += b.rules[r + 1] - b.rules[r];
    this.ruleBytes = ruleBytes;
  }

  finish(): KeptValues {
    const { bytes, rules, groups, sitemaps, hosts } = this.#b;
    const others: number[] = [];
    for (let g = 0; g < groups.length; g += GROUP_WORDS) {
      if (groups[g + GROUP_DELAY_START] >= 0) others.push(groups[g + GROUP_DELAY_START], groups[g + GROUP_DELAY_END]);
    }
    for (const ranges of [sitemaps, hosts]) for (const offset of ranges) others.push(offset);
    let otherSize = 0;
    for (let i = 0; i < others.length; i += 2) otherSize += others[i + 1] - others[i];
    const otherBytes = otherStaging.take(otherSize);
    for (let i = 0, at = 0; i < others.length; i += 2) for (let j = others[i]; j < others[i + 1]; j++) otherBytes[at++] = bytes[j];
    const k = kernel();
    // The body in the scratch block (where forEachLineChunk read it, for a string body) with
    // the line reader's room above it for the rule ranges.
    const body = k.scratch(alignUp(bytes.length, 8) + LINE_READER_ROOM);
    if (bytes.buffer !== k.u8.buffer || bytes.byteOffset !== body) k.u8.set(bytes, body);
    const rangesAt = body + alignUp(bytes.length, 8);
    let end = 0;
    for (let r = 0; r < rules.length; ) {
      let n = 0;
      for (; n < GATHER_RANGES && r < rules.length; n++, r += 3) {
        k.u32[rangesAt / 4 + 2 * n] = rules[r];
        k.u32[rangesAt / 4 + 2 * n + 1] = rules[r + 1];
      }
      end = k.fn.gatherRanges(body, rangesAt, n, end);
    }
    if (otherSize > 0) k.u8.set(otherBytes.subarray(0, otherSize), body + end);
    const size = end + otherSize;
    return size <= STRING_VALUES_MAX ? k.readString(body, body + size, 'latin1') : k.u8.slice(body, body + size);
  }
}
