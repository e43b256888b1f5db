// RobotsTxt.pacing: Crawl-delay, Request-rate and Visit-time as numbers a scheduler can use,
// from the agent's groups; invalid values read as absent; the linter names them.
import { describe, expect, it } from 'vitest';
import { lintRobotsTxt, RobotsTxt, type Mode } from '../src/index.js';

const pacing = (lines: string[], agent = 'Bot', mode?: Mode) => RobotsTxt.parse(['User-agent: *', ...lines].join('\n'), { mode }).pacing(agent);
const rate = (value: string) => pacing([`Request-rate: ${value}`]).requestRate;
const visit = (value: string) => pacing([`Visit-time: ${value}`]).visitTime;

describe('pacing: valid values', () => {
  it('a crawl-delay in ms, fractional seconds included', () => {
    expect(pacing(['Crawl-delay: 5'])).toEqual({ crawlDelayMs: 5000, requestRate: undefined, visitTime: undefined, delayMs: 5000 });
    expect(pacing(['Crawl-delay: 0.5']).crawlDelayMs).toBe(500);
    expect(pacing(['Crawl-delay: .25']).crawlDelayMs).toBe(250);
    expect(pacing(['Crawl-delay: 0']).crawlDelayMs).toBe(0);
  });

  it('a tiny positive crawl-delay stays positive, a huge one is a day (crawlDelay clamps to 86,400 s)', () => {
    expect(pacing(['Crawl-delay: 0.0000001']).crawlDelayMs).toBe(1);
    expect(pacing(['Crawl-delay: 100000000000000000000']).crawlDelayMs).toBe(86_400_000);
    expect(pacing(['Crawl-delay: 100000000000000000000']).delayMs).toBe(86_400_000);
  });

  it('request rates in each unit', () => {
    expect(rate('1/5')).toEqual({ requests: 1, perMs: 5000 });
    expect(rate('1/10s')).toEqual({ requests: 1, perMs: 10_000 });
    expect(rate('1/5m')).toEqual({ requests: 1, perMs: 300_000 });
    expect(rate('3/1h')).toEqual({ requests: 3, perMs: 3_600_000 });
    expect(rate('3/1H')).toEqual({ requests: 3, perMs: 3_600_000 });
    expect(rate('2 / 1.5s')).toEqual({ requests: 2, perMs: 1500 });
  });

  it('a request rate with a UTC window, in minutes since midnight', () => {
    expect(rate('1/10s 0600-0845')).toEqual({ requests: 1, perMs: 10_000, window: { start: 360, end: 525 } });
    expect(rate('1/10 2300-0300')).toEqual({ requests: 1, perMs: 10_000, window: { start: 1380, end: 180 } });
  });

  it('a tiny period is 1 ms, never 0', () => {
    expect(rate('1/0.0000001s')).toEqual({ requests: 1, perMs: 1 });
    expect(pacing(['Request-rate: 1000/0.0000001s']).delayMs).toBe(1);
  });

  it('visit times, every valid one in file order, a window wrapping midnight included', () => {
    expect(visit('0600-0845')).toEqual([{ start: 360, end: 525 }]);
    expect(pacing(['Visit-time: 2300-0300', 'Visit-time: 99', 'Visit-time: 1200 - 1230']).visitTime).toEqual([
      { start: 1380, end: 180 },
      { start: 720, end: 750 },
    ]);
  });

  it('delayMs: the larger of crawl-delay and the rate, rounded up', () => {
    expect(pacing(['Request-rate: 1/10s']).delayMs).toBe(10_000);
    expect(pacing(['Request-rate: 3/1s']).delayMs).toBe(334);
    expect(pacing(['Crawl-delay: 2', 'Request-rate: 1/10s']).delayMs).toBe(10_000);
    expect(pacing(['Crawl-delay: 20', 'Request-rate: 1/10s 0600-0845']).delayMs).toBe(20_000);
    expect(pacing(['Disallow: /x']).delayMs).toBeUndefined();
  });

  it('the first valid request rate wins', () => {
    expect(pacing(['Request-rate: 0/5', 'Request-rate: 1/20', 'Request-rate: 1/2']).requestRate).toEqual({ requests: 1, perMs: 20_000 });
  });
});

describe('pacing: invalid values read as absent', () => {
  it.each(['', 'abc', '-1', '1e3', '0x10', '1..2', '5s', 'NaN'])('crawl-delay %j', (value) => {
    expect(pacing([`Crawl-delay: ${value}`])).toEqual({ crawlDelayMs: undefined, requestRate: undefined, visitTime: undefined, delayMs: undefined });
  });

  it.each([
    '', '0/5', '1/0', '1/0s', '-1/5', '1/-5', 'a/5', '1/b', '1', '1/', '/5', '1/5x', '1/5sec', '1/5 s m', 'NaN/5', 'Infinity/1', '1.5/5',
    '99999999999999999999/1s', `1/${'9'.repeat(400)}`, '1/10s 2400-0100', '1/10s 0660-0700', '1/10s 600-845', '1/10s 0600', '1/10s0600-0845',
  ])('request-rate %j', (value) => {
    expect(rate(value)).toBeUndefined();
    expect(pacing([`Request-rate: ${value}`]).delayMs).toBeUndefined();
  });

  it.each(['', '0600', '600-845', '2400-0100', '0060-0100', '0600-0860', '06:00-08:45', 'abcd-efgh', '-0600-0845', '0600-0845-0900'])('visit-time %j', (value) => {
    expect(visit(value)).toBeUndefined();
  });

  it('never throws on hostile values', () => {
    const values = ['\u0000', '1/'.repeat(10_000), '9'.repeat(100_000), '1/1s ' + '0'.repeat(5000), '\uFFFD/\uFFFD'];
    for (const v of values) {
      expect(() => pacing([`Crawl-delay: ${v}`, `Request-rate: ${v}`, `Visit-time: ${v}`])).not.toThrow();
    }
  });

  it('reads and lints long runs of spaces and digits in linear time', () => {
    // 40,000 bytes a value: nine lines stay under the 512,000-byte parse limit.
    const values = [`1/1${' '.repeat(40_000)}x`, `1/1 0600${' '.repeat(20_000)}-${' '.repeat(20_000)}x`, `${'9'.repeat(40_000)}x`];
    const body = ['User-agent: *', ...values.flatMap((v) => [`Crawl-delay: ${v}`, `Request-rate: ${v}`, `Visit-time: ${v}`])].join('\n');
    const start = performance.now();
    expect(RobotsTxt.parse(body).pacing('Bot').delayMs).toBeUndefined();
    expect(lintRobotsTxt(body).filter((d) => d.code.startsWith('invalid-'))).toHaveLength(9);
    // A quadratic reading takes seconds here.
    expect(performance.now() - start).toBeLessThan(1000);
  });
});

describe('pacing: group selection', () => {
  const body = [
    'User-agent: *', // 1
    'Crawl-delay: 10', // 2
    'Request-rate: 1/30s', // 3
    'Disallow: /x', // 4
    '',
    'User-agent: ExampleBot', // 6
    'Visit-time: 0100-0500', // 7
    'Disallow: /y', // 8
  ].join('\n');

  it('the groups naming the agent, else the `*` groups (as for its rules)', () => {
    const robots = RobotsTxt.parse(body);
    expect(robots.pacing('ExampleBot/2.0')).toEqual({ crawlDelayMs: undefined, requestRate: undefined, visitTime: [{ start: 60, end: 300 }], delayMs: undefined });
    expect(robots.pacing('OtherBot')).toEqual({ crawlDelayMs: 10_000, requestRate: { requests: 1, perMs: 30_000 }, visitTime: undefined, delayMs: 30_000 });
  });

  it('lines before the first user-agent line belong to no group', () => {
    expect(RobotsTxt.parse('Request-rate: 1/5\nCrawl-delay: 3\nUser-agent: *\nDisallow: /\n').pacing('Bot').delayMs).toBeUndefined();
  });

  it('throws a TypeError on an agent that is not a string, as its siblings do', () => {
    expect(() => RobotsTxt.parse('User-agent: *\n').pacing(1 as unknown as string)).toThrow(TypeError);
  });
});

describe('pacing: which group a line belongs to (docs/pacing.md)', () => {
  it('a pacing line does not end a group: a user-agent line after it joins the same group, in both modes', () => {
    for (const mode of ['rfc', 'google'] as const) {
      const robots = RobotsTxt.parse('User-agent: a\nCrawl-delay: 5\nRequest-rate: 1/10s\nUser-agent: b\nDisallow: /x\n', { mode });
      expect(robots.selectGroups('b')).toEqual({ source: 'specific', lines: [1] });
      expect(robots.pacing('b')).toEqual(robots.pacing('a'));
      expect(robots.pacing('b').delayMs).toBe(10_000);
    }
  });

  it('after a rule, a user-agent line opens a new group, which the pacing lines above do not reach', () => {
    for (const mode of ['rfc', 'google'] as const) {
      const robots = RobotsTxt.parse('User-agent: a\nDisallow: /y\nCrawl-delay: 5\nUser-agent: b\nDisallow: /x\n', { mode });
      expect(robots.pacing('a').crawlDelayMs).toBe(5000);
      expect(robots.pacing('b').crawlDelayMs).toBeUndefined();
    }
  });

  it('a Content-Usage line is a rule in rfc mode only, so it ends the group there alone', () => {
    const body = 'User-agent: a\nContent-Usage: train-ai=n\nCrawl-delay: 5\nUser-agent: b\nDisallow: /x\n';
    expect(RobotsTxt.parse(body, { mode: 'rfc' }).pacing('b').crawlDelayMs).toBeUndefined();
    expect(RobotsTxt.parse(body, { mode: 'google' }).pacing('b').crawlDelayMs).toBe(5000);
  });
});

describe('lint: pacing values', () => {
  const codes = (body: string) => lintRobotsTxt(body).filter((d) => d.code.startsWith('invalid-')).map((d) => `${d.line} ${d.severity} ${d.code}`);

  it('warns on each invalid value at its line, and not on valid ones', () => {
    const body = [
      'User-agent: *', // 1
      'Crawl-delay: 5', // 2
      'Crawl-delay: soon', // 3
      'Crawl_delay: -1', // 4
      'Request-rate: 1/10s 0600-0845', // 5
      'Request-rate: 0/5', // 6
      'Request-rate: 1/5 2500-0100', // 7
      'Visit-time: 2300-0300', // 8
      'Visit-time: 06:00-08:45', // 9
      'Disallow: /x', // 10
    ].join('\n');
    expect(codes(body)).toEqual([
      '3 warning invalid-crawl-delay',
      '4 warning invalid-crawl-delay',
      '6 warning invalid-request-rate',
      '7 warning invalid-request-rate',
      '9 warning invalid-visit-time',
    ]);
  });

  it('warns on a pacing line before any user-agent line: it applies to no crawler', () => {
    const body = 'Crawl-delay: 5\nVisit-time: 0600-0845\nSitemap: https://h/s.xml\nUser-agent: *\nCrawl-delay: 2\n';
    expect(lintRobotsTxt(body).filter((d) => d.code === 'pacing-outside-group').map((d) => `${d.line} ${d.message}`)).toEqual([
      '1 this Crawl-delay line comes before any user-agent line and applies to no crawler',
      '2 this Visit-time line comes before any user-agent line and applies to no crawler',
    ]);
    expect(RobotsTxt.parse(body).pacing('Bot').crawlDelayMs).toBe(2000);
  });

  it('quotes a long value shortened', () => {
    const [d] = lintRobotsTxt(`User-agent: *\nRequest-rate: ${'x'.repeat(5000)}\n`).filter((d) => d.code === 'invalid-request-rate');
    expect(d.message.length).toBeLessThan(400);
  });
});
