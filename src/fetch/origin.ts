// URL -> origin, and origin -> robots.txt URL (RFC 9309 2.3: "scheme:[//authority]/robots.txt").
// The cache asks this for every URL of a frontier, so the common shape ("http(s)://" and a
// lowercase host of letters, digits, dots and dashes, an optional port) is read by hand;
// anything else goes through the WHATWG URL parser, which decides IDNs, userinfo, IPv6,
// percent-escapes and uppercase exactly as fetch() will.

/** An origin and where its robots.txt lives. */
export interface RobotsLocation {
  /** `scheme://host[:port]`, lowercase, default port dropped: the cache key. */
  origin: string;
  /** `origin + '/robots.txt'`. */
  robotsUrl: string;
}

const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' };
const CANONICAL_IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** Bytes of a host the fast path accepts as is: a-z, 0-9, '.', '-'. */
function isPlainHostCode(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2d;
}

function fastOrigin(url: string): string | undefined {
  let start: number;
  let scheme: string;
  if (url.startsWith('https://')) (start = 8), (scheme = 'https:');
  else if (url.startsWith('http://')) (start = 7), (scheme = 'http:');
  else return undefined;
  let i = start;
  while (i < url.length && isPlainHostCode(url.charCodeAt(i))) i++;
  if (i === start || url.charCodeAt(i - 1) === 0x2e) return undefined;
  const hostEnd = i;
  let port = '';
  if (url.charCodeAt(i) === 0x3a) {
    i++;
    const portStart = i;
    while (i < url.length && url.charCodeAt(i) >= 0x30 && url.charCodeAt(i) <= 0x39) i++;
    port = url.slice(portStart, i);
    // Leading zeros, an empty port or one over 65535: leave it to the URL parser.
    if (port.length === 0 || port.length > 5 || port.charCodeAt(0) === 0x30 || Number(port) > 65535) return undefined;
  }
  const next = url.charCodeAt(i);
  // The authority must end here: end of string, '/', '?' or '#'.
  if (i < url.length && next !== 0x2f && next !== 0x3f && next !== 0x23) return undefined;
  const host = url.slice(start, hostEnd);
  // A host whose last label starts with a digit is an IPv4 address ("127.1", "0x7f.1") or
  // invalid: only the canonical dotted quad is taken as is, the URL parser decides the rest.
  const lastLabel = host.charCodeAt(host.lastIndexOf('.') + 1);
  if (lastLabel >= 0x30 && lastLabel <= 0x39 && !CANONICAL_IPV4.test(host)) return undefined;
  // Most URLs spell their origin canonically: then it is a prefix of the URL.
  if (port === '' || port !== DEFAULT_PORT[scheme]) return url.slice(0, i);
  return `${scheme}//${host}`;
}

/**
 * The origin of an absolute http(s) URL (or of an origin string), or undefined when it is
 * not one. `new URL` is used only for URLs of an unusual shape.
 */
export function originOf(url: string): string | undefined {
  const fast = fastOrigin(url);
  if (fast !== undefined) return fast;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  if (parsed.hostname === '') return undefined;
  return parsed.origin;
}

/** The origin of `urlOrOrigin` and its robots.txt URL; a TypeError when it is not an absolute http(s) URL. */
export function robotsLocation(urlOrOrigin: string): RobotsLocation {
  const origin = originOf(urlOrOrigin);
  if (origin === undefined) {
    throw new TypeError(`robots-wasm: not an absolute http(s) URL: ${JSON.stringify(urlOrOrigin.slice(0, 200))}`);
  }
  return { origin, robotsUrl: `${origin}/robots.txt` };
}
