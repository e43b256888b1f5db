// RobotsTxt: a parsed robots.txt file, and the questions a crawler asks of it.

import { requireString } from './args.js';
import { compiledRules } from './compile/table.js';
import { RESULT_NO_MATCH, RESULT_ROBOTS_TXT } from './wasm/abi.js';
import { compiledRule, decide, heldTableBytes, matcherOf, withReading, type Explanation, type Matcher } from './matcher.js';
import { lastDecidingReading } from './url/path.js';
import { agentKey } from './robots/agent.js';
import { prepareBody, type PreparedBody, type RobotsBody } from './robots/body.js';
import { buildGroups, groupsRoom } from './robots/groups.js';
import { GROUP_LINE } from './robots/layout.js';
import { pacingOf, type Pacing } from './robots/pacing.js';
import { resolveParseOptions, type Mode, type ParseOptions } from './robots/options.js';
import type { UsagePreferences } from './fields/usage.js';
import { DIRECTIVES } from './robots/parse.js';
import {
  agentIndex, agentTokens, DIRECTIVE_LICENSE, extensionRecord, groupCrawlDelay, groupRecords, groupsFor, groupWord, hostTexts, licenseUrls,
  recordCount, ruleAllows, ruleLine, ruleOnLine, ruleText, sitemapUrls, structureBytes, wantsAgentIndex, type AgentIndex, type RobotsStructure,
} from './robots/structure.js';
import { contentSignals, ContentUsageRules, type ContentSignals, type ContentUsageRule } from './usage-rules.js';

export type { ContentSignals, ContentUsageRule, Pacing };
export type { RequestRate, TimeWindow } from './robots/pacing.js';

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

/** A record of the file other than user-agent, allow and disallow (RFC 9309 2.2.4's "other records"), as written. */
export interface RobotsRecord {
  /** The key as written (`Crawl-Delay`). */
  key: string;
  /** The directive's name when the package knows it (`crawl-delay`, also for a misspelling it accepts), else the key lowercased. */
  name: string;
  /** The value as written (trimmed, comment removed). */
  value: string;
  line: number;
  /**
   * Line of the first user-agent line of the group it is in; undefined when it is in none:
   * before the first user-agent line, or a record of the whole file (`License:`) wherever it stands.
   */
  group: number | undefined;
}

/** The AI usage preferences for a URL, and the Content-Usage rules they come from. */
export interface ContentUsageExplanation {
  /** May the agent fetch the URL? Preferences apply only to URLs it may (attach 3.1). */
  allowed: boolean;
  /** The preferences (combined when several rules have the deciding path); {} when none apply. */
  usage: UsagePreferences;
  /** The deciding rules: the longest matching path's, else those without a path; none when no rule applies. */
  rules: ContentUsageRule[];
}

/** Which groups applied to an agent, and why. */
export interface GroupSelection {
  /** `specific`: groups naming the agent (merged); `global`: the `*` groups; `none`: no group applies. */
  source: 'specific' | 'global' | 'none';
  /** 1-based lines of the user-agent line that opens each applying group. */
  lines: number[];
}

/** The parts of a RobotsTxt that most files never need (RobotsTxt.#rare). */
interface RareState {
  /** The groups by agent token, for a file with many (see wantsAgentIndex) asked about more than SCANS_BEFORE_INDEX agents. */
  agentIndex?: AgentIndex;
  /** Agent lookups made by scanning the tokens, before agentIndex was built. */
  agentLookups?: number;
  /** The matchers of agents that groups name, by agent key. */
  namedMatchers?: Map<string, Matcher>;
  groups?: readonly GroupInfo[];
  sitemaps?: readonly string[];
  licenses?: readonly string[];
  /** The Content-Usage rules of each set of groups asked about, by the groups' numbers. */
  usageRules?: Map<string, ContentUsageRules>;
}

/** Lookups of agents a file with many agent tokens answers by scanning them, before it builds an AgentIndex. */
const SCANS_BEFORE_INDEX = 4;

/** Directive names by directive id. */
const DIRECTIVE_NAMES = new Map(DIRECTIVES.map(({ id, name }) => [id, name]));

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
  /** The matcher of every agent that no group names: the `*` groups' rules. */
  #globalMatcher: Matcher | undefined;
  /** The agent string last asked for and its matcher: a crawler asks with one agent, URL after URL. */
  #lastAgent: string | undefined;
  #lastMatcher: Matcher | undefined;
  /** What few uses need, made on the first: a cache keeps a file per host, most never need it. */
  #rare: RareState | undefined;

  private constructor({ bytes, truncated }: PreparedBody, mode: Mode) {
    this.mode = mode;
    this.truncated = truncated;
    this.parsedBytes = bytes.length;
    this.#structure = buildGroups(bytes, mode);
  }

  /** Sitemap URLs (absolute, as written, first occurrence of each), in file order. */
  get sitemaps(): readonly string[] {
    const rare = (this.#rare ??= {});
    rare.sitemaps ??= Object.freeze(sitemapUrls(this.#structure));
    return rare.sitemaps;
  }

  /**
   * The license URLs of the `License:` lines (RSL 1.0: absolute, as written, first occurrence of
   * each), in file order. A License line is of the whole file, for every agent, wherever it
   * stands: before the first group or inside one.
   * @example
   * import { RobotsTxt } from 'robots-wasm';
   * const robots = RobotsTxt.parse('User-agent: GPTBot\nDisallow: /\nLicense: https://example.com/license.xml\n');
   * console.log(robots.licenses.join()); // → https://example.com/license.xml
   */
  get licenses(): readonly string[] {
    const rare = (this.#rare ??= {});
    rare.licenses ??= Object.freeze(licenseUrls(this.#structure));
    return rare.licenses;
  }

  /**
   * Values of the `Host:` records (Yandex's preferred host, which RFC 9309 does not define), as
   * written, in file order: no verdict depends on them.
   */
  get hosts(): readonly string[] {
    return Object.freeze(hostTexts(this.#structure));
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
    return new RobotsTxt(prepareBody(body, resolved, groupsRoom), resolved.mode);
  }

  /** The groups of the file, in file order (decoded on first use). */
  get groups(): readonly GroupInfo[] {
    const s = this.#structure;
    const rare = (this.#rare ??= {});
    rare.groups ??= Object.freeze(
      groupRecords(s).map((group) => {
        const rules: RuleInfo[] = [];
        for (let r = group.ruleStart; r < group.ruleEnd; r++) {
          rules.push({ kind: ruleAllows(s, r) ? 'allow' : 'disallow', pattern: ruleText(s, r), line: ruleLine(s, r) });
        }
        return Object.freeze({ agents: Object.freeze(group.agents), global: group.global, line: group.line, rules: Object.freeze(rules), crawlDelay: group.crawlDelay });
      }),
    );
    return rare.groups;
  }

  /** Product tokens named by any group, lowercased, in file order. */
  get agents(): readonly string[] {
    return agentTokens(this.#structure);
  }

  #groupsFor(agent: string): { groups: number[]; specific: boolean } {
    const s = this.#structure;
    if (!wantsAgentIndex(s)) return groupsFor(s, agent, this.mode);
    const rare = (this.#rare ??= {});
    // A crawler asks a file for one or two agents: scans cost less than the index, which pays
    // off only for a file asked about many.
    if (rare.agentIndex === undefined && (rare.agentLookups = (rare.agentLookups ?? 0) + 1) <= SCANS_BEFORE_INDEX) return groupsFor(s, agent, this.mode);
    rare.agentIndex ??= agentIndex(s);
    return groupsFor(s, agent, this.mode, rare.agentIndex);
  }

  /** Which groups apply to `agent`. */
  selectGroups(agent: string): GroupSelection {
    requireString(agent, 'agent');
    const { groups, specific } = this.#groupsFor(agent);
    const source = groups.length === 0 ? 'none' : specific ? 'specific' : 'global';
    return { source, lines: groups.map((g) => groupWord(this.#structure, g, GROUP_LINE)) };
  }

  /**
   * The agent's merged group compiled into a table (cached: agents with the same groups get
   * the same matcher until it is disposed).
   */
  matcher(agent: string): Matcher {
    const last = this.#lastMatcher;
    if (agent === this.#lastAgent && last !== undefined && !last.disposed) return last;
    requireString(agent, 'agent');
    const { groups, specific } = this.#groupsFor(agent);
    let matcher: Matcher;
    if (specific) {
      const key = agentKey(agent, this.mode)!;
      const named = ((this.#rare ??= {}).namedMatchers ??= new Map());
      matcher = named.get(key) ?? this.#compile(groups);
      if (matcher.disposed) matcher = this.#compile(groups);
      named.set(key, matcher);
    } else {
      const global = this.#globalMatcher;
      matcher = global !== undefined && !global.disposed ? global : this.#compile(groups);
      this.#globalMatcher = matcher;
    }
    this.#lastAgent = agent;
    this.#lastMatcher = matcher;
    return matcher;
  }

  #compile(groups: readonly number[]): Matcher {
    return matcherOf(compiledRules(this.#structure, groups, this.mode));
  }

  /** May `agent` fetch `url` (a full URL or a path)? */
  isAllowed(url: string, agent: string): boolean {
    return this.matcher(agent).isAllowed(url);
  }

  /** The verdict for `url` and the rule of this file that decided it, with its line. */
  explain(url: string, agent: string): Explanation {
    const matcher = this.matcher(agent);
    const r = decide(matcher, url);
    const reading = lastDecidingReading(url, this.mode);
    if (r === RESULT_NO_MATCH || r === RESULT_ROBOTS_TXT) return withReading({ allowed: true, rule: null }, reading);
    const compiled = compiledRule(matcher, r);
    // A derived rule (google mode's index.htm-as-directory) was written by the kernel, not the file.
    const pattern = compiled.derived ? compiled.pattern : ruleText(this.#structure, ruleOnLine(this.#structure, compiled.line));
    return withReading({ allowed: compiled.allow, rule: { kind: compiled.allow ? 'allow' : 'disallow', pattern, line: compiled.line } }, reading);
  }

  /**
   * The records other than user-agent, allow and disallow (extensions such as Crawl-delay,
   * Sitemap, Host, Clean-param, Request-rate, Content-Signal, License, and any other
   * `key: value` line whose key is a token), in file order: of the whole file, or with
   * `agent`, of the groups that apply to it (as for its rules) and those of the whole file
   * (`License:`) wherever they stand.
   */
  records(agent?: string): RobotsRecord[] {
    const s = this.#structure;
    let groups: Set<number> | undefined;
    if (agent !== undefined) {
      requireString(agent, 'agent');
      groups = new Set(this.#groupsFor(agent).groups);
    }
    const records: RobotsRecord[] = [];
    for (let r = 0; r < recordCount(s); r++) {
      const { key, value, line, directive, group } = extensionRecord(s, r);
      const fileWide = directive === DIRECTIVE_LICENSE;
      if (groups !== undefined && !fileWide && !groups.has(group)) continue;
      const name = DIRECTIVE_NAMES.get(directive) ?? key.toLowerCase();
      records.push({ key, name, value, line, group: group < 0 || fileWide ? undefined : groupWord(s, group, GROUP_LINE) });
    }
    return records;
  }

  /**
   * The AI usage preferences (draft-ietf-aipref-attach 3) that the agent's Content-Usage rules
   * state for `url`: {} when none apply, or when the agent may not fetch it.
   */
  contentUsage(url: string, agent: string): UsagePreferences {
    return this.explainContentUsage(url, agent).usage;
  }

  /** contentUsage, with the verdict and the deciding Content-Usage rules (line, path, statement). */
  explainContentUsage(url: string, agent: string): ContentUsageExplanation {
    requireString(url, 'url');
    if (!this.isAllowed(url, agent)) return { allowed: false, usage: {}, rules: [] };
    const { groups } = this.#groupsFor(agent);
    const cache = ((this.#rare ??= {}).usageRules ??= new Map());
    const key = groups.join(',');
    let rules = cache.get(key);
    if (rules === undefined) cache.set(key, (rules = new ContentUsageRules(this.#structure, groups)));
    return { allowed: true, ...rules.explain(url) };
  }

  /**
   * The Content-Signal values (Cloudflare's `search=yes, ai-train=no`, `use=reference`) of the
   * agent's groups, by lowercased key; {} when there are none. Known keys are typed (`search`,
   * `ai-input`, `ai-train`: yes or no; `use`: immediate, reference or full), a value they do
   * not take skipped; other keys keep their values as written. Several lines merge in file
   * order, a key given again taking its later value; lines before the first user-agent line
   * belong to no group and are not read.
   * @example
   * import { RobotsTxt } from 'robots-wasm';
   * const robots = RobotsTxt.parse('User-agent: *\nContent-Signal: search=yes, ai-train=No, use=reference, ai-later=maybe\nAllow: /\n');
   * console.log(JSON.stringify(robots.contentSignal('ExampleBot'))); // → {"search":"yes","ai-train":"no","use":"reference","ai-later":"maybe"}
   */
  contentSignal(agent: string): ContentSignals {
    requireString(agent, 'agent');
    return contentSignals(this.#structure, this.#groupsFor(agent).groups);
  }

  /** Crawl-delay in seconds from the agent's group (or the `*` group when none names it), if given. */
  crawlDelay(agent: string): number | undefined {
    requireString(agent, 'agent');
    for (const g of this.#groupsFor(agent).groups) {
      const delay = groupCrawlDelay(this.#structure, g);
      if (delay !== undefined) return delay;
    }
    return undefined;
  }

  /**
   * What the file asks of the agent's pace, from the groups that apply to it (as for its
   * rules): its crawl-delay in ms, its first valid Request-rate, its valid Visit-time windows,
   * and `delayMs`, the least spacing between requests they ask. Invalid values read as absent.
   */
  pacing(agent: string): Pacing {
    return pacingOf(this.crawlDelay(agent), this.records(agent));
  }

  /** Calls `visit` with each matcher this file compiled, Content-Usage paths' included. */
  #forEachMatcher(visit: (matcher: Matcher) => void): void {
    if (this.#globalMatcher !== undefined) visit(this.#globalMatcher);
    this.#rare?.namedMatchers?.forEach(visit);
    this.#rare?.usageRules?.forEach((rules) => rules.matcher !== undefined && visit(rules.matcher));
  }

  static {
    retained = (robots) => {
      let tables = 0;
      robots.#forEachMatcher((matcher) => (tables += heldTableBytes(matcher)));
      return structureBytes(robots.#structure) + tables;
    };
  }

  /** Frees the tables of every matcher this file compiled. */
  dispose(): void {
    this.#forEachMatcher((matcher) => matcher.dispose());
    if (this.#rare !== undefined) {
      this.#rare.namedMatchers = undefined;
      this.#rare.usageRules = undefined;
    }
    this.#globalMatcher = undefined;
    this.#lastAgent = undefined;
    this.#lastMatcher = undefined;
  }
}

/**
 * Internal (RobotsCache's byte budget): about how many bytes a parsed file holds, its compiled
 * tables included: the packed structure and the tables.
 */
export function retainedBytes(robots: RobotsTxt): number {
  return retained(robots);
}
