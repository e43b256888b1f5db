// lines -> groups: the kernel's group builder (assembly/groups.ts, where the grouping rules
// are stated) reads each line record as the line reader writes it, into regions of the scratch
// block this module lays out after the body; this module then takes the packed
// RobotsStructure (src/robots/structure.ts) out of them as three strings.

import { kernel } from '../wasm/kernel.js';
import { alignUp } from '../wasm/memory.js';
import { GROUP_WORDS, HEADER_WORDS, RECORD_WORDS, RULE_WORDS } from './layout.js';
import type { Mode } from './options.js';
import { forEachLineChunk, lineReaderRoom, type ChunkVisitor, type LineBuilder } from './parse.js';
import { STRING_VALUES_MAX, type KeptValues, type RobotsStructure } from './structure.js';

/**
 * Bytes of the builder's counted regions: the rules', the groups', the token groups' and the
 * records' words, and the tokens'. A body's worst case is several times its size (a line of
 * three bytes can be a record of six words), so a parse starts with room for ordinary files,
 * and a file that needs more is read again with what the builder counted.
 */
type Regions = [rules: number, groups: number, tokenGroups: number, records: number, tokens: number];

/**
 * The first regions for a body of `n` bytes: more than all but a few files of the corpus need.
 * Past GENEROUS_BYTES of body they grow more slowly: a body that large holds far fewer words
 * per byte than the worst case, and the block a parse needs grows with its regions.
 */
function firstRegions(n: number): Regions {
  const m = Math.min(n, GENEROUS_BYTES);
  const more = alignUp(Math.floor((n - m) / 16), 8);
  return [
    alignUp(m >>> 1, 8) + 8 * 4 * RULE_WORDS + more,
    alignUp(m >>> 1, 8) + 4 * 4 * GROUP_WORDS + more,
    alignUp(m >>> 3, 8) + 4 * 16 + more,
    alignUp(m >>> 1, 8) + 4 * 4 * RECORD_WORDS + more,
    alignUp(m >>> 2, 8) + 64 + more,
  ];
}

/** Body bytes up to which the first regions have room for nearly any file (firstRegions). */
const GENEROUS_BYTES = 64 * 1024;

/**
 * Where the builder's regions are, from the body's address: the kept values (no more bytes
 * than the body), the tokens, then the words.
 */
class BuilderRegions implements LineBuilder {
  readonly bytes: number;
  #body = 0;

  constructor(
    private readonly bodyBytes: number,
    private readonly mode: Mode,
    private readonly regions: Regions,
  ) {
    const [rules, groups, tokenGroups, records, tokens] = regions;
    this.bytes = alignUp(bodyBytes, 8) + alignUp(tokens, 8) + 4 * HEADER_WORDS + rules + 4 + groups + tokenGroups + records;
  }

  #valuesAt(): number {
    return this.#body + alignUp(this.bodyBytes, 8);
  }

  #tokensAt(): number {
    return this.#valuesAt() + alignUp(this.bodyBytes, 8);
  }

  #wordsAt(): number {
    return this.#tokensAt() + alignUp(this.regions[4], 8);
  }

  begin(body: number): void {
    this.#body = body;
    const [rules, groups, tokenGroups, records, tokens] = this.regions;
    kernel().fn.groupsBegin(this.mode === 'rfc' ? 1 : 0, this.#valuesAt(), this.bodyBytes, this.#tokensAt(), tokens, this.#wordsAt(), rules, groups, tokenGroups, records);
  }

  /** The structure built, or undefined when a region was too small (then `needed` says what it needs). */
  finish(): RobotsStructure | undefined {
    const k = kernel();
    const wordBytes = k.fn.groupsFinish();
    if (wordBytes < 0) return undefined;
    const values = this.#valuesAt();
    const valueBytes = k.fn.groupsValueBytes() >>> 0;
    const kept: KeptValues = valueBytes <= STRING_VALUES_MAX ? k.readString(values, values + valueBytes, 'latin1') : k.u8.slice(values, values + valueBytes);
    const tokens = this.#tokensAt();
    const words = this.#wordsAt();
    return { values: kept, words: k.readString(words, words + wordBytes, 'utf16le'), tokens: k.readString(tokens, tokens + (k.fn.groupsTokenBytes() >>> 0), 'latin1') };
  }

  /** The regions the file needed. */
  needed(): Regions {
    const k = kernel();
    return [k.fn.groupsNeed(0), k.fn.groupsNeed(1), k.fn.groupsNeed(2), k.fn.groupsNeed(3), k.fn.groupsNeed(4)];
  }
}

/**
 * Scratch bytes a parse of a body of at most `bodyBytes` bytes needs past it: what
 * RobotsTxt.parse leaves free above a string body it encodes, so that the body is read where
 * it is.
 */
export function groupsRoom(bodyBytes: number): number {
  return lineReaderRoom(new BuilderRegions(bodyBytes, 'rfc', firstRegions(bodyBytes)).bytes, false);
}

/** Builds the group structure of a robots.txt body; it keeps a copy of the values it needs, not `bytes`. */
export function buildGroups(bytes: Uint8Array, mode: Mode): RobotsStructure {
  return readGroups(bytes, mode).structure;
}

/**
 * buildGroups, with every chunk of line records also handed to `visit` (the linter's reading
 * of the same lines: the body is read once), and the number of lines.
 */
export function readGroups(bytes: Uint8Array, mode: Mode, visit?: ChunkVisitor): { structure: RobotsStructure; lines: number } {
  let regions = new BuilderRegions(bytes.length, mode, firstRegions(bytes.length));
  const lines = forEachLineChunk(bytes, mode, visit, regions);
  let structure = regions.finish();
  if (structure === undefined) {
    // Read again with the room the builder counted: a copy of the body first, since the
    // larger scratch block may move it (a string body is encoded into the block).
    const body = bytes.slice();
    regions = new BuilderRegions(body.length, mode, regions.needed());
    forEachLineChunk(body, mode, undefined, regions);
    structure = regions.finish()!;
  }
  return { structure, lines };
}
