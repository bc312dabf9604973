// The reliability suite (npm run test:reliability): real CLI processes under load, crashes, full
// disks and a soak. One file at a time, so that no test's load skews another's timing or memory.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['test/reliability/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // Finds or installs redis-server for the Redis fault tests (redis-faults.test.ts), which start servers of their own.
    globalSetup: ['test/setup/redis-global-setup.ts'],
  },
});
