// A create on Redis decided on the key's account as the instance remembers it, with no first read
// (src/store/redis/redis-remembered-accounts.ts): one script call, and never an answer the mock would
// not have given. Two mocks on one prefix, through HTTP: whatever changes through one (a link
// limit, a global or a key's scenario, a reset) is what the next create through the other
// answers by, whether that answer comes from the create's transaction or from before it.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openSharedState, sharedMockOptions, type SharedState } from '../../src/process/shared-state.js';
import { freshPrefix, seedData } from '../helpers/redis-store.js';
import { sharedRedisUrl } from '../helpers/shared-redis.js';
import { createTestApp, DEMO, type TestApp } from '../helpers/test-app.js';

const CREATE = { destinationUrl: 'https://example.com/remembered', domain: 'short.test', tags: [] };

interface Instance {
  app: TestApp;
  state: SharedState;
}

let url: string;
let prefix: string;
let a: Instance;
let b: Instance;

beforeAll(() => {
  url = sharedRedisUrl();
});
beforeEach(async () => {
  prefix = freshPrefix();
  a = await instance();
  b = await instance();
});
afterEach(async () => {
  await Promise.all([a.app.close(), b.app.close()]);
});

async function instance(): Promise<Instance> {
  const state = await openSharedState({ url, prefix, journalSize: 10, reset: false, seed: async () => seedData(), log: () => undefined });
  return { state, app: await createTestApp({ ...sharedMockOptions(state) }) };
}

const create = (on: Instance, body: object = CREATE, key = DEMO) => on.app.request.post('/links').set('x-api-key', key).send(body);

/** Store commands (script calls) of one request. */
async function commandsOf(on: Instance, request: () => PromiseLike<unknown>): Promise<number> {
  const before = on.state.store.stats.commands;
  await request();
  return on.state.store.stats.commands - before;
}

/** B has created once for DEMO, so it remembers DEMO's account with no scenario set. */
async function rememberedByB(): Promise<void> {
  expect((await create(b)).status).toBe(201);
}

describe('a create decided on a remembered account', () => {
  it('is one script call once the key is remembered', async () => {
    // The first reads the account and the scenario names (one call), the domain by name and by id, then writes.
    expect(await commandsOf(b, () => create(b))).toBe(4);
    expect(await commandsOf(b, () => create(b))).toBe(1);
    expect(await commandsOf(b, () => create(b))).toBe(1);
  });

  it('an update or a delete still reads first (only a create is decided on a remembered account)', async () => {
    const made = await create(b);
    const id = (made.body as { id: string }).id;
    expect(await commandsOf(b, () => b.app.request.put(`/links/${id}`).set('x-api-key', DEMO).send({ destinationUrl: 'https://example.com/moved' }))).toBe(3);
    expect(await commandsOf(b, () => b.app.request.delete(`/links/${id}`).set('x-api-key', DEMO))).toBe(3);
  });

  it('answers by a link limit set through another instance', async () => {
    await rememberedByB();
    const links = (await b.app.linksOf(DEMO)).length;
    expect((await a.app.request.put(`/__admin/accounts/${DEMO}/limit`).send({ linkLimit: links })).status).toBe(200);
    const refused = await create(b);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'LINK_LIMIT_REACHED', errorDescription: `The account has reached its limit of ${links} links` });
    expect(await b.app.linksOf(DEMO)).toHaveLength(links);
  });

  it('answers by a global scenario, and by a key scenario, switched through another instance', async () => {
    await rememberedByB();
    await a.app.request.put('/__admin/scenario').send({ name: 'not-found' });
    expect((await create(b)).status).toBe(404);
    await a.app.request.put('/__admin/scenario').send({ name: null });
    expect((await create(b)).status).toBe(201);
    await a.app.request.put('/__admin/scenario').send({ name: 'link-limit-reached', apiKey: DEMO });
    expect((await create(b)).body).toMatchObject({ code: 'LINK_LIMIT_REACHED' });
  });

  it('an answer given before the transaction (an invalid body) waits for a read: a 401 scenario switched meanwhile wins', async () => {
    await rememberedByB();
    await a.app.request.put('/__admin/scenario').send({ name: 'unauthorized' });
    const res = await create(b, { destinationUrl: 'not a url', domain: 'short.test' });
    expect(res.status).toBe(401);
  });

  it('an invalid body decided again (the account changed meanwhile) is refused again, and nothing is stored', async () => {
    await rememberedByB();
    const links = (await b.app.linksOf(DEMO)).length;
    expect((await a.app.request.put(`/__admin/accounts/${DEMO}/limit`).send({ linkLimit: links + 50 })).status).toBe(200);
    const res = await create(b, { destinationUrl: 'not a url', domain: 'short.test' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errorDescription: expect.stringContaining('destinationUrl') });
    await a.app.request.put('/__admin/scenario').send({ name: 'not-found' });
    expect((await create(b, { destinationUrl: 'not a url', domain: 'short.test' })).status).toBe(400);
    expect(await b.app.linksOf(DEMO)).toHaveLength(links);
  });

  it('an unknown domain after an unchanged account is still the 404 (the read confirms it)', async () => {
    await rememberedByB();
    const res = await create(b, { ...CREATE, domain: 'nowhere.test' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ errorDescription: "domain 'nowhere.test' not found" });
  });

  it('after a reset through another instance, a key that is gone is a 401, and a key that stays creates in the new data', async () => {
    const made = await a.app.request.post('/__admin/accounts').send({});
    expect(made.status).toBe(201);
    const key = (made.body as { apiKey: string }).apiKey;
    expect((await create(b, CREATE, key)).status).toBe(201);
    await rememberedByB();
    expect((await a.app.request.post('/__admin/reset')).status).toBe(200);
    expect((await create(b, CREATE, key)).status).toBe(401);
    const links = (await a.app.linksOf(DEMO)).length;
    const res = await create(b);
    expect(res.status).toBe(201);
    expect(await a.app.linksOf(DEMO)).toHaveLength(links + 1);
  });
});
