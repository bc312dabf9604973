// Playwright: either start the mock in Playwright's process with globalSetup (startMock, a free
// port, MOCK_URL for the app and the tests), or let Playwright run the CLI as a webServer on a fixed
// port and wait for its health route. Use one of the two.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: './e2e',
  // 1. In process: the mock's URL is in process.env.MOCK_URL.
  globalSetup: './playwright-global-setup.ts',
  // 2. Or as a server: the CLI, in memory, ready when its health route answers.
  // webServer: {
  //   command: 'npx shortlink-mock --port 4010 --db :memory: --quiet',
  //   url: 'http://127.0.0.1:4010/__admin/health',
  //   reuseExistingServer: !process.env.CI,
  // },
});
