// The kernel's binary interface: the byte layout of every structure that crosses between the
// WebAssembly kernel (assembly/) and its callers, each as a struct-style listing (offset, type,
// meaning) next to its constants. The compiled table is written by assembly/compile.ts, read by
// assembly/match.ts and checked by assembly/validate.ts; TypeScript never reads a table, it asks
// the kernel's accessor exports (assembly/index.ts). A change to a structure here needs the
// matching change in all three kernel files and a new TABLE_MAGIC version.
//
// This file is compiled by both TypeScript and AssemblyScript, so it holds plain integer
// constants only. All integers are little-endian; every offset is relative to the start of
// the table, so an image is position-independent (toBytes/fromBytes are plain copies, but for
// the checksum).

// ---------------------------------------------------------------------------------------------
// Compiled table: the parts in the order they are written.
//
//   header   HEADER_SIZE bytes
//   rules    RULE_SIZE bytes per rule, by strength number
//   kinds    one byte per rule, by strength number
//   pool     the normalised patterns, padded to 4
//   nodes    the radix trie, depth first from the root
//   filter   the key filter, when the table has one (and its automata)
//
// Strength number: the rules are ordered by strength - longest pattern first, allow before
// disallow at equal length, then file order - and a rule's index in that order is its strength
// number: of all rules matching a path, the smallest number decides.
//
// What the layout buys, per path: one walk down the trie (bounded by the path length, whatever
// the number of literal rules), plus, when the walk reaches wildcard rules, one key pass
// (linear) and the rules that hang off the keys that occur, in strength order and only while
// they could still beat the best match found. The bound is stated in full at the top of
// assembly/match.ts.

// Header, at offset 0.
//
//   offset  type  field
//   0       u32   HDR_MAGIC        TABLE_MAGIC: "RWT" and the format version digit
//   4       u32   HDR_TOTAL_LEN    bytes of the whole image
//   8       u32   HDR_FLAGS        FLAG_RFC | FLAG_WIDE_CHILDREN | FLAG_LINEAR
//   12      u32   HDR_RULE_COUNT   rules that can decide (non-empty patterns, derived ones too)
//   16      u32   HDR_RULES_OFF    the rules
//   20      u32   HDR_ROOT_OFF     the root node; 0 when there are no rules
//   24      u32   HDR_POOL_OFF     the pattern pool
//   28      u32   HDR_POOL_LEN     bytes of the pool, without its padding
//   32      u32   HDR_FILTER_OFF   the key filter; 0 when there is none (a linear table:
//                                  its rules' literal heads, LINEAR_HEAD_SIZE each)
//   36      u32   HDR_KINDS_OFF    the kind bytes
//   40      u32   HDR_CHECKSUM     CRC-32C (assembly/checksum.ts) of the image with this field
//                                  read as zeros. The compiler leaves it 0: only an exported
//                                  image needs it, so toBytes writes it, and fromBytes checks it
//                                  before validate.ts checks the structure (a flipped bit that
//                                  leaves every offset in range would still change verdicts).
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
export const HDR_CHECKSUM = 40;
export const HEADER_SIZE = 44;

/** Compiled for RFC mode: URLs are normalised, and /robots.txt is always allowed. */
export const FLAG_RFC = 1;
/** Child entries are plain offsets: the table is too large for CHILD_OFFSET_MASK. */
export const FLAG_WIDE_CHILDREN = 2;
/**
 * A linear table: header, rules, kinds, pool and the rules' literal heads (no trie, no
 * filter), matched by trying the rules in strength order, the first match deciding. A matcher
 * that has checked few URLs uses one, since compiling it costs a fraction of a full table's;
 * it never leaves its thread (toBytes writes the full table, and validateTable refuses this
 * flag).
 */
export const FLAG_LINEAR = 4;

// Literal head of a linear table's rule, LINEAR_HEAD_SIZE bytes, at HDR_FILTER_OFF + strength
// number * LINEAR_HEAD_SIZE: the first bytes of its literal part (up to 8; the literal part
// ends at its first '*' or a final '$'), and the mask of those bytes, so that a path whose
// first 8 bytes disagree is refused with one comparison.
//
//   offset  type  field
//   0       u64   LINEAR_HEAD_BYTES  the bytes, 0 past the literal head
//   8       u64   LINEAR_HEAD_MASK   0xff for each byte of the literal head
export const LINEAR_HEAD_BYTES = 0;
export const LINEAR_HEAD_MASK = 8;
export const LINEAR_HEAD_SIZE = 16;

// Rule, RULE_SIZE bytes, at HDR_RULES_OFF + strength number * RULE_SIZE.
//
//   offset  type  field
//   0       u32   RULE_PAT_END   where its pattern ends in the pool; it starts where the
//                                previous rule's ends (rule 0's at HDR_POOL_OFF)
//   4       u32   RULE_LINE      1-based line in the file (a line holds one rule, so the caller
//                                maps it back to the rule as written)
export const RULE_PAT_END = 0;
export const RULE_LINE = 4;
export const RULE_SIZE = 8;

// Kind byte, at HDR_KINDS_OFF + strength number: RULE_KIND_* bits.
/** The rule allows (else it disallows). */
export const RULE_KIND_ALLOW_BIT = 1;
/** Made by google mode's index.htm rule from an Allow ending in /index.htm..., not written. */
export const RULE_KIND_DERIVED_BIT = 2;

// Pool, at HDR_POOL_OFF: the normalised patterns, concatenated in strength order, padded to 4.
// They are ASCII: normalisation escapes every other byte. Node labels and filter keys are
// ranges of it.

// ---------------------------------------------------------------------------------------------
// Trie node, at HDR_ROOT_OFF and at the offsets child entries hold: a radix trie over the
// literal part of each pattern (up to its first '*', and without a final '$'). A node's label is
// the run of pattern bytes leading to it from its parent (a range of the pool).
//
//   offset            type    field
//   0                 u32     NODE_LABEL_OFF        label: offset in the pool
//   4                 u32     NODE_LABEL_CHILDREN   label length << NODE_LABEL_SHIFT | NODE_DENSE |
//                                                   NODE_HAS_* bits | child count, or a dense
//                                                   node's span (<= 128 either way: patterns
//                                                   are ASCII)
//   8                 ...     NODE_CHILD_AREA       the child area (layout in assembly/node.ts):
//                                                   a dense span of entries from a first byte,
//                                                   or an index of first bytes then the entries
//                                                   in first-byte order
//   after the area    u32     prefix rule           when NODE_HAS_PREFIX: the strongest rule that
//                                                   matches every path passing the node (its
//                                                   literal part is the node's path, and nothing
//                                                   or only '*' follows, then maybe a '$')
//                     u32     end rule              when NODE_HAS_END: the strongest rule "this
//                                                   node's path + $" (matches when the path
//                                                   ends here)
//                     u32     wildcard count        when NODE_HAS_WILD: wildcard list length << 1
//                                                   | NODE_KEYED_BIT
//                     u32[]   wildcard list         WILD_SIZE each: the strength numbers,
//                                                   ascending, of the rules whose literal part
//                                                   ends here and whose remainder has a literal
//                                                   segment after a '*', when the filter does
//                                                   not reach them (only rules on the walked
//                                                   path are ever tried)
//
// The child area comes first, at a fixed offset, and an entry holds the child's label length,
// so that a walk looks up the next child while the node's fields are still being read. Most
// nodes hold one rule or none, so absent fields take no room.
//
// The root's label is empty, or "/" when every non-empty literal part starts with '/' and the
// empty one has no wildcard list: every path starts with '/', so the walk starts after the
// root's label, a node lower, with one step fewer per path. The "/" root then holds the empty
// literal's prefix rule and keyed rules too (its end rule, "$", matches no path), and keys are
// looked for from the path's start when it has keyed rules.
export const NODE_LABEL_OFF = 0;
export const NODE_LABEL_CHILDREN = 4;
export const NODE_CHILD_AREA = 8;
export const NODE_LABEL_SHIFT = 12;
export const NODE_COUNT_MASK = 0xff;
export const NODE_HAS_PREFIX = 0x100;
export const NODE_HAS_END = 0x200;
export const NODE_HAS_WILD = 0x400;
/** Some of the node's wildcard rules hang off the filter's keys instead of its list. */
export const NODE_KEYED_BIT = 1;
/** The child area is a range of first bytes, one entry each (assembly/node.ts). */
export const NODE_DENSE = 0x800;

// Child entry, u32, in a node's child area:
//
//   bits    field
//   0-23    CHILD_OFFSET_MASK   the child's offset
//   24-31   CHILD_LABEL_SHIFT   its label length, up to 254; CHILD_LABEL_LONG: read it from the
//                               child
//
// With FLAG_WIDE_CHILDREN, the whole word is the child's offset.
export const CHILD_OFFSET_MASK = 0xffffff;
export const CHILD_LABEL_SHIFT = 24;
export const CHILD_LABEL_LONG = 255;

// Wildcard list entry, WILD_SIZE bytes: the rule's strength number (u32 at WILD_STRENGTH).
export const WILD_STRENGTH = 0;
export const WILD_SIZE = 4;
export const NO_KEY = 0xffffffff;

// ---------------------------------------------------------------------------------------------
// Key filter, at HDR_FILTER_OFF, when the table has enough wildcard rules (FILTER_MIN_RULES in
// assembly/compile.ts). Its keys are the distinct literal segments of the wildcard rules (the
// runs of bytes between the '*'s after the literal part, before a final '$'), all of them: a
// rule can match only a path that holds every one. One SIMD pass over a path finds which keys
// occur, and where each first and last starts. A rule hangs off one of its keys (not off a trie
// node): one of two or more bytes where it has one, then the one fewest rules hold, then the
// longest. It is visited only when that key occurs, and tried only when all its keys occur,
// matched in full (literal part included), from the first node on the walk that has keyed
// rules.
//
// A key is looked for only where its gate - its least common byte pair ("/filters/" -> "lt",
// not "/f": paths are full of '/') - occurs; one-byte keys are their own gate. Keys no rule
// hangs off that most paths hold (one byte, such as a '/' between two segments, or a gate with
// a '/': "/?") are lazy, at most MAX_LAZY_KEYS: the pass does not look for them, a rule that
// needs one does.
//
//   offset  type      field
//   0       u32       FILTER_KEY_COUNT     keys
//   4       u32       FILTER_KEYS_OFF      the keys: KEY_SIZE each
//   8       u32       FILTER_BUCKET_BITS   low byte: gate pairs hash (GATE_HASH) to 1 << bits
//                                          buckets | FILTER_EXACT_GATES
//   12      u32       FILTER_BUCKETS_OFF   the buckets: (1 << bits) + 1 u32 key indices, about
//                                          four buckets per key of two or more bytes; bucket b
//                                          holds keys[buckets[b], buckets[b + 1])
//   16      u32       FILTER_SINGLES       first one-byte key the pass looks for
//   20      u32       FILTER_LAZY          first lazy key
//   24      u32       FILTER_AUTOMATA      the forward automaton, the backward one right after
//                                          it; 0: none
//   28      u8[16]    FILTER_GATE1_LO      gate tables for the first and the second gate byte
//   44      u8[16]    FILTER_GATE1_HI      of the keys of two or more bytes: nibble tables (low
//   60      u8[16]    FILTER_GATE2_LO      and high nibble of each), or with FILTER_EXACT_GATES
//   76      u8[16]    FILTER_GATE2_HI      the pairs themselves, each byte 16 times: the first
//                                          pair's first and second byte, then the second pair's
//                                          (the first's again when there is only one)
//   92      u8[16]    FILTER_SINGLE_LO     only when the pass looks for one-byte keys
//   108     u8[16]    FILTER_SINGLE_HI     (FILTER_SINGLES < FILTER_LAZY): their nibble tables
//
// Then the buckets, the keys, each key's rules, the segment records and the automata, in that
// order. Keys are ordered by bucket, within a bucket by gate offset and then in byte order (a
// run: keys with one gate offset, all anchored at the same path position for a given
// candidate, so a scan can skip by shared prefix); then the one-byte keys the pass looks for,
// in byte order (a scan finds one by binary search); then the lazy keys, in byte order.
// FILTER_EXACT_GATES is used when the keys of two or more bytes have at most two distinct gate
// pairs: a scan compares those exactly, in fewer steps and with no cross-pair false
// candidates.
export const FILTER_KEY_COUNT = 0;
export const FILTER_KEYS_OFF = 4;
export const FILTER_BUCKET_BITS = 8;
export const FILTER_BUCKET_BITS_MASK = 0xff;
export const FILTER_EXACT_GATES = 0x100;
export const FILTER_BUCKETS_OFF = 12;
export const FILTER_SINGLES = 16;
export const FILTER_LAZY = 20;
export const FILTER_AUTOMATA = 24;
export const FILTER_GATE1_LO = 28;
export const FILTER_GATE1_HI = 44;
export const FILTER_GATE2_LO = 60;
export const FILTER_GATE2_HI = 76;
export const FILTER_SIZE = 92;
export const FILTER_SINGLE_LO = 92;
export const FILTER_SINGLE_HI = 108;
export const FILTER_SINGLES_SIZE = 32;
export const FILTER_MIN_BUCKET_BITS = 1;
/** Most lazy keys: each costs a path that needs it a search from each end. */
export const MAX_LAZY_KEYS = 128;
/** The bucket of a gate pair (b0 << 8 | b1) in a table of 1 << bits buckets. */
export const GATE_HASH = 0x9e3779b1;

// Key, KEY_SIZE bytes, at FILTER_KEYS_OFF + key index * KEY_SIZE.
//
//   offset  type  field
//   0       u32   KEY_POOL_OFF     the key's bytes: offset in the pool
//   4       u32   KEY_RULES_OFF    the rules that hang off it: KEY_RULE_SIZE each, ascending
//                                  strength
//   8       u32   KEY_RULE_COUNT   how many
//   12      u16   KEY_LEN          bytes of the key, at most MAX_KEY_LEN
//   14      u16   KEY_GATE         offset of the gate within the key
//   16      u16   KEY_GATE_PAIR    the gate's two bytes (first << 8 | second), or the one byte
//   18      u16   KEY_SHARED       bytes the key shares with the previous key of its run (the
//                                  keys of a bucket with the same gate offset, in byte order),
//                                  which lets a bucket scan skip keys without comparing them
export const KEY_POOL_OFF = 0;
export const KEY_RULES_OFF = 4;
export const KEY_RULE_COUNT = 8;
export const KEY_LEN = 12;
export const KEY_GATE = 14;
export const KEY_GATE_PAIR = 16;
export const KEY_SHARED = 18;
export const KEY_SIZE = 20;
/** Longest key: a rule with a longer literal segment is not keyed. */
export const MAX_KEY_LEN = 0xffff;

// Key rule, KEY_RULE_SIZE bytes, at KEY_RULES_OFF + i * KEY_RULE_SIZE.
//
//   offset  type  field
//   0       u32   KEY_RULE_STRENGTH   the rule's strength number
//   4       u32   KEY_RULE_WORD       when the key is the rule's one segment: literal length << 2
//                                     | KEY_RULE_ANCHORED; else the offset of its segment
//                                     record | KEY_RULE_RECORD (records are 4-aligned)
export const KEY_RULE_STRENGTH = 0;
export const KEY_RULE_WORD = 4;
export const KEY_RULE_RECORD = 1;
/** The last segment must end the path (a final '$'). */
export const KEY_RULE_ANCHORED = 2;
export const KEY_RULE_SIZE = 8;

// Segment record, at the offset a KEY_RULE_WORD holds, for a rule of several segments.
//
//   offset  type   field
//   0       u32    SEGMENTS_LITERAL   literal length << 1 | anchored
//   4       u32    SEGMENTS_COUNT     segments
//   8       u32[]  SEGMENTS_KEYS      each segment's key index, in pattern order
export const SEGMENTS_LITERAL = 0;
export const SEGMENTS_COUNT = 4;
export const SEGMENTS_KEYS = 8;

/**
 * Most keys a filter holds: more than a 512,000-byte file can name (a segment takes a byte
 * and a '*'). The per-check occurrence state is sized by it (first and last positions, 8 bytes
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
/**
 * Search work (bytes scanned, assembly/scan.ts) one path's keyed rules, per-key and lazy-key
 * searches may do per byte of the path, beyond INDEX_SEARCH_WORK_SLACK, before the path's text
 * index is built (assembly/text-index.ts) and answers the rest: a check then costs
 * O(n + searches x log n) however many rules search the path. High enough that the index,
 * whose build costs as much as some hundred scans of the path, is built only for paths
 * that would otherwise be scanned again and again.
 */
export const INDEX_SEARCH_WORK_PER_BYTE = 64;
export const INDEX_SEARCH_WORK_SLACK = 1 << 16;

// Automaton (assembly/automaton.ts), at FILTER_AUTOMATA: the forward automaton over the keys the
// pass looks for, then the backward one over the same keys reversed. Present when the pass can
// give up (a bucket can cost a candidate more than FILTER_WORK_PER_BYTE) and the filter has
// more than AUTOMATA_MIN_KEYS such keys.
//
//   offset          type        field
//   0               u32         AUTOMATON_NODES         node count N
//   4               u32[N + 1]  AUTOMATON_FIRST_CHILD   first child: node v's children are
//                                                       [first[v], first[v + 1])
//   then            u32[N]      failure link
//                   u32[N]      output: the key of the nearest node on the failure chain that
//                               ends one, or NO_KEY
//                   u32[keys]   key node: where each filter key ends
//                   u8[N]       edge bytes, padded to 4
export const AUTOMATON_NODES = 0;
export const AUTOMATON_FIRST_CHILD = 4;

export const NO_RULE = 0xffffffff;

// ---------------------------------------------------------------------------------------------
// Arguments and answers of the kernel's exports (assembly/index.ts).

// How pathOf reads a URL: as the reference extracts its path, as the request path normalised
// for RFC mode, or as the request path in fetch form (the WHATWG reading, READING_WHATWG).
export const PATH_REFERENCE = 0;
export const PATH_RFC = 1;
export const PATH_FETCH = 2;

// Readings: the request-targets HTTP clients send for one URL (assembly/readings.ts). Each is a
// set of READ_* choices and a READ_ENCODING_* (how google mode, which compares bytes as
// written, sees the client encode them; RFC mode normalises them all alike); a check reads a
// URL every distinct way (most URLs have one) and allows it only if every reading is allowed.
/** Literal "." and ".." segments are resolved. */
export const READ_DOTS = 1;
/** Their percent-encoded spellings ("%2e", ".%2E", ...) too. */
export const READ_ENCODED_DOTS = 2;
/** '\\' is a '/' (in an http(s) URL's path). */
export const READ_BACKSLASH = 4;
/** The '?' of an empty query is sent. */
export const READ_EMPTY_QUERY = 8;
/** Tab, LF and CR are sent percent-encoded instead of removed. */
export const READ_TABS = 16;
/** The fragment starts at the last '#', not the first: the ones before it are sent. */
export const READ_LAST_HASH = 32;
/** Spaces and controls that end the URL are sent, percent-encoded, instead of trimmed. */
export const READ_TRAILING_BLANKS = 1 << 9;
export const READ_ENCODING_SHIFT = 6;
export const READ_ENCODING_MASK = 7 << READ_ENCODING_SHIFT;
/** The URL standard's percent-encoding ('^' included in a path). */
export const READ_ENCODING_WHATWG = 0 << READ_ENCODING_SHIFT;
/** Ada 2.9's (Node 20 and 22): the standard's, '^' left as it is. */
export const READ_ENCODING_ADA2 = 1 << READ_ENCODING_SHIFT;
/** Chromium's: the standard's, and '|' in a path. */
export const READ_ENCODING_BROWSER = 2 << READ_ENCODING_SHIFT;
/** None: the bytes as written (curl, urllib). */
export const READ_ENCODING_RAW = 3 << READ_ENCODING_SHIFT;
/** wget's: every byte a URI never holds, and a '%' that starts no escape; escapes as written. */
export const READ_ENCODING_WGET = 4 << READ_ENCODING_SHIFT;
/**
 * Python requests': wget's, '[' and ']' too, escapes in uppercase. (It also decodes escapes of
 * unreserved bytes, which robots.cc, and so google mode, holds to be other bytes; RFC mode
 * normalises both alike.)
 */
export const READ_ENCODING_REQUESTS = 5 << READ_ENCODING_SHIFT;
/** fetch() and http.get from Node 24 on, Deno, Bun: the URL standard's path and query. */
export const READING_WHATWG = READ_DOTS | READ_ENCODED_DOTS | READ_BACKSLASH | READ_ENCODING_WHATWG;
/** fetch() and http.get on Node 20 and 22, where their URL parser (Ada 2.9) keeps to the standard. */
export const READING_NODE20 = READ_DOTS | READ_ENCODED_DOTS | READ_BACKSLASH | READ_ENCODING_ADA2;
/** fetch() from Node 24 on (undici 7): the standard's, with the '?' of an empty query. */
export const READING_UNDICI = READING_WHATWG | READ_EMPTY_QUERY;
/** Chromium (and Puppeteer, Playwright): the standard's, with the '?' of an empty query. */
export const READING_BROWSER = READ_DOTS | READ_ENCODED_DOTS | READ_BACKSLASH | READ_EMPTY_QUERY | READ_ENCODING_BROWSER;
/** Node 20 and 22 where Ada 2.9 leaves the path as written (dot segments after a segment that starts with '.'). */
export const READING_NODE20_AS_WRITTEN = READ_BACKSLASH | READ_ENCODING_ADA2;
/** curl (and libcurl): literal dot segments resolved; "%2e", '\\' and an empty query as written. */
export const READING_CURL = READ_DOTS | READ_EMPTY_QUERY | READ_ENCODING_RAW;
/** wget: as curl, with tabs, trailing spaces and the bytes a URI never holds percent-encoded. */
export const READING_WGET = READ_DOTS | READ_EMPTY_QUERY | READ_TABS | READ_TRAILING_BLANKS | READ_ENCODING_WGET;
/** Python requests (urllib3): as wget, with an empty query dropped and escapes requoted. */
export const READING_REQUESTS = READ_DOTS | READ_TABS | READ_ENCODING_REQUESTS;
/** Python urllib: the path as written, up to the last '#'. */
export const READING_URLLIB = READ_EMPTY_QUERY | READ_LAST_HASH | READ_ENCODING_RAW;
/** curl --path-as-is, and any client that sends the path as written up to the first '#'. */
export const READING_AS_WRITTEN = READ_EMPTY_QUERY | READ_ENCODING_RAW;
/** Readings, in the order a check tries them (readings.ts holds the table). */
export const READING_COUNT = 10;
/** Google mode, a URL: the reference's own reading (robots.cc's), tried before the others. */
export const READING_REFERENCE = -2;
/** A URL read one way only. */
export const READING_ONE = -1;

// How normalizePattern reads a rule's pattern (assembly/normalize.ts): as rfc or google mode
// compares patterns with paths.
export const NORMALIZE_PATTERN_RFC = 1;
export const NORMALIZE_PATTERN_GOOGLE = 2;

// What checkLines writes per line of a buffer of URLs (its `mode`).
export const LINES_VERDICTS = 0; // one byte: 1 allow, 0 disallow
export const LINES_FILTER = 1; // the text of each allowed line, LF-terminated
export const LINES_REPORT = 2; // "allow\t<url>\n" or "disallow\t<url>\t<rule line>\n" per line

// A single check's answer besides a strength number.
export const RESULT_NO_MATCH = -1;
export const RESULT_ROBOTS_TXT = -2;
/**
 * A linear table's check gave up: its work passed the limit the call was given, or what one
 * check of the table should cost (as a strength number, LINEAR_OVER_LIMIT). The caller makes
 * the full table and asks it.
 */
export const RESULT_OVER_LIMIT = -3;
export const LINEAR_OVER_LIMIT = 0xfffffffd;
/** What verdictOne answers for RESULT_OVER_LIMIT. */
export const VERDICT_OVER_LIMIT = 2;

// The work a linear check does beyond a full check, in units of a rule tried (the unit of the
// linear budget in src/matcher.ts), as the kernel counts it (assembly/match.ts).
/** Work a check does for free: a full check's trie walk costs about as much as trying this many rules. */
export const LINEAR_FREE_RULES = 6;
/** A match begun past a rule's literal head, besides the rule tried. */
export const LINEAR_MATCH_WORK = 7;
/** Bytes a search scans per unit (a byte compared at a candidate counts as COMPARED_BYTE_WORK in assembly/scan.ts). */
export const LINEAR_SEARCH_BYTES = 4;
/** Work one check may do beyond trying and matching each rule once. */
export const LINEAR_CHECK_SLACK = 256;

// What validateTable (assembly/validate.ts) says of a table image.
export const TABLE_OK = 0;
export const TABLE_BAD_HEADER = 1;
export const TABLE_BAD_RULES = 2;
export const TABLE_BAD_NODES = 3;
export const TABLE_BAD_FILTER = 4;

// What imageStatus (assembly/index.ts) says of the first bytes of an image, before it is loaded.
export const IMAGE_OK = 0;
export const IMAGE_NOT_A_TABLE = 1;
/** A table of another format version: TABLE_MAGIC's last byte differs (imageVersion). */
export const IMAGE_OTHER_VERSION = 2;
/** The image's length is not the one its header records. */
export const IMAGE_BAD_LENGTH = 3;

// Line records (assembly/lex.ts) are listed with the directives they hold, in
// src/robots/directives.ts.

// ---------------------------------------------------------------------------------------------
// Compiler input (compileTable, assembly/compile.ts): the rules' words as a parsed file keeps
// them (src/robots/layout.ts: RULE_WORDS words per rule, u32s or, in a narrow structure, u16s:
// its value's start among the kept values and line * 2 + 1 for allow, + 0 for disallow; a
// rule's value ends where the next one's starts, so the words run one rule's start past the
// last rule compiled), and a pair of u32 per group compiled: its first rule and the rule after
// its last, as numbers of those words. The kept values are handed over from a base offset, the
// value start of the first rule.
export const GROUP_IN_FIRST = 0;
export const GROUP_IN_END = 4;
export const GROUP_IN_SIZE = 8;
// compileTable's answer when its work area or table block is too small: compileNeed() bytes are.
export const COMPILE_SHORT_OF_WORK = -1;
export const COMPILE_SHORT_OF_TABLE = -2;
