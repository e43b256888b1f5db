// AI usage preferences (draft-ietf-aipref-vocab-07): the vocabulary's categories, a statement
// of preference read from its Structured Fields Dictionary form (section 6), and how several
// statements combine (5.1). A Content-Usage header (tags/controls.ts) and a robots.txt
// Content-Usage rule (usage-rules.ts, whose value splitContentUsage reads) both carry one.
//
// The set of labels is open: the categories have changed in every revision of the draft, so a
// label this table does not know is still returned, with its value as written, for a caller
// that knows a newer vocabulary.

import { parseDictionary, type DictionaryValue } from './structured.js';

/**
 * The usage categories known here, by label, each with the known category it is a part of ('':
 * none): one line a category. vocab-07 has no nesting (earlier revisions nested categories),
 * so none has a parent; a later revision's nesting is its line's parent.
 */
export const USAGE_VOCABULARY = Object.freeze({
  'train-ai': '',
  search: '',
} as const);

/** A label of USAGE_VOCABULARY. */
export type UsageCategory = keyof typeof USAGE_VOCABULARY;

/** The labels of USAGE_VOCABULARY, in its order. */
export const USAGE_CATEGORIES: readonly string[] = Object.freeze(Object.keys(USAGE_VOCABULARY));

/** Labels that no vocabulary category has kept per statement at most: the rest are dropped, so that a hostile statement costs little. */
export const MAX_UNKNOWN_LABELS = 32;

/**
 * Preferences by label. A known category's is 'y' (allowed) or 'n' (disallowed), and absent
 * when unknown; any other label a statement gives keeps its value as written (`n`, `"maybe"`,
 * `?1` for a bare key), parameters left out.
 */
export type UsagePreferences = { [C in UsageCategory]?: 'y' | 'n' } & { [label: string]: string };

const isCategory = (label: string): label is UsageCategory => Object.hasOwn(USAGE_VOCABULARY, label);

/** A known category's preference in a member: the tokens y and n only (vocab 6.5). */
function preferenceOf(member: DictionaryValue | undefined): 'y' | 'n' | undefined {
  const item = member?.item;
  return item?.type === 'token' && (item.value === 'y' || item.value === 'n') ? item.value : undefined;
}

/**
 * The preferences a statement states (vocab 6.5), or undefined when it does not parse as a
 * Dictionary, which states nothing. Keys are case sensitive; parameters are ignored; a known
 * category's value other than the tokens y and n is unknown; a repeated key's last value
 * applies. Other labels are kept as written, the first MAX_UNKNOWN_LABELS of them. A category
 * without a preference of its own takes its parent's (applyParents).
 * `limit`: the characters read, as parseDictionary reads them (a header field's parsing limit).
 */
export function readUsage(statement: string, limit?: number): UsagePreferences | undefined {
  const members = parseDictionary(statement, limit);
  if (members === undefined) return undefined;
  const preferences: Record<string, string> = {};
  for (const category of USAGE_CATEGORIES) {
    const value = preferenceOf(members.get(category));
    if (value !== undefined) preferences[category] = value;
  }
  let unknown = 0;
  for (const [label, member] of members) {
    if (isCategory(label) || unknown++ >= MAX_UNKNOWN_LABELS) continue;
    preferences[label] = member.text;
  }
  return applyParents(preferences as UsagePreferences, USAGE_VOCABULARY);
}

/**
 * `preferences` with each category of `vocabulary` that has no preference of its own given its
 * nearest ancestor's, as vocab-06 5 reads a category nested in another (vocab-07 leaves nesting
 * to the extension that defines it). Changes and returns `preferences`.
 */
export function applyParents(preferences: UsagePreferences, vocabulary: Readonly<Record<string, string>>): UsagePreferences {
  const own = { ...preferences };
  const labels = Object.keys(vocabulary);
  for (const label of labels) {
    if (own[label] === 'y' || own[label] === 'n') continue;
    // A chain is at most as long as the table, which a cycle in it cannot then outrun.
    let parent = vocabulary[label];
    for (let steps = 0; parent !== '' && steps < labels.length; steps++) {
      const stated = Object.hasOwn(own, parent) ? own[parent] : undefined;
      if (stated === 'y' || stated === 'n') {
        preferences[label] = stated;
        break;
      }
      parent = Object.hasOwn(vocabulary, parent) ? vocabulary[parent] : '';
    }
  }
  return preferences;
}

/** One label's values across statements, most restrictive first: any 'n', else any 'y', else the first other value. */
function combinedValue(values: readonly string[]): string | undefined {
  if (values.includes('n')) return 'n';
  if (values.includes('y')) return 'y';
  return values[0];
}

/**
 * Statements of preference combined as draft-ietf-aipref-vocab 5.1 asks: for each label, any
 * 'n' wins, otherwise any 'y'; otherwise a known category stays unknown (absent) and another
 * label keeps its first value. Known categories come first, in USAGE_CATEGORIES' order, then
 * other labels as first given, at most MAX_UNKNOWN_LABELS of them.
 * @example
 * import { combineUsage } from 'robots-wasm';
 * console.log(JSON.stringify(combineUsage({ 'train-ai': 'y', search: 'y' }, { 'train-ai': 'n' }, {}))); // → {"train-ai":"n","search":"y"}
 */
export function combineUsage(...statements: UsagePreferences[]): UsagePreferences {
  const values = new Map<string, string[]>(USAGE_CATEGORIES.map((category) => [category, []]));
  for (const statement of statements) {
    if (statement === null || typeof statement !== 'object') throw new TypeError('robots-wasm: combineUsage expects preference objects');
    for (const [label, value] of Object.entries(statement)) {
      if (typeof value !== 'string') continue;
      let list = values.get(label);
      if (list === undefined) {
        if (values.size >= USAGE_CATEGORIES.length + MAX_UNKNOWN_LABELS) continue;
        values.set(label, (list = []));
      }
      list.push(value);
    }
  }
  const combined: Record<string, string> = {};
  for (const [label, list] of values) {
    const value = combinedValue(isCategory(label) ? list.filter((v) => v === 'y' || v === 'n') : list);
    if (value !== undefined) combined[label] = value;
  }
  return combined as UsagePreferences;
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
