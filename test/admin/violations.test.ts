// GET and DELETE /__admin/violations: the drift report of what the app recorded. The exchanges
// carry violations the way the validating proxy leaves them (res.locals, read by the recorder),
// through a handler of the test's own, so they go the real way: recorder → journal → violations.
import { beforeEach, describe, expect, it } from 'vitest';
import { maskApiKey, type Violation } from '../../src/core/journal.js';
import type { ViolationReport } from '../../src/core/violations.js';
import { VIOLATIONS } from '../../src/http/record-requests.js';
import { createTestApp, DEMO, OTHER, type TestApp } from '../helpers/test-app.js';
import { expectAdminResponse } from './admin-contract.js';

const CREATE = { destinationUrl: 'https://example.com/drift', domain: 'short.test', tags: [] };
const MISSING_ID: Violation = { side: 'response', rule: 'response body: must have required property id' };
const EXTRA: Violation = { side: 'request', rule: 'request body: must NOT have additional properties' };

/** What the next createLink exchange breaks; [] for none. */
let broken: Violation[] = [];
let t: TestApp;
beforeEach(async () => {
  broken = [];
  t = await createTestApp({
    handlers: {
      createLink: (_req, res) => {
        if (broken.length > 0) res.locals[VIOLATIONS] = broken;
        res.status(400).json({ errorDescription: 'answered by the test' });
      },
    },
  });
});

const create = (key: string, violations: Violation[]) => {
  broken = violations;
  return t.request.post('/links').set('x-api-key', key).send(CREATE).expect(400);
};
async function report(): Promise<ViolationReport> {
  const res = await t.request.get('/__admin/violations');
  expectAdminResponse(res, 'GET', '/__admin/violations');
  expect(res.status).toBe(200);
  return res.body as ViolationReport;
}

describe('GET /__admin/violations', () => {
  it('is empty while no exchange broke the contract (a mock that is not a proxy)', async () => {
    await create(DEMO, []);
    expect(await report()).toEqual({ distinct: 0, dropped: 0, groups: [] });
  });

  it('lists each distinct violation once per operation and status, counted, with the first exchange as example (key masked)', async () => {
    await create(DEMO, [{ ...MISSING_ID, detail: 'first' }]);
    await create(OTHER, [{ ...MISSING_ID, detail: 'second' }, EXTRA]);
    const { distinct, dropped, groups } = await report();
    expect({ distinct, dropped }).toEqual({ distinct: 2, dropped: 0 });
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ operationId: 'createLink', method: 'POST', status: 400 });
    const [missing, extra] = groups[0]?.violations ?? [];
    expect(missing).toMatchObject({ ...MISSING_ID, count: 2 });
    expect(missing?.example).toEqual({
      time: missing?.firstSeen,
      method: 'POST',
      path: '/links',
      apiKey: maskApiKey(DEMO),
      status: 400,
      requestBody: CREATE,
      responseBody: { errorDescription: 'answered by the test' },
      detail: 'first',
    });
    expect(missing!.lastSeen >= missing!.firstSeen).toBe(true);
    expect(extra).toMatchObject({ ...EXTRA, count: 1, example: { apiKey: maskApiKey(OTHER) } });
    expect(extra?.example).not.toHaveProperty('detail');
  });

  it('the journal entry carries the same violations', async () => {
    await create(DEMO, [MISSING_ID]);
    const res = await t.request.get('/__admin/requests');
    expect(res.body.entries[0]).toMatchObject({ violations: [MISSING_ID] });
  });
});

// Issue 25 item 5: a client suite that tests its 400 paths on purpose must not fail a gate on the upstream.
describe('GET /__admin/violations?side=', () => {
  it('keeps only the violations of that side (groups left empty go), counted again; both is the whole report', async () => {
    await create(DEMO, [MISSING_ID, EXTRA]);
    await create(DEMO, [EXTRA]);
    const side = async (value: string): Promise<ViolationReport> => {
      const res = await t.request.get(`/__admin/violations?side=${value}`);
      expectAdminResponse(res, 'GET', '/__admin/violations');
      expect(res.status).toBe(200);
      return res.body as ViolationReport;
    };
    const response = await side('response');
    expect(response).toMatchObject({ distinct: 1, dropped: 0 });
    expect(response.groups.flatMap((group) => group.violations.map((violation) => violation.side))).toEqual(['response']);
    const request = await side('request');
    expect(request).toMatchObject({ distinct: 1, groups: [{ violations: [{ ...EXTRA, count: 2 }] }] });
    expect(await side('both')).toEqual(await report());
  });

  it('a side with nothing to report is an empty report', async () => {
    await create(DEMO, [EXTRA]);
    const res = await t.request.get('/__admin/violations?side=response');
    expect(res.body).toEqual({ distinct: 0, dropped: 0, groups: [] });
  });

  it('refuses another value with a 400 Error object', async () => {
    const res = await t.request.get('/__admin/violations?side=upstream');
    expectAdminResponse(res, 'GET', '/__admin/violations');
    expect(res.status).toBe(400);
    expect(res.body.errorDescription).toMatch(/side/);
    expect(res.body.errorDescription).toMatch(/request, response, both/);
  });
});

describe('DELETE /__admin/violations', () => {
  it('forgets every violation (204); later ones count from zero', async () => {
    await create(DEMO, [MISSING_ID]);
    await create(DEMO, [MISSING_ID]);
    const res = await t.request.delete('/__admin/violations');
    expectAdminResponse(res, 'DELETE', '/__admin/violations');
    expect(res.status).toBe(204);
    expect(await report()).toEqual({ distinct: 0, dropped: 0, groups: [] });
    await create(DEMO, [MISSING_ID]);
    expect((await report()).groups[0]?.violations[0]?.count).toBe(1);
  });
});
