// Playwright, one mock for the run, as a webServer: Playwright starts the CLI on a fixed port, waits
// for its health route, and stops it after the run. PW_MOCK_PORT picks the port (default 4010).
import { defineConfig } from '@playwright/test';

const port = Number(process.env['PW_MOCK_PORT'] ?? 4010);
process.env['MOCK_URL'] = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: './e2e',
  webServer: {
    command: `npx shortlink-mock --port ${port} --db :memory: --quiet`,
    url: `http://127.0.0.1:${port}/__admin/health`,
    reuseExistingServer: false,
  },
});
