#!/usr/bin/env node
// The robots-wasm command: dispatches to one module per command. Usage mistakes print one
// line and exit with 2; nothing prints a stack trace.

import { UsageError, write } from './io.js';

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

example: robots-wasm check examples/robots.txt --agent ExampleBot examples/urls.txt`;

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    await write(`${HELP}\n`);
    return name === undefined ? 2 : 0;
  }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (load === undefined) throw new UsageError(`unknown command "${name}" (commands: ${Object.keys(COMMANDS).join(', ')})`);
  return (await load())(args);
}

// `robots-wasm check ... | head` closes the pipe early: that is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`robots-wasm: ${error.message}\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`robots-wasm: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    }
  },
);
