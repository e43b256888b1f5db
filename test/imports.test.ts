// Imports run one way: no module of src/ reaches itself through its imports (type-only ones
// included: a cycle of types is still two modules that cannot be read one before the other),
// and no module imports one of a higher layer.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');

/**
 * Lowest first: a module imports from its own layer and those below. The kernel's interface
 * and helpers; what parses, compiles and normalises; the matcher over a table; a parsed file;
 * what is built on files and matchers; the entry points a user or the CLI starts from.
 */
const LAYERS = [
  ['wasm/', 'fields/', 'args.ts', 'bytes.ts', 'encoding.ts'],
  ['url/', 'compile/', 'robots/'],
  ['matcher.ts'],
  ['robots-txt.ts', 'usage-rules.ts'],
  ['fetch/', 'pacing/', 'tags/', 'compat/', 'pool/', 'redis/'],
  ['cli/', 'index.ts'],
];

function layerOf(path: string): number {
  return LAYERS.findIndex((layer) => layer.some((entry) => (entry.endsWith('/') ? path.startsWith(entry) : path === entry)));
}

/** Each module of src/ (path relative to src/) and the modules of src/ it imports or re-exports from. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  for (const file of files) {
    const text = readFileSync(join(SRC, file), 'utf8');
    // `import ... from './x.js'`, `export ... from './x.js'` (within one statement) and `import './x.js'`.
    const statements = text.matchAll(/^(?:import|export)\b(?:[^;'"]*?\bfrom)?\s*['"](\.{1,2}\/[^'"]+)['"]/gm);
    const targets = [...statements].map((m) => relative(SRC, resolve(SRC, dirname(file), m[1])).replace(/\.js$/, '.ts'));
    graph.set(file.split('\\').join('/'), targets);
  }
  return graph;
}

/** Every cycle a depth-first walk meets, as "a.ts -> b.ts -> a.ts". */
function cycles(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next].join(' -> '));
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe('the import graph of src/', () => {
  const graph = importGraph();

  it('is read in full: every module and every import target is a module of src/', () => {
    expect(graph.size).toBeGreaterThan(50);
    const missing = [...graph].flatMap(([file, targets]) => targets.filter((t) => !graph.has(t)).map((t) => `${file} -> ${t}`));
    expect(missing).toEqual([]);
  });

  it('has no cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    expect(cycles(new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', ['a.ts']]]))).toEqual(['a.ts -> b.ts -> c.ts -> a.ts']);
  });

  it('runs from higher layers to lower ones only', () => {
    const unplaced = [...graph.keys()].filter((file) => layerOf(file) < 0);
    expect(unplaced).toEqual([]);
    const upward = [...graph].flatMap(([file, targets]) => targets.filter((t) => layerOf(t) > layerOf(file)).map((t) => `${file} -> ${t}`));
    expect(upward).toEqual([]);
  });
});
