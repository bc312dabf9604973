import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'contract-tests/**/*.test.ts'],
    // The reliability suite (minutes of load, crashes and a soak) runs on its own: npm run test:reliability.
    exclude: [...configDefaults.exclude, 'test/reliability/**'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
