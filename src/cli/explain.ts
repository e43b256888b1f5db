// `robots-wasm explain`: for each URL the verdict, the deciding rule and its line, the AI
// usage preferences its Content-Usage rules state, and which group applied to the agent and why.

import { agentValue, colour, examplePath, interleavingOf, interleavingText, loadRobots, modeOf, pairsText, parse, stringValue, UsageError, write } from './io.js';

/** `robots-wasm explain --help`. */
export const EXPLAIN_HELP = `usage: robots-wasm explain <robots.txt file | URL> --agent NAME [options] URL...

For each URL: the verdict, the rule that decided it (as written, with its line) and which
group applied: the agent's own (specific), several of its own (merged), the * group, or none;
a note when the rule's group (with no rule matching, the agent's group) has other lines (a
Crawl-delay, a Sitemap) between its user-agent lines, which RFC 9309 reads as one group for
all of them.
A URL that clients send as different request-targets (an empty query, dot segments, %2e, a
backslash) is allowed only if every target is; the one that decided is named.
When the group has Content-Usage rules, an allowed URL's AI usage preferences follow on a
line of their own, with the rules that state them; the group's Content-Signal, if any, after
the group line.

  --agent NAME      the crawler's product token (required)
  --mode rfc|google matching semantics (default rfc)
  --json            JSON lines

example: robots-wasm explain ${examplePath('robots.txt')} --agent ExampleBot https://www.example.com/cart/checkout`;

/** Runs `robots-wasm explain`; resolves with the exit code. */
export async function explain(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { agent: { type: 'string' }, mode: { type: 'string' }, json: { type: 'boolean' }, 'user-agent': { type: 'string' } });
  if (values.help) return (await write(`${EXPLAIN_HELP}\n`), 0);
  const agent = agentValue(values);
  if (positionals.length < 2) throw new UsageError('give a robots.txt file or URL, then one or more URLs');
  const { robots, interleaved } = await loadRobots(positionals[0], modeOf(values), stringValue(values, 'user-agent'));
  const selection = robots.selectGroups(agent);
  const source = selection.source === 'specific' && selection.lines.length > 1 ? 'merged' : selection.source === 'global' ? '*' : selection.source;
  const why = {
    specific: `the group naming ${agent} (line ${selection.lines[0]})`,
    merged: `the ${selection.lines.length} groups naming ${agent}, merged (lines ${selection.lines.join(', ')})`,
    '*': `no group names ${agent}: the * group${selection.lines.length > 1 ? 's' : ''} (line${selection.lines.length > 1 ? 's' : ''} ${selection.lines.join(', ')})`,
    none: `no group names ${agent} and there is no * group: everything is allowed`,
  }[source];
  const signal = robots.contentSignal(agent);
  const signalText = pairsText(signal);
  let out = values.json ? '' : `${colour('dim', `group: ${why}`)}\n${signalText === '' ? '' : `${colour('dim', `content-signal: ${signalText}`)}\n`}`;
  for (const url of positionals.slice(1)) {
    const { allowed, rule, reading } = robots.explain(url, agent);
    const usage = robots.explainContentUsage(url, agent);
    // With no rule matching, the agent's groups decided: one that is interleaved is why it has no other.
    const interleaving = interleavingOf(interleaved, rule === null ? selection.lines.find((g) => interleaved.has(g)) : groupOfLine(selection.lines, rule.line));
    if (values.json) {
      const contentUsage = { usage: usage.usage, rules: usage.rules.map(({ line, path, value }) => ({ line, path, value })) };
      out += `${JSON.stringify({ url, allowed, rule, reading, contentUsage, contentSignal: signal, group: { source, lines: selection.lines }, interleaving })}\n`;
      continue;
    }
    const verdict = allowed ? colour('green', 'allow') : colour('red', 'disallow');
    const decided = rule === null ? 'no rule matches' : `${rule.kind}: ${rule.pattern} (line ${rule.line})`;
    // A URL that clients send differently: which client's request-target decided.
    const read = reading === undefined ? '' : `\t(${reading.client} reading: ${reading.path})`;
    out += `${verdict}\t${url}\t${decided}${read}\n`;
    if (interleaving !== undefined) out += `\t${colour('yellow', `note: ${interleavingText(interleaving, rule === null ? 'the verdict' : 'the rule')}`)}\n`;
    if (usage.rules.length > 0) out += `\tcontent-usage: ${pairsText(usage.usage) || 'none known'}\t${usage.rules.map((r) => `${[r.path, r.value].filter((t) => t !== '').join(' ')} (line ${r.line})`).join('; ')}\n`;
  }
  await write(out);
  return 0;
}

/** The line of the group, of those starting at `groupLines` (ascending), that holds the line `line`. */
function groupOfLine(groupLines: readonly number[], line: number): number | undefined {
  let group: number | undefined;
  for (const start of groupLines) if (start <= line) group = start;
  return group;
}
