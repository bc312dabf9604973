// The Vitest recipe's configuration: the mock started once by the global setup, shared by every
// test file (each file takes an account of its own, so files can run in parallel).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['vitest-*.test.ts'],
    globalSetup: ['./vitest-global-setup.ts'],
  },
});
