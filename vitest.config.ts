import { configDefaults, defineConfig } from 'vitest/config';

const E2E = 'test/e2e/**/*.test.ts';
const REDIS_INFRA = 'test/setup/redis-infra.test.ts';
const REDIS_STORE = 'test/store/redis-*.test.ts';

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Two projects so that the e2e set-up (finding or installing Chromium) runs only when an e2e
    // test is among the files to run: Vitest starts a project's globalSetup only then.
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts', 'contract-tests/**/*.test.ts'],
          // The reliability suite (minutes of load, crashes and a soak) runs on its own: npm run test:reliability.
          exclude: [...configDefaults.exclude, 'test/reliability/**', E2E, REDIS_INFRA, REDIS_STORE],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: [E2E],
          globalSetup: ['test/setup/e2e-global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'redis-infra',
          include: [REDIS_INFRA],
          // Finds or installs redis-server and starts the run's shared server (inject('redisUrl')).
          globalSetup: ['test/setup/redis-global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'redis',
          // The Redis store (src/store/redis-*.ts), against the run's shared server and servers of its own.
          include: [REDIS_STORE],
          globalSetup: ['test/setup/redis-global-setup.ts'],
        },
      },
    ],
  },
});
