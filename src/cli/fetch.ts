// `robots-wasm fetch`: what fetching an origin's robots.txt gave (RFC 9309 2.3), and what the
// file says: sitemaps, crawl-delay and the groups that apply to the agent.

import type { RobotsFetchResult } from '../fetch/fetch.js';
import { fetchRobotsTxt } from '../fetch/fetch.js';
import type { Pacing, TimeWindow } from '../robots/pacing.js';
import type { RobotsTxt } from '../robots-txt.js';
import { agentValue, asUsage, colour, describeAccess, integerValue, interleavedOf, interleavingOf, interleavingText, MAX_TIMER_MS, modeOf, parse, stringValue, UsageError, write } from './io.js';

/** `robots-wasm fetch --help`. */
export const FETCH_HELP = `usage: robots-wasm fetch <origin | URL> --agent NAME [options]

Fetches the origin's /robots.txt and prints the access result (status, HTTP status, redirects,
expiry), the sitemaps, which groups apply to the agent and the pace they ask: crawl-delay,
request-rate, visit-time and the delay between requests they make, with a note when that
pacing comes from a group with other lines between its user-agent lines (RFC 9309 gives it to
all of them). The exit code is
1 when the origin is unreachable (its URLs are then disallowed).

  --agent NAME        the crawler's product token (required)
  --user-agent TEXT   the User-Agent header (default: the agent)
  --mode rfc|google   matching semantics (default rfc)
  --timeout MS        time for the whole fetch, 1 to ${MAX_TIMER_MS} (default 10000)
  --json              one JSON object

example: robots-wasm fetch https://www.example.com --agent ExampleBot`;

/** Runs `robots-wasm fetch`; resolves with the exit code. */
export async function fetchCommand(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    agent: { type: 'string' }, 'user-agent': { type: 'string' }, mode: { type: 'string' }, timeout: { type: 'string' }, json: { type: 'boolean' },
  });
  if (values.help) return (await write(`${FETCH_HELP}\n`), 0);
  const agent = agentValue(values);
  if (positionals.length !== 1) throw new UsageError('give one origin or URL');
  const options = { mode: modeOf(values), userAgent: stringValue(values, 'user-agent') ?? agent, timeoutMs: integerValue(values, 'timeout', 10_000) };
  const r: RobotsFetchResult = await asUsage(() => fetchRobotsTxt(positionals[0], options));
  const code = r.status === 'unreachable' ? 1 : 0;
  const selection = r.robots.selectGroups(agent);
  const summary = {
    origin: r.origin, status: r.status, httpStatus: r.httpStatus, finalUrl: r.finalUrl, redirects: r.redirects,
    error: r.error, fetchedAt: new Date(r.fetchedAt).toISOString(), expiresAt: new Date(r.expiresAt).toISOString(),
    bytes: r.body?.length ?? 0, sitemaps: r.robots.sitemaps, crawlDelay: r.robots.crawlDelay(agent),
    groups: { source: selection.source, lines: selection.lines }, agents: r.robots.agents,
    pacing: jsonPacing(r.robots.pacing(agent)), pacingInterleaving: pacingInterleaving(r.robots, agent, r.body),
  };
  if (values.json) return (await write(`${JSON.stringify(summary)}\n`), code);
  const status = r.status === 'ok' ? colour('green', r.status) : r.status === 'unavailable' ? colour('yellow', r.status) : colour('red', r.status);
  const lines = [
    `${colour('bold', r.origin)}: ${status} - ${describeAccess(r)}`,
    `  final URL   ${r.finalUrl}${r.redirects > 0 ? ` (after ${r.redirects} redirect${r.redirects > 1 ? 's' : ''})` : ''}`,
    `  expires     ${summary.expiresAt}`,
    `  bytes       ${summary.bytes}`,
    `  groups      ${selection.source === 'none' ? 'none applies: everything allowed' : `${selection.source}, line${selection.lines.length > 1 ? 's' : ''} ${selection.lines.join(', ')}`}`,
    `  crawl-delay ${summary.crawlDelay ?? 'none'}`,
    ...pacingLines(summary.pacing),
    ...(summary.pacingInterleaving === undefined ? [] : [`  ${colour('yellow', `note        ${interleavingText(summary.pacingInterleaving, 'the pacing')}`)}`]),
    `  agents      ${r.robots.agents.join(', ') || 'only *'}`,
    `  sitemaps    ${r.robots.sitemaps.length === 0 ? 'none' : r.robots.sitemaps.join('\n              ')}`,
  ];
  await write(`${lines.join('\n')}\n`);
  return code;
}

/** A Pacing with every field present, null when the file asks none, as JSON keeps it. */
type JsonPacing = { [K in keyof Pacing]: Exclude<Pacing[K], undefined> | null };

/** The agent's Pacing as JsonPacing. */
function jsonPacing(p: Pacing): JsonPacing {
  return { crawlDelayMs: p.crawlDelayMs ?? null, requestRate: p.requestRate ?? null, visitTime: p.visitTime ?? null, delayMs: p.delayMs ?? null };
}

/** `HHMM-HHMM` of a window (minutes of the UTC day). */
function windowText({ start, end }: TimeWindow): string {
  const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}${String(m % 60).padStart(2, '0')}`;
  return `${hhmm(start)}-${hhmm(end)}`;
}

/** fetch's lines for the request-rate, the visit-time windows and the delay they give. */
function pacingLines(p: JsonPacing): string[] {
  const { requestRate: rate, visitTime: windows } = p;
  return [
    `  request-rate ${rate === null ? 'none' : `${rate.requests} per ${rate.perMs} ms${rate.window === undefined ? '' : ` ${windowText(rate.window)} UTC`}`}`,
    `  visit-time  ${windows === null ? 'none' : `${windows.map(windowText).join(', ')} UTC`}`,
    `  delay       ${p.delayMs === null ? 'none' : `${p.delayMs} ms between requests`}`,
  ];
}

/** The interleaving of the group the agent's pacing lines come from, if any. */
function pacingInterleaving(robots: RobotsTxt, agent: string, body: Uint8Array | undefined): { group: number; lines: number[] } | undefined {
  const interleaved = interleavedOf(robots, body);
  const pacing = robots.records(agent).filter((r) => r.name === 'crawl-delay' || r.name === 'request-rate' || r.name === 'visit-time');
  for (const { group } of pacing) {
    const found = interleavingOf(interleaved, group);
    if (found !== undefined) return found;
  }
  return undefined;
}
