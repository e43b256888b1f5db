// The libraries measured side by side, behind one interface: parse a body for one agent,
// then answer for full URLs.

import { createRequire } from 'node:module';
import type robotsTxtGuardType from 'robots-txt-guard';
import type robotsTxtParserType from 'robots-txt-parser';
import { RobotsTxt } from 'robots-wasm';
import { ReferenceRobots } from '../test/oracle/reference.js';
import { ORIGIN } from './inputs.js';

// The peers are CommonJS modules whose module.exports is the function itself.
const require = createRequire(import.meta.url);
interface RobotsParserResult {
  isAllowed(url: string, agent?: string): boolean | undefined;
}
const robotsParser = require('robots-parser') as (url: string, body: string) => RobotsParserResult;
const robotsTxtGuard = require('robots-txt-guard') as typeof robotsTxtGuardType;
const robotsTxtParser = require('robots-txt-parser') as typeof robotsTxtParserType;

export interface PeerChecker {
  isAllowed(url: string): boolean;
}

/** robots-parser for one origin's robots.txt: it answers only for URLs on that origin. */
export function robotsParserFor(origin: string, body: string, agent: string): PeerChecker {
  const robots = robotsParser(`${origin}/robots.txt`, body);
  return { isAllowed: (url) => robots.isAllowed(url, agent) !== false };
}

export interface Peer {
  name: string;
  /** What the peer is, for the report. */
  note: string;
  /** Parses a body; undefined when the peer has no parser of its own (parse time not measured). */
  parse(body: string, agent: string): PeerChecker;
  measuresParse: boolean;
}

export const PEERS: Peer[] = [
  {
    name: 'robots-parser',
    note: 'robots-parser 3.0.1 (used by crawlee and lighthouse)',
    measuresParse: true,
    parse(body, agent) {
      return robotsParserFor(ORIGIN, body, agent);
    },
  },
  {
    name: 'robots-txt-parser',
    note: 'robots-txt-parser 2.0.3 (fast-url-parser + RegExp per rule)',
    measuresParse: true,
    parse(body, agent) {
      const robots = robotsTxtParser({ userAgent: agent, allowOnNeutral: true });
      robots.parseRobots(ORIGIN, body);
      return { isAllowed: (url) => robots.canCrawlSync(url) };
    },
  },
  {
    name: 'robots-txt-guard',
    note: 'robots-txt-guard 1.0.2 (no parser of its own: fed our parsed groups; given paths, not URLs)',
    measuresParse: false,
    parse(body, agent) {
      const parsed = RobotsTxt.parse(body, { maxBytes: Infinity });
      const guard = robotsTxtGuard({
        groups: parsed.groups.map((g) => ({
          agents: g.global ? ['*', ...g.agents] : [...g.agents],
          rules: g.rules.map((r) => ({ rule: r.kind, path: r.pattern })),
        })),
      });
      return { isAllowed: (path) => guard.isAllowed(agent, path) };
    },
  },
  {
    name: 'reference (JS)',
    note: "Google's algorithm in plain JS, position sets, parsed once (test/oracle)",
    measuresParse: true,
    parse(body, agent) {
      return new ReferenceRobots(body, agent, 'google', Infinity);
    },
  },
];
