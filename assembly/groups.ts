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
// What a parse keeps goes to regions of the caller's scratch block (groupsBegin): the kept
// values, as many bytes as the body at most (every allow and disallow line's value, back to
// back from the region's start, and the other records' keys and values from its end down:
// the lines are disjoint, so the two never meet), the agent tokens (lowercased, each followed
// by '\n'), and the words, where the rules, groups, token groups and records each have a region
// of their own until groupsFinish lays them out one after the other. A region for tokens or
// words too small for the file is not written past: the builder goes on counting, and
// groupsNeed tells the caller how much to give it next time.

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
import { directiveNamed } from './lex';

const RULE_BYTES: u32 = RULE_WORDS * 4;
const GROUP_BYTES: u32 = GROUP_WORDS * 4;
const RECORD_BYTES: u32 = RECORD_WORDS * 4;
const NO_DELAY: u32 = 0xffffffff;

let crawlDelay: u32 = DIRECTIVE_NONE;
let contentUsage: u32 = DIRECTIVE_NONE;

/** Looks up the directives the builder reads more into than their records (called once). */
export function initGroups(): void {
  crawlDelay = directiveNamed('crawl-delay');
  contentUsage = directiveNamed('content-usage');
}

// The regions of the file being built (groupsBegin), and how much of each is used.
let valuesAt: usize = 0;
/** The end of the values' region, where the others' keys and values start from, downwards. */
let valuesTop: usize = 0;
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
/** Bytes of the rules' values, of the other records' keys and values, and of the tokens. */
let ruleBytes: u32 = 0;
let otherBytes: u32 = 0;
let tokenBytes: u32 = 0;

/** The rules' words start after the header, so that groupsFinish leaves them where they are. */
// @ts-ignore: decorator
@inline function rulesAt(): usize {
  return wordsAt + HEADER_WORDS * 4;
}

/**
 * Starts building a file's structure: `values` has room for `bodyBytes` bytes, `tokens` for
 * `tokenBytes`, and `words` for the header, the given bytes of rules, groups, token groups and
 * records, and the word after the rules.
 */
export function groupsBegin(
  mode: i32, values: usize, bodyBytes: u32, tokens: usize, tokenRoom: u32, words: usize, rules: u32, groups: u32, tokenGroups: u32, records: u32,
): void {
  rfc = mode != 0;
  valuesAt = values;
  valuesTop = values + bodyBytes;
  tokensAt = tokens;
  tokensCap = tokenRoom;
  wordsAt = words;
  rulesCap = rules;
  groupsAt = rulesAt() + rules + 4;
  groupsCap = groups;
  tokenGroupsAt = groupsAt + groups;
  tokenGroupsCap = tokenGroups;
  recordsAt = tokenGroupsAt + tokenGroups;
  recordsCap = records;
  group = -1;
  inRules = false;
  ruleCount = groupCount = tokenCount = recordCount = 0;
  ruleBytes = otherBytes = tokenBytes = 0;
}

/** Reads the line record at `record`, line number `line`, of the body at `buf` into the structure. */
export function groupLine(buf: usize, record: usize, line: u32): void {
  const directive = load<u32>(record + LINE_DIRECTIVE_FLAGS) & 0xff;
  if (directive == DIRECTIVE_NONE) return;
  const valueStart = load<u32>(record + LINE_VALUE_START);
  const valueEnd = load<u32>(record + LINE_VALUE_END);
  if (directive == DIRECTIVE_ALLOW || directive == DIRECTIVE_DISALLOW) {
    if (group >= 0) {
      addRule(line * 2 + (directive == DIRECTIVE_ALLOW ? 1 : 0));
      inRules = true;
    }
    // Every rule's value is kept, one before the first group too: a rule's value offset is
    // then the bytes of the rules' values before it.
    copyBytes(valuesAt + ruleBytes, buf + valueStart, valueEnd - valueStart);
    ruleBytes += valueEnd - valueStart;
  } else if (directive == DIRECTIVE_USER_AGENT) {
    userAgentLine(buf, record, line, valueStart);
  } else {
    otherLine(buf, record, line, directive, valueStart, valueEnd);
  }
}

function addRule(lineAllow: u32): void {
  const at = <u64>ruleCount * RULE_BYTES;
  if (at + RULE_BYTES <= rulesCap) {
    const r = rulesAt() + <usize>at;
    store<u32>(r + RULE_VALUE * 4, ruleBytes);
    store<u32>(r + RULE_LINE_ALLOW * 4, lineAllow);
  }
  ruleCount++;
}

/** A user-agent line: a new group after a rule (or before any group), and its product token. */
function userAgentLine(buf: usize, record: usize, line: u32, valueStart: u32): void {
  if (group < 0 || inRules) {
    group++;
    inRules = false;
    const at = <u64>groupCount * GROUP_BYTES;
    if (at + GROUP_BYTES <= groupsCap) {
      const g = groupsAt + <usize>at;
      store<u32>(g + GROUP_LINE * 4, line);
      store<u32>(g + GROUP_FIRST_RULE * 4, ruleCount);
      store<u32>(g + GROUP_GLOBAL * 4, 0);
      store<u32>(g + GROUP_DELAY_START * 4, NO_DELAY);
      store<u32>(g + GROUP_DELAY_END * 4, NO_DELAY);
    }
    groupCount++;
  }
  const token = load<u32>(record + LINE_AGENT);
  if (token == LINE_AGENT_GLOBAL) {
    const at = <u64>group * GROUP_BYTES;
    if (at + GROUP_BYTES <= groupsCap) store<u32>(groupsAt + <usize>at + GROUP_GLOBAL * 4, 1);
    return;
  }
  // An empty token (`*bot`, `/x`) names no product; only the reference's quirk of comparing it
  // with an empty caller agent keeps it, in google mode.
  if (token == 0 && rfc) return;
  if (<u64>tokenBytes + token + 1 <= tokensCap) {
    const to = tokensAt + tokenBytes;
    for (let i: u32 = 0; i < token; i++) {
      const c = <u32>load<u8>(buf + valueStart + i);
      store<u8>(to + i, <u8>(c - 0x41 < 26 ? c + 32 : c));
    }
    store<u8>(to + token, 0x0a);
  }
  tokenBytes += token + 1;
  const at = <u64>tokenCount * 4;
  if (at + 4 <= tokenGroupsCap) store<u32>(tokenGroupsAt + <usize>at, group);
  tokenCount++;
}

/** Any other line with a key: an extension record, unless its key is unknown and no token. */
function otherLine(buf: usize, record: usize, line: u32, directive: u32, valueStart: u32, valueEnd: u32): void {
  const keyStart = load<u32>(record + LINE_KEY_START);
  const keyEnd = load<u32>(record + LINE_KEY_END);
  // The colon-holding lines of an HTML page or a script served as robots.txt are not records.
  if (directive == DIRECTIVE_UNKNOWN && !isRecordKey(buf, keyStart, keyEnd)) return;
  // Key and value, together, below the others kept so far; offsets from the region's start.
  otherBytes += keyEnd - keyStart + valueEnd - valueStart;
  const keyAt = <u32>(valuesTop - valuesAt) - otherBytes;
  const valueAt = keyAt + keyEnd - keyStart;
  copyBytes(valuesAt + keyAt, buf + keyStart, keyEnd - keyStart);
  copyBytes(valuesAt + valueAt, buf + valueStart, valueEnd - valueStart);
  const at = <u64>recordCount * RECORD_BYTES;
  if (at + RECORD_BYTES <= recordsCap) {
    const r = recordsAt + <usize>at;
    store<u32>(r + RECORD_LINE * 4, line);
    store<u32>(r + RECORD_GROUP * 4, group + 1);
    store<u32>(r + RECORD_DIRECTIVE * 4, directive);
    store<u32>(r + RECORD_KEY * 4, keyAt);
    store<u32>(r + RECORD_VALUE * 4, valueAt);
    store<u32>(r + RECORD_END * 4, valueAt + valueEnd - valueStart);
  }
  recordCount++;
  if (directive == crawlDelay) groupDelay(buf, valueStart, valueEnd, valueAt);
  else if (directive == contentUsage && rfc && group >= 0) inRules = true;
}

/** The group's first valid crawl-delay: its value, kept at `kept` of the values' region. */
function groupDelay(buf: usize, start: u32, end: u32, kept: u32): void {
  if (group < 0) return;
  const at = <u64>group * GROUP_BYTES;
  if (at + GROUP_BYTES > groupsCap) return;
  const g = groupsAt + <usize>at;
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
 * groups, records), moves the others' bytes down to follow the rules' values, and returns the
 * bytes of the words; or -1 when a region was too small (groupsNeed).
 */
export function groupsFinish(): i32 {
  for (let which = 0; which < REGIONS; which++) if (groupsNeed(which) > <f64>regionCap(which)) return -1;
  store<u32>(wordsAt + HEADER_RULES * 4, ruleCount);
  store<u32>(wordsAt + HEADER_GROUPS * 4, groupCount);
  store<u32>(wordsAt + HEADER_TOKENS * 4, tokenCount);
  store<u32>(wordsAt + HEADER_RECORDS * 4, recordCount);
  // The others move down to follow the rules' values, and their offsets with them.
  const othersFrom = <u32>(valuesTop - valuesAt) - otherBytes;
  const down = othersFrom - ruleBytes;
  let to = rulesAt() + <usize>ruleCount * RULE_BYTES;
  store<u32>(to, ruleBytes);
  to += 4;
  // Each region starts at or after `to`: words move down only.
  for (let g: u32 = 0; g < groupCount; g++, to += GROUP_BYTES) {
    const from = groupsAt + <usize>g * GROUP_BYTES;
    const start = load<u32>(from + GROUP_DELAY_START * 4);
    const moved = start == NO_DELAY ? 0 : down;
    store<u32>(to + GROUP_LINE * 4, load<u32>(from + GROUP_LINE * 4));
    store<u32>(to + GROUP_FIRST_RULE * 4, load<u32>(from + GROUP_FIRST_RULE * 4));
    store<u32>(to + GROUP_GLOBAL * 4, load<u32>(from + GROUP_GLOBAL * 4));
    store<u32>(to + GROUP_DELAY_START * 4, start - moved);
    store<u32>(to + GROUP_DELAY_END * 4, load<u32>(from + GROUP_DELAY_END * 4) - moved);
  }
  memory.copy(to, tokenGroupsAt, <usize>tokenCount * 4);
  to += <usize>tokenCount * 4;
  for (let r: u32 = 0; r < recordCount; r++, to += RECORD_BYTES) {
    const from = recordsAt + <usize>r * RECORD_BYTES;
    store<u32>(to + RECORD_LINE * 4, load<u32>(from + RECORD_LINE * 4));
    store<u32>(to + RECORD_GROUP * 4, load<u32>(from + RECORD_GROUP * 4));
    store<u32>(to + RECORD_DIRECTIVE * 4, load<u32>(from + RECORD_DIRECTIVE * 4));
    store<u32>(to + RECORD_KEY * 4, load<u32>(from + RECORD_KEY * 4) - down);
    store<u32>(to + RECORD_VALUE * 4, load<u32>(from + RECORD_VALUE * 4) - down);
    store<u32>(to + RECORD_END * 4, load<u32>(from + RECORD_END * 4) - down);
  }
  memory.copy(valuesAt + ruleBytes, valuesAt + othersFrom, otherBytes);
  return <i32>(to - wordsAt);
}

/** Bytes of the kept values (the rules', then the others'), after groupsFinish. */
export function groupsValueBytes(): u32 {
  return ruleBytes + otherBytes;
}

/** Bytes of the agent tokens, each followed by '\n'. */
export function groupsTokenBytes(): u32 {
  return tokenBytes;
}

/** Regions groupsNeed reports on. */
const REGIONS = 5;

/** Bytes region `which` (0 rules, 1 groups, 2 token groups, 3 records, 4 tokens) needed for the file. */
export function groupsNeed(which: i32): f64 {
  if (which == 0) return <f64>ruleCount * RULE_BYTES;
  if (which == 1) return <f64>groupCount * GROUP_BYTES;
  if (which == 2) return <f64>tokenCount * 4;
  if (which == 3) return <f64>recordCount * RECORD_BYTES;
  return <f64>tokenBytes;
}

function regionCap(which: i32): u32 {
  return which == 0 ? rulesCap : which == 1 ? groupsCap : which == 2 ? tokenGroupsCap : which == 3 ? recordsCap : tokensCap;
}
