// The corpus script's checks (scripts/corpus-check.mjs) on the real files copied into fixtures.
import { describe, expect, it } from 'vitest';
import * as lib from '../src/index.js';
import { corpusFiles } from './support/fixtures.js';
import { checkRobotsFile } from '../scripts/corpus-check.mjs';

describe('real robots.txt files', () => {
  it.each(corpusFiles().map((f) => [f.name, f.bytes] as const))('%s: parses; checkMany, checkLines and fromBytes agree with isAllowed', (_name, bytes) => {
    const { problems, verdicts } = checkRobotsFile(lib, bytes);
    expect(problems).toEqual([]);
    expect(verdicts).toBeGreaterThan(0);
  });
});
