// Pacing records -> what a file asks of a crawler's speed: Crawl-delay, Request-rate and
// Visit-time, read as Yandex, Seznam and protego read them. Values are untrusted: anything that
// is not plainly a positive rate or a real time of day reads as absent, and never throws.

/** The longest delay between requests the file can ask, in ms (a day, as crawlDelay's 86,400 s clamp). */
const MAX_DELAY_MS = 86_400_000;

/** A time window of each day, in minutes since midnight UTC; `end < start` wraps midnight (`2300-0300`). */
export interface TimeWindow {
  start: number;
  end: number;
}

/** A Request-rate: at most `requests` requests per `perMs` milliseconds, within `window` when given. */
export interface RequestRate {
  /** A positive integer. */
  requests: number;
  /** A positive whole number of ms, at least 1 (`1/0.0000001s` is 1 ms, not 0); not clamped, Pacing.delayMs is. */
  perMs: number;
  /** The UTC hours the rate is for (`1/10s 0600-0845`). */
  window?: TimeWindow;
}

/** What a file asks of an agent's pace (RobotsTxt.pacing). */
export interface Pacing {
  /** The first valid Crawl-delay of the agent's groups in ms (rounded, at least 1 when positive, at most 86,400,000: a day). */
  crawlDelayMs: number | undefined;
  /** The first valid Request-rate line of the agent's groups, in file order. */
  requestRate: RequestRate | undefined;
  /** Every valid Visit-time window of the agent's groups, in file order; undefined when none. */
  visitTime: TimeWindow[] | undefined;
  /**
   * The least spacing the file asks between the starts of two requests, in ms: the larger of
   * crawlDelayMs and requestRate's perMs / requests (rounded up, so the rate is never exceeded;
   * its window ignored), at most 86,400,000 (a day); undefined when neither is given.
   */
  delayMs: number | undefined;
}

/** The ms each Request-rate unit stands for. */
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000 };

// No two parts can take the same spaces, so that a line of spaces is read in linear time, not quadratic.
/** `n/m[unit] [HHMM-HHMM]`: integer requests, a decimal period, an optional s, m or h. */
const REQUEST_RATE = /^(\d+)\s*\/\s*(\d+(?:\.\d*)?|\.\d+)(?:\s*([smh]))?(?:\s+(\d{4})\s*-\s*(\d{4}))?$/i;
const VISIT_TIME = /^(\d{4})\s*-\s*(\d{4})$/;

/** Minutes since midnight of `HHMM`, or undefined past 23:59. */
function minutes(hhmm: string): number | undefined {
  const hours = Number(hhmm.slice(0, 2));
  const mins = Number(hhmm.slice(2));
  return hours > 23 || mins > 59 ? undefined : hours * 60 + mins;
}

/** A `HHMM-HHMM` window's minutes, or undefined when either time is not a time of day. */
function timeWindow(from: string, to: string): TimeWindow | undefined {
  const start = minutes(from);
  const end = minutes(to);
  return start === undefined || end === undefined ? undefined : { start, end };
}

/** A `Visit-time` value (`0600-0845`, UTC), or undefined when invalid. */
export function parseVisitTime(value: string): TimeWindow | undefined {
  const m = VISIT_TIME.exec(value.trim());
  return m === null ? undefined : timeWindow(m[1], m[2]);
}

/** A Request-rate value (`1/10s`, `3/1h 0600-0845`), or undefined when invalid. */
export function parseRequestRate(value: string): RequestRate | undefined {
  const m = REQUEST_RATE.exec(value.trim());
  if (m === null) return undefined;
  const requests = Number(m[1]);
  const period = Number(m[2]) * UNIT_MS[(m[3] ?? 's').toLowerCase()];
  // A zero count or period asks nothing; an unbounded one is no number a scheduler can use.
  if (!Number.isSafeInteger(requests) || requests === 0 || !(period > 0) || !Number.isFinite(period)) return undefined;
  const rate: RequestRate = { requests, perMs: Math.max(1, Math.round(period)) };
  if (m[4] === undefined) return rate;
  const window = timeWindow(m[4], m[5]);
  return window === undefined ? undefined : { ...rate, window };
}

/** A Crawl-delay value the parser accepts: a non-negative decimal (assembly/groups.ts's isSeconds). */
export function isCrawlDelay(value: string): boolean {
  return /^(\d+(\.\d*)?|\.\d+)$/.test(value);
}

/** Seconds in ms, rounded; a positive delay stays positive, and a huge one is a day. */
function secondsToMs(seconds: number): number {
  return seconds === 0 ? 0 : Math.min(MAX_DELAY_MS, Math.max(1, Math.round(seconds * 1000)));
}

/** The Pacing of an agent: its crawl-delay (seconds, as crawlDelay gives it) and its groups' records. */
export function pacingOf(crawlDelay: number | undefined, records: readonly { name: string; value: string }[]): Pacing {
  let requestRate: RequestRate | undefined;
  const windows: TimeWindow[] = [];
  for (const { name, value } of records) {
    if (name === 'request-rate') requestRate ??= parseRequestRate(value);
    else if (name === 'visit-time') {
      const window = parseVisitTime(value);
      if (window !== undefined) windows.push(window);
    }
  }
  const crawlDelayMs = crawlDelay === undefined ? undefined : secondsToMs(crawlDelay);
  const rateMs = requestRate === undefined ? undefined : Math.min(MAX_DELAY_MS, Math.ceil(requestRate.perMs / requestRate.requests));
  const spacing = crawlDelayMs === undefined ? rateMs : rateMs === undefined ? crawlDelayMs : Math.max(crawlDelayMs, rateMs);
  return { crawlDelayMs, requestRate, visitTime: windows.length > 0 ? windows : undefined, delayMs: spacing };
}
