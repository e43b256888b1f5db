// The CLI's filter run as a crawler runs it: a child process reading a file of URL lines.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Mode } from '../../src/index.js';

const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');

/**
 * Writes `urls` one per line to a file in `dir`, runs `robots-wasm filter --agent Bot --mode
 * <mode>` on it (robots.txt fetched from each URL's origin) and returns the lines it printed.
 */
export async function cliFilter(dir: string, urls: readonly string[], mode: Mode): Promise<string[]> {
  const file = join(dir, `urls-${mode}.txt`);
  writeFileSync(file, `${urls.join('\n')}\n`);
  const out = await new Promise<string>((resolve) => {
    const child = spawn(process.execPath, [CLI, 'filter', '--agent', 'Bot', '--mode', mode, file]);
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('close', () => resolve(stdout));
  });
  return out.split('\n').filter(Boolean);
}
