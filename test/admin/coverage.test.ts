// GET /__admin/coverage: per API key, which documented outcomes (operation × status × error code)
// its client has been answered with, and which it has never met.
import { beforeEach, describe, expect, it } from 'vitest';
import { CoverageTracker, MAX_TRACKED_KEYS } from '../../src/core/coverage.js';
import { maskApiKey } from '../../src/core/journal.js';
import { createTestApp, DEMO, LIMITED, OTHER, type TestApp } from '../helpers/test-app.js';
import { expectAdminResponse } from './admin-contract.js';

interface Outcome {
  operationId: string;
  status: number;
  code: string | null;
  count?: number;
}
interface KeyCoverage {
  apiKey: string | null;
  accountId: string | null;
  seen: Outcome[];
  missing: Outcome[];
  unauthenticated?: { withoutKey: number; unknownKey: number };
}
interface Coverage {
  documented: Outcome[];
  accounts: KeyCoverage[];
}

const CREATE = { destinationUrl: 'https://example.com/coverage', domain: 'short.test', tags: [] };
const LIMIT_REACHED = { operationId: 'createLink', status: 400, code: 'LINK_LIMIT_REACHED' };

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

async function coverage(query: Record<string, string> = {}): Promise<Coverage> {
  const res = await t.request.get('/__admin/coverage').query(query);
  expectAdminResponse(res, 'GET', '/__admin/coverage');
  expect(res.status).toBe(200);
  return res.body as Coverage;
}
const forKey = (report: Coverage, key: string | null): KeyCoverage | undefined =>
  report.accounts.find((entry) => entry.apiKey === (key === null ? null : maskApiKey(key)));
const create = (key: string) => t.request.post('/links').set('x-api-key', key).send(CREATE);

describe('GET /__admin/coverage', () => {
  it('documents every operation × status of openapi.yaml, and createLink 400 with LINK_LIMIT_REACHED', async () => {
    const { documented, accounts } = await coverage();
    expect(accounts).toEqual([]);
    const keys = documented.map(({ operationId, status, code }) => `${operationId} ${status} ${code ?? '-'}`);
    expect(keys.sort()).toEqual(
      [
        'createLink 201 -', 'createLink 400 -', 'createLink 400 LINK_LIMIT_REACHED', 'createLink 401 -', 'createLink 404 -',
        'updateLink 200 -', 'updateLink 400 -', 'updateLink 401 -', 'updateLink 404 -',
        'deleteLink 204 -', 'deleteLink 401 -', 'deleteLink 404 -',
      ].sort(),
    );
    expect(documented).toContainEqual(LIMIT_REACHED);
  });

  it('counts what demo-key has seen, and lists what it has not', async () => {
    expect((await create(DEMO)).status).toBe(201);
    expect((await create(DEMO)).status).toBe(201);
    expect((await t.request.delete('/links/lnk_0000000000000000').set('x-api-key', DEMO)).status).toBe(404);
    const demo = forKey(await coverage(), DEMO);
    expect(demo?.accountId).toBe((await t.accountByKey(DEMO))?.id);
    expect(demo?.seen).toEqual(
      expect.arrayContaining([
        { operationId: 'createLink', status: 201, code: null, count: 2 },
        { operationId: 'deleteLink', status: 404, code: null, count: 1 },
      ]),
    );
    expect(demo?.seen).toHaveLength(2);
    expect(demo?.missing).toContainEqual(LIMIT_REACHED);
    expect(demo?.missing).toContainEqual({ operationId: 'updateLink', status: 200, code: null });
    expect(demo?.missing).not.toContainEqual(expect.objectContaining({ operationId: 'createLink', status: 201 }));
    expect(demo?.missing).toHaveLength(10);
  });

  it("limited-key's create shows LINK_LIMIT_REACHED as seen", async () => {
    expect((await create(LIMITED)).status).toBe(400);
    const limited = forKey(await coverage(), LIMITED);
    expect(limited?.seen).toEqual([{ ...LIMIT_REACHED, count: 1 }]);
    expect(limited?.missing).not.toContainEqual(LIMIT_REACHED);
  });

  it('a forced scenario answer counts too', async () => {
    expect((await create(OTHER).set('x-mock-scenario', 'link-limit-reached')).status).toBe(400);
    expect(forKey(await coverage(), OTHER)?.seen).toEqual([{ ...LIMIT_REACHED, count: 1 }]);
  });

  it('requests without a key and with unknown keys are one group, last, that can only miss 401s', async () => {
    expect((await t.request.delete('/links/lnk_0000000000000000')).status).toBe(401);
    for (const key of ['key-aaaa1', 'key-aaaa2']) expect((await create(key)).status).toBe(401);
    expect((await create(DEMO)).status).toBe(201);
    const { accounts } = await coverage();
    expect(accounts.map((entry) => entry.apiKey)).toEqual([maskApiKey(DEMO), null]);
    expect(accounts[1]).toEqual({
      apiKey: null,
      accountId: null,
      seen: expect.arrayContaining([
        { operationId: 'deleteLink', status: 401, code: null, count: 1 },
        { operationId: 'createLink', status: 401, code: null, count: 2 },
      ]),
      missing: [{ operationId: 'updateLink', status: 401, code: null }],
      unauthenticated: { withoutKey: 1, unknownKey: 2 },
    });
    expect(accounts[1]?.seen).toHaveLength(2);
    expect(accounts[0]).not.toHaveProperty('unauthenticated');
  });

  it('has no group entry while every request named an account', async () => {
    await create(DEMO);
    expect((await coverage()).accounts.map((entry) => entry.apiKey)).toEqual([maskApiKey(DEMO)]);
  });

  it('?account=<a key that sent nothing> is an empty list, not a column of "never"', async () => {
    await create(DEMO);
    await create('nobody');
    expect((await coverage({ account: 'nobody' })).accounts).toEqual([]);
    expect((await coverage({ account: OTHER })).accounts).toEqual([]);
  });

  it('DELETE forgets the group too', async () => {
    await create('key-unknown');
    expect((await t.request.delete('/__admin/coverage')).status).toBe(204);
    expect((await coverage()).accounts).toEqual([]);
  });

  it('?account narrows the report to one key', async () => {
    await create(DEMO);
    await create(LIMITED);
    expect((await coverage()).accounts).toHaveLength(2);
    const only = await coverage({ account: DEMO });
    expect(only.accounts.map((entry) => entry.apiKey)).toEqual([maskApiKey(DEMO)]);
    expect(only.accounts[0]?.seen).toEqual([{ operationId: 'createLink', status: 201, code: null, count: 1 }]);
  });

  it('outcomes outside the contract (405, unknown path) are not coverage', async () => {
    await t.request.get('/links').set('x-api-key', DEMO);
    await t.request.get('/v1/links').set('x-api-key', DEMO);
    expect(forKey(await coverage(), DEMO)?.seen ?? []).toEqual([]);
  });

  it('never shows a full key', async () => {
    for (const key of [DEMO, LIMITED, 'sk_live_abcdef123456']) await create(key);
    const res = await t.request.get('/__admin/coverage');
    expect((res.body as Coverage).accounts.map((entry) => entry.apiKey)).toEqual([maskApiKey(DEMO), maskApiKey(LIMITED), null]);
    for (const key of [DEMO, LIMITED, 'sk_live_abcdef123456']) expect(res.text).not.toContain(key);
  });

  it('keeps counting after the journal has forgotten (journal size 2)', async () => {
    t = await createTestApp({ journalSize: 2 });
    for (let i = 0; i < 5; i += 1) await create(DEMO);
    expect(forKey(await coverage(), DEMO)?.seen).toEqual([{ operationId: 'createLink', status: 201, code: null, count: 5 }]);
  });
});

describe('CoverageTracker', () => {
  const documented = [
    { operationId: 'createLink', status: 201, code: null },
    { operationId: 'createLink', status: 401, code: null },
  ];
  const created = documented[0] as (typeof documented)[number];
  const refused = documented[1] as (typeof documented)[number];

  it('unknown keys never use up the tracked keys: a key that names an account is still counted', () => {
    const tracker = new CoverageTracker(documented);
    for (let i = 0; i < MAX_TRACKED_KEYS + 5; i += 1) tracker.record(`unknown-${i}`, null, refused);
    tracker.record('known', 'acc_1', created);
    expect(tracker.report()).toEqual([
      { apiKey: maskApiKey('known'), accountId: 'acc_1', seen: [{ ...created, count: 1 }], missing: [refused] },
      { apiKey: null, accountId: null, seen: [{ ...refused, count: MAX_TRACKED_KEYS + 5 }], missing: [], unauthenticated: { withoutKey: 0, unknownKey: MAX_TRACKED_KEYS + 5 } },
    ]);
  });

  it('stops adding keys at MAX_TRACKED_KEYS, and keeps counting those it has', async () => {
    const tracker = new CoverageTracker(documented);
    for (let i = 0; i <= MAX_TRACKED_KEYS; i += 1) tracker.record(`key-${i}`, `acc_${i}`, created);
    tracker.record('key-0', 'acc_0', created);
    const report = await tracker.report();
    expect(report).toHaveLength(MAX_TRACKED_KEYS);
    expect(report[0]?.seen).toEqual([{ ...created, count: 2 }]);
  });
});
