// npm run test:container: the image built from the Dockerfile with Podman and run for real. Not part
// of npm test (it needs Podman, root or the packages, and minutes for a cold build). One file at a
// time: image builds and containers share two cores with everything else.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['test/container/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // The cold path makes the base image and builds the mock's (npm ci twice): minutes.
    globalSetup: ['test/container/global-setup.ts'],
  },
});
