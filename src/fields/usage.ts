// AI usage preferences (draft-ietf-aipref-vocab-07): the vocabulary's categories, a statement
// of preference read from its Structured Fields Dictionary form (section 6), and how several
// statements combine (5.1). A Content-Usage header (tags/controls.ts) and a robots.txt
// Content-Usage rule (usage-rules.ts, whose value splitContentUsage reads) both carry one.

import { parseDictionary } from './structured.js';

/**
 * The usage categories known here (draft-ietf-aipref-vocab-07 6.1), by label: the one list,
 * since it has changed in every revision of the draft. Only these are ever returned.
 */
export const USAGE_CATEGORIES: readonly string[] = Object.freeze(['train-ai', 'search']);

/** Preferences per category label: 'y' allows the use, 'n' disallows it; a category absent is unknown. */
export type UsagePreferences = Record<string, 'y' | 'n'>;

/**
 * The preferences a statement states (vocab 6.5), or undefined when it does not parse as a
 * Dictionary, which states nothing. Keys are case sensitive; unknown keys, parameters, and
 * values other than the tokens y and n are ignored; a repeated key's last value applies.
 * `limit`: the characters read, as parseDictionary reads them (a header field's parsing limit).
 */
export function readUsage(statement: string, limit?: number): UsagePreferences | undefined {
  const members = parseDictionary(statement, limit);
  if (members === undefined) return undefined;
  const preferences: UsagePreferences = {};
  for (const category of USAGE_CATEGORIES) {
    const item = members.get(category)?.item;
    if (item?.type === 'token' && (item.value === 'y' || item.value === 'n')) preferences[category] = item.value;
  }
  return preferences;
}

/**
 * Statements of preference combined as draft-ietf-aipref-vocab 5.1 asks: for each category,
 * any 'n' wins, otherwise any 'y', otherwise it stays unknown (absent).
 * @example
 * import { combineUsage } from 'robots-wasm';
 * console.log(JSON.stringify(combineUsage({ 'train-ai': 'y', search: 'y' }, { 'train-ai': 'n' }, {}))); // → {"train-ai":"n","search":"y"}
 */
export function combineUsage(...statements: UsagePreferences[]): UsagePreferences {
  const combined: UsagePreferences = {};
  for (const category of USAGE_CATEGORIES) {
    let seen: 'y' | 'n' | undefined;
    for (const statement of statements) {
      if (statement === null || typeof statement !== 'object') throw new TypeError('robots-wasm: combineUsage expects preference objects');
      const value = statement[category];
      if (value === 'n') seen = 'n';
      else if (value === 'y' && seen === undefined) seen = 'y';
    }
    if (seen !== undefined) combined[category] = seen;
  }
  return combined;
}

/**
 * A robots.txt Content-Usage value split as draft-ietf-aipref-attach 3.2 reads it: a path up
 * to the first SP or HTAB when it starts with '/' (else none: ''), then the statement, with
 * the blanks before it dropped.
 */
export function splitContentUsage(value: string): { path: string; statement: string } {
  if (!value.startsWith('/')) return { path: '', statement: value };
  const blank = value.search(/[ \t]/);
  if (blank < 0) return { path: value, statement: '' };
  return { path: value.slice(0, blank), statement: value.slice(blank).replace(/^[ \t]+/, '') };
}
