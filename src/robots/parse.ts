// bytes -> lines: the kernel's line reader (assembly/lex.ts) does the byte work and writes
// one record per physical line; this module hands the records out as RobotsLine objects.
// It knows nothing about matching: the group builder and the linter both consume it.

import {
  DIRECTIVE_NONE, DIRECTIVE_TABLE, GOOGLE_MAX_LINE_BYTES, LINE_AGENT, LINE_AGENT_GLOBAL, LINE_DIRECTIVE_FLAGS, LINE_END,
  LINE_FLAG_HAS_COMMENT, LINE_FLAG_IS_COMMENT, LINE_FLAG_IS_EMPTY, LINE_FLAG_MISSING_COLON, LINE_FLAG_TOO_LONG,
  LINE_FLAG_TYPO, LINE_FLAG_UNPARSEABLE, LINE_KEY_END, LINE_KEY_START, LINE_SIZE, LINE_START, LINE_VALUE_END,
  LINE_VALUE_START,
} from './directives.js';
import { kernel } from '../wasm/kernel.js';
import { alignUp } from '../wasm/memory.js';
import type { Mode } from './options.js';

/** What RobotsLine.kind says: one of the reference's directives, or `unknown`, as the reference reads the line. */
export type DirectiveKind = 'user-agent' | 'allow' | 'disallow' | 'sitemap' | 'unknown';

export { GOOGLE_MAX_LINE_BYTES };

/** A line of DIRECTIVE_TABLE (src/robots/directives.ts), where the fields are described. */
export interface DirectiveEntry {
  /** Its directive id: its position in the table, from 1. */
  id: number;
  name: string;
  kind: 'reference' | 'extension';
  match: 'prefix' | 'whole' | 'loose';
  misspellings: string[];
}

/** The lines of DIRECTIVE_TABLE, in order (the line reader reads the same table). */
export const DIRECTIVES: readonly DirectiveEntry[] = DIRECTIVE_TABLE.split('\n')
  .filter((line) => line.includes('|'))
  .map((line, i) => {
    const [name, kind, match, misspellings] = line.split('|').map((field) => field.trim());
    const spellings = misspellings.split(',').map((spelling) => spelling.trim()).filter((spelling) => spelling !== '');
    return { id: i + 1, name, kind: kind as DirectiveEntry['kind'], match: match as DirectiveEntry['match'], misspellings: spellings };
  });

/** The directive ids of DIRECTIVE_TABLE's names. */
export const DIRECTIVE_IDS: ReadonlyMap<string, number> = new Map(DIRECTIVES.map(({ name, id }) => [name, id]));

/**
 * Names of the table's extension directives: keys of records that are not part of RFC 9309 but
 * are known to be used by some crawlers (the reference's reporter calls them "unused"; the
 * linter reports them as such when written as their name).
 */
export const EXTENSION_KEYS: ReadonlySet<string> = new Set(DIRECTIVES.filter((d) => d.kind === 'extension').map((d) => d.name));

/** One physical line, as reported to the callback. The object is reused: copy what you keep. */
export interface RobotsLine {
  /** 1-based line number (CRLF counts as one line end). */
  number: number;
  /** The directive on the line as the reference reads it, or null for blank, comment-only and unparseable lines. */
  kind: DirectiveKind | null;
  /** The name of the directive DIRECTIVE_TABLE recognised, or null (no key, or an unknown one). */
  directive: string | null;
  /** Byte range of the whole line (without its line end) in the parsed body. */
  start: number;
  end: number;
  /** Byte ranges of the key and the value (whitespace-trimmed); meaningful when kind is set. */
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
  /** User-agent lines: length of the product token at valueStart (as the mode reads it), or -1 for `*`. */
  agentToken: number;
  /** The key was recognised through an accepted misspelling (`useragent`, `dissallow`, ...). */
  typo: boolean;
  /** The key and value were separated by whitespace instead of ':'. */
  missingColon: boolean;
  hasComment: boolean;
  /** Nothing but a comment. */
  isComment: boolean;
  /** Nothing at all (whitespace only). */
  isEmpty: boolean;
  /** Longer than the reference's line buffer (google mode cuts it). */
  tooLong: boolean;
  /** Not empty, not a comment, yet no key/value could be read from it. */
  unparseable: boolean;
}

/** RobotsLine.kind and RobotsLine.directive by directive id (a record's low byte). */
const KINDS = Array.from({ length: 256 }, (_, id): DirectiveKind | null => {
  const directive = DIRECTIVES[id - 1];
  return id === DIRECTIVE_NONE ? null : directive?.kind === 'reference' ? (directive.name as DirectiveKind) : 'unknown';
});
const NAMES = Array.from({ length: 256 }, (_, id): string | null => DIRECTIVES[id - 1]?.name ?? null);

/**
 * A record's fields as indices of u32 words (the LINE_* offsets / 4). A loop over records
 * copies them into locals first: optimised code reloads an imported binding at every use.
 */
export const LINE_WORDS = {
  stride: LINE_SIZE / 4,
  directiveFlagsAt: LINE_DIRECTIVE_FLAGS / 4,
  startAt: LINE_START / 4,
  endAt: LINE_END / 4,
  keyStartAt: LINE_KEY_START / 4,
  keyEndAt: LINE_KEY_END / 4,
  valueStartAt: LINE_VALUE_START / 4,
  valueEndAt: LINE_VALUE_END / 4,
  agentAt: LINE_AGENT / 4,
} as const;

/** Lines read per kernel call when the records are handed out. */
const CHUNK_LINES = 4096;
/** The most lines a kernel call reads when nobody reads their records. */
const ALL_LINES = 0x7fffffff;
/**
 * Scratch bytes the line reader needs past a body: the records of a chunk of lines when they
 * are `handedOut`, else one.
 */
export function lineReaderRoom(handedOut: boolean): number {
  return handedOut ? CHUNK_LINES * LINE_SIZE + 8 : LINE_SIZE;
}

/** The longest body the line reader reads (its positions are i32). */
const MAX_BODY_BYTES = 2 ** 31 - 1 - lineReaderRoom(true);

/**
 * Reads a chunk of line records: `records` holds, from word `at`, `count` lines of LINE_SIZE / 4
 * u32 each (layout in src/robots/directives.ts), the first being line `firstLine` (1-based).
 */
export type ChunkVisitor = (records: Uint32Array, at: number, count: number, firstLine: number) => void;

/**
 * The kernel's group builder as a reading drives it (src/robots/groups.ts): its start, given
 * where the body is in kernel memory; each line record then goes to it as it is written, and
 * when a line does not fit, `grow` makes room in the region the kernel names before the
 * reading goes on from that line.
 */
export interface LineBuilder {
  begin(body: number): void;
  grow(region: number): void;
}

/**
 * Reads every line of `bytes`, handing the records to `visit` (if given) a chunk at a time and
 * each one to `builder` (if given); returns the number of lines. `records` is a view of kernel
 * memory, valid only during the call: `visit` must not use the kernel, and must copy what it
 * keeps.
 */
export function forEachLineChunk(bytes: Uint8Array, mode: Mode, visit?: ChunkVisitor, builder?: LineBuilder): number {
  // The line reader's positions are i32.
  const length = bytes.length;
  if (length > MAX_BODY_BYTES) {
    throw new RangeError(`robots-wasm: a body of ${length} bytes is more than the ${MAX_BODY_BYTES} bytes the line reader can address (lower maxBytes)`);
  }
  const k = kernel();
  const cap = mode === 'google' ? GOOGLE_MAX_LINE_BYTES : 0;
  // rfc mode reads digits as part of a product token (src/robots/agent.ts).
  const digits = mode === 'rfc' ? 1 : 0;
  const handedOut = visit !== undefined;
  const build = builder !== undefined ? 1 : 0;
  // Records handed out take a chunk of slots; otherwise each is written over the last.
  const maxLines = handedOut ? CHUNK_LINES : ALL_LINES;
  const stride = handedOut ? LINE_SIZE : 0;
  // One block: the body | the records.
  const buf = k.scratch(alignUp(length, 8) + lineReaderRoom(handedOut));
  const recordsAt = buf + alignUp(length, 8);
  // A string body was encoded into this block (PreparedBody): it is read where it is.
  if (bytes.buffer !== k.u8.buffer || bytes.byteOffset !== buf) k.u8.set(bytes, buf);
  builder?.begin(buf);
  let lines = 0;
  let from = 0;
  while (from >= 0) {
    const count = k.fn.lexLines(buf, length, from, cap, digits, recordsAt, maxLines, stride, build);
    from = k.fn.lexNext();
    // The kernel's view of the whole memory: a view per chunk would be an allocation per file.
    visit?.(k.u32, recordsAt / 4, count, lines + 1);
    lines += count;
    // Growing may grow the memory (and detach `bytes`, when it is a view of it): only the
    // length is read from it past this point.
    const full = build === 1 ? k.fn.groupsFull() : 0;
    if (full !== 0) builder!.grow(full);
  }
  return lines;
}

/**
 * A visitor that keeps copies of the records it is handed (the caller may use the kernel
 * between reading and reporting), and reports them as RobotsLine objects to `onLine`.
 */
export function lineCollector(): { visit: ChunkVisitor; emit(onLine: (line: RobotsLine) => void): void } {
  const chunks: { records: Uint32Array; count: number; firstLine: number }[] = [];
  return {
    visit: (records, at, count, firstLine) => void chunks.push({ records: records.slice(at, at + count * LINE_WORDS.stride), count, firstLine }),
    emit(onLine) {
      const line: RobotsLine = {
        number: 0, kind: null, directive: null, start: 0, end: 0, keyStart: 0, keyEnd: 0, valueStart: 0, valueEnd: 0, agentToken: 0,
        typo: false, missingColon: false, hasComment: false, isComment: false, isEmpty: false, tooLong: false,
        unparseable: false,
      };
      for (const { records, count, firstLine } of chunks) emit(records, count, firstLine, line, onLine);
    },
  };
}

/**
 * Splits `bytes` into lines and reports each to `onLine` (a body ending in a line end has one
 * more, empty, line, as in the reference); returns the number of lines.
 */
export function parseLines(bytes: Uint8Array, mode: Mode, onLine: (line: RobotsLine) => void): number {
  const collector = lineCollector();
  const lines = forEachLineChunk(bytes, mode, collector.visit);
  collector.emit(onLine);
  return lines;
}

function emit(records: Uint32Array, count: number, firstLine: number, line: RobotsLine, onLine: (line: RobotsLine) => void): void {
  // Constants as locals (see LINE_WORDS).
  const { stride, directiveFlagsAt, startAt, endAt, keyStartAt, keyEndAt, valueStartAt, valueEndAt, agentAt } = LINE_WORDS;
  const global = LINE_AGENT_GLOBAL;
  const typo = LINE_FLAG_TYPO;
  const missingColon = LINE_FLAG_MISSING_COLON;
  const hasComment = LINE_FLAG_HAS_COMMENT;
  const isComment = LINE_FLAG_IS_COMMENT;
  const isEmpty = LINE_FLAG_IS_EMPTY;
  const tooLong = LINE_FLAG_TOO_LONG;
  const unparseable = LINE_FLAG_UNPARSEABLE;
  for (let r = 0, at = 0; r < count; r++, at += stride) {
    const kindFlags = records[at + directiveFlagsAt];
    line.number = firstLine + r;
    line.kind = KINDS[kindFlags & 0xff];
    line.directive = NAMES[kindFlags & 0xff];
    line.start = records[at + startAt];
    line.end = records[at + endAt];
    line.keyStart = records[at + keyStartAt];
    line.keyEnd = records[at + keyEndAt];
    line.valueStart = records[at + valueStartAt];
    line.valueEnd = records[at + valueEndAt];
    const agent = records[at + agentAt];
    line.agentToken = agent === global ? -1 : agent;
    line.typo = (kindFlags & typo) !== 0;
    line.missingColon = (kindFlags & missingColon) !== 0;
    line.hasComment = (kindFlags & hasComment) !== 0;
    line.isComment = (kindFlags & isComment) !== 0;
    line.isEmpty = (kindFlags & isEmpty) !== 0;
    line.tooLong = (kindFlags & tooLong) !== 0;
    line.unparseable = (kindFlags & unparseable) !== 0;
    onLine(line);
  }
}
