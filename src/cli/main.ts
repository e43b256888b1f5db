#!/usr/bin/env node
// The robots-wasm command: dispatches to one module per command. Every failure is one line on
// stderr, "robots-wasm: " and what went wrong, never a stack trace: usage mistakes exit with 2,
// everything else (a full disk, an error nobody expected) with 1.

import { readFileSync } from 'node:fs';
import { examplePath, oneLine, OutputError, UsageError, write } from './io.js';

// Each command loads only its own modules: `check` starts without the fetch and tag code.
const COMMANDS: Record<string, () => Promise<(args: string[]) => Promise<number>>> = {
  check: async () => (await import('./check.js')).check,
  filter: async () => (await import('./filter.js')).filter,
  explain: async () => (await import('./explain.js')).explain,
  lint: async () => (await import('./lint.js')).lint,
  fetch: async () => (await import('./fetch.js')).fetchCommand,
  tags: async () => (await import('./tags.js')).tags,
};

const HELP = `usage: robots-wasm <command> [options]   (robots-wasm <command> --help for more)

  check    verdicts for a file of URLs against one robots.txt (streaming)
  filter   the allowed URLs of a frontier on many hosts (fetches and caches robots.txt)
  explain  the verdict, deciding rule and applying group for some URLs
  lint     diagnostics for a robots.txt file
  fetch    fetch an origin's robots.txt: access result, sitemaps, crawl-delay, groups
  tags     the URL-level controls (Robots-Tag, X-Robots-Tag, meta robots) that apply

Exit codes: 0 done, 1 a failure or a finding (see each command), 2 a usage mistake.
--version prints the version.

example: robots-wasm check ${examplePath('robots.txt')} --agent ExampleBot ${examplePath('urls.txt')}`;

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    await write(`${HELP}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version') {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    return (await write(`robots-wasm ${version}\n`), 0);
  }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (load === undefined) throw new UsageError(`unknown command "${name}" (commands: ${Object.keys(COMMANDS).join(', ')})`);
  return (await load())(args);
}

/** Prints the one line for a failure and exits; a closed output pipe is no failure. */
function fail(error: unknown): never {
  if (error instanceof OutputError && error.closed) process.exit(0);
  process.stderr.write(`robots-wasm: ${oneLine(error instanceof Error ? error.message : String(error))}\n`);
  process.exit(error instanceof UsageError ? 2 : 1);
}

// A failed write rejects the write that made it (io.ts), so the command ends its own way (the
// filter command writes its cache first): the stream's error event needs no more.
process.stdout.on('error', () => undefined);
// stderr itself may be a full disk: nothing more can be said then.
process.stderr.on('error', () => undefined);
// The last resort: one line rather than Node's report with a stack trace.
process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);

// Every write has completed when main settles; exiting then does not wait for a stdin that
// the command stopped reading.
main(process.argv.slice(2)).then((code) => process.exit(code), fail);
