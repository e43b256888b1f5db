// Retry-After (RFC 9110 10.2.3): delta-seconds or an HTTP-date. The header comes from the
// server being crawled, so it is untrusted: anything that is not plainly one of the two forms
// (a negative or decimal number, NaN, a date of another shape, a day that does not exist)
// reads as absent, and nothing here throws. Both the fetch of robots.txt (an unreachable
// answer's next attempt) and the Pacer (a pause) read it, so it sits below both.

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`. */
const IMF_FIXDATE = /^[a-z]{3}, (\d{2}) ([a-z]{3}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/i;
/** The obsolete RFC 850 form: `Sunday, 06-Nov-94 08:49:37 GMT`. */
const RFC850_DATE = /^[a-z]{6,9}, (\d{2})-([a-z]{3})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/i;
/** The obsolete asctime form: `Sun Nov  6 08:49:37 1994`. */
const ASCTIME_DATE = /^[a-z]{3} ([a-z]{3}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/i;

/** Ms since the epoch of a UTC date and time, or undefined when it names no real moment (Feb 30, 25:00). */
function utc(year: number, monthName: string, day: number, hours: number, minutes: number, seconds: number): number | undefined {
  const month = MONTHS.indexOf(monthName.toLowerCase());
  if (month < 0 || hours > 23 || minutes > 59 || seconds > 60) return undefined;
  const time = Date.UTC(year, month, day, hours, minutes, Math.min(seconds, 59));
  // Date.UTC rolls an impossible day over into the next month: such a date is garbage.
  return new Date(time).getUTCDate() === day ? time : undefined;
}

/** An HTTP-date's ms since the epoch, or undefined when `value` is not one of RFC 9110's three forms. */
export function parseHttpDate(value: string): number | undefined {
  let m = IMF_FIXDATE.exec(value);
  if (m !== null) return utc(Number(m[3]), m[2], Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6]));
  m = RFC850_DATE.exec(value);
  if (m !== null) {
    // RFC 9110 5.6.7: a two-digit year more than 50 years ahead is in the past century.
    const yy = Number(m[3]);
    const thisYear = new Date().getUTCFullYear();
    let year = Math.floor(thisYear / 100) * 100 + yy;
    if (year > thisYear + 50) year -= 100;
    return utc(year, m[2], Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6]));
  }
  m = ASCTIME_DATE.exec(value);
  if (m !== null) return utc(Number(m[6]), m[1], Number(m[2].trim()), Number(m[3]), Number(m[4]), Number(m[5]));
  return undefined;
}

/**
 * How long a Retry-After value asks to wait from `now`, in ms: delta-seconds (`120`) or an
 * HTTP-date (0 once it is past). Undefined for anything else; a huge delay is returned as
 * Number.MAX_SAFE_INTEGER at most, for the caller to cap.
 */
export function retryAfterMs(value: string, now: number): number | undefined {
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, Number.MAX_SAFE_INTEGER);
  const at = parseHttpDate(text);
  return at === undefined ? undefined : Math.max(0, at - now);
}

/**
 * The value of header `name` (lowercase) in `headers`, or undefined; never throws, whatever
 * `headers` is. Typed by shape rather than as HeadersInput, which lives in a higher layer.
 */
export function headerValue(headers: Headers | Readonly<Record<string, unknown>> | undefined, name: string): string | undefined {
  if (headers === null || typeof headers !== 'object') return undefined;
  if (typeof Headers !== 'undefined' && headers instanceof Headers) return headers.get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    // A repeated Retry-After is a server's mistake: the first value is as good a reading as any.
    const first: unknown = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') return first;
  }
  return undefined;
}
