// account(): a fresh, isolated account per test file on one shared mock (POST /__admin/accounts),
// empty unless it asks for seeded links; a key already taken is a 409 AdminApiError.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AdminApiError, startMock, type RunningMock } from '../../src/index.js';
import { createLink, deleteLink, updateLink } from './api-calls.js';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock.stop());

it('gives a fresh account with a key of its own, in which a create, update and delete work', async () => {
  const account = await mock.account();
  expect(account).toMatchObject({ id: expect.any(String), apiKey: expect.any(String), links: expect.any(Number) });
  expect(Object.values(mock.apiKeys)).not.toContain(account.apiKey);
  const created = await createLink(mock.url, account.apiKey, { slug: `acc-${account.id}` });
  expect(created.status).toBe(201);
  expect((await updateLink(mock.url, account.apiKey, created.body.id, 'https://example.com/moved')).status).toBe(200);
  expect((await deleteLink(mock.url, account.apiKey, created.body.id)).status).toBe(204);
});

it('two accounts never see each other\'s links', async () => {
  const [first, second] = await Promise.all([mock.account(), mock.account()]);
  expect(first.apiKey).not.toBe(second.apiKey);
  const created = await createLink(mock.url, first.apiKey);
  expect((await updateLink(mock.url, second.apiKey, created.body.id, 'https://example.com/not-yours')).status).toBe(404);
  expect((await mock.links(second.apiKey)).map((link) => link.id)).not.toContain(created.body.id);
});

it('takes a name, a link limit and a key; the limit holds', async () => {
  const apiKey = `toolkit-${Date.now().toString(36)}`;
  const account = await mock.account({ apiKey, name: 'Toolkit Test', linkLimit: 0 });
  expect(account).toMatchObject({ apiKey, name: 'Toolkit Test', linkLimit: 0 });
  expect((await createLink(mock.url, apiKey)).body.code).toBe('LINK_LIMIT_REACHED');
});

it('starts empty: account({ linkLimit: 1 }) takes one create, then LINK_LIMIT_REACHED', async () => {
  const account = await mock.account({ linkLimit: 1 });
  expect(account).toMatchObject({ linkLimit: 1, links: 0 });
  expect((await createLink(mock.url, account.apiKey)).status).toBe(201);
  expect((await createLink(mock.url, account.apiKey)).body.code).toBe('LINK_LIMIT_REACHED');
});

it('seeds links on request: account({ seedLinks: 2 })', async () => {
  const account = await mock.account({ seedLinks: 2, linkLimit: 2 });
  expect(account).toMatchObject({ linkLimit: 2, links: 2 });
  expect(await mock.links(account.apiKey)).toHaveLength(2);
});

it('refuses a key already taken with a 409 AdminApiError carrying the mock\'s description', async () => {
  const refusal = await mock.account({ apiKey: mock.apiKeys.demoKey }).catch((error: unknown) => error);
  expect(refusal).toBeInstanceOf(AdminApiError);
  expect(refusal).toMatchObject({ status: 409, call: 'POST /__admin/accounts', errorDescription: expect.stringContaining('demo-key') });
});
