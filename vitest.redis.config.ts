// `npm run test:redis`: the fleet tests, against a real redis-server the tests start.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/redis/**/*.test.ts'],
    testTimeout: 120_000,
    // One redis-server per test file, and fleets of processes: files run one at a time.
    fileParallelism: false,
  },
});
