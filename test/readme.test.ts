// Every ```js example of the README runs against the built package (as `robots-wasm`, by
// package self-reference) and prints what its `// →` comments say.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');
const examples = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);

describe('README examples', () => {
  it('has examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(4);
  });

  it.each(examples.map((code, i) => [i + 1, code] as const))('example %i prints what it says', (i, code) => {
    const expected = [...code.matchAll(/\/\/ → (.*)$/gm)].map((m) => m[1]);
    expect(expected.length).toBeGreaterThan(0);
    const dir = new URL('build/readme/', root);
    mkdirSync(dir, { recursive: true });
    const file = new URL(`example-${i}.mjs`, dir);
    writeFileSync(file, code);
    try {
      const output = execFileSync(process.execPath, [file.pathname], { encoding: 'utf8' });
      expect(output.trimEnd().split('\n')).toEqual(expected);
    } finally {
      rmSync(file);
    }
  });
});
