// `npm test`: every test but the fleet's, which needs a redis-server (npm run test:redis).
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    exclude: [...configDefaults.exclude, 'test/redis/**'],
    // Many suites wait on servers, timers and child processes: two files at a time keep a
    // two-core machine busy where vitest's default (cores - 1) would run one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
