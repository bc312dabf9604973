// Playwright, one mock for the run, started in Playwright's own process by globalSetup (startMock:
// a free port, data in memory); the tests and the app under test read its URL from MOCK_URL.
// The other way, Playwright running the CLI as a webServer, is playwright.web-server.config.ts.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: './e2e',
  globalSetup: './playwright-global-setup.ts',
});
