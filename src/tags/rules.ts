// The vocabulary of URL-level rules and how two statements of one rule combine. Every rule is
// restrictive (draft-illyes-repext-03 3.1.3), so combining is a union that keeps the more
// restrictive value: the smallest snippet or video length (-1, "no limit", loses to any
// limit), the smallest image preview (none < standard < large), the earliest
// unavailable_after. Header, meta, agent and `*` statements all go through putRule().

import { agentKey as robotsAgentKey } from '../robots/agent.js';

export type RuleValue = true | string | number;
export type RuleMap = Map<string, RuleValue>;

const IMAGE_PREVIEW = ['none', 'standard', 'large'];
/** Rules that mean nothing without a value. */
const VALUED = new Set(['max-snippet', 'max-video-preview', 'max-image-preview', 'unavailable_after']);

function limitRank(n: number): number {
  return n === -1 ? Infinity : n;
}

/** The more restrictive of two values of rule `name`. */
function stricter(name: string, a: RuleValue, b: RuleValue): RuleValue {
  if (typeof a === 'number' && typeof b === 'number') {
    if (name === 'unavailable_after') return Math.min(a, b);
    return limitRank(b) < limitRank(a) ? b : a;
  }
  if (name === 'max-image-preview') return IMAGE_PREVIEW.indexOf(String(b)) < IMAGE_PREVIEW.indexOf(String(a)) ? b : a;
  return a === true ? a : b === true ? b : a;
}

function merge(rules: RuleMap, name: string, value: RuleValue): void {
  const old = rules.get(name);
  rules.set(name, old === undefined ? value : stricter(name, old, value));
}

/** Reads a whole decimal integer ("20", "-1"), or undefined. */
function integer(text: string): number | undefined {
  const t = text.trim();
  if (!/^-?\d{1,15}$/.test(t)) return undefined;
  return Number(t);
}

/**
 * Adds one rule as written (`noindex`, `max-snippet` with `20`, `none`, ...) to `rules`.
 * `value` is true for a rule without a value, a number for a structured integer (or a date,
 * already in ms since the epoch, for unavailable_after). Values that cannot be read drop the
 * rule: an unreadable limit or date restricts nothing.
 */
export function putRule(rules: RuleMap, rawName: string, value: RuleValue): void {
  const name = rawName.trim().toLowerCase();
  if (name === '' || name === 'all') return;
  if (value === true) {
    if (name === 'none') {
      merge(rules, 'noindex', true);
      merge(rules, 'nofollow', true);
    } else if (!VALUED.has(name)) {
      merge(rules, name, true);
    }
    return;
  }
  switch (name) {
    case 'max-snippet':
    case 'max-video-preview': {
      const n = typeof value === 'number' ? value : integer(value);
      if (n !== undefined && Number.isInteger(n) && n >= -1) merge(rules, name, n);
      return;
    }
    case 'max-image-preview': {
      const v = String(value).trim().toLowerCase();
      if (IMAGE_PREVIEW.includes(v)) merge(rules, name, v);
      return;
    }
    case 'unavailable_after': {
      const ms = typeof value === 'number' ? value : parseDate(value);
      if (ms !== undefined && Number.isFinite(ms)) merge(rules, name, ms);
      return;
    }
    default:
      merge(rules, name, typeof value === 'number' ? value : value.trim());
  }
}

/** Adds every rule of `from` to `into`. */
export function unite(into: RuleMap, from: ReadonlyMap<string, RuleValue> | undefined): void {
  if (from !== undefined) for (const [name, value] of from) merge(into, name, value);
}

/** RobotsRules' constructor, set by its static block (see robotsRules). */
let make: (byAgent: Map<string, RuleMap>) => RobotsRules;

/** Rules per agent, `*` being everyone; what parseRobotsTag and parseRobotsMeta return. */
export class RobotsRules {
  readonly #byAgent: Map<string, RuleMap>;

  private constructor(byAgent: Map<string, RuleMap>) {
    this.#byAgent = byAgent;
  }

  static {
    make = (byAgent) => new RobotsRules(byAgent);
  }

  /** The rules for `agent` (a product token or a user-agent string): its own united with `*`'s. */
  rulesFor(agent: string): ReadonlyMap<string, RuleValue> {
    if (typeof agent !== 'string') throw new TypeError('robots-wasm: agent must be a string');
    const rules: RuleMap = new Map();
    unite(rules, this.#byAgent.get('*'));
    const token = agentKey(agent);
    if (token !== '' && token !== '*') unite(rules, this.#byAgent.get(token));
    return rules;
  }

  /** Tokens that have rules of their own (lowercase; `*` for everyone). */
  get agents(): string[] {
    return [...this.#byAgent.keys()];
  }
}

/** How rules are filed per agent: `*`, or the agent's product token in lowercase ('' for none). */
export function agentKey(agent: string): string {
  return agent.trim() === '*' ? '*' : (robotsAgentKey(agent, 'rfc') ?? '');
}

/** The rule map of `agent` in `byAgent` (created on first use). */
export function rulesOf(byAgent: Map<string, RuleMap>, agent: string): RuleMap {
  let rules = byAgent.get(agent);
  if (rules === undefined) byAgent.set(agent, (rules = new Map()));
  return rules;
}

// ---------------------------------------------------------------------------------------
// unavailable_after dates: RFC 822/1123 ("Fri, 25 Jun 2010 15:00:00 PST"), RFC 850
// ("Friday, 25-Jun-10 15:00:00 PST"), asctime ("Fri Jun 25 15:00:00 2010") and ISO 8601
// ("2010-06-25T15:00:00Z", "2010-06-25"). A date without a zone is read as UTC.

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const ZONES: Record<string, number> = {
  gmt: 0, ut: 0, utc: 0, z: 0, est: -5, edt: -4, cst: -6, cdt: -5, mst: -7, mdt: -6, pst: -8, pdt: -7,
};
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[t ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?)?(z|[+-]\d{2}:?\d{2})?$/;

/** Is `word` a weekday name ("Fri", "Friday")? An RFC 850/1123 date starts with one and a comma. */
export function isWeekday(word: string): boolean {
  const w = word.trim().toLowerCase();
  return w.length >= 3 && WEEKDAYS.includes(w.slice(0, 3)) && /^[a-z]+$/.test(w);
}

function offsetMinutes(zone: string): number | undefined {
  if (Object.hasOwn(ZONES, zone)) return ZONES[zone] * 60;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (m === null) return undefined;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

function utc(year: number, month: number, day: number, h: number, min: number, sec: number, offset: number): number | undefined {
  if (month < 0 || month > 11 || day < 1 || day > 31 || h > 23 || min > 59 || sec > 60) return undefined;
  const ms = Date.UTC(year, month, day, h, min, sec);
  if (new Date(ms).getUTCDate() !== day) return undefined; // 31 June
  return ms - offset * 60_000;
}

/** Milliseconds since the epoch of an unavailable_after date, or undefined when it cannot be read. */
export function parseDate(text: string): number | undefined {
  const t = text.trim().toLowerCase();
  if (t.length === 0 || t.length > 64) return undefined;
  const iso = ISO_DATE.exec(t);
  if (iso !== null) {
    const offset = iso[7] === undefined ? 0 : offsetMinutes(iso[7]);
    if (offset === undefined) return undefined;
    return utc(Number(iso[1]), Number(iso[2]) - 1, Number(iso[3]), Number(iso[4] ?? 0), Number(iso[5] ?? 0), Number(iso[6] ?? 0), offset);
  }
  let day: number | undefined;
  let month: number | undefined;
  let year: number | undefined;
  let time: number[] | undefined;
  let offset = 0;
  for (const word of t.split(/[\s,]+/).flatMap((w) => (/^\d{1,2}-[a-z]{3}-\d{2,4}$/.test(w) ? w.split('-') : [w]))) {
    if (word === '') continue;
    if (/^\d{1,2}:\d{2}(:\d{2})?$/.test(word)) time = word.split(':').map(Number);
    else if (MONTHS.includes(word.slice(0, 3)) && /^[a-z]+$/.test(word)) month = MONTHS.indexOf(word.slice(0, 3));
    else if (isWeekday(word)) continue;
    else if (offsetMinutes(word) !== undefined) offset = offsetMinutes(word)!;
    else if (/^\d{4}$/.test(word)) year = Number(word);
    else if (/^\d{1,2}$/.test(word) && day === undefined) day = Number(word);
    else if (/^\d{2}$/.test(word) && year === undefined) year = Number(word) < 70 ? 2000 + Number(word) : 1900 + Number(word);
    else return undefined;
  }
  if (day === undefined || month === undefined || year === undefined) return undefined;
  const [h, min, sec] = time ?? [0, 0, 0];
  return utc(year, month, day, h, min, sec ?? 0, offset);
}

/** Internal (parseRobotsTag, parseRobotsMeta): the rules of `byAgent`, kept without a copy. */
export function robotsRules(byAgent: Map<string, RuleMap>): RobotsRules {
  return make(byAgent);
}
