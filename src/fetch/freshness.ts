// How long a fetched robots.txt may be used: HTTP caching (RFC 9111 4.2.1) under the
// 24-hour cap of RFC 9309 2.4.

/** RFC 9309 2.4: a cached robots.txt SHOULD NOT be used for more than 24 hours. */
export const MAX_TTL_MS = 86_400_000;

/** The response headers freshness depends on. */
export interface FreshnessHeaders {
  get(name: string): string | null;
}

/** Directives of a Cache-Control header, lowercase names, values unquoted. */
function cacheControl(value: string | null): Map<string, string> {
  const directives = new Map<string, string>();
  if (value === null) return directives;
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    const name = (eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase();
    if (name === '') continue;
    const raw = eq < 0 ? '' : part.slice(eq + 1).trim();
    // The first occurrence of a directive wins (RFC 9111 4.2.1: duplicates are invalid).
    if (!directives.has(name)) directives.set(name, raw.replace(/^"(.*)"$/, '$1'));
  }
  return directives;
}

function seconds(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  return Number(value) * 1000;
}

/**
 * Milliseconds the response stays fresh from the moment it was received, by its own headers:
 * `s-maxage`, then `max-age`, then `Expires` minus `Date` (or minus `now`), less `Age`;
 * `no-store` and `no-cache` give 0 (the next use revalidates). Undefined when no header says.
 */
export function explicitFreshnessMs(headers: FreshnessHeaders, now: number): number | undefined {
  const directives = cacheControl(headers.get('cache-control'));
  let lifetime: number | undefined;
  if (directives.has('no-store') || directives.has('no-cache')) lifetime = 0;
  lifetime ??= seconds(directives.get('s-maxage')) ?? seconds(directives.get('max-age'));
  if (lifetime === undefined) {
    const expires = headers.get('expires');
    if (expires === null) return undefined;
    // An invalid Expires (such as "0") means already expired (RFC 9111 5.3).
    const at = Date.parse(expires);
    const date = Date.parse(headers.get('date') ?? '');
    lifetime = Number.isNaN(at) ? 0 : Math.max(0, at - (Number.isNaN(date) ? now : date));
  }
  const age = seconds(headers.get('age')?.trim()) ?? 0;
  return Math.max(0, lifetime - age);
}

/** explicitFreshnessMs, or `fallbackMs` when the headers say nothing; never more than `capMs`. */
export function freshnessMs(headers: FreshnessHeaders, now: number, fallbackMs: number, capMs: number): number {
  return Math.min(capMs, explicitFreshnessMs(headers, now) ?? fallbackMs);
}
