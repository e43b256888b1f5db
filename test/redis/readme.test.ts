// The README's ```js redis examples ("Running a fleet") run against a real redis-server, as
// test/readme.test.ts runs the others, and print what their `// →` comments say.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statedOutput } from '../support/examples.js';
import { RedisServer } from './support.js';

const root = new URL('../../', import.meta.url);
const examples = [...readFileSync(new URL('README.md', root), 'utf8').matchAll(/```js redis\n([\s\S]*?)```/g)].map((m) => m[1]);
let redis: RedisServer;

beforeAll(async () => {
  redis = await RedisServer.start();
});

afterAll(async () => {
  await redis.stop();
});

describe('README examples on Redis', () => {
  it('has one', () => {
    expect(examples.length).toBeGreaterThanOrEqual(1);
  });

  it.each(examples.map((code, i) => [i + 1, code] as const))('example %i prints what it says', (i, code) => {
    const dir = new URL('build/readme/', root);
    mkdirSync(dir, { recursive: true });
    const file = new URL(`redis-example-${i}.mjs`, dir);
    writeFileSync(file, code);
    try {
      const output = execFileSync(process.execPath, [file.pathname], { encoding: 'utf8', env: { ...process.env, REDIS_URL: redis.url } });
      expect(output.trimEnd().split('\n')).toEqual(statedOutput(code));
    } finally {
      rmSync(file);
    }
  });
});
