// `robots-wasm check`: one verdict per URL of a file or stdin against one robots.txt. The input
// is read in blocks of whole lines (inputBlocks) and each block goes through the matcher's
// line path (reportLines, or reportLinesTo when stdout is a file) in one call, so memory stays
// constant for any input size and the per-URL work in JavaScript is only copying bytes to the
// output. A line longer than MAX_LINE_BYTES gets an error line in its place.

import { CHUNK_BYTES, reportLines, reportLinesTo, type Matcher } from '../matcher.js';
import {
  agentValue, describeLongLine, examplePath, inputBlocks, loadRobots, MAX_LINE_BYTES, modeOf, parse, Progress, stdoutIsFile,
  stringValue, UsageError, warn, write, writeFileOutput, type LongLine,
} from './io.js';

/** `robots-wasm check --help`. */
export const CHECK_HELP = `usage: robots-wasm check <robots.txt file | URL> --agent NAME [options] [URLS_FILE | -]

One verdict per URL (one URL per line; blank lines are skipped), streamed in constant memory.
Output: "allow<TAB>url", or "disallow<TAB>url<TAB>line of the deciding rule". A line of more
than ${MAX_LINE_BYTES} bytes is not checked: "error<TAB>why" takes its place (with --filter,
a line on stderr) and the exit code is 1.

  --agent NAME      the crawler's product token (required)
  --mode rfc|google matching semantics (default rfc)
  --filter          print only the allowed URLs
  --json            JSON lines: {"url", "allowed", "rule": {"kind", "pattern", "line"} | null}
  --strict          exit with 1 when any URL is disallowed

example: robots-wasm check ${examplePath('robots.txt')} --agent ExampleBot ${examplePath('urls.txt')}`;

const decoder = new TextDecoder();

interface CheckState {
  matcher: Matcher;
  format: 'verdicts' | 'filter' | 'json';
  explain: (url: string) => { allowed: boolean; rule: unknown };
  disallowed: number;
  /** Lines too long to check. */
  unchecked: number;
}

/** The output for a line too long to check: an error in its place, never a verdict. */
function longLine(state: CheckState, line: LongLine): string {
  state.unchecked++;
  const why = describeLongLine(line);
  if (state.format === 'filter') return (warn(why), '');
  return state.format === 'json' ? `${JSON.stringify({ url: null, allowed: false, rule: null, error: why })}\n` : `error\t${why}\n`;
}

/** The output for one block of whole lines. */
function block(state: CheckState, bytes: Uint8Array): Uint8Array | string {
  if (state.format !== 'json') {
    // The kernel writes the output itself: no per-URL work here. A file takes it straight from
    // WebAssembly memory, with no copy.
    if (stdoutIsFile) {
      state.disallowed += reportLinesTo(state.matcher, bytes, state.format === 'filter', writeFileOutput);
      return '';
    }
    const { output, disallowed } = reportLines(state.matcher, bytes, state.format === 'filter');
    state.disallowed += disallowed;
    return output;
  }
  let out = '';
  let start = 0;
  while (start < bytes.length) {
    let lf = bytes.indexOf(0x0a, start);
    if (lf < 0) lf = bytes.length;
    const end = lf > start && bytes[lf - 1] === 0x0d ? lf - 1 : lf;
    if (end > start) {
      const url = decoder.decode(bytes.subarray(start, end));
      const { allowed, rule } = state.explain(url);
      if (!allowed) state.disallowed++;
      out += `${JSON.stringify({ url, allowed, rule })}\n`;
    }
    start = lf + 1;
  }
  return out;
}

/** Runs `robots-wasm check`; resolves with the exit code. */
export async function check(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    agent: { type: 'string' }, mode: { type: 'string' }, filter: { type: 'boolean' }, json: { type: 'boolean' },
    strict: { type: 'boolean' }, 'user-agent': { type: 'string' },
  });
  if (values.help) return (await write(`${CHECK_HELP}\n`), 0);
  const agent = agentValue(values);
  if (values.filter && values.json) throw new UsageError('--filter and --json exclude each other');
  if (positionals.length > 2) throw new UsageError(`unexpected argument: ${positionals[2]}`);
  const mode = modeOf(values);
  const input = inputBlocks(positionals[1], CHUNK_BYTES);
  const { robots } = await loadRobots(positionals[0], mode, stringValue(values, 'user-agent'));
  const state: CheckState = {
    matcher: robots.matcher(agent),
    format: values.json ? 'json' : values.filter ? 'filter' : 'verdicts',
    explain: (url) => robots.explain(url, agent),
    disallowed: 0,
    unchecked: 0,
  };
  const progress = new Progress(input.size);
  let read = 0;
  for await (const item of input.blocks) {
    if (!(item instanceof Uint8Array)) {
      await write(longLine(state, item));
      continue;
    }
    read += item.length;
    await write(block(state, item));
    progress.update(read);
  }
  progress.done();
  return state.unchecked > 0 || (values.strict && state.disallowed > 0) ? 1 : 0;
}

