// robots.txt diagnostics: what a file's author should fix, with line numbers. It reads the
// same line records (parse.ts) and groups (groups.ts) the matcher is built from, so what it
// reports is what the parser did.

import { GOOGLE_MAX_LINE_BYTES, lineCollector, EXTENSION_KEYS } from './parse.js';
import { prepareBody, type RobotsBody } from './body.js';
import { readGroups } from './groups.js';
import { groupRecords, ruleAllows, ruleLine, ruleText, type RobotsStructure } from './structure.js';
import { resolveParseOptions, type Mode, type ParseOptions } from './options.js';
import { isValidProductToken, productToken } from './agent.js';
import { escapePattern } from '../url/path.js';
import { readUsage, splitContentUsage } from '../fields/usage.js';

export type Severity = 'error' | 'warning' | 'info';

/** One finding, at a 1-based line. */
export interface Diagnostic {
  line: number;
  severity: Severity;
  /** Stable identifier (`typo-key`, `shadowed-rule`, ...). */
  code: string;
  message: string;
}

const decoder = new TextDecoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a pattern's path (before its '?') holds what a fetched path never does: a dot
 * segment (".", "..", with dots also as %2e) followed by '/' or ending it, or a '\\'.
 */
function hasUnfetchablePath(pattern: string): boolean {
  const query = pattern.indexOf('?');
  const path = query >= 0 ? pattern.slice(0, query) : pattern;
  return path.includes('\\') || /(^|\/)(\.|%2e){1,2}(\/|\$?$)/i.test(path);
}

/**
 * Diagnostics for a robots.txt body, by line: lenient spellings, lines without a colon or
 * without a key, rules outside any group, invalid product tokens, patterns that do not start
 * with '/' or '*', '$' before the end, dot segments a fetched path never has, bytes past the
 * parse limit, invalid UTF-8, over-long lines, duplicate rules and rules that can never decide.
 */
export function lintRobotsTxt(body: RobotsBody, options?: ParseOptions): Diagnostic[] {
  const resolved = resolveParseOptions(options);
  const prepared = prepareBody(body, resolved);
  // A string body is still in kernel scratch memory, which the checks below reuse.
  const bytes = typeof body === 'string' ? prepared.bytes.slice() : prepared.bytes;
  const out: Diagnostic[] = [];
  const add = (line: number, severity: Severity, code: string, message: string) => out.push({ line, severity, code, message });
  const text = (start: number, end: number) => decoder.decode(bytes.subarray(start, end));
  const utf8 = isValidUtf8(bytes);

  let seenAgent = false;
  // The group builder reads the same records, so the body is read once.
  const collector = lineCollector();
  const { structure, lines } = readGroups(bytes, resolved.mode, collector.visit);
  collector.emit((l) => {
    if (!utf8 && !isValidUtf8(bytes.subarray(l.start, l.end))) add(l.number, 'warning', 'invalid-utf8', 'the line is not valid UTF-8 (RFC 9309 2.3 requires UTF-8)');
    if (l.tooLong || l.end - l.start > GOOGLE_MAX_LINE_BYTES) {
      add(l.number, 'warning', 'line-too-long', `the line is longer than ${GOOGLE_MAX_LINE_BYTES} bytes; Google reads only that much of it`);
    }
    if (l.unparseable) {
      add(l.number, 'error', 'unparseable', `no "key: value" here: ${JSON.stringify(text(l.start, l.end).trim().slice(0, 60))} is ignored`);
      return;
    }
    if (l.kind === null) return;
    const key = text(l.keyStart, l.keyEnd);
    const value = text(l.valueStart, l.valueEnd);
    if (l.typo) add(l.number, 'warning', 'typo-key', `"${key}" is a misspelling, accepted leniently: write "${l.directive}"`);
    if (l.missingColon) add(l.number, 'warning', 'missing-colon', `no ':' between "${key}" and its value (accepted leniently)`);
    if (l.kind === 'unknown') {
      const known = EXTENSION_KEYS.has(key.toLowerCase());
      add(l.number, 'info', known ? 'extension-key' : 'unknown-key', known ? `"${key}" is not part of RFC 9309; some crawlers read it, others ignore it` : `unknown key "${key}" is ignored`);
      if (l.directive === 'content-usage' || l.directive === 'content-signal') signalDiagnostics(l.number, l.directive, value, seenAgent, add);
      return;
    }
    if (l.kind === 'user-agent') {
      seenAgent = true;
      if (l.agentToken !== -1 && !isValidProductToken(value)) add(l.number, 'warning', 'invalid-product-token', productTokenMessage(value));
      return;
    }
    if (l.kind === 'allow' || l.kind === 'disallow') {
      if (!seenAgent) add(l.number, 'warning', 'rule-outside-group', `this ${l.kind} rule comes before any user-agent line and is ignored`);
      if (value !== '' && value[0] !== '/' && value[0] !== '*') add(l.number, 'warning', 'pattern-start', `"${value}" does not start with '/' or '*'; crawlers may read it differently`);
      const dollar = value.indexOf('$');
      if (dollar >= 0 && dollar < value.length - 1) add(l.number, 'warning', 'dollar-not-at-end', `'$' only anchors at the end of a pattern; in "${value}" it is an ordinary character`);
      if (resolved.mode === 'rfc' && hasUnfetchablePath(value)) {
        add(l.number, 'warning', 'dot-segment', `"${value}" has a dot segment or a '\\' in its path, which no fetched path has (a fetch resolves them): that part never matches`);
      }
    }
  });

  if (prepared.truncated) {
    add(lines, 'warning', 'past-parse-limit', `${prepared.originalLength - bytes.length} bytes past the ${resolved.maxBytes}-byte parse limit are ignored (RFC 9309 2.5)`);
  }
  redundantRules(structure, resolved.mode, add);
  return out.sort((a, b) => a.line - b.line);
}

/**
 * What is wrong with an AI usage line: outside any group (a group record, ignored there), and
 * for Content-Usage, a statement that is not a Structured Fields Dictionary, which states
 * nothing (an uppercase key, the most common way to get one wrong, is named as such).
 */
function signalDiagnostics(line: number, directive: string, value: string, inGroup: boolean, add: (line: number, severity: Severity, code: string, message: string) => void): void {
  const name = directive === 'content-usage' ? 'Content-Usage' : 'Content-Signal';
  if (!inGroup) add(line, 'warning', 'signal-outside-group', `this ${name} line comes before any user-agent line and applies to no crawler`);
  if (directive !== 'content-usage') return;
  const { statement } = splitContentUsage(value);
  if (readUsage(statement) !== undefined) return;
  if (/[A-Z]/.test(statement) && readUsage(statement.toLowerCase()) !== undefined) {
    add(line, 'warning', 'usage-uppercase-key', `"${statement}" has uppercase keys: preference keys are case sensitive and lowercase, so it states no preference`);
  } else {
    add(line, 'warning', 'usage-unparseable', `"${statement}" is not a Structured Fields Dictionary (RFC 9651), so it states no preference`);
  }
}

/**
 * Why a user-agent value is not an RFC 9309 product token, and how each mode reads it: the
 * modes differ when it holds digits (rfc mode keeps them, google mode stops at the first).
 */
function productTokenMessage(value: string): string {
  const rfc = productToken(value, 'rfc');
  const google = productToken(value, 'google');
  const reading = (token: string) => (token === '' ? 'no product token (the group applies to no crawler)' : `"${token}"`);
  const problem = `"${value}" is not a product token (RFC 9309 allows letters, '_' and '-' only)`;
  if (rfc === google) return rfc === '' ? `${problem}: it has none, and this group applies to no crawler` : `${problem}: it is read as "${rfc}"`;
  return `${problem}: rfc mode reads it as ${reading(rfc)}, google mode as ${reading(google)}`;
}

/** A rule as written, as redundantRules compares it. */
interface WrittenRule {
  kind: 'allow' | 'disallow';
  pattern: string;
  line: number;
}

/**
 * Duplicate rules, and rules that can never decide: for every rule, another one of the other
 * kind matches the same paths (the same pattern, up to trailing '*') and wins (longer, or
 * allow at equal length). Checked within each group and across the groups one agent merges.
 */
function redundantRules(structure: RobotsStructure, mode: Mode, add: (line: number, severity: Severity, code: string, message: string) => void): void {
  const reported = new Set<string>();
  const groups = groupRecords(structure).map((g) => {
    const rules: WrittenRule[] = [];
    for (let r = g.ruleStart; r < g.ruleEnd; r++) {
      rules.push({ kind: ruleAllows(structure, r) ? 'allow' : 'disallow', pattern: ruleText(structure, r), line: ruleLine(structure, r) });
    }
    return { agents: g.agents, global: g.global, rules };
  });
  const sets = groups.map((g) => g.rules);
  // Groups merged for one agent (the same token in several groups) are checked together too.
  const byAgent = new Map<string, number[]>();
  groups.forEach((g, i) => {
    for (const agent of g.global ? ['*', ...g.agents] : g.agents) {
      const list = byAgent.get(agent) ?? [];
      list.push(i);
      byAgent.set(agent, list);
    }
  });
  for (const list of byAgent.values()) if (list.length > 1) sets.push(list.flatMap((i) => groups[i].rules));
  for (const rules of sets) {
    const byMeaning = new Map<string, { kind: 'allow' | 'disallow'; pattern: string; line: number; length: number }[]>();
    for (const rule of rules) {
      if (rule.pattern === '') continue;
      // Normalised patterns are ASCII: their length is their length in octets.
      const normalised = escapePattern(rule.pattern, mode);
      let end = normalised.length;
      if (!normalised.endsWith('$')) while (end > 0 && normalised.charCodeAt(end - 1) === 0x2a) end--;
      const meaning = normalised.slice(0, end);
      const list = byMeaning.get(meaning) ?? [];
      list.push({ kind: rule.kind, pattern: rule.pattern, line: rule.line, length: normalised.length });
      byMeaning.set(meaning, list);
    }
    for (const list of byMeaning.values()) {
      if (list.length < 2) continue;
      // The rule that decides for these paths: longest, allow first.
      const winner = list.reduce((best, r) => (r.length > best.length || (r.length === best.length && r.kind === 'allow' && best.kind !== 'allow') ? r : best));
      const firstOfKind = new Map<string, number>();
      for (const r of list) {
        const id = `${r.line}`;
        if (r === winner || reported.has(id)) continue;
        if (r.kind === winner.kind) {
          const first = firstOfKind.get(r.kind) ?? winner.line;
          firstOfKind.set(r.kind, first);
          reported.add(id);
          add(r.line, 'info', 'duplicate-rule', `"${r.kind}: ${r.pattern}" repeats the rule of line ${first}`);
        } else {
          reported.add(id);
          add(r.line, 'warning', 'shadowed-rule', `"${r.kind}: ${r.pattern}" never decides: "${winner.kind}: ${winner.pattern}" (line ${winner.line}) matches the same paths and wins`);
        }
      }
    }
  }
}
