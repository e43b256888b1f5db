// The examples of RFC 9309 (sections 2.2.1-2.2.3 figures, 5.1, 5.2), in both modes.
import { describe, expect, it } from 'vitest';
import { productToken, RobotsTxt, type Mode } from '../src/index.js';
import { groupPerAgent } from './support/fixtures.js';

const modes: Mode[] = ['rfc', 'google'];

describe.each(modes)('RFC 9309 examples, mode %s', (mode) => {
  const parse = (body: string) => RobotsTxt.parse(body, { mode });

  it('Figure 2: groups naming the same product token are merged', () => {
    const robots = parse('user-agent: ExampleBot\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: ExampleBot\ndisallow: /baz\n');
    for (const path of ['/foo', '/bar', '/baz']) expect(robots.isAllowed(path, 'ExampleBot')).toBe(false);
    expect(robots.isAllowed('/qux', 'ExampleBot')).toBe(true);
    expect(robots.selectGroups('ExampleBot')).toEqual({ source: 'specific', lines: [1, 5] });
  });

  it('Figure 3: with no matching group the * group applies, and only it', () => {
    const robots = parse('user-agent: *\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: BazBot\ndisallow: /baz\n');
    expect(robots.isAllowed('/foo', 'ExampleBot')).toBe(false);
    expect(robots.isAllowed('/bar', 'ExampleBot')).toBe(false);
    expect(robots.isAllowed('/baz', 'ExampleBot')).toBe(true);
    expect(robots.isAllowed('/baz', 'BazBot')).toBe(false);
    expect(robots.isAllowed('/foo', 'BazBot')).toBe(true);
  });

  it('2.2.1: no matching group and no * group means no rules apply', () => {
    const robots = parse('user-agent: BazBot\ndisallow: /\n');
    expect(robots.isAllowed('/anything', 'ExampleBot')).toBe(true);
    expect(robots.selectGroups('ExampleBot').source).toBe('none');
  });

  it('2.2.1: group matching is case-insensitive', () => {
    const robots = parse('User-Agent: EXAMPLEBOT\nDisallow: /x\n');
    expect(robots.isAllowed('/x', 'examplebot')).toBe(false);
  });

  it('2.2.2: matching starts at the first octet of the path, is case-sensitive, longest match wins, allow wins ties', () => {
    const robots = parse('user-agent: *\ndisallow: /a\nallow: /a/b\ndisallow: /x/\nallow: /x/\n');
    expect(robots.isAllowed('/a', 'Bot')).toBe(false);
    expect(robots.isAllowed('/A', 'Bot')).toBe(true);
    expect(robots.isAllowed('/b/a', 'Bot')).toBe(true);
    expect(robots.isAllowed('/a/b/c', 'Bot')).toBe(true);
    expect(robots.isAllowed('/x/y', 'Bot')).toBe(true);
  });

  it('2.2.2: rules outside any group are ignored', () => {
    const robots = parse('disallow: /\nuser-agent: *\ndisallow: /private\n');
    expect(robots.isAllowed('/public', 'Bot')).toBe(true);
    expect(robots.isAllowed('/private', 'Bot')).toBe(false);
  });

  it('2.2.2: an empty group, or no match in it, allows', () => {
    const robots = parse('user-agent: *\ndisallow: /\n\nuser-agent: ExampleBot\ndisallow:\n');
    expect(robots.isAllowed('/x', 'ExampleBot')).toBe(true);
    expect(robots.isAllowed('/x', 'OtherBot')).toBe(false);
  });

  it('Figure 4 row 1: the query is part of the path', () => {
    const robots = parse('user-agent: *\ndisallow: /foo/bar?baz=quz\n');
    expect(robots.isAllowed('https://example.com/foo/bar?baz=quz', 'Bot')).toBe(false);
    expect(robots.isAllowed('https://example.com/foo/bar?baz=qux', 'Bot')).toBe(true);
  });

  it('Figure 5: comments, $ and *', () => {
    const robots = parse('# comment on its own line\nuser-agent: *\nallow: / # comment in line\ndisallow: /that/path/exactly$\ndisallow: /this/*/exactly\n');
    expect(robots.isAllowed('/that/path/exactly', 'Bot')).toBe(false);
    expect(robots.isAllowed('/that/path/exactly/not', 'Bot')).toBe(true);
    expect(robots.isAllowed('/this/a/b/exactly', 'Bot')).toBe(false);
    expect(robots.isAllowed('/this/exactly', 'Bot')).toBe(true);
    expect(robots.explain('/x', 'Bot')).toEqual({ allowed: true, rule: { kind: 'allow', pattern: '/', line: 3 } });
  });

  it('5.1 simple example', () => {
    const robots = parse(
      'User-Agent: *\nDisallow: *.gif$\nDisallow: /example/\nAllow: /publications/\n\n' +
        'User-Agent: foobot\nDisallow:/\nAllow:/example/page.html\nAllow:/example/allowed.gif\n\n' +
        'User-Agent: barbot\nUser-Agent: bazbot\nDisallow: /example/page.html\n\nUser-Agent: quxbot\n\nEOF\n',
    );
    expect(robots.isAllowed('/example/x', 'otherbot')).toBe(false);
    expect(robots.isAllowed('/img/a.gif', 'otherbot')).toBe(false);
    expect(robots.isAllowed('/img/a.gif?x', 'otherbot')).toBe(true);
    expect(robots.isAllowed('/publications/a', 'otherbot')).toBe(true);
    expect(robots.isAllowed('/x', 'foobot')).toBe(false);
    expect(robots.isAllowed('/example/page.html', 'foobot')).toBe(true);
    expect(robots.isAllowed('/example/allowed.gif', 'foobot')).toBe(true);
    expect(robots.isAllowed('/example/other.gif', 'foobot')).toBe(false);
    expect(robots.isAllowed('/example/page.html', 'barbot')).toBe(false);
    expect(robots.isAllowed('/example/page.html', 'bazbot')).toBe(false);
    expect(robots.isAllowed('/example/other.html', 'bazbot')).toBe(true);
    expect(robots.isAllowed('/example/page.html', 'quxbot')).toBe(true);
    expect(robots.isAllowed('/anything.gif', 'quxbot')).toBe(true);
  });

  it('5.2 longest match', () => {
    const robots = parse('User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n');
    expect(robots.isAllowed('/example/page/disallowed.gif', 'foobot')).toBe(false);
    expect(robots.isAllowed('/example/page/allowed.gif', 'foobot')).toBe(true);
    expect(robots.explain('http://example.com/example/page/disallowed.gif', 'foobot')).toEqual({
      allowed: false,
      rule: { kind: 'disallow', pattern: '/example/page/disallowed.gif', line: 3 },
    });
  });
});

describe('where RFC 9309 and the reference differ', () => {
  const rfc = (body: string) => RobotsTxt.parse(body);
  const google = (body: string) => RobotsTxt.parse(body, { mode: 'google' });

  it('Figure 4 rows 2-5: percent-encoding is normalised in rfc mode only', () => {
    const body = 'user-agent: *\ndisallow: /foo/bar/%E3%83%84\ndisallow: /foo/bar/%62%61%7A\ndisallow: /q?baz=https%3A%2F%2Ffoo.bar\n';
    expect(rfc(body).isAllowed('/foo/bar/ツ', 'Bot')).toBe(false);
    expect(google(body).isAllowed('/foo/bar/ツ', 'Bot')).toBe(true);
    expect(rfc(body).isAllowed('/foo/bar/baz', 'Bot')).toBe(false);
    expect(google(body).isAllowed('/foo/bar/baz', 'Bot')).toBe(true);
    expect(rfc(body).isAllowed('/foo/bar/%62az', 'Bot')).toBe(false);
    // Reserved characters stay distinct from their encoding.
    expect(rfc(body).isAllowed('/q?baz=https://foo.bar', 'Bot')).toBe(true);
    expect(rfc(body).isAllowed('/q?baz=https%3a%2f%2ffoo.bar', 'Bot')).toBe(false);
  });

  it('Figure 6: %2A and %24 match a literal * and $ in rfc mode', () => {
    const body = 'user-agent: *\ndisallow: /path/file-with-a-%2A.html\ndisallow: /path/foo-%24\n';
    expect(rfc(body).isAllowed('https://www.example.com/path/file-with-a-*.html', 'Bot')).toBe(false);
    expect(rfc(body).isAllowed('https://www.example.com/path/foo-$', 'Bot')).toBe(false);
    expect(rfc(body).isAllowed('https://www.example.com/path/file-with-a-x.html', 'Bot')).toBe(true);
    expect(google(body).isAllowed('https://www.example.com/path/file-with-a-*.html', 'Bot')).toBe(true);
  });

  it('2.2.2: /robots.txt is implicitly allowed in rfc mode', () => {
    const body = 'user-agent: *\ndisallow: /\n';
    expect(rfc(body).isAllowed('https://example.com/robots.txt', 'Bot')).toBe(true);
    expect(rfc(body).explain('/robots.txt', 'Bot')).toEqual({ allowed: true, rule: null });
    expect(rfc(body).isAllowed('/robots.txt?x=1', 'Bot')).toBe(false);
    expect(google(body).isAllowed('/robots.txt', 'Bot')).toBe(false);
  });

  it('2.2.1: the caller agent is reduced to its product token in rfc mode', () => {
    const body = 'user-agent: ExampleBot\ndisallow: /\n';
    expect(rfc(body).isAllowed('/x', 'ExampleBot/1.0')).toBe(false);
    expect(google(body).isAllowed('/x', 'ExampleBot/1.0')).toBe(true);
  });

  // The ABNF's product token has no digits, and the reference stops at the first one on both
  // sides; rfc mode reads [A-Za-z0-9_-] instead, so that unrelated groups do not merge.
  it('2.2.1: Agent1 and Agent2 are separate groups in rfc mode, merged as "Agent" in google mode', () => {
    const body = groupPerAgent(['Agent1', 'Agent2', '*']);
    const paths = ['/g0', '/g1', '/g2'];
    const r = rfc(body);
    expect(r.agents).toEqual(['agent1', 'agent2']);
    expect([r.selectGroups('Agent1'), r.selectGroups('agent2/3.0')]).toEqual([{ source: 'specific', lines: [1] }, { source: 'specific', lines: [4] }]);
    expect(paths.map((path) => r.isAllowed(path, 'Agent1'))).toEqual([false, true, true]);
    expect(paths.map((path) => r.isAllowed(path, 'Agent2'))).toEqual([true, false, true]);
    expect(r.selectGroups('Agent').source).toBe('global');
    expect(r.matcher('Agent1').checkMany(paths)).toEqual(new Uint8Array([0, 1, 1]));
    const g = google(body);
    expect(g.agents).toEqual(['agent']);
    expect(g.selectGroups('Agent')).toEqual({ source: 'specific', lines: [1, 4] });
    expect(paths.map((path) => g.isAllowed(path, 'Agent'))).toEqual([false, false, true]);
    // The reference compares the caller's string whole: "Agent1" names neither group.
    expect(g.selectGroups('Agent1').source).toBe('global');
  });

  it('2.2.1: crawlers whose names carry digits: MJ12bot, 008, Screaming Frog SEO Spider 20', () => {
    // MJ12bot's group disallows /g0, 008's /g1, Screaming Frog's /g2, and * /g3.
    const body = groupPerAgent(['MJ12bot', '008', 'Screaming Frog SEO Spider 20', '*']);
    const r = rfc(body);
    expect(r.agents).toEqual(['mj12bot', '008', 'screaming']);
    expect(['/g0', '/g3'].map((path) => r.isAllowed(path, 'MJ12bot/1.7'))).toEqual([false, true]);
    expect(r.explain('/g0/x', 'MJ12bot/1.7 (+http://mj12bot.com/)')).toEqual({ allowed: false, rule: { kind: 'disallow', pattern: '/g0', line: 2 } });
    // "MJ" and "MJ13bot" are other crawlers: the * group is theirs.
    expect(['/g0', '/g3'].map((path) => r.isAllowed(path, 'MJ'))).toEqual([true, false]);
    expect(r.selectGroups('MJ13bot').source).toBe('global');
    expect(['/g1', '/g3'].map((path) => r.isAllowed(path, '008/1.0'))).toEqual([false, true]);
    // A space ends a token: the group is "Screaming"'s, whatever version the caller sends.
    expect(['/g2', '/g3'].map((path) => r.isAllowed(path, 'Screaming Frog SEO Spider/20.0'))).toEqual([false, true]);
    expect(r.selectGroups('Screaming')).toEqual({ source: 'specific', lines: [7] });
    // google mode: the file's tokens stop at the first digit ("MJ", and "" for 008, which only
    // an empty caller agent names), and the caller's string is compared whole.
    const g = google(body);
    expect(g.agents).toEqual(['mj', '', 'screaming']);
    expect(['/g0', '/g3'].map((path) => g.isAllowed(path, 'MJ'))).toEqual([false, true]);
    expect(g.selectGroups('MJ12bot').source).toBe('global');
    expect(g.selectGroups('008').source).toBe('global');
    expect(g.isAllowed('/g2', 'Screaming')).toBe(false);
  });

  it('productToken reads a token as the mode does (rfc by default, like parse)', () => {
    expect(['MJ12bot/1.7', ' 008 ', 'Screaming Frog SEO Spider 20', 'ExampleBot/1.0'].map((agent) => productToken(agent))).toEqual(['MJ12bot', '008', 'Screaming', 'ExampleBot']);
    expect(['MJ12bot/1.7', ' 008 ', 'Screaming Frog SEO Spider 20', 'ExampleBot/1.0'].map((agent) => productToken(agent, 'google'))).toEqual(['MJ', '', 'Screaming', 'ExampleBot']);
  });
});
