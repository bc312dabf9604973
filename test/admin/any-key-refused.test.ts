// --accept-any-key: a request refused on its way (an invalid body, a mock control's 400, a
// scenario's forced answer or fault) makes no account for its unknown key and seeds nothing (D19,
// SPEC: bad input changes nothing); the account is made when a request of the key is served, and
// then it has its seeded links. Runs on every store (the unit-redis project too).
import { describe, expect, it } from 'vitest';
import { buildAccountForKey } from '../../fixtures/seed.js';
import { expectError } from '../helpers/contract-assert.js';
import type { Response } from 'supertest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { expectAdminResponse } from './admin-contract.js';

const KEY = 'ci-refused-only';
const CREATE = { destinationUrl: 'https://example.com/ci', domain: 'short.test', tags: [] };

/** How many accounts and links the store holds, and whether KEY names one. */
async function state(t: TestApp): Promise<{ accounts: number; links: number; keyAccount: boolean }> {
  const data = await t.data();
  return { accounts: data.accounts.length, links: data.links.size, keyAccount: (await t.accountByKey(KEY)) !== undefined };
}

describe('--accept-any-key, a refused request of an unknown key', () => {
  const refusals: [string, (t: TestApp) => Promise<Response>, number][] = [
    ['malformed JSON', (t) => t.request.post('/links').set('x-api-key', KEY).set('content-type', 'application/json').send('{bad'), 400],
    ['a body the contract refuses', (t) => t.request.post('/links').set('x-api-key', KEY).send({ destinationUrl: 'not a url' }), 400],
    ['an unknown x-mock-scenario', (t) => t.request.post('/links').set('x-api-key', KEY).set('x-mock-scenario', 'no-such-scenario').send(CREATE), 400],
    ["a scenario's forced error", (t) => t.request.delete('/links/lnk_0000000000000000').set('x-api-key', KEY).set('x-mock-scenario', 'not-found'), 404],
    ['a forced status (Prefer: code=)', (t) => t.request.post('/links').set('x-api-key', KEY).set('prefer', 'code=400').send(CREATE), 400],
  ];

  it.each(refusals)('%s: the refusal, and no account nor link made', async (_name, send, status) => {
    const t = await createTestApp({ acceptAnyKey: true });
    const before = await state(t);
    expect(before.keyAccount).toBe(false);
    expectError(await send(t), status);
    expect(await state(t)).toEqual(before);
  });

  it("the key's own scenario answering for it (set before its first request): no account made", async () => {
    const t = await createTestApp({ acceptAnyKey: true });
    expect((await t.request.put('/__admin/scenario').send({ name: 'not-found', apiKey: KEY })).status).toBe(200);
    const before = await state(t);
    expectError(await t.request.post('/links').set('x-api-key', KEY).send(CREATE), 404);
    expect(await state(t)).toEqual(before);
  });

  it('a network fault (the connection reset): no account made', async () => {
    const t = await createTestApp({ acceptAnyKey: true });
    const before = await state(t);
    await expect(t.request.post('/links').set('x-api-key', KEY).set('x-mock-scenario', 'flaky-network').send(CREATE)).rejects.toThrow();
    expect(await state(t)).toEqual(before);
  });

  it('GET /__admin/links?account=<a key never used> is a 404 and makes no account', async () => {
    const t = await createTestApp({ acceptAnyKey: true });
    const before = await state(t);
    const res = await t.request.get('/__admin/links').query({ account: KEY });
    expectAdminResponse(res, 'GET', '/__admin/links');
    expect(res.status).toBe(404);
    expect(await state(t)).toEqual(before);
  });

  it('after refusals, the first request served makes the account with its seeded links: a delete of one of them is a 204', async () => {
    const t = await createTestApp({ acceptAnyKey: true });
    expectError(await t.request.post('/links').set('x-api-key', KEY).set('content-type', 'application/json').send('{bad'), 400);
    const seeded = buildAccountForKey(KEY, (await t.data()).defaultDomain, () => false).links;
    const first = seeded[0];
    if (!first) throw new Error('the key is seeded with no links');
    expect((await t.request.delete(`/links/${first.id}`).set('x-api-key', KEY)).status).toBe(204);
    expect((await t.linksOf(KEY)).map((link) => link.id).sort()).toEqual(seeded.slice(1).map((link) => link.id).sort());
  });

  it('an id the fresh key does not have is still a 404 on its first request', async () => {
    const t = await createTestApp({ acceptAnyKey: true });
    expectError(await t.request.delete('/links/lnk_nope').set('x-api-key', KEY), 404);
  });

  it('a missing key is still a 401, whatever the body', async () => {
    const t = await createTestApp({ acceptAnyKey: true });
    const before = await state(t);
    expectError(await t.request.post('/links').set('content-type', 'application/json').send('{bad'), 401);
    expect(await state(t)).toEqual(before);
  });
});
