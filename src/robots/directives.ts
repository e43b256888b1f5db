// The directives a robots.txt line can hold, and the records the kernel's line reader writes
// (assembly/lex.ts; read by its group builder, assembly/groups.ts, and by src/robots/parse.ts).
// This file is compiled by both TypeScript and AssemblyScript, so it holds plain constants and
// one string only.
//
// Adding a directive: one line in DIRECTIVE_TABLE. The line reader recognises the new key from
// the table alone, the linter knows it from there too, and its lines are kept as records
// (RobotsTxt.records); code in the kernel's group builder (assembly/groups.ts) only when it
// means more than its records.

/**
 * Every key the line reader recognises, one directive a line, as `name | kind | match |
 * misspellings`. A key is tried against the lines in this order, and the first that matches
 * wins; a line's directive id (the low byte of its record) is its position here, from 1.
 *
 * - name: the key as it should be written, lowercase.
 * - kind: `reference`: a key Google's parser (robots.cc) recognises, which RobotsLine.kind
 *   reports by name; the reference tries its four keys first and in this order, and a line's
 *   key decides both modes' groups, so these four lines stay first, in this order.
 *   `extension`: a record RFC 9309 leaves to crawlers (2.2.4): RobotsLine.kind says `unknown`,
 *   as the reference does, and no verdict depends on it. The linter reports such a key as
 *   `extension-key` when it is written as its name, and as `unknown-key` otherwise
 *   (`crawldelay`, though crawl-delay's handler reads it).
 * - match, with ASCII letters in either case: `prefix`: any key that starts with the
 *   spelling, as the reference reads its keys (`Disallowed` is disallow); `whole`: the key is
 *   the spelling; `loose`: the key is the spelling once each '-', '_' and ' ' is dropped from
 *   both (`crawldelay`, `crawl_delay`, `Crawl Delay`).
 * - misspellings: comma-separated spellings, matched the same way and accepted leniently: a
 *   line written with one carries LINE_FLAG_TYPO (the linter's `typo-key`).
 *
 * At most MAX_DIRECTIVE_SPELLINGS spellings in all, each of at most MAX_SPELLING_BYTES bytes
 * (the line reader's key table, assembly/lex.ts).
 */
export const DIRECTIVE_TABLE = `
user-agent     | reference | prefix | useragent, user agent
allow          | reference | prefix |
disallow       | reference | prefix | dissallow, dissalow, disalow, diasllow, disallaw
sitemap        | reference | prefix | site-map
crawl-delay    | extension | loose  |
host           | extension | whole  |
license        | extension | whole  |
clean-param    | extension | whole  |
content-signal | extension | whole  |
content-usage  | extension | whole  |
domain         | extension | whole  |
noarchive      | extension | whole  |
nofollow       | extension | whole  |
noindex        | extension | whole  |
request-rate   | extension | whole  |
revisit-after  | extension | whole  |
visit-time     | extension | whole  |
`;

/** Spellings (names and misspellings) the line reader's key table holds at most. */
export const MAX_DIRECTIVE_SPELLINGS = 64;
/** Bytes of a spelling the line reader's key table holds at most. */
export const MAX_SPELLING_BYTES = 26;

/**
 * The bytes a product token is made of (RFC 9309 2.2.1: letters, '_' and '-'), and the digits
 * rfc mode reads as part of one too (src/robots/agent.ts says why). The one definition: the
 * line reader builds its table for a file's user-agent lines from these, and agent.ts its own
 * for a caller's agent string.
 */
export const PRODUCT_TOKEN_BYTES = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-';
export const PRODUCT_TOKEN_DIGITS = '0123456789';

// Directive ids: a line record's low byte. Ids from 1 are DIRECTIVE_TABLE's lines; the
// reference's four come first there, and the line reader and the group builder name them.
export const DIRECTIVE_NONE = 0; // blank, comment-only or unparseable: no key
export const DIRECTIVE_USER_AGENT = 1;
export const DIRECTIVE_ALLOW = 2;
export const DIRECTIVE_DISALLOW = 3;
export const DIRECTIVE_SITEMAP = 4;
export const DIRECTIVE_UNKNOWN = 0xff; // a key no line of the table matches

// Line records (assembly/lex.ts): LINE_SIZE bytes per physical line.
export const LINE_DIRECTIVE_FLAGS = 0; // directive id in the low byte, LINE_FLAG_* above it
export const LINE_START = 4;
export const LINE_END = 8;
export const LINE_KEY_START = 12;
export const LINE_KEY_END = 16;
export const LINE_VALUE_START = 20;
export const LINE_VALUE_END = 24;
/** User-agent lines: length of the product token, or LINE_AGENT_GLOBAL for `*`. */
export const LINE_AGENT = 28;
export const LINE_SIZE = 32;
export const LINE_AGENT_GLOBAL = 0xffffffff;

export const LINE_FLAG_TYPO = 0x100;
export const LINE_FLAG_MISSING_COLON = 0x200;
export const LINE_FLAG_HAS_COMMENT = 0x400;
export const LINE_FLAG_IS_COMMENT = 0x800;
export const LINE_FLAG_IS_EMPTY = 0x1000;
export const LINE_FLAG_TOO_LONG = 0x2000;
export const LINE_FLAG_UNPARSEABLE = 0x4000;

/** The reference keeps only this many bytes of a line (google mode). */
export const GOOGLE_MAX_LINE_BYTES = 16663;
