// `robots-wasm fetch`: what fetching an origin's robots.txt gave (RFC 9309 2.3), and what the
// file says: sitemaps, crawl-delay and the groups that apply to the agent.

import type { RobotsFetchResult } from '../fetch/fetch.js';
import { fetchRobotsTxt } from '../fetch/fetch.js';
import { agentValue, asUsage, colour, describeAccess, integerValue, MAX_TIMER_MS, modeOf, parse, stringValue, UsageError, write } from './io.js';

/** `robots-wasm fetch --help`. */
export const FETCH_HELP = `usage: robots-wasm fetch <origin | URL> --agent NAME [options]

Fetches the origin's /robots.txt and prints the access result (status, HTTP status, redirects,
expiry), the sitemaps, the agent's crawl-delay and which groups apply to it. The exit code is
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
    `  agents      ${r.robots.agents.join(', ') || 'only *'}`,
    `  sitemaps    ${r.robots.sitemaps.length === 0 ? 'none' : r.robots.sitemaps.join('\n              ')}`,
  ];
  await write(`${lines.join('\n')}\n`);
  return code;
}
