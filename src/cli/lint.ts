// `robots-wasm lint`: diagnostics for a robots.txt file, for people or as JSON.

import { lintRobotsTxt } from '../robots/lint.js';
import { fetchRobotsTxt } from '../fetch/fetch.js';
import { asUsage, colour, describeAccess, examplePath, isUrl, modeOf, parse, readFile, UsageError, write } from './io.js';

/** `robots-wasm lint --help`. */
export const LINT_HELP = `usage: robots-wasm lint <robots.txt file | URL> [--json] [--mode rfc|google]

Diagnostics with line numbers: misspelt keys, lines without a colon, rules before any
user-agent, invalid product tokens, patterns not starting with / or *, '$' before the end,
bytes past the parse limit, invalid UTF-8, over-long lines, duplicate and shadowed rules,
a rule or Sitemap value that starts or ends with a Unicode space (unicode-space), and a line
between user-agent lines, which does not end their group (interleaved-group): both read
otherwise by robots-parser. Exit code 1 when there is an error-level diagnostic.

  --json            a JSON array of {line, severity, code, message}

example: robots-wasm lint ${examplePath('robots.txt')}`;

/** Runs `robots-wasm lint`; resolves with the exit code (1 when there is an error). */
export async function lint(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { json: { type: 'boolean' }, mode: { type: 'string' } });
  if (values.help) return (await write(`${LINT_HELP}\n`), 0);
  if (positionals.length !== 1) throw new UsageError('give one robots.txt file or URL');
  const mode = modeOf(values);
  let bytes: Uint8Array;
  if (isUrl(positionals[0])) {
    const fetched = await asUsage(() => fetchRobotsTxt(positionals[0], { mode, maxBytes: 64 << 20 }));
    if (fetched.status !== 'ok') throw new UsageError(`${fetched.origin}: ${describeAccess(fetched)}`);
    bytes = fetched.body!;
  } else {
    bytes = readFile(positionals[0]);
  }
  const diagnostics = lintRobotsTxt(bytes, { mode });
  if (values.json) {
    await write(`${JSON.stringify(diagnostics)}\n`);
  } else {
    const paint = { error: 'red', warning: 'yellow', info: 'dim' } as const;
    let out = '';
    for (const d of diagnostics) out += `${positionals[0]}:${d.line}: ${colour(paint[d.severity], d.severity)} [${d.code}] ${d.message}\n`;
    const counts = ['error', 'warning', 'info'].map((s) => `${diagnostics.filter((d) => d.severity === s).length} ${s}${s === 'info' ? '' : 's'}`);
    out += `${diagnostics.length === 0 ? 'no problems found' : counts.join(', ')}\n`;
    await write(out);
  }
  return diagnostics.some((d) => d.severity === 'error') ? 1 : 0;
}
