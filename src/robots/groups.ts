// lines -> groups: the kernel's group builder (assembly/groups.ts, where the grouping rules
// are stated) reads each line record as the line reader writes it, into regions this module
// owns and grows; this module then takes the packed RobotsStructure (src/robots/structure.ts)
// out of them as three strings.

import { kernel, type Kernel } from '../wasm/kernel.js';
import { alignUp } from '../wasm/memory.js';
import { HEADER_WORDS } from './layout.js';
import type { Mode } from './options.js';
import { forEachLineChunk, lineCollector, lineReaderRoom, type ChunkVisitor, type LineBuilder, type RobotsLine } from './parse.js';
import { groupRecords, STRING_VALUES_MAX, type KeptValues, type RobotsStructure } from './structure.js';

/**
 * Bytes of the builder's regions, as assembly/groups.ts numbers them from 1: the rules', the
 * groups', the token groups' and the records' parts of the words, the tokens, and the other
 * records' keys and values.
 */
type Regions = [rules: number, groups: number, tokenGroups: number, records: number, tokens: number, others: number];

/** The regions a thread starts with: room for the files most crawls meet. */
const FIRST_REGIONS: Regions = [4096, 1024, 512, 2048, 1024, 4096];
/** Regions that grew past this many bytes in all are given back after the parse that needed them. */
const KEPT_REGION_BYTES = 1 << 20;

/**
 * The thread's regions for the group builder: a block for the words (its four parts one after
 * the other, after the header and with the word after the rules), one for the tokens and one
 * for the others, kept from parse to parse. A line that does not fit makes the full region grow.
 */
class BuilderRegions {
  #sizes: Regions = [...FIRST_REGIONS];
  #words = 0;
  #tokens = 0;
  #others = 0;

  #wordBytes(sizes: Regions): number {
    return 4 * HEADER_WORDS + sizes[0] + 4 + sizes[1] + sizes[2] + sizes[3];
  }

  /**
   * Makes sure the kernel's builder has regions: allocated at the thread's first parse and
   * after trim(), and handed over then; the kernel keeps them from parse to parse.
   */
  use(k: Kernel): void {
    if (this.#words !== 0) return;
    this.#words = k.heap.alloc(this.#wordBytes(this.#sizes));
    this.#tokens = k.heap.alloc(this.#sizes[4]);
    this.#others = k.heap.alloc(this.#sizes[5]);
    this.#handOver(k);
  }

  #handOver(k: Kernel): void {
    const [rules, groups, tokenGroups, records, tokens, others] = this.#sizes;
    k.fn.groupsRegions(this.#words, rules, groups, tokenGroups, records, this.#tokens, tokens, this.#others, others);
  }

  /** Makes the region the kernel found full at least twice as large, with what it holds, and hands the regions over again. */
  grow(k: Kernel, region: number): void {
    const sizes: Regions = [...this.#sizes];
    sizes[region - 1] = alignUp(Math.max(2 * sizes[region - 1], k.fn.groupsFullNeed()), 8);
    if (region <= 4) {
      // The words' parts move apart: each is copied to where it starts in the larger block.
      const words = k.heap.alloc(this.#wordBytes(sizes));
      let from = this.#words + 4 * HEADER_WORDS;
      let to = words + 4 * HEADER_WORDS;
      for (let part = 0; part < 4; part++) {
        k.u8.copyWithin(to, from, from + k.fn.groupsUsed(part + 1));
        const gap = part === 0 ? 4 : 0;
        from += this.#sizes[part] + gap;
        to += sizes[part] + gap;
      }
      k.heap.free(this.#words);
      this.#words = words;
    } else {
      const old = region === 5 ? this.#tokens : this.#others;
      const block = k.heap.alloc(sizes[region - 1]);
      k.u8.copyWithin(block, old, old + k.fn.groupsUsed(region));
      k.heap.free(old);
      if (region === 5) this.#tokens = block;
      else this.#others = block;
    }
    this.#sizes = sizes;
    this.#handOver(k);
  }

  /** The structure built from the body at `body`, read from the regions (groupsFinish). */
  take(k: Kernel, body: number): RobotsStructure {
    const wordBytes = k.fn.groupsFinish() >>> 0;
    const valueBytes = k.fn.groupsValueBytes() >>> 0;
    const values: KeptValues = valueBytes <= STRING_VALUES_MAX ? k.readString(body, body + valueBytes, 'latin1') : k.u8.slice(body, body + valueBytes);
    const words = k.readString(this.#words, this.#words + wordBytes, 'utf16le');
    const tokens = k.readString(this.#tokens, this.#tokens + (k.fn.groupsTokenBytes() >>> 0), 'latin1');
    return { values, words, wide: k.fn.groupsWide() === 1, tokens };
  }

  /** Gives the regions back when a large file made them grow past KEPT_REGION_BYTES. */
  trim(k: Kernel): void {
    if (this.#wordBytes(this.#sizes) + this.#sizes[4] + this.#sizes[5] <= KEPT_REGION_BYTES) return;
    k.heap.free(this.#words);
    k.heap.free(this.#tokens);
    k.heap.free(this.#others);
    this.#words = this.#tokens = this.#others = 0;
    this.#sizes = [...FIRST_REGIONS];
  }
}

let threadRegions: BuilderRegions | undefined;

/**
 * Scratch bytes a parse needs past the body: what RobotsTxt.parse leaves free above a string
 * body it encodes, so that the body is read where it is.
 */
export function groupsRoom(): number {
  return lineReaderRoom(false);
}

/** Builds the group structure of a robots.txt body; it keeps a copy of the values it needs, not `bytes`. */
export function buildGroups(bytes: Uint8Array, mode: Mode): RobotsStructure {
  return readGroups(bytes, mode).structure;
}

/**
 * buildGroups, with every chunk of line records also handed to `visit` (the linter's reading
 * of the same lines: the body is read once), and the number of lines. The body is read in
 * kernel memory, where the kept values are written over its front: a string body encoded into
 * the scratch block is not valid afterwards.
 */
export function readGroups(bytes: Uint8Array, mode: Mode, visit?: ChunkVisitor): { structure: RobotsStructure; lines: number } {
  const k = kernel();
  const regions = (threadRegions ??= new BuilderRegions());
  let body = 0;
  const builder: LineBuilder = {
    begin(at) {
      body = at;
      k.fn.groupsBegin(mode === 'rfc' ? 1 : 0, at);
      regions.use(k);
    },
    grow: (region) => regions.grow(k, region),
  };
  try {
    const lines = forEachLineChunk(bytes, mode, visit, builder);
    return { structure: regions.take(k, body), lines };
  } finally {
    regions.trim(k);
    // The body was read in the scratch block (a string body encoded there): a huge one's
    // block is given back.
    k.releaseScratch();
  }
}

/**
 * The groups whose user-agent lines have other lines between them (a Crawl-delay, a Sitemap, an
 * unknown key), which RFC 9309 reads as one group for all its agents though the author may have
 * meant the line for the agents above it only (`User-agent: a`, `Crawl-delay: 1`,
 * `User-agent: *`): by the line of each such group's first user-agent line, the lines between.
 * The group builder's own starts decide which user-agent line opens a group, in either mode.
 */
export function interleavedGroups(bytes: Uint8Array, mode: Mode): Map<number, number[]> {
  const collector = lineCollector();
  const reader = interleavingReader(readGroups(bytes, mode, collector.visit).structure);
  collector.emit(reader.read);
  return reader.interleaved;
}

/**
 * interleavedGroups over lines read elsewhere (the linter's single reading): `read` is handed
 * the lines of the body `structure` was built from, in order, and fills `interleaved`.
 */
export function interleavingReader(structure: RobotsStructure): { read: (line: RobotsLine) => void; interleaved: Map<number, number[]> } {
  const starts = new Set(groupRecords(structure).map((g) => g.line));
  const interleaved = new Map<number, number[]>();
  let group = 0;
  let between: number[] = [];
  const read = (l: RobotsLine) => {
    if (l.kind === 'user-agent') {
      if (starts.has(l.number)) group = l.number;
      else if (group !== 0 && between.length > 0) append(interleaved, group, between);
      between = [];
    } else if (l.kind === 'allow' || l.kind === 'disallow') between = [];
    else if (l.kind !== null && group !== 0) between.push(l.number);
  };
  return { read, interleaved };
}

/** Adds `lines` to the list of `group`, in place: a group interleaved at every agent stays linear. */
function append(interleaved: Map<number, number[]>, group: number, lines: number[]): void {
  const list = interleaved.get(group);
  if (list === undefined) interleaved.set(group, lines);
  else for (const line of lines) list.push(line);
}
