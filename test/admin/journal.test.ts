// The request journal: what each entry carries, masking, filters, clearing, its bound (in the
// app and by construction), and the live stream over a real socket.
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { capBody, Journal, maskApiKey, type JournalEntry } from '../../src/core/journal.js';
import type { JournalStore } from '../../src/core/traffic-state.js';
import { createTestApp, DEMO, OTHER, type TestApp } from '../helpers/test-app.js';
import { expectAdminResponse } from './admin-contract.js';

const CREATE = { destinationUrl: 'https://example.com/journal', domain: 'short.test', tags: [{ name: 'j' }] };
const WAIT_MS = 5_000;

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

const create = (key: string, body: object = CREATE) => t.request.post('/links').set('x-api-key', key).send(body);
async function journal(query: Record<string, string | number> = {}): Promise<JournalEntry[]> {
  const res = await t.request.get('/__admin/requests').query(query);
  expectAdminResponse(res, 'GET', '/__admin/requests');
  expect(res.status).toBe(200);
  return (res.body as { entries: JournalEntry[] }).entries;
}
/** The next entry the journal records, event-driven and bounded. */
function nextEntry(of: JournalStore = t.journal): Promise<JournalEntry> {
  return once(of, 'entry', { signal: AbortSignal.timeout(WAIT_MS) }).then(([entry]) => entry as JournalEntry);
}

describe('journal entries', () => {
  it('carry time, method, path, operation, masked key, account, status, duration, verdict and both bodies', async () => {
    const before = Date.now();
    const res = await create(DEMO);
    const [entry] = await journal();
    const demoId = (await t.accountByKey(DEMO))?.id;
    expect(entry).toEqual({
      seq: 1,
      time: expect.any(String),
      method: 'POST',
      path: '/links',
      operationId: 'createLink',
      apiKey: maskApiKey(DEMO),
      accountId: demoId,
      status: 201,
      durationMs: expect.any(Number),
      scenario: null,
      fault: null,
      verdict: 'ok',
      requestBody: CREATE,
      responseBody: res.body,
      variety: null,
    });
    expect(Date.parse(entry?.time ?? '')).toBeGreaterThanOrEqual(before - 1000);
    expect(entry?.durationMs).toBeGreaterThanOrEqual(0);
  });

  it.each([
    { what: 'a forced scenario answer', headers: { 'x-mock-scenario': 'not-found' }, body: CREATE, expected: { status: 404, scenario: 'not-found', verdict: 'ok' } },
    { what: 'a schema-invalid body', headers: {}, body: { ...CREATE, title: 'x' }, expected: { status: 400, scenario: null, verdict: 'invalid-request' } },
    { what: 'a rule of the API (slug taken)', headers: {}, body: { ...CREATE, slug: 'dup' }, expected: { status: 400, scenario: null, verdict: 'ok' }, first: true },
  ])('record $what', async ({ headers, body, expected, first }) => {
    if (first) await create(DEMO, body);
    const res = await t.request.post('/links').set('x-api-key', DEMO).set(headers).send(body);
    expect(res.status).toBe(expected.status);
    const entries = await journal();
    expect(entries.at(-1)).toMatchObject({ ...expected, operationId: 'createLink', requestBody: body, responseBody: res.body });
  });

  // A 401 is decided before the body is read (D14); the body is read for the journal all the same,
  // so a client team can see what their unauthenticated call sent (issue 37 C3).
  it.each([
    { what: 'without a key', headers: {} as Record<string, string> },
    { what: 'with a key that names no account', headers: { 'x-api-key': 'sk_nobody_123456' } },
    { what: 'under the unauthorized scenario', headers: { 'x-api-key': DEMO, 'x-mock-scenario': 'unauthorized' } },
    { what: 'under Prefer: code=401', headers: { 'x-api-key': DEMO, prefer: 'code=401' } },
  ])('record the body of a 401 $what', async ({ headers }) => {
    const res = await t.request.post('/links').set(headers).send(CREATE);
    expect(res.status).toBe(401);
    expect((await journal()).at(-1)).toMatchObject({ status: 401, operationId: 'createLink', requestBody: CREATE, responseBody: res.body });
  });

  it('a 401 whose body cannot be read is still the 401, and the entry has no body', async () => {
    const res = await t.request.post('/links').set('content-type', 'application/json').send('{"destinationUrl": ');
    expect(res.status).toBe(401);
    expect((await journal()).at(-1)).toMatchObject({ status: 401, requestBody: null });
  });

  it("record a network fault with verdict 'fault' and no status", async () => {
    const recorded = nextEntry();
    await expect(create(DEMO).set('x-mock-scenario', 'flaky-network')).rejects.toThrow();
    expect(await recorded).toMatchObject({ operationId: 'createLink', status: null, fault: 'connection-reset', verdict: 'fault', scenario: 'flaky-network' });
    expect((await journal()).at(-1)).toMatchObject({ status: null, verdict: 'fault' });
  });

  it.each([DEMO, 'sk_live_abcdef123456'])('never hold the full API key %s anywhere', async (key) => {
    await create(key);
    await t.request.delete('/links/lnk_0000000000000000').set('x-api-key', key);
    await t.request.put('/links/nope').set('x-api-key', key).send({ tags: [] });
    const res = await t.request.get('/__admin/requests');
    expect(res.body).toMatchObject({ entries: [{ apiKey: maskApiKey(key) }, {}, {}] });
    expect(res.text).not.toContain(key);
    expect(JSON.stringify(await t.journal.list())).not.toContain(key);
  });

  it.each(['k', 'ab', 'abc', DEMO, 'sk_live_abcdef123456', 'x'.repeat(64)])('maskApiKey(%s) never shows the full key', (key) => {
    expect(maskApiKey(key)).not.toContain(key);
    expect(maskApiKey(key).length).toBeGreaterThanOrEqual(3);
  });
});

describe('filters, clearing and what is not journaled', () => {
  beforeEach(async () => {
    await create(DEMO);
    await t.request.delete('/links/lnk_0000000000000000').set('x-api-key', DEMO);
    await t.request.post('/links').set('x-api-key', OTHER).set('x-mock-scenario', 'link-limit-reached').send(CREATE);
    await t.request.delete('/links/lnk_0000000000000000').set('x-api-key', OTHER);
    await t.request.delete('/links/lnk_0000000000000000');
  });

  it.each([
    { query: {}, seqs: [1, 2, 3, 4, 5] },
    { query: { account: DEMO }, seqs: [1, 2] },
    { query: { account: OTHER }, seqs: [3, 4] },
    { query: { operation: 'deleteLink' }, seqs: [2, 4, 5] },
    { query: { status: 404 }, seqs: [2, 4] },
    { query: { status: 401 }, seqs: [5] },
    { query: { scenario: 'link-limit-reached' }, seqs: [3] },
    { query: { limit: 2 }, seqs: [4, 5] },
    { query: { operation: 'deleteLink', status: 404, limit: 1 }, seqs: [4] },
    { query: { account: 'no-such-key' }, seqs: [] },
  ] as { query: Record<string, string | number>; seqs: number[] }[])('GET /__admin/requests?$query → seq $seqs', async ({ query, seqs }) => {
    expect((await journal(query)).map((entry) => entry.seq)).toEqual(seqs);
  });

  it('filters by account id as well as by key', async () => {
    const id = (await t.accountByKey(OTHER))?.id ?? '';
    expect((await journal({ account: id })).map((entry) => entry.seq)).toEqual([3, 4]);
  });

  it.each([{ status: 'abc' }, { limit: 0 }, { bogus: '1' }])('a bad filter %o is a 400', async (query) => {
    const res = await t.request.get('/__admin/requests').query(query);
    expectAdminResponse(res, 'GET', '/__admin/requests');
    expect(res.status).toBe(400);
  });

  it('DELETE /__admin/requests empties it', async () => {
    const res = await t.request.delete('/__admin/requests');
    expectAdminResponse(res, 'DELETE', '/__admin/requests');
    expect(res.status).toBe(204);
    expect(await journal()).toEqual([]);
  });

  it('DELETE /__admin/requests?limit=2 is a documented 400 and keeps the whole journal (it takes no filter)', async () => {
    const res = await t.request.delete('/__admin/requests').query({ limit: 2 });
    expectAdminResponse(res, 'DELETE', '/__admin/requests');
    expect(res.body).toEqual({ errorDescription: "query: unknown parameter 'limit'" });
    expect((await journal()).map((entry) => entry.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it('admin traffic, the contract and the docs are not journaled', async () => {
    await t.request.delete('/__admin/requests');
    for (const path of ['/__admin/health', '/__admin/requests', '/__admin/coverage', '/__admin/openapi.yaml', '/openapi.yaml', '/docs']) await t.request.get(path);
    await t.request.post('/__admin/reset');
    expect(await journal()).toEqual([]);
  });
});

describe('bounded', () => {
  it('--journal-size 5: after 20 requests exactly the newest 5 are kept', async () => {
    t = await createTestApp({ journalSize: 5 });
    for (let i = 0; i < 20; i += 1) await t.request.delete(`/links/missing-${i}`).set('x-api-key', DEMO);
    const res = await t.request.get('/__admin/requests');
    expectAdminResponse(res, 'GET', '/__admin/requests');
    const body = res.body as { size: number; entries: JournalEntry[] };
    expect(body.size).toBe(5);
    expect(body.entries.map((entry) => [entry.seq, entry.path])).toEqual([16, 17, 18, 19, 20].map((seq) => [seq, `/links/missing-${seq - 1}`]));
  });

  it('the default size is 1000', async () => {
    expect((await t.request.get('/__admin/requests')).body).toMatchObject({ size: 1000 });
  });

  it('Journal keeps memory flat by construction: its ring never grows', () => {
    const small = new Journal(3);
    const ring = (small as unknown as { ring: unknown[] }).ring;
    for (let i = 0; i < 10_000; i += 1) {
      small.add({ time: '', method: 'GET', path: `/${i}`, operationId: null, apiKey: null, accountId: null, status: 200, durationMs: 0, scenario: null, fault: null, verdict: 'ok', requestBody: null, responseBody: null });
    }
    expect((small as unknown as { ring: unknown[] }).ring).toBe(ring);
    expect(ring).toHaveLength(3);
    expect(small.list().map((entry) => entry.seq)).toEqual([9998, 9999, 10_000]);
    small.clear();
    expect(ring).toHaveLength(3);
    expect(small.list()).toEqual([]);
  });

  it('capBody cuts a 100 KB body to a preview, and keeps small bodies as they are', () => {
    const big = { destinationUrl: `https://example.com/${'x'.repeat(100 * 1024)}` };
    const capped = capBody(big) as { truncated: boolean; chars: number; preview: string };
    expect(capped).toMatchObject({ truncated: true, chars: JSON.stringify(big).length });
    expect(capped.preview).toBe(JSON.stringify(big).slice(0, capped.preview.length));
    expect(JSON.stringify(capped).length).toBeLessThan(5 * 1024);
    expect(capBody(CREATE)).toEqual(CREATE);
    expect(capBody(undefined)).toBeNull();
  });

  it('a 100 KB request body is journaled as a preview', async () => {
    await create(DEMO, { ...CREATE, destinationUrl: `https://example.com/${'x'.repeat(100 * 1024)}` });
    const [entry] = await journal();
    expect(entry?.requestBody).toMatchObject({ truncated: true });
    expect(JSON.stringify(entry).length).toBeLessThan(10 * 1024);
  });
});

describe('GET /__admin/requests/stream', () => {
  let server: http.Server | undefined;
  let client: http.ClientRequest | undefined;
  afterEach(() => {
    client?.destroy();
    server?.closeAllConnections();
    server?.close();
    server = client = undefined;
  });

  it('sends one `event: entry` with the request just answered', async () => {
    const listening = t.app.listen(0, '127.0.0.1');
    server = listening;
    await once(listening, 'listening');
    const { port } = listening.address() as AddressInfo;
    let text = '';
    const chunks: { resolve?: () => void } = {};
    const waitFor = (pattern: RegExp): Promise<void> =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`stream never matched ${String(pattern)}: ${text}`)), WAIT_MS);
        const check = (): void => {
          if (!pattern.test(text)) return;
          clearTimeout(timer);
          chunks.resolve = undefined;
          resolve();
        };
        chunks.resolve = check;
        check();
      });
    const response = new Promise<http.IncomingMessage>((resolve, reject) => {
      client = http.get({ host: '127.0.0.1', port, path: '/__admin/requests/stream', agent: false }, resolve);
      client.once('error', reject);
    });
    const res = await response;
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      text += chunk;
      chunks.resolve?.();
    });
    await waitFor(/: connected\n\n/);

    const created = await fetch(`http://127.0.0.1:${port}/links`, { method: 'POST', headers: { 'x-api-key': DEMO, 'content-type': 'application/json' }, body: JSON.stringify(CREATE) });
    expect(created.status).toBe(201);
    await waitFor(/event: entry\ndata: .*\n\n/);
    const events = [...text.matchAll(/event: (\w+)\ndata: (.*)\n\n/g)];
    expect(events).toHaveLength(1);
    expect(events[0]?.[1]).toBe('entry');
    const entry = JSON.parse(events[0]?.[2] ?? 'null') as JournalEntry;
    expect(entry).toMatchObject({ seq: 1, method: 'POST', path: '/links', operationId: 'createLink', status: 201, requestBody: CREATE, apiKey: maskApiKey(DEMO) });
    expect(entry).toEqual((await t.journal.list())[0]);
  });
});
