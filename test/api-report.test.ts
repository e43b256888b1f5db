// The checked-in API report (api/*.api.md, scripts/api-report.mjs) is what the build declares:
// a change to the public surface is seen, and meant, when the report is written again with it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiReports, UPDATE_COMMAND } from '../scripts/api-report.mjs';

const ROOT = join(import.meta.dirname, '..');

describe('API report', () => {
  const reports = apiReports();

  it('covers the five entry points', () => {
    expect([...reports.keys()].sort()).toEqual([
      'api/robots-wasm-crawlee.api.md', 'api/robots-wasm-pool.api.md', 'api/robots-wasm-redis.api.md', 'api/robots-wasm-robots-parser.api.md',
      'api/robots-wasm.api.md',
    ]);
  });

  it.each([...reports])('%s is what the build declares', (path, text) => {
    const file = join(ROOT, path);
    const current = existsSync(file) ? readFileSync(file, 'utf8') : '(missing)';
    expect(current, `${path} differs from the declarations in dist/; if the change to the public API is meant, update the report: ${UPDATE_COMMAND}`).toBe(text);
  });

  it('shows no internal member of Matcher or RobotsTxt', () => {
    const main = reports.get('api/robots-wasm.api.md')!;
    for (const name of ['adopt', 'decide', 'rule', 'checkRangeInto', 'checkPacked', 'reportLines', 'reportLinesTo', 'build', 'fromImage', 'whenDisposed', 'isAllowedAsFetched', 'checkManyAsFetched', 'retainedBytes']) {
      expect(main).not.toMatch(new RegExp(`\\b${name}\\(|get ${name}\\b`));
    }
  });
});
