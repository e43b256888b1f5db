// URL-level controls (draft-illyes-repext-03): Robots-Tag, X-Robots-Tag (structured and
// legacy), robots meta tags, their union, limits and hostile input.
import { describe, expect, it } from 'vitest';
import { parseRobotsMeta, parseRobotsTag, urlControls } from '../src/index.js';
import { parseDate } from '../src/tags/rules.js';

const rules = (map: ReadonlyMap<string, unknown>) => Object.fromEntries(map);

describe('Robots-Tag (structured field)', () => {
  it("the draft's example: *;nosnippet, ExampleBot;noindex", () => {
    const tag = parseRobotsTag('*;nosnippet, ExampleBot;noindex');
    expect(rules(tag.rulesFor('ExampleBot'))).toEqual({ nosnippet: true, noindex: true });
    expect(rules(tag.rulesFor('OtherBot'))).toEqual({ nosnippet: true });
    expect(tag.agents).toEqual(['*', 'examplebot']);
  });

  it('repeated tokens and several lines are united; names and tokens compare case-insensitively', () => {
    const tag = parseRobotsTag(['examplebot;noindex, ExampleBot;nofollow', 'EXAMPLEBOT;NoSnippet;max-snippet=20', '*;max-snippet=50']);
    expect(rules(tag.rulesFor('ExampleBot/2.1 (+https://example.com)'))).toEqual({ noindex: true, nofollow: true, nosnippet: true, 'max-snippet': 20 });
  });

  it('parameter values: integers, tokens, strings, dates, false booleans', () => {
    const tag = parseRobotsTag('*;max-image-preview=standard;max-video-preview=-1;unavailable_after="2030-01-01T00:00:00Z";noarchive=?0, bot;unavailable_after=@1893456000');
    expect(rules(tag.rulesFor('other'))).toEqual({ 'max-image-preview': 'standard', 'max-video-preview': -1, unavailable_after: Date.UTC(2030, 0, 1) });
    expect(tag.rulesFor('bot').get('unavailable_after')).toBe(Date.UTC(2030, 0, 1));
  });

  it('an invalid member ends the field: the members before it count, it and the rest do not', () => {
    const tag = parseRobotsTag('*;noarchive, ExampleBot;noindex, OtherBot;"unterminated, ThirdBot;nofollow');
    expect(rules(tag.rulesFor('ExampleBot'))).toEqual({ noarchive: true, noindex: true });
    expect(rules(tag.rulesFor('ThirdBot'))).toEqual({ noarchive: true });
    expect(tag.agents).toEqual(['*', 'examplebot']);
    // The same on the next line does not carry over: each line stands alone.
    const lines = parseRobotsTag(['a;noindex, @@@, b;noindex', 'c;nosnippet']);
    expect(lines.agents).toEqual(['a', 'c']);
  });

  it('a trailing comma or garbage after a member keeps the members before it', () => {
    expect(parseRobotsTag('a;noindex,').agents).toEqual(['a']);
    expect(parseRobotsTag('a;noindex b;noindex').agents).toEqual(['a']);
    expect(parseRobotsTag('').agents).toEqual([]);
  });

  it('the parsing limit: complete members before 8 KiB count, the cut one and the rest do not', () => {
    const filler = (n: number) => `f${'x'.repeat(n - 1)}`;
    // "<filler of 8180 bytes>, a;noindex" - a;noindex spans the limit.
    const head = `${filler(8180)};noarchive, `;
    const cut = parseRobotsTag(`${head}a;noindex, b;noindex`);
    expect(cut.agents).toEqual([filler(8180)]);
    // Ending exactly at the limit, followed by ',' : complete.
    const exact = `${filler(8192 - ';noindex'.length)};noindex`;
    expect(exact.length).toBe(8192);
    expect(parseRobotsTag(`${exact}, later;noindex`).agents).toHaveLength(1);
    // Ending at the limit but continuing after it: cut.
    expect(parseRobotsTag(`${exact}x, later;noindex`).agents).toEqual([]);
    // The limit counts the whole field: a second line past it is ignored.
    expect(parseRobotsTag([`${filler(8180)};noindex`, 'b;noindex']).agents).toHaveLength(1);
    expect(parseRobotsTag([`${filler(8180)};noindex`, 'b;noindex'], { maxBytes: 9000 }).agents).toHaveLength(2);
    expect(() => parseRobotsTag('a', { maxBytes: 100 })).toThrow(/maxBytes must be an integer of at least 8192/);
  });
});

describe('X-Robots-Tag (legacy and structured)', () => {
  const x = (value: string | string[]) => parseRobotsTag(value, { field: 'x-robots-tag' });

  it('rules for everyone; none = noindex + nofollow; all restricts nothing', () => {
    expect(rules(x('noindex, nofollow').rulesFor('Googlebot'))).toEqual({ noindex: true, nofollow: true });
    expect(rules(x('none').rulesFor('Googlebot'))).toEqual({ noindex: true, nofollow: true });
    expect(rules(x('all').rulesFor('Googlebot'))).toEqual({});
    expect(rules(x('NoIndex , NOARCHIVE').rulesFor('x'))).toEqual({ noindex: true, noarchive: true });
  });

  it('an agent prefix holds until the next prefix or the end of its line', () => {
    const tag = x(['googlebot: noindex, nosnippet', 'otherbot: noarchive, bingbot: nofollow', 'notranslate']);
    expect(rules(tag.rulesFor('Googlebot/2.1'))).toEqual({ noindex: true, nosnippet: true, notranslate: true });
    expect(rules(tag.rulesFor('otherbot'))).toEqual({ noarchive: true, notranslate: true });
    expect(rules(tag.rulesFor('bingbot'))).toEqual({ nofollow: true, notranslate: true });
    expect(rules(tag.rulesFor('someone'))).toEqual({ notranslate: true });
  });

  it('valued rules', () => {
    const tag = x('max-snippet: 20, max-image-preview: large, max-video-preview: -1, googlebot: max-snippet: 5');
    expect(rules(tag.rulesFor('x'))).toEqual({ 'max-snippet': 20, 'max-image-preview': 'large', 'max-video-preview': -1 });
    expect(tag.rulesFor('googlebot').get('max-snippet')).toBe(5);
    expect(rules(x('max-snippet: lots, max-image-preview: huge, max-snippet:').rulesFor('x'))).toEqual({});
  });

  it.each([
    ['unavailable_after: 25 Jun 2010 15:00:00 PST', Date.UTC(2010, 5, 25, 23)],
    ['unavailable_after: Friday, 25-Jun-10 15:00:00 PST', Date.UTC(2010, 5, 25, 23)],
    ['unavailable_after: Fri, 25 Jun 2010 15:00:00 GMT', Date.UTC(2010, 5, 25, 15)],
    ['unavailable_after: 2010-06-25T15:00:00+02:00', Date.UTC(2010, 5, 25, 13)],
    ['unavailable_after: 2010-06-25', Date.UTC(2010, 5, 25)],
    ['unavailable_after: Fri Jun 25 15:00:00 2010', Date.UTC(2010, 5, 25, 15)],
  ])('%s', (value, ms) => {
    const tag = x(`noarchive, ${value}, nofollow`);
    expect(rules(tag.rulesFor('x'))).toEqual({ noarchive: true, unavailable_after: ms, nofollow: true });
  });

  it('unreadable dates are ignored', () => {
    expect(parseDate('31 Jun 2010')).toBeUndefined();
    expect(parseDate('soon')).toBeUndefined();
    expect(rules(x('unavailable_after: tomorrow').rulesFor('x'))).toEqual({});
  });

  it('the structured form is read when a value uses it', () => {
    expect(rules(x('*;noindex, ExampleBot;nosnippet').rulesFor('ExampleBot'))).toEqual({ noindex: true, nosnippet: true });
    // A legacy value parses as a List too (tokens without parameters) but is read as legacy.
    expect(rules(x('noindex, nofollow').rulesFor('noindex'))).toEqual({ noindex: true, nofollow: true });
  });

  it('the limit cuts legacy values at the last complete rule', () => {
    const long = `noarchive, ${'x'.repeat(8200)}, noindex`;
    expect(rules(x(long).rulesFor('x'))).toEqual({ noarchive: true });
    const fits = `${'nofollow, '.repeat(818)}noindex, nosnippet`;
    expect(fits.indexOf('noindex')).toBe(8180);
    // noindex ends before the limit (8,192) and counts; nosnippet is cut by it.
    expect(rules(x(fits).rulesFor('x'))).toEqual({ nofollow: true, noindex: true });
  });
});

describe('product tokens with digits, as robots.txt reads them in rfc mode', () => {
  it('"MJ12bot: noindex" is MJ12bot\'s, not every MJ crawler\'s, in every source', () => {
    const sources = [
      parseRobotsTag('MJ12bot: noindex', { field: 'x-robots-tag' }),
      parseRobotsTag('MJ12bot;noindex'),
      parseRobotsMeta('<head><meta name="MJ12bot" content="noindex"></head>'),
    ];
    for (const tag of sources) {
      // (The legacy reader files rules for `*` until the first agent prefix: none here.)
      expect(tag.agents.filter((agent) => agent !== '*')).toEqual(['mj12bot']);
      expect([tag.rulesFor('MJ12bot/1.7').get('noindex'), tag.rulesFor('mj12bot').get('noindex')]).toEqual([true, true]);
      expect([tag.rulesFor('MJ').size, tag.rulesFor('MJ13bot').size]).toEqual([0, 0]);
    }
    expect(urlControls({ headers: { 'X-Robots-Tag': '008: noarchive' } }, '008/2.0').noarchive).toBe(true);
  });
});

describe('robots meta tags', () => {
  it("the draft's examples", () => {
    const meta = parseRobotsMeta('<html><head><meta name="robots" content="noindex"><meta name="examplebot" content="nosnippet"></head></html>');
    expect(rules(meta.rulesFor('ExampleBot'))).toEqual({ noindex: true, nosnippet: true });
    expect(rules(meta.rulesFor('OtherBot'))).toEqual({ noindex: true });
  });

  it('attributes in any order, case and quoting; entities decoded', () => {
    const html = `<!DOCTYPE html><HTML><HEAD>
      <META CONTENT='noarchive' NAME='ROBOTS'>
      <meta content=nofollow,max-snippet:10 name=robots />
      <meta name = "robots" content = "max-image-preview&#58;none&#44;noimageindex">
      <meta name="googlebot" content="no&#x69;ndex, notranslate&amp;">
      <meta name="robots" content="nosnippet" name="googlebot">
      </HEAD><body>`;
    const meta = parseRobotsMeta(html);
    expect(rules(meta.rulesFor('x'))).toEqual({ noarchive: true, nofollow: true, 'max-snippet': 10, 'max-image-preview': 'none', noimageindex: true, nosnippet: true });
    expect(rules(meta.rulesFor('Googlebot'))).toMatchObject({ noindex: true, 'notranslate&': true });
  });

  it('tags in comments, scripts, styles, titles and textareas are not tags', () => {
    const html = `<head>
      <!-- <meta name="robots" content="noindex"> -->
      <script>document.write('<meta name="robots" content="nofollow">')</script>
      <style>/* <meta name="robots" content="noarchive"> */</style>
      <title><meta name="robots" content="nosnippet"></title>
      <textarea><meta name="robots" content="notranslate"></textarea>
      <script type="x"></scripty><meta name="robots" content="noimageindex"></script >
      <!--><meta name="robots" content="max-snippet:1">
      <meta name="robots" content="max-video-preview:3">
    </head>`;
    expect(rules(parseRobotsMeta(html).rulesFor('x'))).toEqual({ 'max-snippet': 1, 'max-video-preview': 3 });
  });

  it('only the head counts: the scan stops at </head>, <body> or the limit', () => {
    expect(rules(parseRobotsMeta('<head><meta name=robots content=noarchive></head><meta name=robots content=noindex>').rulesFor('x'))).toEqual({ noarchive: true });
    expect(rules(parseRobotsMeta('<meta name=robots content=noarchive><body><meta name=robots content=noindex>').rulesFor('x'))).toEqual({ noarchive: true });
    const padded = `<head>${' '.repeat(100)}<meta name=robots content=noarchive><meta name=robots content=noindex>`;
    const at = padded.indexOf('<meta name=robots content=noindex>');
    expect(rules(parseRobotsMeta(padded, { maxBytes: at + 10 }).rulesFor('x'))).toEqual({ noarchive: true });
    expect(rules(parseRobotsMeta(new TextEncoder().encode(padded), { maxBytes: at + 34 }).rulesFor('x'))).toEqual({ noarchive: true, noindex: true });
  });
});

describe('urlControls: the union of every source', () => {
  const now = Date.UTC(2026, 10, 22);

  it('headers, meta and rendered DOM, for * and for the agent; the most restrictive values win', () => {
    const c = urlControls(
      {
        headers: {
          'Robots-Tag': '*;max-snippet=50, examplebot;max-image-preview=standard',
          'X-Robots-Tag': ['examplebot: max-snippet: 30, unavailable_after: 2030-01-01', 'max-video-preview: -1'],
          'Cache-Control': 'max-age=600',
        },
        html: '<head><meta name="robots" content="max-snippet:-1, max-video-preview:15, nofollow"><meta name="examplebot" content="max-image-preview:large, unavailable_after: 2029-06-01"></head>',
        renderedHtml: '<head><meta name="robots" content="noarchive"></head>',
      },
      'ExampleBot/1.0',
      { now },
    );
    expect(c).toMatchObject({
      noindex: false, nosnippet: false, nofollow: true, noarchive: true, noimageindex: false, notranslate: false,
      maxSnippet: 30, maxImagePreview: 'standard', maxVideoPreview: 15, expiresAt: now + 600_000,
    });
    expect(c.unavailableAfter).toEqual(new Date(Date.UTC(2029, 5, 1)));
    const other = urlControls({ headers: { 'x-robots-tag': 'examplebot: noindex' }, html: '<meta name=robots content="max-snippet:0">' }, 'OtherBot', { now });
    expect(other).toMatchObject({ noindex: false, nosnippet: true, maxSnippet: 0 });
    expect(other.expiresAt).toBeUndefined();
  });

  it('noindex once unavailable_after has passed at `now`', () => {
    const input = { headers: { 'x-robots-tag': 'unavailable_after: 2026-11-01' } };
    expect(urlControls(input, 'x', { now }).noindex).toBe(true);
    expect(urlControls(input, 'x', { now: new Date(Date.UTC(2026, 9, 1)) }).noindex).toBe(false);
  });

  it('a Headers object joins the lines of a field with ", ": a legacy agent prefix then reaches into the next line', () => {
    const lines: [string, string][] = [['x-robots-tag', 'googlebot: noindex'], ['x-robots-tag', 'nofollow']];
    expect(urlControls({ headers: new Headers(lines) }, 'OtherBot', { now }).nofollow).toBe(false);
    expect(urlControls({ headers: { 'x-robots-tag': ['googlebot: noindex', 'nofollow'] } }, 'OtherBot', { now }).nofollow).toBe(true);
    expect(urlControls({ headers: new Headers({ 'x-robots-tag': 'noindex', expires: 'Mon, 23 Nov 2026 00:00:00 GMT', date: 'Sun, 22 Nov 2026 00:00:00 GMT' }) }, 'x', { now })).toMatchObject({
      noindex: true, expiresAt: now + 86_400_000,
    });
  });

  it('nothing given: nothing restricted', () => {
    expect(urlControls({}, 'x')).toMatchObject({ noindex: false, nofollow: false, nosnippet: false, rules: new Map() });
    expect(() => urlControls(null as never, 'x')).toThrow(TypeError);
    expect(() => urlControls({}, 5 as never)).toThrow(TypeError);
  });
});

describe('hostile input never throws and keeps what can be read', () => {
  it('names of Object.prototype members are plain text: entities, zones, header names, agents', () => {
    expect(rules(parseRobotsMeta('<meta name=robots content="noindex&constructor;x">').rulesFor('x'))).toEqual({ 'noindex&constructor;x': true });
    expect(rules(parseRobotsTag('unavailable_after: 25 Jun 2010 15:00:00 constructor', { field: 'x-robots-tag' }).rulesFor('x'))).toEqual({});
    const c = urlControls({ headers: { __proto__: 'noindex', constructor: 'x', 'x-robots-tag': 'constructor: noindex, __proto__: nofollow' } as never }, '__proto__');
    expect([c.noindex, c.nofollow]).toEqual([false, true]);
    expect(rules(parseRobotsTag('constructor;noindex, __proto__;nosnippet').rulesFor('constructor'))).toEqual({ noindex: true });
    expect(({} as Record<string, unknown>).noindex).toBeUndefined();
  });

  it('1 MB of commas, garbage bytes, unterminated quotes, huge values', () => {
    const commas = ','.repeat(1 << 20);
    expect(parseRobotsTag(commas).agents).toEqual([]);
    expect(rules(parseRobotsTag(`noindex${commas}`, { field: 'x-robots-tag' }).rulesFor('x'))).toEqual({ noindex: true });
    expect(rules(parseRobotsTag(`*;noindex, a;"${'x'.repeat(1 << 20)}`).rulesFor('a'))).toEqual({ noindex: true });
    expect(rules(parseRobotsTag('*;max-snippet=999999999999999999999').rulesFor('a'))).toEqual({});
    const garbage = new Uint8Array(1 << 20);
    for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 2654435761) >>> 24;
    expect(parseRobotsMeta(garbage).agents).toEqual(expect.any(Array));
    const html = `<head><meta name="robots" content="noindex"><meta name="robots" content="${'a'.repeat(1 << 20)}`;
    expect(rules(parseRobotsMeta(html).rulesFor('x'))).toEqual({ noindex: true });
    expect(rules(parseRobotsMeta(`<head><meta name=robots content=noindex>${'<!--'.repeat(100_000)}`).rulesFor('x'))).toEqual({ noindex: true });
    expect(rules(parseRobotsMeta(`<head><meta name=robots content=noindex>${'<a '.repeat(300_000)}`).rulesFor('x'))).toEqual({ noindex: true });
    expect(urlControls({ headers: { 'x-robots-tag': '\u0000\uffff:::,,;;==""' }, html: '<<<>>>' }, 'x').noindex).toBe(false);
  });
});
