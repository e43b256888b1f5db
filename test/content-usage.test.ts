// AI usage signals in robots.txt: Content-Usage rules (draft-ietf-aipref-attach 3, with the
// vocabulary of draft-ietf-aipref-vocab-07), Content-Signal records, and extension records in
// general (RobotsTxt.records), with the linter's view of them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lintRobotsTxt, MAX_UNKNOWN_LABELS, RobotsTxt, type Mode } from '../src/index.js';
import { MAX_UNKNOWN_SIGNALS } from '../src/usage-rules.js';

const fixture = (name: string) => readFileSync(new URL(`fixtures/signals/${name}`, import.meta.url), 'utf8');
const usage = (body: string, path: string, agent = 'ExampleBot', mode: Mode = 'rfc') => RobotsTxt.parse(body, { mode }).contentUsage(`https://example.com${path}`, agent);

describe('Content-Usage rules', () => {
  // draft-ietf-aipref-attach-05 3.4.
  const example = 'User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n\nUser-Agent: ExampleBot\nAllow: /\nContent-Usage: train-ai=y\n';

  it("the draft's example table: the * group for other crawlers, ExampleBot's own group for it", () => {
    expect(usage(example, '/test', 'OtherBot')).toEqual({ 'train-ai': 'n' });
    expect(usage(example, '/never/test', 'OtherBot')).toEqual({});
    expect(usage(example, '/ai-ok/test', 'OtherBot')).toEqual({ 'train-ai': 'y' });
    for (const path of ['/test', '/never/test', '/ai-ok/test']) expect(usage(example, path, 'ExampleBot')).toEqual({ 'train-ai': 'y' });
  });

  it("the draft's introduction: one rule for everything", () => {
    expect(usage('User-Agent: *\nAllow: /\nContent-Usage: train-ai=n\n', '/any', 'AnyBot')).toEqual({ 'train-ai': 'n' });
  });

  it('a disallowed URL has no preferences, and explain says why', () => {
    const robots = RobotsTxt.parse(example);
    expect(robots.explainContentUsage('https://example.com/never/x', 'OtherBot')).toEqual({ allowed: false, usage: {}, rules: [] });
    expect(robots.explainContentUsage('https://example.com/ai-ok/x', 'OtherBot')).toEqual({
      allowed: true, usage: { 'train-ai': 'y' }, rules: [{ line: 5, path: '/ai-ok/', value: 'train-ai=y', usage: { 'train-ai': 'y' } }],
    });
  });

  it('agents are selected as for allow/disallow: groups naming the agent merged, * only when none does', () => {
    const body = 'User-agent: *\nContent-Usage: train-ai=n\n\nUser-agent: ExampleBot\nContent-Usage: /a/ search=n\n\nUser-agent: examplebot\nContent-Usage: /b/ search=y\n';
    expect(usage(body, '/a/x')).toEqual({ 'search': 'n' });
    expect(usage(body, '/b/x')).toEqual({ 'search': 'y' });
    // Neither ExampleBot group has a rule without a path, and the * group is not merged in.
    expect(usage(body, '/c')).toEqual({});
    expect(usage(body, '/c', 'OtherBot')).toEqual({ 'train-ai': 'n' });
  });

  it('lines before the first user-agent line belong to no group and are ignored', () => {
    expect(usage('Content-Usage: train-ai=n\nUser-agent: *\nAllow: /\n', '/x')).toEqual({});
  });

  it('the most specific path wins by encoded length; a rule without a path has length 0', () => {
    const body = 'User-agent: *\nContent-Usage: train-ai=n, search=n\nContent-Usage: /a train-ai=y\nContent-Usage: /a/b search=y\n';
    expect(usage(body, '/x')).toEqual({ 'train-ai': 'n', search: 'n' });
    expect(usage(body, '/a/x')).toEqual({ 'train-ai': 'y' });
    expect(usage(body, '/a/b/c')).toEqual({ search: 'y' });
  });

  it('paths use * and $ and the percent-encoding normalisation of allow/disallow', () => {
    const body = 'User-agent: *\nContent-Usage: /*.pdf$ train-ai=n\nContent-Usage: /%7Euser/ search=n\nContent-Usage: /caf\u00e9/ train-ai=y\n';
    expect(usage(body, '/docs/a.pdf')).toEqual({ 'train-ai': 'n' });
    expect(usage(body, '/docs/a.pdf?x=1')).toEqual({});
    expect(usage(body, '/~user/page')).toEqual({ search: 'n' });
    expect(usage(body, '/caf%C3%A9/menu')).toEqual({ 'train-ai': 'y' });
  });

  it('HTAB as well as SP separates the path from the statement, and more blanks are dropped', () => {
    expect(usage('User-agent: *\nContent-Usage: /a/\t \ttrain-ai=n\n', '/a/x')).toEqual({ 'train-ai': 'n' });
    // Without a blank, the whole value is the path: no statement.
    expect(usage('User-agent: *\nContent-Usage: /a/train-ai=n\nContent-Usage: search=y\n', '/a/train-ai=n')).toEqual({});
  });

  it('rules with the identical path combine: any n wins, else any y', () => {
    const body = 'User-agent: *\nContent-Usage: /a/ train-ai=y, search=y\nContent-Usage: /a/ train-ai=n\nContent-Usage: /%61/ search=n\n';
    // /%61/ is /a/ once normalised: the same path.
    expect(usage(body, '/a/x')).toEqual({ 'train-ai': 'n', search: 'n' });
    expect(usage('User-agent: *\nContent-Usage: train-ai=y\nContent-Usage: search=n\n', '/x')).toEqual({ 'train-ai': 'y', search: 'n' });
  });

  it('the most specific rule shadows shorter ones even when it states nothing known', () => {
    const body = 'User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /a/ unknown-thing=y\nContent-Usage: /b/ Train-AI=y\n';
    expect(usage(body, '/x')).toEqual({ 'train-ai': 'n' });
    expect(usage(body, '/a/x')).toEqual({ 'unknown-thing': 'y' });
    expect(usage(body, '/b/x')).toEqual({});
  });

  it('the vocabulary: y/n tokens of known categories; other labels as written; the last of a repeated key; a Dictionary that fails states nothing', () => {
    const one = (statement: string) => usage(`User-agent: *\nContent-Usage: ${statement}\n`, '/x');
    expect(one('train-ai=y, search=n, future-use=n')).toEqual({ 'train-ai': 'y', search: 'n', 'future-use': 'n' });
    expect(one('train-ai="n", search=?1')).toEqual({});
    expect(one('train-ai=y, train-ai=n')).toEqual({ 'train-ai': 'n' });
    expect(one('train-ai;allow=n, train-ai=y')).toEqual({ 'train-ai': 'y' });
    expect(one('train-ai=n,')).toEqual({});
    expect(one('train-ai=n ; x')).toEqual({});
  });

  it('a file of 12,000 Content-Usage paths (within the parse limit): each URL gets its own path\'s statement', () => {
    const lines = Array.from({ length: 12_000 }, (_, i) => `Content-Usage: /p${i}/ train-ai=${i % 2 === 0 ? 'y' : 'n'}`);
    const robots = RobotsTxt.parse(`User-agent: *\nContent-Usage: search=n\n${lines.join('\n')}\n`);
    for (let i = 0; i < 12_000; i += 97) {
      expect(robots.contentUsage(`https://example.com/p${i}/x`, 'Bot')).toEqual({ 'train-ai': i % 2 === 0 ? 'y' : 'n' });
    }
    expect(robots.contentUsage('https://example.com/q', 'Bot')).toEqual({ search: 'n' });
  });

  it('a # ends the value, as for every record', () => {
    expect(usage('User-agent: *\nContent-Usage: /a/ train-ai=n # no training\n', '/a/x')).toEqual({ 'train-ai': 'n' });
  });

  it('both modes give the same answers (no user-agent line follows a Content-Usage line here)', () => {
    const body = 'User-agent: *\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /%7Ea/ train-ai=y\nContent-Usage: /*.pdf$ search=n\n';
    for (const path of ['/x', '/~a/b', '/%7Ea/b', '/f.pdf', '/never/x']) expect(usage(body, path, 'ExampleBot', 'google')).toEqual(usage(body, path));
  });

  it('a Content-Usage line is a rule: in rfc mode a user-agent line after it opens the next group; google mode groups as Google does', () => {
    const body = 'User-agent: a\nContent-Usage: train-ai=n\nUser-agent: b\nDisallow: /x\n';
    const rfc = RobotsTxt.parse(body);
    expect(rfc.isAllowed('https://example.com/x', 'a')).toBe(true);
    expect(rfc.selectGroups('b').lines).toEqual([3]);
    expect(usage(body, '/y', 'a')).toEqual({ 'train-ai': 'n' });
    expect(usage(body, '/y', 'b')).toEqual({});
    const google = RobotsTxt.parse(body, { mode: 'google' });
    expect(google.isAllowed('https://example.com/x', 'a')).toBe(false);
    expect(google.selectGroups('b').lines).toEqual([1]);
    expect(usage(body, '/y', 'b', 'google')).toEqual({ 'train-ai': 'n' });
  });
});

describe('Content-Signal', () => {
  it("a managed file's signals, for every crawler the * groups cover; none for a crawler with its own group", () => {
    const robots = RobotsTxt.parse(fixture('managed-content-signal.txt'));
    expect(robots.contentSignal('ExampleBot')).toEqual({ search: 'yes', 'ai-train': 'no' });
    expect(robots.contentSignal('GPTBot')).toEqual({});
    expect(robots.isAllowed('https://www.example.com/page', 'ExampleBot')).toBe(true);
    expect(robots.isAllowed('https://www.example.com/lp/x', 'ExampleBot')).toBe(false);
    expect(robots.isAllowed('https://www.example.com/page', 'GPTBot')).toBe(false);
    expect(robots.sitemaps).toEqual(['https://www.example.com/sitemap.xml']);
  });

  it('use levels and several lines: merged in file order, values as written, keys lowercased', () => {
    const robots = RobotsTxt.parse(fixture('use-level.txt'));
    expect(robots.contentSignal('ExampleBot')).toEqual({ use: 'reference', 'ai-input': 'no' });
    expect(robots.contentSignal('SearchBot')).toEqual({ search: 'yes', 'ai-train': 'no', 'ai-input': 'yes', use: 'full' });
    const merged = RobotsTxt.parse('User-agent: *\nContent-Signal: Search=yes, ai-train=no\nContent-Signal: ai-train=yes, junk, =x\n');
    expect(merged.contentSignal('Bot')).toEqual({ search: 'yes', 'ai-train': 'yes' });
  });

  it('lines before the first user-agent line are not read', () => {
    expect(RobotsTxt.parse('Content-Signal: ai-train=no\nUser-agent: *\nAllow: /\n').contentSignal('Bot')).toEqual({});
  });
});

describe('Content-Usage: an open set of labels', () => {
  it('every label a rule states is returned: known categories typed, others as written', () => {
    const body = 'User-agent: *\nContent-Usage: train-ai=n, infer-user=n, ai-input="later", search=maybe, bots\n';
    expect(usage(body, '/x')).toEqual({ 'train-ai': 'n', 'infer-user': 'n', 'ai-input': '"later"', bots: '?1' });
  });

  it('rules with the identical path combine most restrictively for every label, known or not', () => {
    const body = [
      'User-agent: *',
      'Content-Usage: /a/ infer-user=y, train-ai=y, infer-system=y',
      'Content-Usage: /a/ infer-user=n, note=x',
      'Content-Usage: /%61/ train-ai=n, note=y, infer-system=later',
    ].join('\n');
    expect(usage(body, '/a/page')).toEqual({ 'train-ai': 'n', 'infer-user': 'n', 'infer-system': 'y', note: 'y' });
  });

  it('at most MAX_UNKNOWN_LABELS unknown labels a statement, and after combining', () => {
    const labels = (from: number) => Array.from({ length: 40 }, (_, i) => `x${from + i}=n`).join(', ');
    const one = usage(`User-agent: *\nContent-Usage: train-ai=y, ${labels(0)}, search=n\n`, '/x');
    expect(Object.keys(one)).toEqual(['train-ai', 'search', ...Array.from({ length: MAX_UNKNOWN_LABELS }, (_, i) => `x${i}`)]);
    const two = usage(`User-agent: *\nContent-Usage: ${labels(0)}\nContent-Usage: ${labels(100)}, train-ai=n\n`, '/x');
    expect(Object.keys(two).length).toBe(MAX_UNKNOWN_LABELS + 1);
    expect(two['train-ai']).toBe('n');
  });
});

describe('Content-Signal: known keys typed, others kept', () => {
  it("a managed file with the policy comment block: the * group's signals, the use level included", () => {
    const robots = RobotsTxt.parse(fixture('content-signal-policy.txt'));
    expect(robots.contentSignal('ExampleBot')).toEqual({ search: 'yes', 'ai-train': 'no', use: 'immediate' });
    expect(robots.contentSignal('GPTBot')).toEqual({});
    expect(robots.isAllowed('https://www.example.com/private/x', 'ExampleBot')).toBe(false);
  });

  it("known values in any case, lowercased; a value a known key does not take is skipped; unknown keys as written", () => {
    const robots = RobotsTxt.parse(fixture('content-signal-policy.txt'));
    // ai-train=maybe is skipped, and the later ai-train=No applies.
    expect(robots.contentSignal('SearchBot')).toEqual({ search: 'yes', 'ai-input': 'no', use: 'reference', 'ai-train': 'no', 'x-future': 'later' });
    const skipped = RobotsTxt.parse('User-agent: *\nContent-Signal: ai-train=no, use=full\nContent-Signal: ai-train=perhaps, use=partial\n');
    expect(skipped.contentSignal('Bot')).toEqual({ 'ai-train': 'no', use: 'full' });
  });

  it('at most MAX_UNKNOWN_SIGNALS unknown keys; a kept one still takes its later value', () => {
    const keys = Array.from({ length: 100 }, (_, i) => `k${i}=v`).join(', ');
    const signals = RobotsTxt.parse(`User-agent: *\nContent-Signal: ${keys}, ai-train=no\nContent-Signal: k0=w\n`).contentSignal('Bot');
    expect(Object.keys(signals).length).toBe(MAX_UNKNOWN_SIGNALS + 1);
    expect(signals).toMatchObject({ k0: 'w', 'ai-train': 'no' });
    expect(signals.k99).toBeUndefined();
  });
});

describe('License (RSL 1.0): of the whole file', () => {
  const robots = RobotsTxt.parse(fixture('rsl-license.txt'));

  it('the absolute license URLs of every License line, before and inside groups, each once, in file order', () => {
    expect(robots.licenses).toEqual(['https://example.com/license.xml', 'https://example.com/ai-license.xml']);
    expect(RobotsTxt.parse('User-agent: *\nDisallow: /x\n').licenses).toEqual([]);
  });

  it('every agent gets every License record, which belongs to no group; verdicts are unchanged', () => {
    const lines = (agent: string) => robots.records(agent).filter((r) => r.name === 'license').map((r) => [r.line, r.group]);
    const all = [[3, undefined], [10, undefined], [11, undefined], [15, undefined]];
    for (const agent of ['GPTBot', 'ExampleBot', 'OtherBot']) expect(lines(agent)).toEqual(all);
    expect(robots.isAllowed('https://example.com/a', 'GPTBot')).toBe(false);
    expect(robots.isAllowed('https://example.com/drafts/a', 'ExampleBot')).toBe(false);
    expect(robots.isAllowed('https://example.com/drafts/a', 'OtherBot')).toBe(true);
    expect(robots.selectGroups('OtherBot').lines).toEqual([8]);
  });

  it('the linter warns on a License URL that is not absolute', () => {
    const warned = lintRobotsTxt(fixture('rsl-license.txt')).filter((d) => d.code === 'license-not-absolute');
    expect(warned.map((d) => d.line)).toEqual([11]);
  });
});

describe('records', () => {
  const body = [
    'Request-rate: 1/5',
    'User-agent: *',
    'Crawl-delay: 10',
    'Disallow: /x',
    'Visit-time: 0600-0845',
    'Clean-param: ref /articles/',
    'License: https://example.com/license.xml',
    'X-Custom_Key: anything: goes',
    '<a href="https://example.com/">not a record</a>',
    '',
    'User-agent: ExampleBot',
    'Crawldelay: 2',
    'Host: example.com',
    'Sitemap: https://example.com/s.xml',
  ].join('\n');

  it('every extension line, as written, with its line and group, in file order', () => {
    const robots = RobotsTxt.parse(body);
    expect(robots.records().map((r) => [r.key, r.name, r.value, r.line, r.group])).toEqual([
      ['Request-rate', 'request-rate', '1/5', 1, undefined],
      ['Crawl-delay', 'crawl-delay', '10', 3, 2],
      ['Visit-time', 'visit-time', '0600-0845', 5, 2],
      ['Clean-param', 'clean-param', 'ref /articles/', 6, 2],
      // A License line is of the whole file (RSL 1.0), not of the group it stands in.
      ['License', 'license', 'https://example.com/license.xml', 7, undefined],
      ['X-Custom_Key', 'x-custom_key', 'anything: goes', 8, 2],
      ['Crawldelay', 'crawl-delay', '2', 12, 11],
      ['Host', 'host', 'example.com', 13, 11],
      ['Sitemap', 'sitemap', 'https://example.com/s.xml', 14, 11],
    ]);
  });

  it("an agent's records are those of the groups that apply to it, and the file's License lines", () => {
    const robots = RobotsTxt.parse(body);
    expect(robots.records('ExampleBot').map((r) => r.line)).toEqual([7, 12, 13, 14]);
    expect(robots.records('OtherBot').map((r) => r.line)).toEqual([3, 5, 6, 7, 8]);
    expect(robots.crawlDelay('ExampleBot')).toBe(2);
    expect(robots.crawlDelay('OtherBot')).toBe(10);
    expect(robots.hosts).toEqual(['example.com']);
  });

  it('their presence changes no verdict: the same file without them answers alike in both modes', () => {
    // The other lines blanked, so that every line keeps its number.
    const bare = body.split('\n').map((line) => (/^(user-agent|disallow|allow):/i.test(line) ? line : '')).join('\n');
    for (const mode of ['rfc', 'google'] as const) {
      const a = RobotsTxt.parse(body, { mode });
      const b = RobotsTxt.parse(bare, { mode });
      for (const agent of ['ExampleBot', 'OtherBot']) {
        for (const path of ['/x', '/y', '/x/z']) expect(a.isAllowed(`https://example.com${path}`, agent)).toBe(b.isAllowed(`https://example.com${path}`, agent));
        expect(a.selectGroups(agent)).toEqual(b.selectGroups(agent));
      }
    }
  });
});

describe('lint and AI usage lines', () => {
  const codes = (body: string) => lintRobotsTxt(body).map((d) => `${d.line}:${d.code}`);

  it('knows the keys, and warns on a statement that is not a Dictionary, uppercase keys, and lines outside groups', () => {
    expect(codes([
      'Content-Usage: train-ai=n',
      'Content-Signal: ai-train=no',
      'User-agent: *',
      'Content-Usage: /a/ Train-AI=n',
      'Content-Usage: train-ai=n,',
      'Content-Usage: /b/ train-ai=y',
      'Content-Signal: search=yes',
      'License: https://example.com/l.xml',
    ].join('\n'))).toEqual([
      '1:extension-key', '1:signal-outside-group', '2:extension-key', '2:signal-outside-group', '4:extension-key', '4:usage-uppercase-key',
      '5:extension-key', '5:usage-unparseable', '6:extension-key', '7:extension-key', '8:extension-key',
    ]);
  });
});
