// Playwright globalSetup: one mock for the run, in Playwright's own process. The app under test
// and the tests read its URL from MOCK_URL; the returned function stops it after the run.
// playwright.config.ts: globalSetup: './playwright-global-setup.ts'
import { startMock } from 'shortlink-mock';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const mock = await startMock();
  process.env['MOCK_URL'] = mock.url;
  return () => mock.stop();
}
