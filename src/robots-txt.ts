// RobotsTxt: a parsed robots.txt file, and the questions a crawler asks of it.

import { requireString } from './args.js';
import { compiledRules } from './compile/table.js';
import { RESULT_NO_MATCH, RESULT_ROBOTS_TXT } from './wasm/abi.js';
import { compiledRule, decide, matcherOf, type Explanation, type Matcher } from './matcher.js';
import { agentKey } from './robots/agent.js';
import { prepareBody, type PreparedBody, type RobotsBody } from './robots/body.js';
import { buildGroups, groupsFor, sitemapUrls, valueText, valueTexts, type RobotsStructure, type RuleRecord } from './robots/groups.js';
import { resolveParseOptions, type Mode, type ParseOptions } from './robots/options.js';
import { LINE_READER_ROOM } from './robots/parse.js';

/** What a rule's and a group's records cost in the JS heap, about (RobotsTxt.retainedBytes). */
const RULE_RECORD_BYTES = 64;
const GROUP_RECORD_BYTES = 160;

/** A rule as written in the file. */
export interface RuleInfo {
  kind: 'allow' | 'disallow';
  /** The pattern as written (whitespace-trimmed, comment removed). */
  pattern: string;
  line: number;
}

/** A group as written in the file. */
export interface GroupInfo {
  /** Product tokens of its user-agent lines, lowercased (`*` lines set `global` instead). */
  agents: readonly string[];
  /** A `user-agent: *` line names it. */
  global: boolean;
  /** Line of its first user-agent line. */
  line: number;
  rules: readonly RuleInfo[];
  /** Its first valid crawl-delay, in seconds. */
  crawlDelay: number | undefined;
}

/** Which groups applied to an agent, and why. */
export interface GroupSelection {
  /** `specific`: groups naming the agent (merged); `global`: the `*` groups; `none`: no group applies. */
  source: 'specific' | 'global' | 'none';
  /** 1-based lines of the user-agent line that opens each applying group. */
  lines: number[];
}

/** retainedBytes, set by RobotsTxt's static block, which alone sees its private members. */
let retained: (robots: RobotsTxt) => number;

/** A parsed robots.txt file: verdicts, explanations, matchers, sitemaps and crawl-delay per agent. */
export class RobotsTxt {
  /** The semantics this file was parsed with. */
  readonly mode: Mode;
  /** True when the body was longer than maxBytes and its tail was ignored. */
  readonly truncated: boolean;
  /** Bytes that were parsed. */
  readonly parsedBytes: number;
  readonly #structure: RobotsStructure;
  readonly #matchers = new Map<string, Matcher>();
  /** The agent string last asked for and its matcher: a crawler asks with one agent, URL after URL. */
  #lastAgent: string | undefined;
  #lastMatcher: Matcher | undefined;
  #groups: readonly GroupInfo[] | undefined;
  #sitemaps: readonly string[] | undefined;

  private constructor({ bytes, truncated }: PreparedBody, mode: Mode) {
    this.mode = mode;
    this.truncated = truncated;
    this.parsedBytes = bytes.length;
    this.#structure = buildGroups(bytes, mode);
  }

  /** Sitemap URLs (absolute, as written, first occurrence of each), in file order. */
  get sitemaps(): readonly string[] {
    this.#sitemaps ??= Object.freeze(sitemapUrls(this.#structure.values, this.#structure.sitemapRanges));
    return this.#sitemaps;
  }

  /**
   * Values of the `Host:` records (Yandex's preferred host, which RFC 9309 does not define), as
   * written, in file order: no verdict depends on them.
   */
  get hosts(): readonly string[] {
    const { values, hostRanges } = this.#structure;
    return Object.freeze(valueTexts(values, hostRanges));
  }

  /**
   * Parses a robots.txt body. Never throws on content: whatever lines can be read are used
   * (RFC 9309 2.3.1.5). Throws a TypeError on misuse (a body that is not text or bytes, an
   * unknown mode, a bad maxBytes).
   */
  static parse(body: RobotsBody, options?: ParseOptions): RobotsTxt {
    const resolved = resolveParseOptions(options);
    // A string body is encoded into the kernel's scratch block with room for the line reader
    // above it, which then reads it where it is.
    return new RobotsTxt(prepareBody(body, resolved, LINE_READER_ROOM), resolved.mode);
  }

  /** The groups of the file, in file order (decoded on first use). */
  get groups(): readonly GroupInfo[] {
    this.#groups ??= Object.freeze(
      this.#structure.groups.map((group) => {
        const rules: RuleInfo[] = [];
        for (let r = group.ruleStart; r < group.ruleEnd; r++) {
          const record = this.#structure.rules[r];
          rules.push({ kind: record.allow ? 'allow' : 'disallow', pattern: this.#written(r), line: record.line });
        }
        return Object.freeze({ agents: Object.freeze([...group.agents]), global: group.global, line: group.line, rules: Object.freeze(rules), crawlDelay: group.crawlDelay });
      }),
    );
    return this.#groups;
  }

  /** Product tokens named by any group, lowercased, in file order. */
  get agents(): readonly string[] {
    return [...this.#structure.agentGroups.keys()];
  }

  /** Index of the rule on `line` (rules are in file order, one per line). */
  #ruleOnLine(line: number): number {
    const rules = this.#structure.rules;
    let lo = 0;
    let hi = rules.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (rules[mid].line < line) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  #written(rule: number): string {
    const record = this.#structure.rules[rule];
    return valueText(this.#structure.values, record.valueStart, record.valueEnd);
  }

  /** Which groups apply to `agent`. */
  selectGroups(agent: string): GroupSelection {
    requireString(agent, 'agent');
    const { groups, specific } = groupsFor(this.#structure, agent, this.mode);
    const source = groups.length === 0 ? 'none' : specific ? 'specific' : 'global';
    return { source, lines: groups.map((g) => this.#structure.groups[g].line) };
  }

  /**
   * The agent's merged group compiled into a table (cached: the same agent gets the same
   * matcher until it is disposed).
   */
  matcher(agent: string): Matcher {
    const last = this.#lastMatcher;
    if (agent === this.#lastAgent && last !== undefined && !last.disposed) return last;
    requireString(agent, 'agent');
    const key = agentKey(agent, this.mode) ?? '*';
    let matcher = this.#matchers.get(key);
    if (matcher === undefined || matcher.disposed) {
      matcher = matcherOf(compiledRules(this.#structure.values, this.#rulesFor(agent), this.mode));
      this.#matchers.set(key, matcher);
    }
    this.#lastAgent = agent;
    this.#lastMatcher = matcher;
    return matcher;
  }

  #rulesFor(agent: string): RuleRecord[] {
    const { groups } = groupsFor(this.#structure, agent, this.mode);
    const rules: RuleRecord[] = [];
    for (const g of groups) {
      const group = this.#structure.groups[g];
      for (let id = group.ruleStart; id < group.ruleEnd; id++) {
        rules.push(this.#structure.rules[id]);
      }
    }
    return rules;
  }

  /** May `agent` fetch `url` (a full URL or a path)? */
  isAllowed(url: string, agent: string): boolean {
    return this.matcher(agent).isAllowed(url);
  }

  /** The verdict for `url` and the rule of this file that decided it, with its line. */
  explain(url: string, agent: string): Explanation {
    const matcher = this.matcher(agent);
    const r = decide(matcher, url);
    if (r === RESULT_NO_MATCH || r === RESULT_ROBOTS_TXT) return { allowed: true, rule: null };
    const compiled = compiledRule(matcher, r);
    // A derived rule (google mode's index.htm-as-directory) was written by the kernel, not the file.
    const pattern = compiled.derived ? compiled.pattern : this.#written(this.#ruleOnLine(compiled.line));
    return { allowed: compiled.allow, rule: { kind: compiled.allow ? 'allow' : 'disallow', pattern, line: compiled.line } };
  }

  /** Crawl-delay in seconds from the agent's group (or the `*` group when none names it), if given. */
  crawlDelay(agent: string): number | undefined {
    requireString(agent, 'agent');
    const { groups } = groupsFor(this.#structure, agent, this.mode);
    for (const g of groups) {
      const delay = this.#structure.groups[g].crawlDelay;
      if (delay !== undefined) return delay;
    }
    return undefined;
  }

  static {
    retained = (robots) => {
      const { values, rules, groups, sitemapRanges, hostRanges } = robots.#structure;
      let tables = 0;
      for (const matcher of robots.#matchers.values()) if (!matcher.disposed) tables += matcher.byteLength;
      return values.length + RULE_RECORD_BYTES * rules.length + GROUP_RECORD_BYTES * groups.length + 8 * (sitemapRanges.length + hostRanges.length) + tables;
    };
  }

  /** Frees the tables of every matcher this file compiled. */
  dispose(): void {
    for (const matcher of this.#matchers.values()) matcher.dispose();
    this.#matchers.clear();
    this.#lastAgent = undefined;
    this.#lastMatcher = undefined;
  }
}

/**
 * Internal (RobotsCache's byte budget): about how many bytes a parsed file holds, its compiled
 * tables included: the kept values, an object per rule and group, the tables.
 */
export function retainedBytes(robots: RobotsTxt): number {
  return retained(robots);
}
