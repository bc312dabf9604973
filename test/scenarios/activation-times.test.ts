// PUT /__admin/scenario with `times` (issue 41): the scenario shapes the next N requests it
// actually shapes (a forced answer, a fault or a delay; a request it lets through untouched uses
// nothing), globally or for one key, then clears itself. GET /__admin/scenario shows the uses
// left. Requests that name a scenario themselves (x-mock-scenario, Prefer) never use one. Runs on
// every store (the unit and unit-redis projects); two real instances on Redis, racing, are
// test/store/redis-scenario-times.test.ts.
import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_SCENARIO_TIMES } from '../../src/core/scenario-uses.js';
import { expectError, expectLink } from '../helpers/contract-assert.js';
import { createTestApp, DEMO, OTHER, type TestApp } from '../helpers/test-app.js';
import { adminContract, expectAdminResponse } from '../admin/admin-contract.js';

const CREATE = { destinationUrl: 'https://example.com/times', domain: 'short.test', tags: [] };

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

async function put(body: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await t.request.put('/__admin/scenario').send(body);
  expectAdminResponse(res, 'PUT', '/__admin/scenario');
  return { status: res.status, body: res.body as Record<string, unknown> };
}

async function shown(): Promise<Record<string, unknown>> {
  const res = await t.request.get('/__admin/scenario');
  expectAdminResponse(res, 'GET', '/__admin/scenario');
  return res.body as Record<string, unknown>;
}

async function createStatus(key = DEMO, headers: Record<string, string> = {}): Promise<number> {
  const res = await t.request.post('/links').set('x-api-key', key).set(headers).send(CREATE);
  if (res.status === 201) expectLink(res, 201);
  else expectError(res, res.status, res.body?.code ? { code: res.body.code } : {});
  return res.status;
}

describe('a scenario set with times', () => {
  it('MAX_SCENARIO_TIMES is the admin contract maximum for times', () => {
    const schemas = (adminContract.document as unknown as { components: { schemas: Record<string, { minimum?: number; maximum?: number }> } }).components.schemas;
    expect(schemas['ScenarioTimes']).toMatchObject({ minimum: 1, maximum: MAX_SCENARIO_TIMES });
  });

  it('times: 2 (global): exactly two forced answers, then normal ones; GET shows the uses left, then no scenario', async () => {
    expect(await put({ name: 'link-limit-reached', times: 2 })).toEqual({ status: 200, body: { active: 'link-limit-reached', timesLeft: 2 } });
    expect(await shown()).toEqual({ active: 'link-limit-reached', byKey: {}, timesLeft: { global: 2, byKey: {} } });
    expect(await createStatus()).toBe(400);
    expect(await shown()).toEqual({ active: 'link-limit-reached', byKey: {}, timesLeft: { global: 1, byKey: {} } });
    expect(await createStatus(OTHER)).toBe(400);
    expect(await shown()).toEqual({ active: null, byKey: {} });
    expect([await createStatus(), await createStatus(OTHER)]).toEqual([201, 201]);
    const journal = (await t.request.get('/__admin/requests')).body as { entries: Array<{ status: number; scenario: string | null }> };
    expect(journal.entries.map((entry) => [entry.status, entry.scenario])).toEqual([
      [400, 'link-limit-reached'],
      [400, 'link-limit-reached'],
      [201, null],
      [201, null],
    ]);
  });

  it('times: 2 for one key: that key two forced answers, other keys none and the global scenario untouched', async () => {
    await put({ name: 'not-found' });
    expect(await put({ name: 'link-limit-reached', apiKey: DEMO, times: 2 })).toEqual({ status: 200, body: { active: 'link-limit-reached', apiKey: DEMO, timesLeft: 2 } });
    expect(await shown()).toEqual({ active: 'not-found', byKey: { [DEMO]: 'link-limit-reached' }, timesLeft: { byKey: { [DEMO]: 2 } } });
    expect(await createStatus(OTHER)).toBe(404);
    expect([await createStatus(), await createStatus()]).toEqual([400, 400]);
    expect(await shown()).toEqual({ active: 'not-found', byKey: {} });
    // Its own scenario gone, the key falls back to the global one.
    expect(await createStatus()).toBe(404);
  });

  it('a request the scenario lets through, and one that names a scenario itself, use nothing', async () => {
    await put({ name: 'link-limit-reached', times: 1 });
    // link-limit-reached shapes createLink only: a delete passes through untouched (its own 404).
    const deleted = await t.request.delete('/links/no-such-link').set('x-api-key', DEMO);
    expectError(deleted, 404, {});
    expect(deleted.body.errorDescription).not.toMatch(/scenario/);
    expect(await createStatus(DEMO, { 'x-mock-scenario': 'not-found' })).toBe(404);
    expect(await createStatus(DEMO, { prefer: 'code=401' })).toBe(401);
    expect(await shown()).toMatchObject({ active: 'link-limit-reached', timesLeft: { global: 1 } });
    expect([await createStatus(), await createStatus()]).toEqual([400, 201]);
  });

  it('setting it again starts the count over; setting it without times makes it stay until cleared', async () => {
    await put({ name: 'not-found', times: 3 });
    expect(await createStatus()).toBe(404);
    await put({ name: 'not-found', times: 1 });
    expect(await shown()).toMatchObject({ timesLeft: { global: 1 } });
    await put({ name: 'not-found' });
    expect(await shown()).toEqual({ active: 'not-found', byKey: {} });
    expect([await createStatus(), await createStatus()]).toEqual([404, 404]);
  });

  it(`takes ${MAX_SCENARIO_TIMES} (the bound) and POST /__admin/reset keeps the count`, async () => {
    expect((await put({ name: 'not-found', times: MAX_SCENARIO_TIMES })).status).toBe(200);
    expect(await createStatus()).toBe(404);
    expectAdminResponse(await t.request.post('/__admin/reset'), 'POST', '/__admin/reset');
    expect(await shown()).toMatchObject({ timesLeft: { global: MAX_SCENARIO_TIMES - 1 } });
  });

  it.each([
    ['0', 0, /times/],
    ['-1', -1, /times/],
    ['1.5', 1.5, /times/],
    ['past the bound', MAX_SCENARIO_TIMES + 1, /times/],
    ['huge', 1e300, /times/],
    ['a string', '2', /times/],
    ['null', null, /times/],
    ['with name null (clearing takes no count)', 2, /times/],
  ])('times %s: 400 Error object, nothing changes', async (what, times, mentions) => {
    await put({ name: 'not-found', apiKey: OTHER, times: 2 });
    const before = await shown();
    const res = await t.request.put('/__admin/scenario').send({ name: what.startsWith('with name null') ? null : 'link-limit-reached', times });
    expectAdminResponse(res, 'PUT', '/__admin/scenario');
    expectError(res, 400, { mentions });
    expect(await shown()).toEqual(before);
    expect(await createStatus()).toBe(201);
  });
});
