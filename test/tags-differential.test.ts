// Differential tests of the URL-level control parsers against independent implementations:
// the Structured Field List parser against `structured-headers` on well-formed fields, and the
// meta tag scanner against `htmlparser2` on generated documents (dev dependencies only).
import { Parser } from 'htmlparser2';
import { parseList as referenceList, Token } from 'structured-headers';
import { describe, expect, it } from 'vitest';
import { parseRobotsMeta } from '../src/index.js';
import { parseList } from '../src/fields/structured.js';
import { pick, rng, type Rng } from './support/random.js';

const AGENTS = ['*', 'ExampleBot', 'googlebot', 'Bing-Bot', 'a_b', 'x'];
const KEYS = ['noindex', 'nosnippet', 'max-snippet', 'max-image-preview', 'unavailable_after', 'a*b', 'x.y', 'k_1'];

function bareItem(next: Rng): [string, unknown] {
  switch (Math.floor(next() * 6)) {
    case 0:
      return ['?1', true];
    case 1:
      return ['?0', false];
    case 2: {
      const n = Math.floor(next() * 2000) - 1000;
      return [String(n), n];
    }
    case 3: {
      const t = pick(next, ['large', 'none', 'Std', 'a:b/c', '*x']);
      return [t, `token:${t}`];
    }
    case 4: {
      const s = pick(next, ['2030-01-01', 'a "quoted" \\ one', '', 'x,y;z']);
      return [`"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`, s];
    }
    default: {
      const d = (Math.floor(next() * 100000) - 50000) / 1000;
      return [String(d), d];
    }
  }
}

function randomField(next: Rng): string {
  const members: string[] = [];
  const count = 1 + Math.floor(next() * 4);
  for (let m = 0; m < count; m++) {
    let member = next() < 0.8 ? pick(next, AGENTS) : bareItem(next)[0];
    const params = Math.floor(next() * 4);
    for (let p = 0; p < params; p++) {
      member += `;${' '.repeat(Math.floor(next() * 2))}${pick(next, KEYS)}`;
      if (next() < 0.6) member += `=${bareItem(next)[0]}`;
    }
    members.push(member);
  }
  return members.join(pick(next, [',', ', ', ' ,\t', ',  ']));
}

/** Either parser's result as plain data: [item, [[key, value]...]] per member. */
function normalise(value: unknown): unknown {
  if (value instanceof Token) return `token:${value.toString()}`;
  if (typeof value === 'object' && value !== null && 'type' in value && 'value' in value) {
    const item = value as { type: string; value: unknown };
    return item.type === 'token' ? `token:${String(item.value)}` : item.value;
  }
  return value;
}

describe('Structured Field Lists: the same members as structured-headers', () => {
  it('on 3,000 generated well-formed fields', () => {
    const next = rng(21);
    for (let i = 0; i < 3000; i++) {
      const field = randomField(next);
      const expected = referenceList(field).map(([item, params]) => [normalise(item), [...params].map(([k, v]) => [k, normalise(v)])]);
      const parsed = parseList(field);
      expect(parsed.valid, field).toBe(true);
      const got = parsed.members.map((m) => [normalise(m.item), [...m.params].map(([k, v]) => [k, normalise(v)])]);
      expect(got, field).toEqual(expected);
    }
  });

  it('on malformed fields, never more members than the reference accepts when it accepts', () => {
    const next = rng(22);
    let rejected = 0;
    for (let i = 0; i < 2000; i++) {
      const field = randomField(next);
      const at = Math.floor(next() * (field.length + 1));
      // No '@': structured-headers 2.x rejects any Date followed by another member ("a;x=@4, b").
      const broken = field.slice(0, at) + pick(next, ['"', '(', ';', '=', ':', ',', ' ;', '\u0001']) + field.slice(at);
      let reference: unknown[] | undefined;
      try {
        reference = referenceList(broken);
      } catch {
        rejected++;
        // Parameter keys are read case-insensitively on purpose (rule names are): the same
        // field with lowercase keys is what the reference must then accept.
        try {
          reference = referenceList(broken.replace(/;(\s*)([A-Za-z*][A-Za-z0-9_.*-]*)/g, (_m, sp: string, key: string) => `;${sp}${key.toLowerCase()}`));
        } catch {
          reference = undefined;
        }
      }
      const parsed = parseList(broken);
      if (reference === undefined) expect(parsed.valid, broken).toBe(false);
      else expect(parsed.members.length, broken).toBe(reference.length);
    }
    expect(rejected).toBeGreaterThan(500);
  });
});

// ---------------------------------------------------------------------------------------

const CONTENTS = ['noindex', 'nofollow', 'noarchive', 'nosnippet', 'max-snippet:5', 'notranslate', 'noimageindex'];

function attr(next: Rng, name: string, value: string): string {
  const n = pick(next, [name, name.toUpperCase(), name[0].toUpperCase() + name.slice(1)]);
  const quote = /[\s"'=<>`]/.test(value) || value === '' ? pick(next, ['"', "'"]) : pick(next, ['"', "'", '']);
  const v = quote === '"' ? value.replace(/"/g, '&quot;') : quote === "'" ? value.replace(/'/g, '&#39;') : value;
  return `${n}${pick(next, ['=', ' = ', '='])}${quote}${v}${quote}`;
}

function meta(next: Rng): string {
  const who = pick(next, ['robots', 'ROBOTS', 'examplebot', 'googlebot', 'description']);
  const content = Array.from({ length: 1 + Math.floor(next() * 2) }, () => pick(next, CONTENTS)).join(pick(next, [',', ', ', '&#44; ']));
  const attrs = [attr(next, 'name', who), attr(next, 'content', content.replace('&', next() < 0.5 ? '&' : '&amp;').replace('&amp;#44;', '&#44;'))];
  if (next() < 0.3) attrs.push(attr(next, 'data-x', 'y > z'));
  if (next() < 0.5) attrs.reverse();
  return `<${pick(next, ['meta', 'META', 'Meta'])} ${attrs.join(pick(next, [' ', '  ', '\n']))}${pick(next, ['>', '/>', ' />'])}`;
}

function headPiece(next: Rng): string {
  switch (Math.floor(next() * 9)) {
    case 0:
      return `<!-- ${meta(next)} -->`;
    case 1:
      return `<script>var s = '${meta(next)}'; if (a < b) {}</script>`;
    case 2:
      return `<style>/* ${meta(next)} */ a > b {}</style>`;
    case 3:
      return `<title>${meta(next)} &amp; more</title>`;
    case 4:
      return `<link rel="stylesheet" href="/a.css">`;
    case 5:
      return `<textarea>${meta(next)}</textarea>`;
    default:
      return meta(next);
  }
}

function document(next: Rng): string {
  let html = pick(next, ['<!DOCTYPE html>', '', '<?xml version="1.0"?>']) + pick(next, ['<html>', '<HTML lang="en">', '']);
  html += pick(next, ['<head>', '<HEAD>', '<head data-x="1">']);
  const pieces = Math.floor(next() * 6);
  for (let i = 0; i < pieces; i++) html += headPiece(next) + pick(next, ['\n', ' ', '']);
  html += pick(next, ['</head><body>', '</HEAD>\n<BODY class="x">', '<body>', '</head >']);
  for (let i = 0; i < 2; i++) html += meta(next);
  return html;
}

/** The meta elements htmlparser2 reports before </head> or <body>. */
function referenceMetas(html: string): [string, string][] {
  const metas: [string, string][] = [];
  let stopped = false;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (stopped) return;
        if (name === 'body') stopped = true;
        else if (name === 'meta' && attribs.name !== undefined && attribs.content !== undefined) metas.push([attribs.name.trim().toLowerCase(), attribs.content]);
      },
      onclosetag(name, isImplied) {
        if (name === 'head' && !isImplied) stopped = true;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return metas;
}

describe('robots meta tags: the same tags as htmlparser2', () => {
  it('on 2,000 generated documents (comments, scripts, styles, titles, quoting, case, meta in body)', () => {
    const next = rng(23);
    let withRules = 0;
    for (let i = 0; i < 2000; i++) {
      const html = document(next);
      const expected = parseRobotsMeta(referenceMetas(html).map(([name, content]) => `<meta name="${name}" content="${content.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`).join(''));
      const got = parseRobotsMeta(html);
      for (const agent of ['OtherBot', 'ExampleBot', 'Googlebot']) {
        expect(Object.fromEntries(got.rulesFor(agent)), html).toEqual(Object.fromEntries(expected.rulesFor(agent)));
      }
      if (got.rulesFor('ExampleBot').size > 0) withRules++;
    }
    expect(withRules).toBeGreaterThan(500);
  });
});
