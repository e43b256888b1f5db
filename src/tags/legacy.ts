// The legacy rule syntax that X-Robots-Tag headers and robots meta tags use today:
//   noindex, nofollow                           rules for everyone
//   googlebot: noindex, nosnippet               an agent prefix: the rules after it, up to the
//                                               next prefix, are that agent's
//   max-snippet: 20, max-image-preview: large   valued rules ("name: value")
//   unavailable_after: Friday, 25-Jun-10 15:00:00 PST
// A "name: value" part is a valued rule when `name` is one (max-snippet, max-video-preview,
// max-image-preview, unavailable_after), else an agent prefix when agent prefixes are allowed
// (headers; in a meta tag the name attribute says the agent). RFC 822 and RFC 850 dates hold
// a comma after the weekday: a weekday alone before a comma is joined with the next part.

import { agentKey, isWeekday, putRule, rulesOf, type RuleMap } from './rules.js';

const VALUED = new Set(['max-snippet', 'max-video-preview', 'max-image-preview', 'unavailable_after']);

function isAgentName(name: string): boolean {
  return name === '*' || /^[a-z0-9_-]+$/.test(name);
}

/**
 * Reads a legacy value into `byAgent` (rules of `agent` at first; with `prefixes`, an agent
 * prefix changes the agent for the parts after it).
 */
export function readLegacy(value: string, byAgent: Map<string, RuleMap>, agent: string, prefixes: boolean): void {
  const parts = value.split(',');
  let rules = rulesOf(byAgent, agent);
  for (let i = 0; i < parts.length; i++) {
    let part = parts[i].trim();
    // "googlebot: noindex" reads the prefix, then "noindex" as a part of its own.
    for (;;) {
      const colon = part.indexOf(':');
      if (colon < 0) {
        putRule(rules, part, true);
        break;
      }
      const name = part.slice(0, colon).trim().toLowerCase();
      let rest = part.slice(colon + 1).trim();
      if (VALUED.has(name) || !prefixes || !isAgentName(name)) {
        if (name === 'unavailable_after' && isWeekday(rest) && i + 1 < parts.length) rest = `${rest}, ${parts[++i].trim()}`;
        putRule(rules, name, rest === '' ? true : rest);
        break;
      }
      const key = agentKey(name);
      rules = rulesOf(byAgent, key === '' ? name : key);
      part = rest;
      if (part === '') break;
    }
  }
}
