// `npm test`: every test but the fleet's, which needs a redis-server (npm run test:redis).
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    exclude: [...configDefaults.exclude, 'test/redis/**'],
  },
});
