// The costs behind the linear budget (`npm run bench -- linear [--corpus DIR]...`): for each
// host file of the frontier group, what a check costs from its linear table and from its full
// table, and what making each costs; beside them, how many checks the budget of src/matcher.ts
// lets a matcher make linear, and how many the measured costs say repay the full compile. The
// two should be of one order: when a kernel change moves the costs, this says whether the
// budget's constants still hold. It uses the library's sources (not the package), for the
// budget's functions.

import { RobotsTxt } from '../src/index.js';
import { compiledRule, linearBudget, linearWorkLeft } from '../src/matcher.js';
import { buildFrontier, defaultHostDirs, FRONTIER_AGENTS, loadHostFiles } from './frontier-inputs.js';
import { median, timeMs } from './measure.js';
import { printTable } from './report.js';

/** URLs each host's matcher checks, at most (fewer where the budget stops a linear matcher sooner). */
const CHECKS = 32;
/** Timings of each measurement of a host, of LOOPS calls each; the median is kept. */
const REPEATS = 7;
const LOOPS = 10;
/** Rule-count buckets of the table: [from, to). A matcher without rules answers without a table: left out. */
const BUCKETS: [number, number][] = [[1, 7], [7, 16], [16, 32], [32, 64], [64, 128], [128, Infinity]];

/** One host's figures. */
interface HostCost {
  rules: number;
  /** Whether a rule has a '*' in its first three bytes (it counts as more rules tried). */
  early: boolean;
  /** ns a URL from the linear and from the full table. */
  linearCheck: number;
  fullCheck: number;
  /** µs to make each table. */
  linearMake: number;
  fullMake: number;
  /** Checks the budget lets the matcher make linear. */
  budgetChecks: number;
}

/** µs one call of `run` takes: the median of REPEATS timings of LOOPS calls. */
function perCall(run: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    times.push((timeMs(() => {
      for (let j = 0; j < LOOPS; j++) run();
    }) * 1e3) / LOOPS);
  }
  return median(times);
}

/** One host's costs, or undefined when it has no URLs for the agent or no rules. */
function hostCost(body: string, urls: readonly string[]): HostCost | undefined {
  if (urls.length === 0) return undefined;
  const agent = FRONTIER_AGENTS[0];
  const robots = RobotsTxt.parse(body);
  let matcher = robots.matcher(agent);
  const rules = matcher.ruleCount;
  if (rules === 0) return undefined;
  let early = false;
  for (let r = 0; r < rules && !early; r++) early = compiledRule(matcher, r).pattern.slice(0, 3).includes('*');
  const budgetChecks = checksAllowed(robots, agent, urls.slice(0, CHECKS), linearBudget(rules));
  // Few enough that a fresh matcher checks them all from its linear table.
  const checked = urls.slice(0, Math.max(1, Math.min(CHECKS, budgetChecks - 1)));
  const fresh = () => {
    matcher.dispose();
    matcher = robots.matcher(agent);
  };
  // Each figure is a difference: what a fresh matcher costs is in both sides.
  const made = perCall(fresh);
  const linearMade = perCall(() => {
    fresh();
    void matcher.byteLength;
  });
  const linearChecked = perCall(() => {
    fresh();
    matcher.checkMany(checked);
  });
  const fullMade = perCall(() => {
    fresh();
    matcher.toBytes();
  });
  const fullChecked = perCall(() => {
    fresh();
    matcher.toBytes();
    matcher.checkMany(checked);
  });
  robots.dispose();
  return {
    rules, early, budgetChecks,
    linearCheck: ((linearChecked - linearMade) * 1e3) / checked.length,
    fullCheck: ((fullChecked - fullMade) * 1e3) / checked.length,
    linearMake: linearMade - made,
    fullMake: fullMade - made,
  };
}

/**
 * Checks of `urls`' kind the budget lets a matcher make linear: the budget over the linear work
 * a check costs, as the kernel counts it, on average over `urls` (each on a fresh matcher).
 */
function checksAllowed(robots: RobotsTxt, agent: string, urls: readonly string[], budget: number): number {
  let work = 0;
  for (const url of urls) {
    const matcher = robots.matcher(agent);
    matcher.isAllowed(url);
    const left = linearWorkLeft(matcher);
    work += left === Infinity ? budget : budget - left;
    matcher.dispose();
  }
  return work === 0 ? Infinity : Math.floor((budget * urls.length) / work);
}

/** A table row of the hosts of one bucket: medians of their figures. */
function bucketRow(label: string, hosts: HostCost[]): string[] {
  const m = (f: (h: HostCost) => number) => median(hosts.map(f));
  const extra = m((h) => h.linearCheck - h.fullCheck);
  // The full compile is repaid by what the linear checks cost beyond full ones.
  const repay = m((h) => (h.fullMake * 1e3) / Math.max(h.linearCheck - h.fullCheck, 0.5));
  const budget = m((h) => h.budgetChecks);
  return [label, String(hosts.length), m((h) => h.linearCheck).toFixed(0), m((h) => h.fullCheck).toFixed(0), extra.toFixed(1),
    m((h) => h.linearMake).toFixed(2), m((h) => h.fullMake).toFixed(2), repay >= 1e5 ? 'never' : repay.toFixed(0), budget === Infinity ? 'never' : budget.toFixed(0)];
}

/** Runs the group over the default hosts and the `corpus` directories, and prints its table. */
export function runLinearCostGroup(corpus: readonly string[]): void {
  const dirs = [...defaultHostDirs(), ...corpus];
  // The same share each: CHECKS URLs per host for each agent.
  const hosts = buildFrontier(dirs, { name: 'linear', count: FRONTIER_AGENTS.length * CHECKS * loadHostFiles(dirs).length, exponent: 0 }, 31);
  const costs: HostCost[] = [];
  for (const host of hosts) {
    const cost = hostCost(host.body, host.urls[0]);
    if (cost !== undefined) costs.push(cost);
  }
  const rows: string[][] = [];
  for (const [from, to] of BUCKETS) {
    const inBucket = costs.filter((h) => h.rules >= from && h.rules < to);
    const label = to === Infinity ? `${from}+` : to === from + 1 ? String(from) : `${from}-${to - 1}`;
    for (const [kind, hostsOfKind] of [['', inBucket.filter((h) => !h.early)], [', early *', inBucket.filter((h) => h.early)]] as const) {
      if (hostsOfKind.length > 0) rows.push(bucketRow(label + kind, hostsOfKind));
    }
  }
  printTable(`Linear or full table: ${costs.length.toLocaleString('en')} host files with rules for the agent, up to ${CHECKS} URLs each (medians over the hosts)`,
    ['rules', 'hosts', 'linear ns/URL', 'full ns/URL', 'extra ns/URL', 'linear make µs', 'full make µs', 'checks that repay the full make', 'checks the budget allows'], rows);
}
