// `robots-wasm tags`: the URL-level controls (Robots-Tag / X-Robots-Tag headers, robots meta
// tags) that apply to an agent and the Content-Usage header's AI usage preferences, from
// headers and HTML given on the command line or fetched.

import { readLimited } from '../fetch/fetch.js';
import { urlControls, type UrlControls } from '../tags/controls.js';
import { agentValue, colour, examplePath, isUrl, pairsText, parse, readFile, stringValue, UsageError, write } from './io.js';

/** `robots-wasm tags --help`. */
export const TAGS_HELP = `usage: robots-wasm tags --agent NAME [--header 'Name: value']... [--html FILE | URL]

The URL-level controls that apply to the agent: the union of the Robots-Tag and X-Robots-Tag
headers and the robots meta tags in the HTML head; and the AI usage preferences the
Content-Usage header states (train-ai=n: no AI training). A URL is fetched (GET) and its
response headers and HTML are read; --header adds header lines (repeat it for several).

  --agent NAME      the crawler's product token (required)
  --header LINE     a response header line, e.g. 'X-Robots-Tag: googlebot: noindex'
  --html FILE       an HTML file (or a URL to fetch)
  --json            one JSON object

example: robots-wasm tags --agent ExampleBot --header 'X-Robots-Tag: noindex, nofollow' --html ${examplePath('page.html')}`;

const MAX_HTML = 1 << 20;

async function fetchPage(url: string): Promise<{ headers: [string, string][]; html: Uint8Array }> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(10_000), headers: { accept: 'text/html, */*;q=0.5' } });
  } catch (error) {
    throw new UsageError(`cannot fetch ${url}: ${(error as Error).message}`);
  }
  return { headers: [...response.headers], html: await readLimited(response, MAX_HTML) };
}

/** Runs `robots-wasm tags`; resolves with the exit code. */
export async function tags(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { agent: { type: 'string' }, header: { type: 'string', multiple: true }, html: { type: 'string' }, json: { type: 'boolean' } });
  if (values.help) return (await write(`${TAGS_HELP}\n`), 0);
  const agent = agentValue(values);
  // Header names come from the command line or a server: no prototype behind them.
  const headers: Record<string, string[]> = Object.create(null);
  const addHeader = (name: string, value: string) => (headers[name.trim().toLowerCase()] ??= []).push(value.trim());
  for (const line of (values.header as string[] | undefined) ?? []) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new UsageError(`--header needs "Name: value", got ${JSON.stringify(line)}`);
    addHeader(line.slice(0, colon), line.slice(colon + 1));
  }
  let html: Uint8Array | undefined;
  const source = stringValue(values, 'html') ?? positionals[0];
  if (positionals.length > (values.html === undefined ? 1 : 0)) throw new UsageError(`unexpected argument: ${positionals.at(-1)}`);
  if (source !== undefined && isUrl(source)) {
    const page = await fetchPage(source);
    for (const [name, value] of page.headers) addHeader(name, value);
    html = page.html;
  } else if (source !== undefined) {
    html = readFile(source);
  }
  const c = urlControls({ headers, html }, agent);
  if (values.json) {
    const { rules, unavailableAfter, ...flags } = c;
    await write(`${JSON.stringify({ ...flags, unavailableAfter: unavailableAfter?.toISOString(), rules: Object.fromEntries(rules) })}\n`);
    return 0;
  }
  await write(`${describe(c)}\n`);
  return 0;
}

function describe(c: UrlControls): string {
  const flags = (['noindex', 'nofollow', 'nosnippet', 'noarchive', 'noimageindex', 'notranslate'] as const).map((name) =>
    `  ${name.padEnd(18)}${c[name] ? colour('red', 'yes') : colour('green', 'no')}`);
  const limits = [
    ['max-snippet', c.maxSnippet], ['max-image-preview', c.maxImagePreview], ['max-video-preview', c.maxVideoPreview],
    ['unavailable_after', c.unavailableAfter?.toISOString()], ['expires', c.expiresAt === undefined ? undefined : new Date(c.expiresAt).toISOString()],
  ].filter(([, v]) => v !== undefined).map(([name, v]) => `  ${String(name).padEnd(18)}${String(v)}`);
  const rules = [...c.rules].map(([name, value]) => (value === true ? name : `${name}=${String(value)}`));
  // Known categories come first, in USAGE_CATEGORIES' order, then other labels as written (readUsage fills them so).
  const usage = pairsText(c.contentUsage);
  return [
    ...flags, ...limits, `  ${'rules'.padEnd(18)}${rules.length === 0 ? 'none' : rules.join(', ')}`,
    ...(usage === '' ? [] : [`  ${'content-usage'.padEnd(18)}${usage}`]),
  ].join('\n');
}
