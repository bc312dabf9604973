// Scenarios scoped to one API key (PUT /__admin/scenario with apiKey): they shape only that key's
// requests, count `times` on that key's own counters, and come after the x-mock-scenario header
// and Prefer but before the global scenario. Runs on every store.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Scenario } from '../../src/core/scenarios.js';
import { expectError, expectLink } from '../helpers/contract-assert.js';
import { builtInScenarios, createTestApp, DEMO, LIMITED, OTHER, type TestApp } from '../helpers/test-app.js';
import { expectAdminResponse } from './admin-contract.js';

const TWICE: Scenario = {
  name: 'twice',
  description: 'The first two creates answer 404.',
  source: 'test',
  rules: [{ match: { operations: ['createLink'] }, respond: { status: 404, body: { errorDescription: 'forced by twice' } }, times: 2 }],
};
const CREATE = { destinationUrl: 'https://example.com/keyed', domain: 'short.test', tags: [] };

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ scenarios: [...builtInScenarios, TWICE] });
});

async function setScenario(body: { name: string | null; apiKey?: string }): Promise<void> {
  const res = await t.request.put('/__admin/scenario').send(body);
  expectAdminResponse(res, 'PUT', '/__admin/scenario');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toEqual(body.apiKey === undefined ? { active: body.name } : { active: body.name, apiKey: body.apiKey });
}

/** The status a create with this key gets (and whether the body is what the contract allows). */
async function createStatus(key: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await t.request.post('/links').set('x-api-key', key).set(headers).send(CREATE);
  if (res.status === 201) expectLink(res, 201);
  else expectError(res, res.status, res.body?.code ? { code: res.body.code } : {});
  return res.status;
}

async function active(): Promise<{ active: string | null; byKey: Record<string, string> }> {
  const res = await t.request.get('/__admin/scenario');
  expectAdminResponse(res, 'GET', '/__admin/scenario');
  return res.body;
}

describe('a scenario for one API key', () => {
  it('shapes only that key requests; others (and the global scenario) are untouched', async () => {
    await setScenario({ name: 'not-found', apiKey: DEMO });
    expect(await createStatus(DEMO)).toBe(404);
    expect(await createStatus(OTHER)).toBe(201);
    expect(await active()).toEqual({ active: null, byKey: { [DEMO]: 'not-found' } });
    const list = await t.request.get('/__admin/scenarios');
    expectAdminResponse(list, 'GET', '/__admin/scenarios');
    expect(list.body).toMatchObject({ active: null, byKey: { [DEMO]: 'not-found' } });
    const journal = await t.request.get('/__admin/requests');
    expect((journal.body as { entries: { status: number; scenario: string | null }[] }).entries.map((e) => [e.status, e.scenario])).toEqual([
      [404, 'not-found'],
      [201, null],
    ]);
  });

  it('works for a key made with POST /__admin/accounts, and for a key that names no account yet', async () => {
    const made = (await t.request.post('/__admin/accounts').send({})).body as { apiKey: string };
    await setScenario({ name: 'not-found', apiKey: made.apiKey });
    expect(await createStatus(made.apiKey)).toBe(404);
    await setScenario({ name: 'not-found', apiKey: 'not-yet-a-key' });
    expect(await active()).toEqual({ active: null, byKey: { [made.apiKey]: 'not-found', 'not-yet-a-key': 'not-found' } });
  });

  it('precedence: x-mock-scenario, then Prefer: code=, then the key own scenario, then the global one', async () => {
    await setScenario({ name: 'unauthorized' });
    await setScenario({ name: 'not-found', apiKey: DEMO });
    expect(await createStatus(DEMO)).toBe(404);
    expect(await createStatus(OTHER)).toBe(401);
    expect(await createStatus(DEMO, { 'x-mock-scenario': 'invalid-request' })).toBe(400);
    expect(await createStatus(DEMO, { prefer: 'code=401' })).toBe(401);
    expect(await createStatus(DEMO, { prefer: 'code=201' })).toBe(201);
    await setScenario({ name: null, apiKey: DEMO });
    expect(await createStatus(DEMO)).toBe(401);
  });

  it('times: each key counts its own uses, apart from the global counters', async () => {
    await setScenario({ name: 'twice' });
    await setScenario({ name: 'twice', apiKey: DEMO });
    await setScenario({ name: 'twice', apiKey: OTHER });
    const statuses = async (key: string) => [await createStatus(key), await createStatus(key), await createStatus(key)];
    expect(await statuses(DEMO)).toEqual([404, 404, 201]);
    expect(await statuses(OTHER)).toEqual([404, 404, 201]);
    // LIMITED has no scenario of its own: the global one, whose counters the keys above never touched.
    expect(await createStatus(LIMITED)).toBe(404);
  });

  it('setting a key scenario again starts that key counters over, and no one else', async () => {
    await setScenario({ name: 'twice', apiKey: DEMO });
    await setScenario({ name: 'twice', apiKey: OTHER });
    expect([await createStatus(DEMO), await createStatus(DEMO), await createStatus(DEMO)]).toEqual([404, 404, 201]);
    expect(await createStatus(OTHER)).toBe(404);
    await setScenario({ name: 'twice', apiKey: DEMO });
    expect(await createStatus(DEMO)).toBe(404);
    expect([await createStatus(OTHER), await createStatus(OTHER)]).toEqual([404, 201]);
  });

  it('clearing: {name: null, apiKey} clears that key only; setting or clearing the global scenario keeps key scenarios', async () => {
    await setScenario({ name: 'not-found', apiKey: DEMO });
    await setScenario({ name: 'not-found', apiKey: OTHER });
    await setScenario({ name: 'unauthorized' });
    await setScenario({ name: null });
    expect(await active()).toEqual({ active: null, byKey: { [DEMO]: 'not-found', [OTHER]: 'not-found' } });
    await setScenario({ name: null, apiKey: DEMO });
    expect(await active()).toEqual({ active: null, byKey: { [OTHER]: 'not-found' } });
    expect(await createStatus(DEMO)).toBe(201);
    expect(await createStatus(OTHER)).toBe(404);
    await setScenario({ name: null, apiKey: 'never-set' });
    expect(await active()).toEqual({ active: null, byKey: { [OTHER]: 'not-found' } });
  });

  it('POST /__admin/reset keeps the scenarios (global and per key) and starts every times counter over', async () => {
    await setScenario({ name: 'twice' });
    await setScenario({ name: 'twice', apiKey: DEMO });
    expect([await createStatus(DEMO), await createStatus(DEMO), await createStatus(DEMO)]).toEqual([404, 404, 201]);
    expect([await createStatus(OTHER), await createStatus(OTHER), await createStatus(OTHER)]).toEqual([404, 404, 201]);
    expectAdminResponse(await t.request.post('/__admin/reset'), 'POST', '/__admin/reset');
    expect(await active()).toEqual({ active: 'twice', byKey: { [DEMO]: 'twice' } });
    expect(await createStatus(DEMO)).toBe(404);
    expect(await createStatus(OTHER)).toBe(404);
  });

  it.each([
    ['an unknown scenario', { name: 'nope', apiKey: DEMO }, /unknown scenario 'nope'/],
    ['an empty key', { name: 'not-found', apiKey: '' }, /apiKey/],
    ['a key with a space', { name: 'not-found', apiKey: 'a b' }, /apiKey/],
    ['a key that is not a string', { name: 'not-found', apiKey: 7 }, /apiKey/],
  ])('400 for %s, and nothing changes', async (_what, body, mentions) => {
    const res = await t.request.put('/__admin/scenario').send(body);
    expectAdminResponse(res, 'PUT', '/__admin/scenario');
    expectError(res, 400, { mentions });
    expect(await active()).toEqual({ active: null, byKey: {} });
  });

  it('a key scenario whose file is gone after a reload is not listed and shapes nothing', async () => {
    await setScenario({ name: 'twice', apiKey: DEMO });
    await t.scenarios.replace(builtInScenarios);
    expect(await active()).toEqual({ active: null, byKey: {} });
    expect(await createStatus(DEMO)).toBe(201);
  });
});
