// DIRECTIVE_TABLE (src/robots/directives.ts): the line reader (assembly/lex.ts) recognises
// every spelling the table holds, as the table says, and the group builder reads the values
// of the directives it has handlers for.
import { describe, expect, it } from 'vitest';
import { RobotsTxt } from '../src/index.js';
import {
  DIRECTIVE_ALLOW, DIRECTIVE_DISALLOW, DIRECTIVE_SITEMAP, DIRECTIVE_UNKNOWN, DIRECTIVE_USER_AGENT, MAX_DIRECTIVE_SPELLINGS,
  MAX_SPELLING_BYTES,
} from '../src/robots/directives.js';
import { DIRECTIVES, parseLines, type RobotsLine } from '../src/robots/parse.js';

/** The first line of `text` as each mode reads it: kind, directive name, typo flag. */
function firstLine(text: string): [RobotsLine['kind'], string | null, boolean][] {
  return (['rfc', 'google'] as const).map((mode) => {
    let got: [RobotsLine['kind'], string | null, boolean] | undefined;
    parseLines(new TextEncoder().encode(text), mode, (line) => {
      got ??= [line.kind, line.directive, line.typo];
    });
    return got!;
  });
}

describe('DIRECTIVE_TABLE', () => {
  it("starts with the reference's keys, in the order it tries them, at their ids", () => {
    const first = DIRECTIVES.slice(0, 4).map(({ id, name, kind, match }) => [id, name, kind, match]);
    expect(first).toEqual([
      [DIRECTIVE_USER_AGENT, 'user-agent', 'reference', 'prefix'],
      [DIRECTIVE_ALLOW, 'allow', 'reference', 'prefix'],
      [DIRECTIVE_DISALLOW, 'disallow', 'reference', 'prefix'],
      [DIRECTIVE_SITEMAP, 'sitemap', 'reference', 'prefix'],
    ]);
    expect(DIRECTIVES.slice(4).filter((d) => d.kind === 'reference')).toEqual([]);
  });

  it("fits the line reader's key table", () => {
    const spellings = DIRECTIVES.flatMap((d) => [d.name, ...d.misspellings]);
    expect(spellings.length).toBeLessThanOrEqual(MAX_DIRECTIVE_SPELLINGS);
    expect(DIRECTIVES.length).toBeLessThan(DIRECTIVE_UNKNOWN);
    for (const spelling of spellings) {
      expect(spelling).toMatch(/^[a-z][a-z _-]*$/);
      expect(spelling.length).toBeLessThanOrEqual(MAX_SPELLING_BYTES);
    }
    for (const d of DIRECTIVES) {
      expect(['reference', 'extension']).toContain(d.kind);
      expect(['prefix', 'whole', 'loose']).toContain(d.match);
    }
    expect(new Set(DIRECTIVES.map((d) => d.name)).size).toBe(DIRECTIVES.length);
  });

  it('every spelling is read as its directive, in any case, a misspelling as a typo', () => {
    for (const d of DIRECTIVES) {
      const kind = d.kind === 'reference' ? d.name : 'unknown';
      for (const [spelling, typo] of [[d.name, false], ...d.misspellings.map((m) => [m, true] as const)] as const) {
        for (const written of [spelling, spelling.toUpperCase(), spelling[0].toUpperCase() + spelling.slice(1)]) {
          expect([written, ...firstLine(`${written}: x`)]).toEqual([written, [kind, d.name, typo], [kind, d.name, typo]]);
        }
        // What follows the spelling: still the directive by prefix, another key otherwise.
        const longer = d.match === 'prefix' ? [kind, d.name, typo] : ['unknown', null, false];
        expect([spelling, ...firstLine(`${spelling}x: x`)]).toEqual([spelling, longer, longer]);
      }
    }
  });

  it('loose spellings drop every -, _ and space, and nothing else', () => {
    for (const key of ['crawl-delay', 'crawldelay', 'crawl_delay', 'Crawl Delay', '-CRAWL--delay_', 'c-r-a-w-l-d-e-l-a-y']) {
      expect([key, ...firstLine(`${key}: 4`)]).toEqual([key, ['unknown', 'crawl-delay', false], ['unknown', 'crawl-delay', false]]);
      expect(RobotsTxt.parse(`user-agent: *\n${key}: 4\n`).crawlDelay('bot')).toBe(4);
    }
    for (const key of ['crawl\tdelay', 'crawl.delay', 'crawl-dela', 'crawl-delays', 'xcrawl-delay']) {
      expect([key, ...firstLine(`${key}: 4`)]).toEqual([key, ['unknown', null, false], ['unknown', null, false]]);
      expect(RobotsTxt.parse(`user-agent: *\n${key}: 4\n`).crawlDelay('bot')).toBeUndefined();
    }
  });

  it('keys of no directive are unknown, and lines without a key have none', () => {
    for (const key of ['foo', 'hos', 'hostname', '@host', '{', 'ä-allow', 'content']) {
      expect([key, ...firstLine(`${key}: x`)]).toEqual([key, ['unknown', null, false], ['unknown', null, false]]);
    }
    expect(firstLine('# comment')).toEqual([[null, null, false], [null, null, false]]);
  });
});
