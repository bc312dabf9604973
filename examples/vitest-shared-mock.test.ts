// A test file on the mock of the global setup, in an account of its own (account()) with scenarios
// of its own (useScenario(name, { apiKey })): other files running at the same time on the same mock
// neither see its links nor meet its scenarios.
import { beforeAll, expect, inject, it } from 'vitest';
import { connectMock, type Link, type MockControl } from 'shortlink-mock';

let mock: MockControl;
let apiKey: string;
beforeAll(async () => {
  mock = await connectMock(inject('mockUrl'));
  ({ apiKey } = await mock.account());
});

const headers = (): Record<string, string> => ({ 'x-api-key': apiKey, 'content-type': 'application/json' });
const createLink = (): Promise<Response> =>
  fetch(`${mock.url}/links`, { method: 'POST', headers: headers(), body: JSON.stringify({ destinationUrl: 'https://example.com', domain: 'short.test', tags: [] }) });

it('creates, updates and deletes a link in an account of its own', async () => {
  const created = await createLink();
  expect(created.status).toBe(201);
  const link = (await created.json()) as Link;
  const updated = await fetch(`${mock.url}/links/${link.id}`, { method: 'PUT', headers: headers(), body: JSON.stringify({ destinationUrl: 'https://example.com/new' }) });
  expect(updated.status).toBe(200);
  expect((await fetch(`${mock.url}/links/${link.id}`, { method: 'DELETE', headers: headers() })).status).toBe(204);
});

it('sees LINK_LIMIT_REACHED once its account is full', async () => {
  await mock.setLinkLimit(apiKey, 0);
  const refused = await createLink();
  expect(refused.status).toBe(400);
  expect(await refused.json()).toMatchObject({ code: 'LINK_LIMIT_REACHED' });
});

it('meets its own scenario; other keys on the mock do not', async () => {
  await mock.useScenario('not-found', { apiKey });
  try {
    expect((await createLink()).status).toBe(404);
  } finally {
    await mock.useScenario(null, { apiKey });
  }
});
