// The Robots-Tag and X-Robots-Tag response header fields (draft-illyes-repext-03 3.1.1).
//
// Robots-Tag is a Structured Field List: each member an Item naming a product token (`*`:
// everyone) whose Parameters are the rules (`*;nosnippet, ExampleBot;noindex`). X-Robots-Tag
// carries the same structured form or, far more often, the legacy syntax (legacy.ts). A line
// is read as structured when it parses as a List and some member has parameters: the legacy
// syntax never uses ';' (and `noindex, nofollow` as a List would be two agents named
// "noindex" and "nofollow" with no rules, which no site means).
//
// Limits: at most `maxBytes` (at least 8 KiB) of the field are read, counting its lines as
// joined with ", ". Members complete before the limit count; the member the limit cuts and
// everything after it are ignored. A member that is not valid ends the field the same way:
// the members before it count, it and everything after it on that line are ignored (where
// the next member would start cannot be known reliably once the syntax is broken).

import { integerOption } from '../args.js';
import { readLegacy } from './legacy.js';
import { agentKey, putRule, robotsRules, rulesOf, type RobotsRules, type RuleMap } from './rules.js';
import { parseList, type BareItem, type ListMember } from '../fields/structured.js';

/** The draft's lowest allowed parsing limit for a field. */
export const MIN_FIELD_BYTES = 8192;

export interface RobotsTagOptions {
  /** Which field the values come from; default `robots-tag`. */
  field?: 'robots-tag' | 'x-robots-tag';
  /** Bytes of the field read; default and minimum 8,192. */
  maxBytes?: number;
}

function ruleValue(name: string, value: BareItem): true | string | number | undefined {
  switch (value.type) {
    case 'boolean':
      return value.value ? true : undefined;
    case 'integer':
    case 'decimal':
      return value.value;
    case 'date':
      return name === 'unavailable_after' ? value.value * 1000 : value.value;
    default:
      return value.value;
  }
}

function readStructured(members: ListMember[], byAgent: Map<string, RuleMap>): void {
  for (const member of members) {
    if (member.item === undefined || (member.item.type !== 'token' && member.item.type !== 'string')) continue;
    const key = agentKey(member.item.value);
    if (key === '') continue;
    const rules = rulesOf(byAgent, key);
    for (const [name, item] of member.params) {
      const value = ruleValue(name, item);
      if (value !== undefined) putRule(rules, name, value);
    }
  }
}

/** Does the line, cut at `cut`, end inside a member (so that its last member must be dropped)? */
function cutsMember(line: string, cut: number, structured: boolean): boolean {
  if (cut >= line.length) return false;
  const next = line.charCodeAt(cut);
  return !(next === 0x2c || (structured && (next === 0x20 || next === 0x09)));
}

/**
 * Rules of a Robots-Tag or X-Robots-Tag field. `fieldValues` is the field's value, or its
 * lines (one element per header line: a legacy agent prefix holds until the end of its line).
 * Never throws on content: what cannot be read is ignored.
 */
export function parseRobotsTag(fieldValues: string | readonly string[], options: RobotsTagOptions = {}): RobotsRules {
  const lines = typeof fieldValues === 'string' ? [fieldValues] : fieldValues;
  if (!Array.isArray(lines) && typeof fieldValues !== 'string') throw new TypeError('robots-wasm: field values must be a string or an array of strings');
  const field = options.field ?? 'robots-tag';
  if (field !== 'robots-tag' && field !== 'x-robots-tag') throw new TypeError(`robots-wasm: field must be 'robots-tag' or 'x-robots-tag', got ${JSON.stringify(field)}`);
  let budget = integerOption(options.maxBytes, 'maxBytes', MIN_FIELD_BYTES, MIN_FIELD_BYTES);
  const byAgent = new Map<string, RuleMap>();
  for (const line of lines) {
    if (typeof line !== 'string') throw new TypeError('robots-wasm: field values must be strings');
    if (budget <= 0) break;
    const text = line.length > budget ? line.slice(0, budget) : line;
    const { members } = parseList(text);
    const structured = field === 'robots-tag' || members.some((m) => m.params.size > 0);
    const cut = cutsMember(line, text.length, structured);
    if (structured) {
      // A cut member parses as a shorter one ("ExampleBot;noind"): drop it.
      if (cut && members.length > 0 && members[members.length - 1].end === text.length) members.pop();
      readStructured(members, byAgent);
    } else {
      readLegacy(cut ? text.slice(0, text.lastIndexOf(',') + 1) : text, byAgent, '*', true);
    }
    budget -= line.length + 2;
  }
  return robotsRules(byAgent);
}

