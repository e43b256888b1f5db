// The kernel's binary interface: byte offsets of the compiled table (written by
// assembly/compile.ts, where the format is documented; read by assembly/match.ts and
// src/matcher.ts); the line reader's records are in src/robots/directives.ts. This file is
// compiled by both TypeScript and AssemblyScript, so it holds plain integer constants only.

export const TABLE_MAGIC = 0x38545752; // "RWT8" little-endian: format version 8

export const HDR_MAGIC = 0;
export const HDR_TOTAL_LEN = 4;
export const HDR_FLAGS = 8;
export const HDR_RULE_COUNT = 12;
export const HDR_RULES_OFF = 16;
export const HDR_ROOT_OFF = 20;
export const HDR_POOL_OFF = 24;
export const HDR_POOL_LEN = 28;
export const HDR_FILTER_OFF = 32;
export const HDR_KINDS_OFF = 36;
/** CRC-32C of the image with this field read as zeros (assembly/checksum.ts); 0 until toBytes. */
export const HDR_CHECKSUM = 40;
export const HEADER_SIZE = 44;

export const FLAG_RFC = 1;
// Child entries are plain offsets (the table is too large for CHILD_OFFSET_MASK).
export const FLAG_WIDE_CHILDREN = 2;

// A rule's pattern starts where the previous rule's ends (rule 0's at the pool offset).
export const RULE_PAT_END = 0;
export const RULE_LINE = 4;
export const RULE_SIZE = 8;
// Rule kinds: one byte per rule at HDR_KINDS_OFF.
export const KIND_ALLOW_BIT = 1;
export const KIND_DERIVED_BIT = 2;

export const NODE_LABEL_OFF = 0;
// label length << NODE_LABEL_SHIFT | NODE_DENSE | NODE_HAS_* fields | child count, or a dense
// node's span (<= 128 either way: patterns are ASCII)
export const NODE_LABEL_CHILDREN = 4;
export const NODE_LABEL_SHIFT = 12;
export const NODE_COUNT_MASK = 0xff;
// The optional fields, each a u32 after the child area when present, in this order.
export const NODE_HAS_PREFIX = 0x100;
export const NODE_HAS_END = 0x200;
export const NODE_HAS_WILD = 0x400; // wildcard list length << 1 | NODE_KEYED_BIT
export const NODE_KEYED_BIT = 1; // the node has wildcard rules reached through the filter's keys
// The child area is a range of first bytes, one entry each (assembly/node.ts).
export const NODE_DENSE = 0x800;
// Where the child area starts.
export const NODE_CHILD_AREA = 8;
// A child entry: the child's offset | its label length (CHILD_LABEL_LONG: read it from the
// child) << CHILD_LABEL_SHIFT; with FLAG_WIDE_CHILDREN, the offset alone.
export const CHILD_OFFSET_MASK = 0xffffff;
export const CHILD_LABEL_SHIFT = 24;
export const CHILD_LABEL_LONG = 255;

// Wildcard list entries: the strength number of each rule.
export const WILD_STRENGTH = 0;
export const WILD_SIZE = 4;
export const NO_KEY = 0xffffffff;

// Key filter: which literal segments of the wildcard rules occur in a path, and where first and
// last, found in one SIMD pass. Each key of two or more bytes has a gate: its least common byte
// pair; one-byte keys are their own gate.
export const FILTER_KEY_COUNT = 0;
export const FILTER_KEYS_OFF = 4;
// Low byte: gate pairs hash to 1 << bits buckets; FILTER_EXACT_GATES: the gate tables hold the
// pairs themselves (assembly/compile.ts).
export const FILTER_BUCKET_BITS = 8;
export const FILTER_BUCKET_BITS_MASK = 0xff;
export const FILTER_EXACT_GATES = 0x100;
export const FILTER_BUCKETS_OFF = 12; // bucket b's keys are keys[buckets[b], buckets[b + 1])
export const FILTER_SINGLES = 16; // one-byte keys the pass looks for are keys[FILTER_SINGLES, FILTER_LAZY)
// Keys no rule hangs off that most paths hold (one byte, such as '/', or a gate pair with a '/')
// are keys[FILTER_LAZY, key count): looked for only when a rule needs them.
export const FILTER_LAZY = 20;
// The automata that find the keys when the pass gives up (assembly/automaton.ts), 0: none.
export const FILTER_AUTOMATA = 24;
export const FILTER_GATE1_LO = 28;
export const FILTER_GATE1_HI = 44;
export const FILTER_GATE2_LO = 60;
export const FILTER_GATE2_HI = 76;
export const FILTER_SIZE = 92;
// Only when the filter has one-byte keys it looks for (FILTER_SINGLES < FILTER_LAZY):
export const FILTER_SINGLE_LO = 92;
export const FILTER_SINGLE_HI = 108;
export const FILTER_SINGLES_SIZE = 32;
export const FILTER_MIN_BUCKET_BITS = 1;
/** Most lazy keys: each costs a path that needs it a search from each end. */
export const MAX_LAZY_KEYS = 128;
export const KEY_POOL_OFF = 0;
export const KEY_RULES_OFF = 4; // the rules that hang off the key: KEY_RULE_SIZE each, ascending strength
export const KEY_RULE_COUNT = 8;
// The rest are u16: a key is at most MAX_KEY_LEN bytes.
export const KEY_LEN = 12;
export const KEY_GATE = 14; // offset of the gate within the key
export const KEY_GATE_PAIR = 16; // the gate's two bytes (first << 8 | second), or the one byte
// Bytes the key shares with the previous key of its run (the keys of a bucket with the same
// gate offset, in byte order), which lets a bucket scan skip keys without comparing them.
export const KEY_SHARED = 18;
export const KEY_SIZE = 20;
/** Longest key: a rule with a longer literal segment is not keyed. */
export const MAX_KEY_LEN = 0xffff;
/** The bucket of a gate pair (b0 << 8 | b1) in a table of 1 << bits buckets. */
export const GATE_HASH = 0x9e3779b1;
export const KEY_RULE_STRENGTH = 0;
// A rule whose one segment is this key: literal length << 2 | KEY_RULE_ANCHORED; else the
// offset of its segment record | KEY_RULE_RECORD (records are 4-aligned).
export const KEY_RULE_WORD = 4;
export const KEY_RULE_RECORD = 1;
export const KEY_RULE_ANCHORED = 2; // the last segment must end the path (a final '$')
export const KEY_RULE_SIZE = 8;
// Segment record: literal length << 1 | anchored, segment count, then each segment's key index.
export const SEGMENTS_LITERAL = 0;
export const SEGMENTS_COUNT = 4;
export const SEGMENTS_KEYS = 8;
/**
 * Most keys a filter holds: more than a 512,000-byte file can name (a segment takes a byte
 * and a '*'). The per-check occurrence state is sized by it (FIRST and LAST positions, 8 bytes
 * a key).
 */
export const MAX_FILTER_KEYS = 1 << 18;
/**
 * Key work the pass may do per byte of the path, beyond FILTER_WORK_SLACK, before it gives up
 * (assembly/match.ts); a filter whose worst bucket costs at most this much never gives up.
 */
export const FILTER_WORK_PER_BYTE = 8;
export const FILTER_WORK_SLACK = 4096;
/** Past the budget, a filter of at most this many keys searches each; a larger one has automata. */
export const AUTOMATA_MIN_KEYS = 512;
// An automaton (assembly/automaton.ts): node count N, then first child (N + 1 u32), failure
// link (N u32), output (N u32: the key of the nearest node on the failure chain that ends one,
// or NO_KEY), key node (key count u32: where each key ends), edge bytes (N, padded to 4).
export const AUTOMATON_NODES = 0;
export const AUTOMATON_FIRST_CHILD = 4;

export const NO_RULE = 0xffffffff;

// How pathOf reads a URL (assembly/index.ts): as the reference extracts its path, as the
// request path normalised for RFC mode, or as the request path in fetch form.
export const PATH_REFERENCE = 0;
export const PATH_RFC = 1;
export const PATH_FETCH = 2;

// Results of a single check, as returned by the kernel.
// What checkLines writes per line of a buffer of URLs.
export const LINES_VERDICTS = 0; // one byte: 1 allow, 0 disallow
export const LINES_FILTER = 1; // the text of each allowed line, LF-terminated
export const LINES_REPORT = 2; // "allow\t<url>\n" or "disallow\t<url>\t<rule line>\n" per line
/** Output bytes LINES_REPORT adds per line at most: "disallow\t", "\t", 10 digits, "\n". */
export const REPORT_EXTRA_BYTES = 21;

export const RESULT_NO_MATCH = -1;
export const RESULT_ROBOTS_TXT = -2;

// What validateTable (assembly/validate.ts) says of a table image.
export const TABLE_OK = 0;
export const TABLE_BAD_HEADER = 1;
export const TABLE_BAD_RULES = 2;
export const TABLE_BAD_NODES = 3;
export const TABLE_BAD_FILTER = 4;

// Compiler input (assembly/compile.ts): RULE_IN_SIZE bytes per rule, in file order.
export const RULE_IN_START = 0; // value range in the body
export const RULE_IN_END = 4;
export const RULE_IN_LINE = 8;
export const RULE_IN_ALLOW = 12;
export const RULE_IN_SIZE = 16;
// compileTable's answer when its work area or table block is too small: compileNeed() bytes are.
export const COMPILE_SHORT_OF_WORK = -1;
export const COMPILE_SHORT_OF_TABLE = -2;
