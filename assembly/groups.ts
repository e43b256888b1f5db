// lines -> groups: which rules belong to which user-agents (RFC 9309 2.1, 2.2.1), built from
// each line record as the line reader writes it (assembly/lex.ts), into the packed structure of
// src/robots/layout.ts, so that parsing a file runs no per-line code outside the kernel.
//
// Consecutive user-agent lines open one group and a user-agent line after a rule opens the
// next; blank lines and other records (sitemap, crawl-delay, ...) never end a group; rules
// before the first user-agent line belong to no group and are ignored. In rfc mode a
// Content-Usage line is a rule too (draft-ietf-aipref-attach 3 extends RFC 9309's rules), so
// it ends a group as allow and disallow do; google mode groups as Google's parser, which does
// not know it. Every other line with a known key, or an unknown key that is a token, is kept as
// an extension record; a crawl-delay's value is also its group's when it is the group's first
// valid one.
//
// What a parse keeps: the rules' values (every allow and disallow line's, back to back) are
// copied to the front of the body as it is read (behind the line reader, so over bytes already
// read); the other records' keys and values, the agent tokens (lowercased, each followed by
// '\n') and the words go to regions the caller hands over (groupsRegions), where the rules,
// groups, token groups and records each have a part of the words' region until groupsFinish
// lays them out one after the other. A line that does not fit stops the line reader before
// it (groupLine answers false): the caller grows the region groupsFull names, moves what is in
// it, and reads on from that line.

import {
  DIRECTIVE_ALLOW, DIRECTIVE_DISALLOW, DIRECTIVE_NONE, DIRECTIVE_UNKNOWN, DIRECTIVE_USER_AGENT, LINE_AGENT,
  LINE_AGENT_GLOBAL, LINE_DIRECTIVE_FLAGS, LINE_KEY_END, LINE_KEY_START, LINE_VALUE_END, LINE_VALUE_START,
} from '../src/robots/directives';
import {
  GROUP_DELAY_END, GROUP_DELAY_START, GROUP_FIRST_RULE, GROUP_GLOBAL, GROUP_LINE, GROUP_WORDS, HEADER_GROUPS, HEADER_RECORDS,
  HEADER_RULES, HEADER_TOKENS, HEADER_WORDS, RECORD_DIRECTIVE, RECORD_END, RECORD_GROUP, RECORD_KEY, RECORD_LINE, RECORD_VALUE,
  RECORD_WORDS, RULE_LINE_ALLOW, RULE_VALUE, RULE_WORDS,
} from '../src/robots/layout';
import { copyBytes } from './bytes';

const RULE_BYTES: u32 = RULE_WORDS * 4;
const GROUP_BYTES: u32 = GROUP_WORDS * 4;
const RECORD_BYTES: u32 = RECORD_WORDS * 4;
const NO_DELAY: u32 = 0xffffffff;

let crawlDelay: u32 = DIRECTIVE_NONE;
let contentUsage: u32 = DIRECTIVE_NONE;

/**
 * Sets the ids of the directives the builder reads more into than their records (called once,
 * with the line reader's lookup of DIRECTIVE_TABLE: the line reader calls the builder, so the
 * builder does not import it).
 */
export function initGroups(crawlDelayId: u32, contentUsageId: u32): void {
  crawlDelay = crawlDelayId;
  contentUsage = contentUsageId;
}

// Where the file being built goes (groupsBegin, groupsRegions).
let valuesAt: usize = 0;
let othersAt: usize = 0;
let othersCap: u32 = 0;
let tokensAt: usize = 0;
let tokensCap: u32 = 0;
let wordsAt: usize = 0;
let rulesCap: u32 = 0;
let groupsAt: usize = 0;
let groupsCap: u32 = 0;
let tokenGroupsAt: usize = 0;
let tokenGroupsCap: u32 = 0;
let recordsAt: usize = 0;
let recordsCap: u32 = 0;

let rfc = false;
let group: i32 = -1;
let inRules = false;
let ruleCount: u32 = 0;
let groupCount: u32 = 0;
let tokenCount: u32 = 0;
let recordCount: u32 = 0;
/** The last line number read (lines are read in order). */
let linesBuilt: u32 = 0;
/** Bytes of the rules' values, of the other records' keys and values, and of the tokens. */
let ruleBytes: u32 = 0;
let otherBytes: u32 = 0;
let tokenBytes: u32 = 0;
/** The region (REGION_*) the last line did not fit, and the bytes it needs in all; 0 when none. */
let full = 0;
let fullNeed: f64 = 0;

// Regions, as groupsFull and groupsUsed name them.
const REGION_RULES = 1;
const REGION_GROUPS = 2;
const REGION_TOKEN_GROUPS = 3;
const REGION_RECORDS = 4;
const REGION_TOKENS = 5;
const REGION_OTHERS = 6;

/** The rules' words start after the header, so that groupsFinish leaves them where they are. */
// @ts-ignore: decorator
@inline function rulesAt(): usize {
  return wordsAt + HEADER_WORDS * 4;
}

/** Starts building the structure of the body at `body` (its rules' values are written over its front). */
export function groupsBegin(mode: i32, body: usize): void {
  rfc = mode != 0;
  valuesAt = body;
  group = -1;
  inRules = false;
  ruleCount = groupCount = tokenCount = recordCount = 0;
  ruleBytes = otherBytes = tokenBytes = 0;
  linesBuilt = 0;
  full = 0;
}

/**
 * Where the words, tokens and others go: `words` has room for the header, the given bytes of
 * rules, groups, token groups and records, and the word after the rules; `tokens` and `others`
 * for the given bytes. They serve every parse until the next call; one made during a parse
 * must hold what the parse has written so far (at the parts' starts).
 */
export function groupsRegions(words: usize, rules: u32, groups: u32, tokenGroups: u32, records: u32, tokens: usize, tokenRoom: u32, others: usize, otherRoom: u32): void {
  wordsAt = words;
  rulesCap = rules;
  groupsAt = rulesAt() + rules + 4;
  groupsCap = groups;
  tokenGroupsAt = groupsAt + groups;
  tokenGroupsCap = tokenGroups;
  recordsAt = tokenGroupsAt + tokenGroups;
  recordsCap = records;
  tokensAt = tokens;
  tokensCap = tokenRoom;
  othersAt = others;
  othersCap = otherRoom;
  full = 0;
}

/** Whether `used` + `more` bytes fit in `cap`; if not, records that `region` is full. */
function fits(region: i32, used: f64, more: f64, cap: u32): bool {
  if (used + more <= <f64>cap) return true;
  full = region;
  fullNeed = used + more;
  return false;
}

/**
 * Reads the line record at `record`, line number `line`, of the body at `buf` into the
 * structure; false, with nothing read, when the line does not fit (groupsFull).
 */
export function groupLine(buf: usize, record: usize, line: u32): bool {
  linesBuilt = line;
  const directive = load<u32>(record + LINE_DIRECTIVE_FLAGS) & 0xff;
  if (directive == DIRECTIVE_NONE) return true;
  const valueStart = load<u32>(record + LINE_VALUE_START);
  const valueEnd = load<u32>(record + LINE_VALUE_END);
  if (directive == DIRECTIVE_ALLOW || directive == DIRECTIVE_DISALLOW) return ruleLine(buf, line, directive, valueStart, valueEnd);
  if (directive == DIRECTIVE_USER_AGENT) return userAgentLine(buf, record, line, valueStart);
  return otherLine(buf, record, line, directive, valueStart, valueEnd);
}

/** An allow or disallow line: a rule of the group, and its value kept (a rule's before the first group too). */
function ruleLine(buf: usize, line: u32, directive: u32, valueStart: u32, valueEnd: u32): bool {
  if (group >= 0) {
    if (!fits(REGION_RULES, <f64>ruleCount * RULE_BYTES, RULE_BYTES, rulesCap)) return false;
    const r = rulesAt() + <usize>ruleCount * RULE_BYTES;
    store<u32>(r + RULE_VALUE * 4, ruleBytes);
    store<u32>(r + RULE_LINE_ALLOW * 4, line * 2 + (directive == DIRECTIVE_ALLOW ? 1 : 0));
    ruleCount++;
    inRules = true;
  }
  // Over bytes of the body already read: every value kept so far came from lines before this
  // one, so it starts at or before this value, and copying forwards never reads a byte written.
  copyBytes(valuesAt + ruleBytes, buf + valueStart, valueEnd - valueStart);
  ruleBytes += valueEnd - valueStart;
  return true;
}

/** A user-agent line: a new group after a rule (or before any group), and its product token. */
function userAgentLine(buf: usize, record: usize, line: u32, valueStart: u32): bool {
  const opens = group < 0 || inRules;
  const token = load<u32>(record + LINE_AGENT);
  // An empty token (`*bot`, `/x`) names no product; only the reference's quirk of comparing it
  // with an empty caller agent keeps it, in google mode.
  const named = token != LINE_AGENT_GLOBAL && !(token == 0 && rfc);
  if (opens && !fits(REGION_GROUPS, <f64>groupCount * GROUP_BYTES, GROUP_BYTES, groupsCap)) return false;
  if (named && !(fits(REGION_TOKENS, <f64>tokenBytes, <f64>token + 1, tokensCap) && fits(REGION_TOKEN_GROUPS, <f64>tokenCount * 4, 4, tokenGroupsCap))) {
    return false;
  }
  if (opens) {
    group++;
    inRules = false;
    const g = groupsAt + <usize>groupCount * GROUP_BYTES;
    store<u32>(g + GROUP_LINE * 4, line);
    store<u32>(g + GROUP_FIRST_RULE * 4, ruleCount);
    store<u32>(g + GROUP_GLOBAL * 4, 0);
    store<u32>(g + GROUP_DELAY_START * 4, NO_DELAY);
    store<u32>(g + GROUP_DELAY_END * 4, NO_DELAY);
    groupCount++;
  }
  if (token == LINE_AGENT_GLOBAL) store<u32>(groupsAt + <usize>group * GROUP_BYTES + GROUP_GLOBAL * 4, 1);
  if (!named) return true;
  const to = tokensAt + tokenBytes;
  for (let i: u32 = 0; i < token; i++) {
    const c = <u32>load<u8>(buf + valueStart + i);
    store<u8>(to + i, <u8>(c - 0x41 < 26 ? c + 32 : c));
  }
  store<u8>(to + token, 0x0a);
  tokenBytes += token + 1;
  store<u32>(tokenGroupsAt + <usize>tokenCount * 4, group);
  tokenCount++;
  return true;
}

/** Any other line with a key: an extension record, unless its key is unknown and no token. */
function otherLine(buf: usize, record: usize, line: u32, directive: u32, valueStart: u32, valueEnd: u32): bool {
  const keyStart = load<u32>(record + LINE_KEY_START);
  const keyEnd = load<u32>(record + LINE_KEY_END);
  // The colon-holding lines of an HTML page or a script served as robots.txt are not records.
  if (directive == DIRECTIVE_UNKNOWN && !isRecordKey(buf, keyStart, keyEnd)) return true;
  const bytes = keyEnd - keyStart + valueEnd - valueStart;
  if (!(fits(REGION_RECORDS, <f64>recordCount * RECORD_BYTES, RECORD_BYTES, recordsCap) && fits(REGION_OTHERS, <f64>otherBytes, <f64>bytes, othersCap))) {
    return false;
  }
  // Key and value, back to back; offsets among the others (groupsFinish moves them).
  const keyAt = otherBytes;
  const valueAt = keyAt + keyEnd - keyStart;
  copyBytes(othersAt + keyAt, buf + keyStart, keyEnd - keyStart);
  copyBytes(othersAt + valueAt, buf + valueStart, valueEnd - valueStart);
  otherBytes += bytes;
  const r = recordsAt + <usize>recordCount * RECORD_BYTES;
  store<u32>(r + RECORD_LINE * 4, line);
  store<u32>(r + RECORD_GROUP * 4, group + 1);
  store<u32>(r + RECORD_DIRECTIVE * 4, directive);
  store<u32>(r + RECORD_KEY * 4, keyAt);
  store<u32>(r + RECORD_VALUE * 4, valueAt);
  store<u32>(r + RECORD_END * 4, otherBytes);
  recordCount++;
  if (directive == crawlDelay) groupDelay(buf, valueStart, valueEnd, valueAt);
  else if (directive == contentUsage && rfc && group >= 0) inRules = true;
  return true;
}

/** The group's first valid crawl-delay: its value, kept at `kept` among the others. */
function groupDelay(buf: usize, start: u32, end: u32, kept: u32): void {
  if (group < 0) return;
  const g = groupsAt + <usize>group * GROUP_BYTES;
  if (load<u32>(g + GROUP_DELAY_START * 4) != NO_DELAY || !isSeconds(buf, start, end)) return;
  store<u32>(g + GROUP_DELAY_START * 4, kept);
  store<u32>(g + GROUP_DELAY_END * 4, kept + end - start);
}

/** A non-negative decimal number (`10`, `0.5`): no exponents, signs or hex. */
function isSeconds(buf: usize, start: u32, end: u32): bool {
  let digits = 0;
  let dots = 0;
  for (let i = start; i < end; i++) {
    const c = <u32>load<u8>(buf + i);
    if (c - 0x30 < 10) digits++;
    else if (c == 0x2e && dots == 0) dots++;
    else return false;
  }
  return digits > 0;
}

/** A token as record keys are written: [A-Za-z][A-Za-z0-9_-]*. */
function isRecordKey(buf: usize, start: u32, end: u32): bool {
  for (let i = start; i < end; i++) {
    const c = <u32>load<u8>(buf + i);
    const letter = (c | 0x20) - 0x61 < 26;
    if (!(letter || (i > start && (c - 0x30 < 10 || c == 0x2d || c == 0x5f)))) return false;
  }
  return end > start;
}

/**
 * Lays the words out one after the other (header, rules, the rules' end, groups, token
 * groups, records), copies the others' bytes after the rules' values, and returns the bytes of
 * the words: u16s when every word fits (most files; groupsWide says which), else u32s. The
 * body has been read: the values take its front.
 */
export function groupsFinish(): u32 {
  store<u32>(wordsAt + HEADER_RULES * 4, ruleCount);
  store<u32>(wordsAt + HEADER_GROUPS * 4, groupCount);
  store<u32>(wordsAt + HEADER_TOKENS * 4, tokenCount);
  store<u32>(wordsAt + HEADER_RECORDS * 4, recordCount);
  // The others follow the rules' values: their offsets move up by the rules' bytes.
  const base = ruleBytes;
  let to = rulesAt() + <usize>ruleCount * RULE_BYTES;
  store<u32>(to, base);
  to += 4;
  // Each part starts at or after `to`: words move down only.
  for (let g: u32 = 0; g < groupCount; g++, to += GROUP_BYTES) {
    const from = groupsAt + <usize>g * GROUP_BYTES;
    const start = load<u32>(from + GROUP_DELAY_START * 4);
    const moved = start == NO_DELAY ? 0 : base;
    store<u32>(to + GROUP_LINE * 4, load<u32>(from + GROUP_LINE * 4));
    store<u32>(to + GROUP_FIRST_RULE * 4, load<u32>(from + GROUP_FIRST_RULE * 4));
    store<u32>(to + GROUP_GLOBAL * 4, load<u32>(from + GROUP_GLOBAL * 4));
    store<u32>(to + GROUP_DELAY_START * 4, start + moved);
    store<u32>(to + GROUP_DELAY_END * 4, load<u32>(from + GROUP_DELAY_END * 4) + moved);
  }
  memory.copy(to, tokenGroupsAt, <usize>tokenCount * 4);
  to += <usize>tokenCount * 4;
  for (let r: u32 = 0; r < recordCount; r++, to += RECORD_BYTES) {
    const from = recordsAt + <usize>r * RECORD_BYTES;
    store<u32>(to + RECORD_LINE * 4, load<u32>(from + RECORD_LINE * 4));
    store<u32>(to + RECORD_GROUP * 4, load<u32>(from + RECORD_GROUP * 4));
    store<u32>(to + RECORD_DIRECTIVE * 4, load<u32>(from + RECORD_DIRECTIVE * 4));
    store<u32>(to + RECORD_KEY * 4, load<u32>(from + RECORD_KEY * 4) + base);
    store<u32>(to + RECORD_VALUE * 4, load<u32>(from + RECORD_VALUE * 4) + base);
    store<u32>(to + RECORD_END * 4, load<u32>(from + RECORD_END * 4) + base);
  }
  // The rules' values and the others' bytes come from disjoint lines: together no longer than the body.
  memory.copy(valuesAt + base, othersAt, otherBytes);
  const words = <u32>(to - wordsAt) >>> 2;
  wide = !fitsNarrow();
  if (wide) return words << 2;
  // One u16 per word, written over the u32s from the start: each lands at or before the one it replaces.
  for (let w: u32 = 0; w < words; w++) store<u16>(wordsAt + (<usize>w << 1), <u16>load<u32>(wordsAt + (<usize>w << 2)));
  return words << 1;
}

/** Whether the last structure's words are u32s (else u16s: NARROW_MAX and under, and NO_DELAY as 0xffff). */
let wide = true;

/** The largest word a narrow structure holds: 0xffff stands for NO_DELAY (-1). */
const NARROW_MAX: u32 = 0xfffe;

/**
 * Whether every word fits NARROW_MAX: none exceeds twice the lines plus one (line numbers,
 * counts, group and rule numbers, and a rule's line * 2 + 1) or the kept values' bytes
 * (offsets), and directive ids are bytes.
 */
function fitsNarrow(): bool {
  return <u64>linesBuilt * 2 + 1 <= NARROW_MAX && <u64>ruleBytes + otherBytes <= NARROW_MAX;
}

/** Whether groupsFinish wrote u32 words (1) or u16 words (0). */
export function groupsWide(): i32 {
  return wide ? 1 : 0;
}

/** Bytes of the kept values (the rules', then the others'), after groupsFinish. */
export function groupsValueBytes(): u32 {
  return ruleBytes + otherBytes;
}

/** Bytes of the agent tokens, each followed by '\n'. */
export function groupsTokenBytes(): u32 {
  return tokenBytes;
}

/** The region (1 rules, 2 groups, 3 token groups, 4 records, 5 tokens, 6 others) the last line did not fit, or 0. */
export function groupsFull(): i32 {
  return full;
}

/** Bytes the full region needs for what it holds and the line that did not fit. */
export function groupsFullNeed(): f64 {
  return fullNeed;
}

/** Bytes region `which` (as groupsFull names them) holds. */
export function groupsUsed(which: i32): u32 {
  if (which == REGION_RULES) return ruleCount * RULE_BYTES;
  if (which == REGION_GROUPS) return groupCount * GROUP_BYTES;
  if (which == REGION_TOKEN_GROUPS) return tokenCount * 4;
  if (which == REGION_RECORDS) return recordCount * RECORD_BYTES;
  if (which == REGION_TOKENS) return tokenBytes;
  return otherBytes;
}
