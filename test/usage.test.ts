// AI usage preferences (draft-ietf-aipref-vocab-07, draft-ietf-aipref-attach-05): statements
// read from a Dictionary, combined, carried by the Content-Usage header with its parsing
// limit, shown by `robots-wasm tags`; and the strict Dictionary parser against
// `structured-headers` (a dev dependency) on generated values.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { DisplayString, parseDictionary as referenceDictionary, Token } from 'structured-headers';
import { describe, expect, it } from 'vitest';
import { combineUsage, MAX_UNKNOWN_LABELS, urlControls, USAGE_CATEGORIES, type UsagePreferences } from '../src/index.js';
import { parseDictionary, type BareItem, type DictionaryValue } from '../src/fields/structured.js';
import { applyParents, readUsage, USAGE_VOCABULARY } from '../src/fields/usage.js';
import { pick, rng, type Rng } from './support/random.js';

describe('readUsage (vocab 6.5)', () => {
  it("the draft's examples: section 6, 6.5.1 (every preference unknown), 6.5.2 (parameters of the last value)", () => {
    expect(readUsage('train-ai=y, search=n')).toEqual({ 'train-ai': 'y', search: 'n' });
    expect(readUsage('train-ai=y, train-ai, search=n, search="n"')).toEqual({});
    expect(readUsage('train-ai;allow=n, train-ai=y')).toEqual({ 'train-ai': 'y' });
    expect(readUsage('train-ai;has;parameters="?"')).toEqual({});
    // As printed, with a ';' that no parameter follows: RFC 9651 4.2.3.2 then fails the parse.
    expect(readUsage('train-ai;has;parameters="?";')).toBeUndefined();
  });

  it('keys are case sensitive: an uppercase key fails the whole statement', () => {
    expect(readUsage('Train-AI=n')).toBeUndefined();
    expect(readUsage('train-ai=n, Search=y')).toBeUndefined();
    expect(readUsage('train-ai=N')).toEqual({});
  });

  it('parameters are ignored; labels the vocabulary does not know are kept as written', () => {
    expect(readUsage('foo=n, train-ai=n;why="x";v=2, bar, search=y;a')).toEqual({ 'train-ai': 'n', search: 'y', foo: 'n', bar: '?1' });
    expect(readUsage('a*b=n, x.y=y')).toEqual({ 'a*b': 'n', 'x.y': 'y' });
  });

  it('values other than the tokens y and n are unknown', () => {
    for (const value of ['"n"', '?1', '?0', '1', '0.5', '(n y)', ':bg==:', 'yes', 'no', '*n']) {
      expect(readUsage(`train-ai=${value}, search=n`), value).toEqual({ search: 'n' });
    }
  });

  it("a repeated key's last value applies", () => {
    expect(readUsage('train-ai=y, search=n, train-ai=n, search=y')).toEqual({ 'train-ai': 'n', search: 'y' });
    expect(readUsage('train-ai=n, train-ai=maybe')).toEqual({});
  });

  it('a trailing comma or garbage fails the whole statement', () => {
    for (const statement of ['train-ai=n,', 'train-ai=n, ', 'train-ai=n x', 'train-ai=n;', 'train-ai=n,,search=y', 'train-ai=', '=n', 'train-ai=n search=y']) {
      expect(readUsage(statement), statement).toBeUndefined();
    }
  });

  it('SP before and after, OWS around commas; a leading HTAB is not SP', () => {
    expect(readUsage('  train-ai=n  ')).toEqual({ 'train-ai': 'n' });
    expect(readUsage('train-ai=n\t,\tsearch=y\t')).toEqual({ 'train-ai': 'n', search: 'y' });
    expect(readUsage('train-ai=n \t, search=y')).toEqual({ 'train-ai': 'n', search: 'y' });
    expect(readUsage('\ttrain-ai=n')).toBeUndefined();
    expect(readUsage('')).toEqual({});
    expect(readUsage('   ')).toEqual({});
  });

  it('non-ASCII fails the whole statement', () => {
    for (const statement of ['train-ai=n, search="é"', 'train-ai=né', 'trainé=n', 'train-ai=n,\u00a0search=y', 'search="✓"']) {
      expect(readUsage(statement), statement).toBeUndefined();
    }
  });
});

describe('the vocabulary table and its nesting', () => {
  it('one line a category: USAGE_CATEGORIES are its labels; every parent is one of them (vocab-07 has none)', () => {
    expect(USAGE_CATEGORIES).toEqual(Object.keys(USAGE_VOCABULARY));
    for (const parent of Object.values(USAGE_VOCABULARY)) expect(['', ...USAGE_CATEGORIES]).toContain(parent);
    expect(USAGE_VOCABULARY).toEqual({ 'train-ai': '', search: '' });
  });

  // A nesting like vocab-03's (train-genai inside train-ai), as a later revision may have again.
  const nested = { 'train-ai': '', 'train-genai': 'train-ai', 'train-genai-code': 'train-genai', search: '', loop: 'loop2', loop2: 'loop' };

  it("a category without a preference of its own takes its nearest ancestor's", () => {
    expect(applyParents({ 'train-ai': 'n' }, nested)).toEqual({ 'train-ai': 'n', 'train-genai': 'n', 'train-genai-code': 'n' });
    expect(applyParents({ 'train-ai': 'n', 'train-genai': 'y' }, nested)).toEqual({ 'train-ai': 'n', 'train-genai': 'y', 'train-genai-code': 'y' });
    expect(applyParents({ 'train-genai-code': 'y', search: 'n' }, nested)).toEqual({ 'train-genai-code': 'y', search: 'n' });
    // A value other than y or n is no preference: the parent's applies over it.
    expect(applyParents({ 'train-ai': 'y', 'train-genai': '"n"' } as UsagePreferences, nested)).toMatchObject({ 'train-genai': 'y', 'train-genai-code': 'y' });
    // A cycle in a table ends.
    expect(applyParents({ other: 'n' }, nested)).toEqual({ other: 'n' });
  });

  it('nesting applies per statement, before statements combine: a parent\'s n is not undone by a child\'s y elsewhere', () => {
    const a = applyParents({ 'train-ai': 'n' }, nested);
    const b = applyParents({ 'train-genai': 'y' }, nested);
    expect(combineUsage(a, b)).toMatchObject({ 'train-ai': 'n', 'train-genai': 'n', 'train-genai-code': 'n' });
  });
});

describe('combineUsage (vocab 5.1)', () => {
  it('any n disallows; otherwise any y allows; otherwise unknown', () => {
    expect(combineUsage({ 'train-ai': 'y' }, { 'train-ai': 'n' })).toEqual({ 'train-ai': 'n' });
    expect(combineUsage({ 'train-ai': 'n' }, { 'train-ai': 'y' })).toEqual({ 'train-ai': 'n' });
    expect(combineUsage({ search: 'y' }, {})).toEqual({ search: 'y' });
    expect(combineUsage({ search: 'y' }, { search: 'y' })).toEqual({ search: 'y' });
    expect(combineUsage({ search: 'y' }, { 'train-ai': 'y' })).toEqual({ search: 'y', 'train-ai': 'y' });
  });

  it('several statements, per category', () => {
    const statements: UsagePreferences[] = [{ 'train-ai': 'y', search: 'y' }, { search: 'y' }, { 'train-ai': 'n' }, {}];
    expect(combineUsage(...statements)).toEqual({ 'train-ai': 'n', search: 'y' });
    expect(Object.keys(combineUsage({ search: 'n' }, { 'train-ai': 'y' }))).toEqual(['train-ai', 'search']);
  });

  it('no statements or empty ones: every category unknown; a known category\'s value other than y and n ignored', () => {
    expect(combineUsage()).toEqual({});
    expect(combineUsage({}, {})).toEqual({});
    expect(combineUsage({ foo: 'n' }, { 'train-ai': 'maybe' } as unknown as UsagePreferences)).toEqual({ foo: 'n' });
  });

  it('a statement that is not an object is a TypeError', () => {
    for (const bad of [null, undefined, 'train-ai=n', 1]) {
      expect(() => combineUsage({}, bad as unknown as UsagePreferences)).toThrow(TypeError);
    }
  });
});

describe('urlControls: the Content-Usage header', () => {
  const usage = (headers: Headers | Record<string, string | string[]>, maxHeaderBytes?: number) => urlControls({ headers }, 'ExampleBot', { maxHeaderBytes }).contentUsage;

  it("attach's example, the same for every agent", () => {
    const headers = { 'Content-Type': 'text/plain', 'Content-Usage': 'train-ai=n' };
    expect(usage(headers)).toEqual({ 'train-ai': 'n' });
    expect(urlControls({ headers }, 'OtherBot').contentUsage).toEqual({ 'train-ai': 'n' });
  });

  it('labels the vocabulary does not know are kept as written, for any agent', () => {
    expect(usage({ 'content-usage': 'train-ai=n, infer-user=y, ai-input=?0' })).toEqual({ 'train-ai': 'n', 'infer-user': 'y', 'ai-input': '?0' });
  });

  it('a field of 20,000 unknown labels keeps MAX_UNKNOWN_LABELS of them, and every known one', () => {
    const labels = Array.from({ length: 20_000 }, (_, i) => `l${i}=n`).join(', ');
    const got = usage({ 'content-usage': `${labels}, search=n` }, 1 << 20);
    expect(Object.keys(got)).toEqual(['search', ...Array.from({ length: MAX_UNKNOWN_LABELS }, (_, i) => `l${i}`)]);
    expect(got).toMatchObject({ search: 'n', l0: 'n', [`l${MAX_UNKNOWN_LABELS - 1}`]: 'n' });
  });

  it('no header, or one that states nothing: {}', () => {
    expect(urlControls({}, 'ExampleBot').contentUsage).toEqual({});
    expect(usage({ 'x-robots-tag': 'noindex' })).toEqual({});
    expect(usage({ 'content-usage': 'Train-AI=n' })).toEqual({});
    expect(usage({ 'content-usage': '' })).toEqual({});
  });

  it('several lines are one Dictionary: joined with ", " (a record of lines, a Headers object)', () => {
    expect(usage({ 'content-usage': ['train-ai=n', 'search=y'] })).toEqual({ 'train-ai': 'n', search: 'y' });
    const headers = new Headers();
    headers.append('Content-Usage', 'train-ai=n');
    headers.append('content-usage', 'search=y');
    expect(usage(headers)).toEqual({ 'train-ai': 'n', search: 'y' });
    expect(usage({ 'content-usage': ['train-ai=y', 'train-ai=n'] })).toEqual({ 'train-ai': 'n' });
    expect(usage({ 'content-usage': ['train-ai=n', 'Search=y'] })).toEqual({});
  });

  // "train-ai=n;pad="aaa…", <tail>": the tail starts `at` characters into the field. The pad is
  // a parameter, which states nothing, where a label of its own would be kept.
  const field = (at: number, tail: string) => {
    const head = (n: number) => `train-ai=n;pad="${'a'.repeat(n)}", `;
    return head(at - head(0).length) + tail;
  };

  it('the parsing limit: the member it cuts is dropped, with everything after it; members before it count', () => {
    const cut = field(8188, 'search=y');
    expect(cut.length).toBe(8196);
    expect(usage({ 'content-usage': cut })).toEqual({ 'train-ai': 'n' });
    expect(usage({ 'content-usage': cut }, 20000)).toEqual({ 'train-ai': 'n', search: 'y' });
    // Counted across the joined lines.
    expect(usage({ 'content-usage': [field(8188, '').slice(0, -2), 'search=y'] })).toEqual({ 'train-ai': 'n' });
    // Cut inside a String: the cut member only, not an error.
    expect(usage({ 'content-usage': field(8185, 'x="abcdef", search=y') })).toEqual({ 'train-ai': 'n' });
  });

  it('a member ending right at the limit counts when a separator follows; one that goes on is cut', () => {
    expect(usage({ 'content-usage': field(8184, 'search=y') })).toEqual({ 'train-ai': 'n', search: 'y' });
    expect(usage({ 'content-usage': field(8184, 'search=y, later') })).toEqual({ 'train-ai': 'n', search: 'y' });
    expect(usage({ 'content-usage': field(8184, 'search=yes') })).toEqual({ 'train-ai': 'n' });
  });

  it('an error before the limit fails the field; one after it is never read', () => {
    expect(usage({ 'content-usage': `Bad=1, ${field(8188, 'search=y')}` })).toEqual({});
    expect(usage({ 'content-usage': field(8188, 'search=y, Bad') })).toEqual({ 'train-ai': 'n' });
    // Its 16th digit is the last character read: invalid before the limit.
    expect(usage({ 'content-usage': field(8174, `k=${'1'.repeat(30)}`) })).toEqual({});
    expect(usage({ 'content-usage': field(8175, `k=${'1'.repeat(30)}`) })).toEqual({ 'train-ai': 'n' });
    expect(() => usage({ 'content-usage': 'train-ai=n' }, 100)).toThrow(/maxHeaderBytes must be an integer of at least 8192/);
  });
});

describe('parseDictionary with a limit', () => {
  const keys = (value: string, limit: number) => {
    const members = parseDictionary(value, limit);
    return members === undefined ? undefined : [...members.keys()];
  };

  it('members before the limit, the cut one dropped', () => {
    expect(keys('a=1, b=2', 4)).toEqual(['a']);
    expect(keys('a=1, b=2', 3)).toEqual(['a']);
    expect(keys('a=12, b=2', 3)).toEqual([]);
    expect(keys('a="xy", b=2', 5)).toEqual([]);
    expect(keys('a=1, b=2, C', 8)).toEqual(['a', 'b']);
    expect(keys('a=1;pq, b', 5)).toEqual([]);
    expect(keys('a=%"%61", b', 6)).toEqual([]);
    expect(keys('a=1.5', 4)).toEqual([]);
    expect(keys('a=1.2345', 6)).toEqual([]);
    expect(keys('   a=1', 2)).toEqual([]);
  });

  it('what is invalid before the limit fails the whole value', () => {
    expect(keys('A=1, b=2', 3)).toBeUndefined();
    expect(keys('a=1.2345, b', 8)).toBeUndefined();
    expect(keys('a=@1.5, b', 8)).toBeUndefined();
    expect(keys('a=1 b', 5)).toBeUndefined();
    expect(keys('a=1 b', 4)).toEqual(['a']);
    expect(parseDictionary('a=%"%61"')?.get('a')?.item).toEqual({ type: 'display', value: 'a' });
  });
});

// ---------------------------------------------------------------------------------------

const KEYS = ['train-ai', 'search', 'a*b', 'x.y', 'k_1', '*', 'z9-'];
const TOKENS = ['y', 'n', 'yes', 'N', 'Y', 'a:b/c', '*x', "t!#$%&'*+-.^_`|~"];
const STRINGS = ['', 'n', 'a "quoted" \\ one', 'x,y;z=(1)', ' '];
const NUMBERS = ['0', '-0', '42', '-7', '999999999999999', '0.5', '-12.125', '123456789012.123', '1.0'];

function bareItem(next: Rng): string {
  switch (Math.floor(next() * 7)) {
    case 0:
    case 1:
      return pick(next, TOKENS);
    case 2:
      return `"${pick(next, STRINGS).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
    case 3:
      return next() < 0.5 ? pick(next, NUMBERS) : String(Math.floor(next() * 2e5 - 1e5) / (next() < 0.5 ? 1 : 100));
    case 4:
      return pick(next, ['?0', '?1']);
    case 5:
      return `:${Buffer.from(Array.from({ length: Math.floor(next() * 5) }, () => Math.floor(next() * 256))).toString('base64')}:`;
    default:
      // No Date: structured-headers 2.x fails any Date that something follows ("a=@4, b").
      return pick(next, TOKENS);
  }
}

function params(next: Rng): string {
  let text = '';
  for (let i = Math.floor(next() * 3); i > 0; i--) text += `;${pick(next, ['', ' '])}${pick(next, KEYS)}${next() < 0.6 ? `=${bareItem(next)}` : ''}`;
  return text;
}

function member(next: Rng): string {
  const key = pick(next, KEYS);
  const roll = next();
  if (roll < 0.15) return key + params(next);
  if (roll > 0.85) {
    const items = Array.from({ length: Math.floor(next() * 3) }, () => bareItem(next) + params(next));
    return `${key}=(${pick(next, ['', ' '])}${items.join(pick(next, [' ', '  ']))}${pick(next, ['', ' '])})${params(next)}`;
  }
  return `${key}=${bareItem(next)}${params(next)}`;
}

/** A generated Dictionary, its members, and the offset just past each of them. */
function generated(next: Rng): { text: string; members: string[]; ends: number[] } {
  const members = Array.from({ length: 1 + Math.floor(next() * 4) }, () => member(next));
  const separator = pick(next, [',', ', ', ' ,\t', ',\t ']);
  let text = pick(next, ['', ' ', '  ']);
  const ends = members.map((m, i) => (text += (i > 0 ? separator : '') + m).length);
  return { text: text + pick(next, ['', ' ', '\t']), members, ends };
}

const dictionary = (next: Rng) => generated(next).text;

const MUTATIONS: ((next: Rng, value: string) => string)[] = [
  (_next, value) => value.replace(/^( *)([a-z])/, (_m, sp: string, c: string) => sp + c.toUpperCase()),
  (_next, value) => {
    const at = value.search(/[a-z]/);
    return at < 0 ? value : value.slice(0, at) + value[at].toUpperCase() + value.slice(at + 1);
  },
  (_next, value) => `${value},`,
  (_next, value) => value.replace(/=[^,;]*/, '='),
  (next, value) => {
    const at = Math.floor(next() * (value.length + 1));
    return value.slice(0, at) + pick(next, ['"', '(', ')', ';', '=', ':', ',', ' ', '\t', 'é', '\u0001', 'A', '-', '.', '%', '\\']) + value.slice(at);
  },
  (next, value) => {
    const quote = value.indexOf('"');
    return quote < 0 ? `${value}, x.y="a\\qb"` : `${value.slice(0, quote + 1)}\\${pick(next, ['q', 'n', "'"])}${value.slice(quote + 1)}`;
  },
];

type Plain = unknown;

/** structured-headers' bare item as [type, value]; a Date never occurs (not generated). */
function referenceItem(value: unknown): Plain {
  if (value instanceof Token) return ['token', value.toString()];
  if (value instanceof ArrayBuffer) return ['bytes', Buffer.from(value).toString('base64')];
  if (value instanceof DisplayString) return ['display', value.toString()];
  return [typeof value === 'number' ? 'number' : typeof value, value];
}

/** Ours in the same shape: Integers and Decimals are both JavaScript numbers there, and bytes decoded. */
function ourItem(item: BareItem): Plain {
  if (item.type === 'bytes') return ['bytes', Buffer.from(item.value, 'base64').toString('base64')];
  return [item.type === 'integer' || item.type === 'decimal' ? 'number' : item.type, item.value];
}

function referenceMembers(value: string): Plain[] {
  return [...referenceDictionary(value)].map(([key, [item, parameters]]) => [
    key,
    Array.isArray(item) ? 'inner list' : referenceItem(item),
    [...parameters].map(([name, v]) => [name, referenceItem(v)]),
  ]);
}

function ourMembers(members: Map<string, DictionaryValue>): Plain[] {
  return [...members].map(([key, { item, params }]) => [
    key,
    item === undefined ? 'inner list' : ourItem(item),
    [...params].map(([name, v]) => [name, ourItem(v)]),
  ]);
}

/** Both parsers on one value: success and failure agree, and successes give the same members. */
function compare(value: string): boolean {
  let expected: Plain[] | undefined;
  try {
    expected = referenceMembers(value);
  } catch {
    expected = undefined;
  }
  const got = parseDictionary(value);
  expect(got === undefined ? undefined : ourMembers(got), JSON.stringify(value)).toEqual(expected);
  return expected !== undefined;
}

describe('Structured Field Dictionaries: the same members as structured-headers', () => {
  it('on 2,000 generated valid dictionaries', () => {
    const next = rng(31);
    for (let i = 0; i < 2000; i++) expect(compare(dictionary(next))).toBe(true);
  });

  it('on 3,000 mutated ones (uppercase key, trailing comma, missing value, stray character, bad escape)', () => {
    const next = rng(32);
    let rejected = 0;
    for (let i = 0; i < 3000; i++) {
      if (!compare(pick(next, MUTATIONS)(next, dictionary(next)))) rejected++;
    }
    expect(rejected).toBeGreaterThan(1500);
    expect(rejected).toBeLessThan(2900);
  });

  it('with a limit: the members that end by it, as structured-headers reads them alone', () => {
    const next = rng(33);
    for (let i = 0; i < 2000; i++) {
      const { text, members, ends } = generated(next);
      const limit = Math.floor(next() * (text.length + 1));
      const got = parseDictionary(text, limit);
      const whole = members.filter((_m, k) => ends[k] <= limit).join(', ');
      expect(got && ourMembers(got), `${JSON.stringify(text)} read to ${limit}`).toEqual(referenceMembers(whole));
    }
  });
});

// ---------------------------------------------------------------------------------------

describe('robots-wasm tags: Content-Usage', () => {
  const CLI = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js');
  const run = (args: string[]) => spawnSync(process.execPath, [CLI, 'tags', '--agent', 'ExampleBot', ...args], { encoding: 'utf8' });

  it('a content-usage line in the text output, only when the header states something', () => {
    const r = run(['--header', 'Content-Usage: train-ai=n']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/\n {2}content-usage {5}train-ai=n\n$/);
    const both = run(['--header', 'Content-Usage: search=y', '--header', 'content-usage: train-ai=n']);
    expect(both.stdout).toMatch(/\n {2}content-usage {5}train-ai=n, search=y\n$/);
    expect(run(['--header', 'X-Robots-Tag: noindex']).stdout).not.toMatch(/content-usage/);
  });

  it('--json has contentUsage', () => {
    const r = run(['--header', 'Content-Usage: train-ai=n', '--json']);
    expect(JSON.parse(r.stdout).contentUsage).toEqual({ 'train-ai': 'n' });
    expect(JSON.parse(run(['--json']).stdout).contentUsage).toEqual({});
  });
});
