// RobotsTxt: the API contract, limits and hostile input.
import { describe, expect, it } from 'vitest';
import { Matcher, RobotsTxt } from '../src/index.js';
import { readTable } from './support/table.js';
import { corpusFile } from './support/fixtures.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('misuse throws a TypeError that says what was wrong', () => {
  const robots = RobotsTxt.parse('user-agent: *\ndisallow: /x\n');
  it.each([
    ['a number body', () => RobotsTxt.parse(42 as never), /body must be a string, Uint8Array or ArrayBuffer, got number/],
    ['a null body', () => RobotsTxt.parse(null as never), /got null/],
    ['an unknown mode', () => RobotsTxt.parse('', { mode: 'strict' as never }), /mode must be 'rfc' or 'google', got "strict"/],
    ['a negative maxBytes', () => RobotsTxt.parse('', { maxBytes: -1 }), /maxBytes must be a non-negative integer/],
    ['a fractional maxBytes', () => RobotsTxt.parse('', { maxBytes: 1.5 }), /maxBytes/],
    ['options that are not an object', () => RobotsTxt.parse('', 'rfc' as never), /options must be an object/],
    ['a non-string url', () => robots.isAllowed(42 as never, 'Bot'), /url must be a string, got number/],
    ['an undefined url', () => robots.explain(undefined as never, 'Bot'), /url must be a string, got undefined/],
    ['a non-string agent', () => robots.isAllowed('/x', null as never), /agent must be a string, got null/],
    ['checkMany of a string', () => robots.matcher('Bot').checkMany('/x' as never), /checkMany expects an array/],
    ['checkMany of a number in the array', () => robots.matcher('Bot').checkMany(['/a', 5 as never]), /url must be a string, got number/],
    ['checkLines of a string', () => robots.matcher('Bot').checkLines('/x' as never), /checkLines expects a Uint8Array/],
  ])('%s', (_name, call, message) => {
    expect(call).toThrow(TypeError);
    expect(call).toThrow(message);
  });
});

describe('parsing limit (RFC 9309 2.5)', () => {
  it('defaults to 512,000 bytes and ignores what follows', () => {
    const body = `user-agent: *\n${'#'.repeat(600_000)}\ndisallow: /late\n`;
    const robots = RobotsTxt.parse(body);
    expect(robots.truncated).toBe(true);
    expect(robots.isAllowed('/late', 'Bot')).toBe(true);
    expect(RobotsTxt.parse(body, { maxBytes: Infinity }).isAllowed('/late', 'Bot')).toBe(false);
  });

  it('drops a rule cut by the limit, so a truncated rule never applies', () => {
    const body = 'user-agent: *\ndisallow: /abcdef\n';
    // The limit falls inside "/abcdef": without the cut the rule would be "/abc" and match /abcxyz.
    const robots = RobotsTxt.parse(body, { maxBytes: body.indexOf('def') });
    expect(robots.isAllowed('/abcxyz', 'Bot')).toBe(true);
    expect(robots.groups[0].rules).toEqual([]);
  });

  it('keeps a rule that ends exactly at the limit', () => {
    const body = 'user-agent: *\ndisallow: /abc\nallow: /x';
    const robots = RobotsTxt.parse(body, { maxBytes: body.indexOf('\nallow') });
    expect(robots.isAllowed('/abc', 'Bot')).toBe(false);
    expect(robots.truncated).toBe(true);
  });

  it('applies to bytes, not characters', () => {
    const body = `user-agent: *\ndisallow: /${'é'.repeat(10)}\n`;
    // 45 bytes before the final LF, although only 35 characters.
    expect(RobotsTxt.parse(body, { maxBytes: 40 }).groups[0].rules).toEqual([]);
    expect(RobotsTxt.parse(body, { maxBytes: 45 }).groups[0].rules).toHaveLength(1);
  });
});

describe('bad content never throws and yields the parseable rules', () => {
  it('binary garbage around a valid group', () => {
    const garbage = new Uint8Array(4096).map((_, i) => (i * 7919) % 256);
    const body = new Uint8Array([...garbage, ...bytes('\nuser-agent: *\ndisallow: /private\n'), ...garbage]);
    const robots = RobotsTxt.parse(body);
    expect(robots.isAllowed('/private/x', 'Bot')).toBe(false);
    expect(robots.isAllowed('/public', 'Bot')).toBe(true);
  });

  it('a real binary file served as robots.txt (an icon) has no rules', () => {
    const robots = RobotsTxt.parse(corpusFile('www.pch.com'));
    expect(robots.isAllowed('/anything', 'Bot')).toBe(true);
  });

  it('an HTML page served as robots.txt yields no rules', () => {
    const robots = RobotsTxt.parse(corpusFile('www.regmovies.com'));
    expect(robots.groups).toEqual([]);
    expect(robots.isAllowed('/', 'Bot')).toBe(true);
  });

  it('a NUL byte ends the line content, as in the reference', () => {
    const robots = RobotsTxt.parse(bytes('user-agent: *\ndisallow: /a\0b\n'));
    expect(robots.groups[0].rules[0].pattern).toBe('/a');
    expect(robots.isAllowed('/ax', 'Bot')).toBe(false);
  });

  it('invalid UTF-8 in a pattern is matched byte-wise (%XX)', () => {
    const body = new Uint8Array([...bytes('user-agent: *\ndisallow: /a'), 0xff, 0xfe, ...bytes('\n')]);
    for (const mode of ['rfc', 'google'] as const) {
      const robots = RobotsTxt.parse(body, { mode });
      expect(robots.isAllowed('/a%FF%FE', 'Bot')).toBe(false);
      expect(robots.isAllowed('/a%ff%fex', 'Bot')).toBe(mode === 'google');
      expect(robots.isAllowed('/a%FF', 'Bot')).toBe(true);
    }
  });

  it('a 2 MB line is parsed whole within maxBytes in rfc mode and cut at 16,663 bytes in google mode', () => {
    const long = `/${'a'.repeat(2_000_000)}`;
    const body = `user-agent: *\ndisallow: ${long}\n`;
    const rfc = RobotsTxt.parse(body, { maxBytes: Infinity });
    expect(rfc.isAllowed(long, 'Bot')).toBe(false);
    expect(rfc.isAllowed(`/${'a'.repeat(100_000)}`, 'Bot')).toBe(true);
    const google = RobotsTxt.parse(body, { mode: 'google', maxBytes: Infinity });
    expect(google.isAllowed(`/${'a'.repeat(20_000)}`, 'Bot')).toBe(false);
  });

  it('a pattern longer than a trie label holds (1 MiB) is split across nodes, in a table too large for short child entries', () => {
    const long = `/${'a'.repeat(17_000_000)}`;
    const robots = RobotsTxt.parse(`user-agent: *\ndisallow: ${long}\nallow: ${long}b\n`, { maxBytes: Infinity });
    const paths = [long, `${long}b`, long.slice(0, -1)];
    expect(paths.map((path) => robots.isAllowed(path, 'Bot'))).toEqual([false, true, true]);
    // Over 16 MiB, a child entry is a plain offset (FLAG_WIDE_CHILDREN), and an image of it loads.
    const image = robots.matcher('Bot').toBytes();
    expect(image.length).toBeGreaterThan(2 ** 24);
    expect(readTable(image).wideChildren).toBe(true);
    const copy = Matcher.fromBytes(image);
    expect(paths.map((path) => copy.isAllowed(path))).toEqual([false, true, true]);
    copy.dispose();
    robots.dispose();
  });

  it('CR-only line ends (a real file)', () => {
    const robots = RobotsTxt.parse(corpusFile('cdbaby.com'));
    expect(robots.groups).toHaveLength(1);
    expect(robots.groups[0].rules).toHaveLength(18);
    expect(robots.explain('/Cart/x', 'Bot')).toEqual({ allowed: false, rule: { kind: 'disallow', pattern: '/Cart/', line: 11 } });
    expect(robots.sitemaps).toEqual(['https://cdbaby.com/sitemap.xml']);
  });

  it('a UTF-16 body is re-encoded in rfc mode (2.2.2 allows bridging) and not in google mode', () => {
    const body = corpusFile('store.usps.com');
    expect(RobotsTxt.parse(body).isAllowed('/store/ajax/x', 'Bot')).toBe(false);
    expect(RobotsTxt.parse(body, { mode: 'google' }).isAllowed('/store/ajax/x', 'Bot')).toBe(true);
  });

  it('a UTF-8 BOM is skipped', () => {
    const robots = RobotsTxt.parse(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes('user-agent: *\ndisallow: /x\n')]));
    expect(robots.isAllowed('/x', 'Bot')).toBe(false);
  });

  it('finds an agent\'s groups the same way in a file of a few agents and of many', () => {
    // Past 32 agent tokens the groups are found by scanning the tokens for the first four agents asked, and through an index after.
    for (const fillers of [2, 60]) {
      const lines = ['user-agent: *', 'disallow: /all', 'user-agent: SplitBot', 'disallow: /first'];
      for (let i = 0; i < fillers; i++) lines.push(`user-agent: filler${String.fromCharCode(97 + (i % 26))}x${i}`, `disallow: /f${i}`);
      lines.push('user-agent: splitbot', 'user-agent: OtherBot', 'disallow: /second', 'crawl-delay: 3');
      const robots = RobotsTxt.parse(lines.join('\n'));
      expect(robots.agents.length).toBe(fillers + 2);
      expect(robots.agents.slice(0, 1)).toEqual(['splitbot']);
      // Both groups naming SplitBot are merged; * is ignored for it.
      expect(robots.selectGroups('SplitBot/2.0')).toEqual({ source: 'specific', lines: [3, 5 + 2 * fillers] });
      expect([robots.isAllowed('/first', 'SplitBot'), robots.isAllowed('/second', 'SplitBot'), robots.isAllowed('/all', 'SplitBot')]).toEqual([false, false, true]);
      expect(robots.crawlDelay('splitbot')).toBe(3);
      expect(robots.isAllowed(`/f${fillers - 1}`, `fillerx`)).toBe(true);
      expect(robots.isAllowed('/all', 'NoSuchBot')).toBe(false);
      expect(robots.matcher('NoSuchBot')).toBe(robots.matcher('AnotherUnnamedBot'));
    }
  });

  it('one agent string asked of files in both modes, one after the other, finds each mode\'s groups', () => {
    // rfc mode matches the product token (googlebot); google mode the whole string, which names no group.
    const body = 'User-agent: Googlebot\nDisallow: /g\n\nUser-agent: *\nDisallow: /all\n';
    const rfc = RobotsTxt.parse(body, { mode: 'rfc' });
    const google = RobotsTxt.parse(body, { mode: 'google' });
    for (let i = 0; i < 3; i++) {
      expect(rfc.selectGroups('Googlebot/2.1').source).toBe('specific');
      expect(google.selectGroups('Googlebot/2.1').source).toBe('global');
      expect(rfc.isAllowed('https://a.test/g', 'Googlebot/2.1')).toBe(false);
      expect(google.isAllowed('https://a.test/g', 'Googlebot/2.1')).toBe(true);
    }
  });

  it('agents named like Object.prototype members do not reach the prototype', () => {
    const robots = RobotsTxt.parse('user-agent: __proto__\ndisallow: /p\nuser-agent: constructor\ndisallow: /c\n');
    expect(robots.isAllowed('/p', '__proto__')).toBe(false);
    expect(robots.isAllowed('/c', 'constructor')).toBe(false);
    expect(robots.isAllowed('/c', 'hasOwnProperty')).toBe(true);
    expect(robots.isAllowed('/p', 'toString')).toBe(true);
  });
});

describe('answers depend on path, params and query only', () => {
  const robots = RobotsTxt.parse('user-agent: *\ndisallow: /a?b\ndisallow: /p;x\n');
  it.each([
    ['https://example.com/a?b', false],
    ['https://user:pw@example.com:8080/a?b=1', false],
    ['/a?b#frag', false],
    ['/a#?b', true],
    // A path that starts with "//" is a path, not a URL without its scheme.
    ['//example.com/a?b', true],
    ['example.com/a?b', false],
    ['https://example.com/p;x', false],
    ['HTTPS://EXAMPLE.COM/a?b', false],
    ['https://example.com/A?b', true],
  ])('%s -> allowed %s', (url, allowed) => {
    expect(robots.isAllowed(url, 'Bot')).toBe(allowed);
  });
});

describe('sitemaps', () => {
  it('lists absolute sitemap URLs as written, in file order, once each, from anywhere in the file', () => {
    const robots = RobotsTxt.parse(
      'Sitemap: https://example.com/a.xml\nuser-agent: *\nsitemap: /relative.xml\ndisallow: /x\n' +
        'Site-map: https://example.com/b.xml # typo accepted\nSITEMAP:https://example.com/a.xml\nsitemap: HTTP://example.com/c.xml?x=1\n',
    );
    expect(robots.sitemaps).toEqual(['https://example.com/a.xml', 'https://example.com/b.xml', 'HTTP://example.com/c.xml?x=1']);
    expect(Object.isFrozen(robots.sitemaps)).toBe(true);
  });

  it('keeps non-ASCII values as written, from a string or a byte body, in small and large files', () => {
    // Over 32 KB of values: kept as bytes rather than as a string (RobotsStructure.values),
    // copied in runs that long comments separate.
    const filler = Array.from({ length: 3000 }, (_, i) => `${i % 100 === 0 ? `#${'-'.repeat(300)}\n` : ''}disallow: /filler-${i}-${'x'.repeat(8)}\n`).join('');
    for (const more of ['', filler]) {
      const text = `Sitemap: https://example.com/carte-du-café.xml\nuser-agent: *\ndisallow: /日本/\nallow: /über\n${more}sitemap: /ü.xml\nsitemap: https://example.com/ü.xml\n`;
      for (const body of [text, bytes(text)]) {
        const robots = RobotsTxt.parse(body);
        expect(robots.sitemaps).toEqual(['https://example.com/carte-du-café.xml', 'https://example.com/ü.xml']);
        expect(robots.groups[0].rules.slice(0, 2).map((r) => r.pattern)).toEqual(['/日本/', '/über']);
        expect(robots.groups[0].rules.length).toBe(more === '' ? 2 : 3002);
        expect(robots.explain('/日本/x', 'Bot')).toEqual({ allowed: false, rule: { kind: 'disallow', pattern: '/日本/', line: 3 } });
        expect(robots.isAllowed('/%E6%97%A5%E6%9C%AC/x', 'Bot')).toBe(false);
        expect(robots.isAllowed('/日本', 'Bot')).toBe(true);
        expect(robots.isAllowed('/filler-2999-xxxxxxxx', 'Bot')).toBe(more === '');
        expect(robots.groups[0].rules.at(-1)?.pattern).toBe(more === '' ? '/über' : '/filler-2999-xxxxxxxx');
      }
    }
  });

  it('decodes a value that is not UTF-8 with U+FFFD for the bad byte, and matches its bytes', () => {
    const robots = RobotsTxt.parse(new Uint8Array([...bytes('user-agent: *\ndisallow: /a'), 0xff, ...bytes('b\n')]));
    expect(robots.groups[0].rules[0].pattern).toBe('/a\ufffdb');
    expect(robots.isAllowed('/a%FFb', 'Bot')).toBe(false);
    expect(robots.isAllowed('/a%FEb', 'Bot')).toBe(true);
  });

  it('does not end a group (2.2.4)', () => {
    const robots = RobotsTxt.parse('user-agent: a\nsitemap: https://e.com/s.xml\nuser-agent: b\ndisallow: /x\n');
    expect(robots.isAllowed('/x', 'a')).toBe(false);
    expect(robots.isAllowed('/x', 'b')).toBe(false);
  });
});

describe('hosts', () => {
  it('lists Host values as written, in file order, from anywhere in the file, empty ones included', () => {
    const text = 'Host: First.example\nuser-agent: *\nHOST:  mirror.example:8080 # comment\ndisallow: /x\nhost:\nhosts: not.this\n';
    const robots = RobotsTxt.parse(text);
    expect(robots.hosts).toEqual(['First.example', 'mirror.example:8080', '']);
    expect(Object.isFrozen(robots.hosts)).toBe(true);
    expect(RobotsTxt.parse('user-agent: *\ndisallow: /\n').hosts).toEqual([]);
  });

  it('changes no verdict and does not end a group', () => {
    const withHost = RobotsTxt.parse('user-agent: a\nhost: example.com\nuser-agent: b\ndisallow: /x\n');
    expect([withHost.isAllowed('/x', 'a'), withHost.isAllowed('/x', 'b'), withHost.isAllowed('/y', 'a')]).toEqual([false, false, true]);
    expect(withHost.groups).toEqual(RobotsTxt.parse('user-agent: a\n\nuser-agent: b\ndisallow: /x\n').groups);
  });
});

describe('crawlDelay', () => {
  const robots = RobotsTxt.parse(
    'user-agent: *\ncrawl-delay: 10\ndisallow: /x\n\nuser-agent: slowbot\nCrawl-Delay: 2.5\nuser-agent: fastbot\ndisallow:\n' +
      '\nuser-agent: nodelay\ndisallow: /y\n\nuser-agent: badbot\ncrawl-delay: soon\ncrawl-delay: -3\ncrawl-delay: 7\n',
  );
  it('comes from the agent group, merged groups included, or the * group', () => {
    expect(robots.crawlDelay('SlowBot')).toBe(2.5);
    expect(robots.crawlDelay('fastbot')).toBe(2.5);
    expect(robots.crawlDelay('OtherBot')).toBe(10);
  });
  it('is undefined when the agent group has none (its group replaces *)', () => {
    expect(robots.crawlDelay('nodelay')).toBeUndefined();
  });
  it('skips invalid values', () => {
    expect(robots.crawlDelay('badbot')).toBe(7);
  });
  it('is clamped to a day (86,400 s): a longer delay, however written, asks for one visit a day at most', () => {
    const huge = RobotsTxt.parse(
      'user-agent: a\ncrawl-delay: 99999999999999999999\ndisallow: /a\nuser-agent: b\ncrawl-delay: 86400.5\ndisallow: /b\nuser-agent: c\ncrawl-delay: 3600\ndisallow: /c\n',
    );
    expect([huge.crawlDelay('a'), huge.crawlDelay('b'), huge.crawlDelay('c')]).toEqual([86_400, 86_400, 3600]);
    expect(huge.groups.map((g) => g.crawlDelay)).toEqual([86_400, 86_400, 3600]);
  });
  it('does not end a group', () => {
    expect(robots.isAllowed('/anything', 'slowbot')).toBe(true);
    expect(robots.selectGroups('slowbot')).toEqual({ source: 'specific', lines: [5] });
  });
});

describe('explain', () => {
  it('names the deciding rule as written, with its line', () => {
    const robots = RobotsTxt.parse('user-agent: *\r\ndisallow: /a%2fb # why\r\nallow: /a%2fb/c\r\n');
    expect(robots.explain('/a%2Fb/x', 'Bot')).toEqual({ allowed: false, rule: { kind: 'disallow', pattern: '/a%2fb', line: 2 } });
    expect(robots.explain('/a%2Fb/c', 'Bot')).toEqual({ allowed: true, rule: { kind: 'allow', pattern: '/a%2fb/c', line: 3 } });
    expect(robots.explain('/elsewhere', 'Bot')).toEqual({ allowed: true, rule: null });
  });

  it('reports the first of equally long rules of the same kind, as the reference does', () => {
    const robots = RobotsTxt.parse('user-agent: *\ndisallow: /ab\ndisallow: /a*\ndisallow: /ab\n');
    expect(robots.explain('/abc', 'Bot').rule).toEqual({ kind: 'disallow', pattern: '/ab', line: 2 });
  });

  it('shows the index.htm rule of google mode as the directory pattern it applied', () => {
    const robots = RobotsTxt.parse('user-agent: *\nallow: /d/index.html\ndisallow: /d/\n', { mode: 'google' });
    expect(robots.explain('/d/', 'Bot')).toEqual({ allowed: true, rule: { kind: 'allow', pattern: '/d/$', line: 2 } });
    expect(robots.explain('/d/index.html', 'Bot')).toEqual({ allowed: true, rule: { kind: 'allow', pattern: '/d/index.html', line: 2 } });
    expect(robots.isAllowed('/d/other', 'Bot')).toBe(false);
    // The pattern the kernel compiled, escaped as google mode escapes patterns.
    const accented = RobotsTxt.parse('user-agent: *\nallow: /é/index.htm\ndisallow: /\n', { mode: 'google' });
    expect(accented.explain('/%C3%A9/', 'Bot')).toEqual({ allowed: true, rule: { kind: 'allow', pattern: '/%C3%A9/$', line: 2 } });
  });
});

describe('groups and matchers', () => {
  const robots = RobotsTxt.parse('user-agent: A\nuser-agent: *\ndisallow: /x\nuser-agent: b\nallow: /\n');
  it('describes the groups as written', () => {
    expect(robots.groups).toEqual([
      { agents: ['a'], global: true, line: 1, rules: [{ kind: 'disallow', pattern: '/x', line: 3 }], crawlDelay: undefined },
      { agents: ['b'], global: false, line: 4, rules: [{ kind: 'allow', pattern: '/', line: 5 }], crawlDelay: undefined },
    ]);
    expect(robots.agents).toEqual(['a', 'b']);
  });

  it('compiles an agent once and recompiles after dispose', () => {
    const first = robots.matcher('A');
    expect(robots.matcher('a')).toBe(first);
    expect(robots.matcher('A/2.0')).toBe(first);
    first.dispose();
    const second = robots.matcher('A');
    expect(second).not.toBe(first);
    expect(second.isAllowed('/x')).toBe(false);
    expect(robots.isAllowed('/x', 'c')).toBe(false);
  });

  it('gives every agent that no group names the one matcher of the * groups, and each named agent its own', () => {
    const file = RobotsTxt.parse('user-agent: *\ndisallow: /x\nuser-agent: googlebot\ndisallow: /g\n');
    const global = file.matcher('ExampleBot');
    expect(file.matcher('OtherBot/1.0')).toBe(global);
    expect(file.matcher('')).toBe(global);
    const named = file.matcher('Googlebot');
    expect(named).not.toBe(global);
    expect([global.isAllowed('/x'), global.isAllowed('/g'), named.isAllowed('/x'), named.isAllowed('/g')]).toEqual([false, true, true, false]);
    global.dispose();
    expect(file.matcher('OtherBot')).not.toBe(global);
    expect(file.isAllowed('/x', 'ExampleBot')).toBe(false);
  });

  it('answers each agent from its own group when calls alternate between agents', () => {
    const file = RobotsTxt.parse('user-agent: a\ndisallow: /a\n\nuser-agent: b\ndisallow: /b\n');
    const verdicts = [];
    for (let round = 0; round < 2; round++) {
      for (const agent of ['a', 'b', 'a/1.0', 'c']) verdicts.push(`${agent}:${file.isAllowed('/a', agent)},${file.isAllowed('/b', agent)}`);
    }
    const once = ['a:false,true', 'b:true,false', 'a/1.0:false,true', 'c:true,true'];
    expect(verdicts).toEqual([...once, ...once]);
    // The matcher asked for last, disposed by the caller, is compiled again.
    file.matcher('b').dispose();
    expect(file.isAllowed('/b', 'b')).toBe(false);
    file.dispose();
    expect(file.isAllowed('/a', 'a')).toBe(false);
  });
});

describe('what a parsed file keeps of its body', () => {
  // Rule and sitemap values separated by more than a run of kept bytes spans (long comments),
  // so they land in several runs of the kept copy.
  const comment = `# ${'x'.repeat(300)}\n`;
  const text = `sitemap: https://a.example/1.xml\n${comment}user-agent: *\ndisallow: /private\n${comment}${comment}`
    + `allow: /private/open\nsitemap: https://a.example/2.xml\n${comment}disallow: /*.pdf$\n${comment}disallow:\n`
    + `user-agent: bot\n${comment}sitemap: https://a.example/3.xml\ndisallow: /bot-only\n`;
  const expectWhole = (robots: RobotsTxt) => {
    expect(robots.groups.map((g) => g.rules.map((r) => `${r.kind} ${r.pattern} ${r.line}`))).toEqual([
      ['disallow /private 4', 'allow /private/open 7', 'disallow /*.pdf$ 10', 'disallow  12'],
      ['disallow /bot-only 16'],
    ]);
    expect(robots.sitemaps).toEqual(['https://a.example/1.xml', 'https://a.example/2.xml', 'https://a.example/3.xml']);
    expect(robots.isAllowed('/private/x', 'Other')).toBe(false);
    expect(robots.isAllowed('/private/open/x', 'Other')).toBe(true);
    expect(robots.isAllowed('/a/b.pdf', 'Other')).toBe(false);
    expect(robots.isAllowed('/a/b.pdf?x', 'Other')).toBe(true);
    expect(robots.isAllowed('/bot-only', 'Bot')).toBe(false);
    expect(robots.isAllowed('/private', 'Bot')).toBe(true);
    expect(robots.explain('/private/open', 'Other').rule?.pattern).toBe('/private/open');
  };

  it('values far apart in the body are all kept, in both modes', () => {
    expectWhole(RobotsTxt.parse(text));
    expectWhole(RobotsTxt.parse(text, { mode: 'google' }));
    expectWhole(RobotsTxt.parse(bytes(text)));
  });

  it('a string body is read from kernel memory that later parses and batches reuse', () => {
    const robots = RobotsTxt.parse(text);
    // Overwrite the scratch block the body was encoded into, then compile for the first time.
    RobotsTxt.parse(`user-agent: *\n${'disallow: /zzzzzzzz\n'.repeat(5000)}`).matcher('Other').checkMany(['/zzzzzzzz']);
    expectWhole(robots);
  });

  it('keeps every value of a file of more rules than one pass of the kernel moves, with other records among them', () => {
    const lines = ['sitemap: https://a.example/first.xml', 'user-agent: *', 'crawl-delay: 2.5'];
    for (let i = 0; i < 40_000; i++) lines.push(i % 1000 === 0 ? `host: h${i}.example\nsitemap: https://a.example/${i}.xml` : `${i % 2 ? 'allow' : 'disallow'}: /r${i}/`);
    const robots = RobotsTxt.parse(lines.join('\n'), { maxBytes: Infinity });
    const rules = robots.groups[0].rules;
    expect(rules.length).toBe(39_960);
    expect(rules[0]).toEqual({ kind: 'allow', pattern: '/r1/', line: 6 });
    expect(rules.at(-1)?.pattern).toBe('/r39999/');
    expect(robots.sitemaps.length).toBe(41);
    expect(robots.sitemaps.at(-1)).toBe('https://a.example/39000.xml');
    expect(robots.hosts.slice(0, 2)).toEqual(['h0.example', 'h1000.example']);
    expect(robots.crawlDelay('Bot')).toBe(2.5);
    expect(robots.isAllowed('/r39998/x', 'Bot')).toBe(false);
    expect(robots.explain('/r39999/x', 'Bot').rule).toEqual({ kind: 'allow', pattern: '/r39999/', line: 40_043 });
  });

  it('a file of 100,000 sitemap lines and no rules keeps them all', () => {
    const robots = RobotsTxt.parse(Array.from({ length: 100_000 }, (_, i) => `sitemap: https://a.example/${i}.xml`).join('\n'), { maxBytes: Infinity });
    expect(robots.sitemaps.length).toBe(100_000);
    expect(robots.isAllowed('/x', 'Bot')).toBe(true);
  });

  it('a byte body can be reused by the caller once parsed', () => {
    const body = bytes(text);
    const robots = RobotsTxt.parse(body);
    body.fill(0x41);
    expectWhole(robots);
  });
});
