// Issue 25, item 3: a refusal of the mock's own controls (an unknown x-mock-scenario, a bad or
// undocumented Prefer code) is the mock speaking, not the API: the journal records it with the
// verdict 'mock-control' and the body the client sent, coverage does not count it, and
// `pact export` leaves it out, as it leaves out answers a scenario shaped.
import { beforeEach, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/core/journal.js';
import { buildPact } from '../../src/pact/export.js';
import { expectAdminResponse } from '../admin/admin-contract.js';
import { createTestApp, DEMO, type TestApp } from '../helpers/test-app.js';

const CREATE = { destinationUrl: 'https://example.com/control', domain: 'short.test', tags: [{ name: 'c' }] };

const REFUSALS = [
  { control: 'an unknown x-mock-scenario', headers: { 'x-mock-scenario': 'nope' }, says: /unknown scenario 'nope'/ },
  { control: 'a Prefer code that is not a status', headers: { prefer: 'code=abc' }, says: /Prefer: code=abc is not an HTTP status/ },
  { control: 'a Prefer code createLink does not document', headers: { prefer: 'code=418' }, says: /Prefer: code=418 is not documented for createLink/ },
];

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

async function journal(): Promise<JournalEntry[]> {
  const res = await t.request.get('/__admin/requests');
  expectAdminResponse(res, 'GET', '/__admin/requests');
  return (res.body as { entries: JournalEntry[] }).entries;
}

async function seenOutcomes(): Promise<string[]> {
  const res = await t.request.get('/__admin/coverage');
  const accounts = (res.body as { accounts: { seen: { operationId: string; status: number }[] }[] }).accounts;
  return accounts.flatMap((account) => account.seen.map((outcome) => `${outcome.operationId} ${outcome.status}`));
}

describe.each(REFUSALS)('$control', ({ headers, says }) => {
  const refused = () => t.request.post('/links').set('x-api-key', DEMO).set(headers).send(CREATE);

  it('is answered 400 and journaled as mock-control, with the body the client sent', async () => {
    const res = await refused();
    expect(res.status).toBe(400);
    expect((res.body as { errorDescription: string }).errorDescription).toMatch(says);
    const [entry] = await journal();
    expect(entry).toMatchObject({ operationId: 'createLink', status: 400, verdict: 'mock-control', scenario: null, requestBody: CREATE });
    expect((entry?.responseBody as { errorDescription: string }).errorDescription).toMatch(says);
  });

  it('is not counted by coverage', async () => {
    await refused();
    expect(await seenOutcomes()).toEqual([]);
  });

  it('is left out of pact export, with the reason', async () => {
    await refused();
    const accounts = [{ id: (await t.accountByKey(DEMO))?.id ?? '', apiKey: DEMO }];
    const { pact, skipped } = buildPact({ consumer: 'web', provider: 'api', entries: await journal(), accounts, version: 'test', source: 'test' });
    expect(pact.interactions).toEqual([]);
    expect(skipped).toEqual({ "a refusal of the mock's own controls (x-mock-scenario, Prefer)": 1 });
  });
});

it('a body that cannot be read is journaled as null: the refusal is still of the control', async () => {
  const res = await t.request.post('/links').set('x-api-key', DEMO).set('x-mock-scenario', 'nope').set('content-type', 'application/json').send('{"destinationUrl": ');
  expect(res.status).toBe(400);
  expect((res.body as { errorDescription: string }).errorDescription).toMatch(/unknown scenario 'nope'/);
  const [entry] = await journal();
  expect(entry).toMatchObject({ verdict: 'mock-control', requestBody: null });
});

it('a body over the 1 MiB limit is not kept: the answer is still the control refusal', async () => {
  const large = { ...CREATE, title: 'x'.repeat(1_100_000) };
  const res = await t.request.post('/links').set('x-api-key', DEMO).set('x-mock-scenario', 'nope').send(large);
  expect(res.status).toBe(400);
  expect((res.body as { errorDescription: string }).errorDescription).toMatch(/unknown scenario 'nope'/);
  const [entry] = await journal();
  expect(entry).toMatchObject({ verdict: 'mock-control', requestBody: null });
});

it('a known scenario still shapes the answer, and is still counted by coverage', async () => {
  const res = await t.request.post('/links').set('x-api-key', DEMO).set('prefer', 'code=404').send(CREATE);
  expect(res.status).toBe(404);
  const [entry] = await journal();
  expect(entry).toMatchObject({ verdict: 'ok', scenario: 'prefer-code-404', requestBody: CREATE });
  expect(await seenOutcomes()).toEqual(['createLink 404']);
});
