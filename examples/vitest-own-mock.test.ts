// Per file: a test file that starts a mock of its own (no global setup needed) and puts it back to
// the seeded fixtures before each test.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { startMock, type RunningMock } from 'shortlink-mock';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock.stop());
beforeEach(() => mock.reset());

it('answers 404 for every operation while the not-found scenario is on', async () => {
  await mock.useScenario('not-found');
  const response = await fetch(`${mock.url}/links/lnk_anything`, { method: 'DELETE', headers: { 'x-api-key': mock.apiKeys.demoKey } });
  expect(response.status).toBe(404);
  await mock.useScenario(null);
});

it('journals every request, for assertions on what the client sent', async () => {
  await fetch(`${mock.url}/links/lnk_anything`, { method: 'DELETE', headers: { 'x-api-key': mock.apiKeys.demoKey } });
  const [entry] = await mock.journal({ operation: 'deleteLink' });
  expect(entry).toMatchObject({ method: 'DELETE', status: 404 });
});
