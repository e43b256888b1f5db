// `robots-wasm filter`: URLs from many hosts in, the allowed ones out. Each origin's robots.txt
// is fetched once through RobotsCache (RFC 9309 access rules, concurrency, timeouts); with
// --cache the cache is kept in a file between runs.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { RobotsCache } from '../fetch/cache.js';
import { inputStream, integerValue, modeOf, parse, Progress, stringValue, UsageError, write } from './io.js';

/** `robots-wasm filter --help`. */
export const FILTER_HELP = `usage: robots-wasm filter --agent NAME [options] [URLS_FILE | -]

Prints the URLs (one per line, any number of hosts) that the agent may fetch, in order. Each
origin's robots.txt is fetched once: 4xx allows everything, 5xx and network errors disallow
everything (RFC 9309 2.3.1). URLs that are not absolute http(s) URLs are dropped.

  --agent NAME        the crawler's product token (required)
  --user-agent TEXT   the User-Agent header (default: the agent)
  --mode rfc|google   matching semantics (default rfc)
  --concurrency N     robots.txt fetches at once (default 32)
  --timeout MS        time for each robots.txt fetch (default 10000)
  --cache FILE        read the cache from FILE if it exists, write it back at the end

example: robots-wasm filter --agent ExampleBot --cache robots-cache.json frontier.txt`;

/** Runs `robots-wasm filter`; resolves with the exit code. */
export async function filter(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    agent: { type: 'string' }, 'user-agent': { type: 'string' }, mode: { type: 'string' }, concurrency: { type: 'string' },
    timeout: { type: 'string' }, cache: { type: 'string' },
  });
  if (values.help) return (await write(`${FILTER_HELP}\n`), 0);
  const agent = stringValue(values, 'agent', true)!;
  if (positionals.length > 1) throw new UsageError(`unexpected argument: ${positionals[1]}`);
  const options = {
    agent, userAgent: stringValue(values, 'user-agent'), mode: modeOf(values),
    concurrency: integerValue(values, 'concurrency', 32), timeoutMs: integerValue(values, 'timeout', 10_000),
  };
  const input = inputStream(positionals[0]);
  const cacheFile = stringValue(values, 'cache');
  let cache: RobotsCache;
  if (cacheFile !== undefined && existsSync(cacheFile)) {
    try {
      cache = RobotsCache.import(JSON.parse(readFileSync(cacheFile, 'utf8')), options);
    } catch (error) {
      throw new UsageError(`${cacheFile} is not a robots-wasm cache: ${(error as Error).message}`);
    }
  } else {
    cache = new RobotsCache(options);
  }
  const progress = new Progress(input.size);
  const lines = createInterface({ input: input.stream, crlfDelay: Infinity });
  let out = '';
  let count = 0;
  for await (const url of cache.filter(lines)) {
    out += `${url}\n`;
    if (out.length > 1 << 16) {
      await write(out);
      out = '';
    }
    progress.update(0, ++count);
  }
  await write(out);
  progress.done();
  if (cacheFile !== undefined) writeFileSync(cacheFile, JSON.stringify(cache.export()));
  return 0;
}
