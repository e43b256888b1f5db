// Every ```js example of the README, and every @example of the sources' TSDoc, runs against
// the built package (as `robots-wasm`, by package self-reference) and prints what its `// →`
// comments say.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { statedOutput } from './support/examples.js';

const root = new URL('../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');
const examples = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);

/** The @example blocks of a TSDoc comment, without their ` * ` margins. */
function tsdocExamples(source: string): string[] {
  return [...source.matchAll(/\* @example\n((?:\s*\*(?! @|\/).*\n)+)/g)].map((m) => m[1].replace(/^\s*\* ?/gm, ''));
}

const sourceFiles = readdirSync(new URL('src/', root), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
const documented = sourceFiles.flatMap((file) =>
  tsdocExamples(readFileSync(new URL(`src/${file}`, root), 'utf8')).map((code, i) => [`${file} #${i + 1}`, code] as const),
);

/** Runs `code` as an ES module file beside the package and returns its output lines. */
function run(name: string, code: string): string[] {
  const dir = new URL('build/readme/', root);
  mkdirSync(dir, { recursive: true });
  const file = new URL(`${name.replace(/[^\w.-]+/g, '-')}.mjs`, dir);
  writeFileSync(file, code);
  try {
    return execFileSync(process.execPath, [file.pathname], { encoding: 'utf8' }).trimEnd().split('\n');
  } finally {
    rmSync(file);
  }
}

function expectedOutput(code: string): string[] {
  const expected = statedOutput(code);
  expect(expected.length).toBeGreaterThan(0);
  return expected;
}

describe('README examples', () => {
  it('has examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(4);
  });

  it.each(examples.map((code, i) => [i + 1, code] as const))('example %i prints what it says', (i, code) => {
    expect(run(`example-${i}`, code)).toEqual(expectedOutput(code));
  });
});

describe('TSDoc examples', () => {
  it('has examples', () => {
    expect(documented.length).toBeGreaterThanOrEqual(1);
  });

  // An example that starts a crawlee crawler loads crawlee first, which outlasts the default timeout.
  it.each(documented)('%s prints what it says', (name, code) => {
    expect(run(name, code)).toEqual(expectedOutput(code));
  }, 30_000);
});
