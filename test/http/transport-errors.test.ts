// Bad input of any kind is a JSON Error object with a documented status and changes nothing; plus
// the mock's own routes (contract, health, reset) and CORS.
import { describe, expect, test } from 'vitest';
import type { Test } from 'supertest';
import { expectError, expectLink } from '../helpers/contract-assert.js';
import { createTestApp, DEMO, type TestApp } from '../helpers/test-app.js';

const valid = { tags: [], destinationUrl: 'https://example.com/page', domain: 'short.test' };
const json = 'application/json';

interface Row {
  name: string;
  send: (t: TestApp) => Test;
  status: number;
  mentions?: string | RegExp;
  allow?: RegExp;
}

const withKey = (req: Test): Test => req.set('x-api-key', DEMO);
const raw = (payload: string, type: string) => (t: TestApp) => withKey(t.request.post('/links')).set('content-type', type).send(payload);

const rows: Row[] = [
  { name: 'malformed JSON', send: raw('{"tags": [}', json), status: 400, mentions: /JSON/ },
  { name: 'content type text/plain', send: raw(JSON.stringify(valid), 'text/plain'), status: 400, mentions: 'application/json' },
  { name: 'no content type', send: (t) => withKey(t.request.post('/links')), status: 400, mentions: 'application/json' },
  { name: 'body over 1 MiB', send: raw(JSON.stringify({ ...valid, padding: 'x'.repeat(1_100_000) }), json), status: 400, mentions: '1 MiB' },
  { name: 'a JSON array body', send: raw(JSON.stringify([valid]), json), status: 400 },
  { name: 'a JSON string body', send: raw('"https://example.com"', json), status: 400 },
  { name: 'PUT with a JSON array body', send: (t) => withKey(t.request.put('/links/lnk_x')).set('content-type', json).send('[]'), status: 400 },
  { name: 'GET /nope', send: (t) => t.request.get('/nope'), status: 404, mentions: '/nope' },
  { name: 'POST /links/x/y', send: (t) => withKey(t.request.post('/links/x/y')).send(valid), status: 404, mentions: '/links/x/y' },
  { name: "trailing slash POST '/links/'", send: (t) => withKey(t.request.post('/links/')).send(valid), status: 404 },
  { name: 'GET /links', send: (t) => withKey(t.request.get('/links')), status: 405, mentions: 'GET', allow: /^POST$/ },
  { name: 'PATCH /links/abc', send: (t) => withKey(t.request.patch('/links/abc')).send({}), status: 405, mentions: 'PATCH', allow: /PUT.*DELETE|DELETE.*PUT/ },
  { name: 'GET /links/abc without a key', send: (t) => t.request.get('/links/abc'), status: 405, allow: /PUT/ },
];

describe('bad input is a JSON Error object and changes nothing', () => {
  test.each(rows)('$status $name', async (row) => {
    const t = await createTestApp();
    const before = await t.data();
    const res = await row.send(t);
    expectError(res, row.status, row.mentions ? { mentions: row.mentions } : {});
    expect((res.body as { errorDescription: string }).errorDescription.length).toBeGreaterThan(10);
    if (row.allow) expect(res.headers['allow']).toMatch(row.allow);
    expect(await t.data()).toEqual(before);
  });
});

// D4: deleteLink documents only 204/401/404, and "transport-level errors stay inside the
// documented statuses of each operation" (openapi.yaml). Bad input on DELETE must not be a 400.
const deleteRows: Row[] = [
  { name: 'an id over 64 characters', send: (t) => withKey(t.request.delete(`/links/${'a'.repeat(65)}`)), status: 404 },
  { name: 'an unknown query parameter', send: (t) => withKey(t.request.delete('/links/lnk_x?colour=red')), status: 404 },
  { name: 'a malformed JSON body', send: (t) => withKey(t.request.delete('/links/lnk_x')).set('content-type', json).send('{bad'), status: 404 },
  { name: 'a body over 1 MiB', send: (t) => withKey(t.request.delete('/links/lnk_x')).set('content-type', json).send(JSON.stringify({ p: 'x'.repeat(1_100_000) })), status: 404 },
];

describe('DELETE answers only its documented statuses (204/401/404), even for bad input', () => {
  test.each(deleteRows)('$name', async (row) => {
    const t = await createTestApp();
    const before = await t.data();
    const res = await row.send(t);
    expect([204, 401, 404]).toContain(res.status);
    expectError(res, row.status);
    expect(await t.data()).toEqual(before);
  });
});

test('query parameters, which the API does not define, are ignored (documented in openapi.yaml)', async () => {
  const t = await createTestApp();
  const res = await withKey(t.request.post('/links?colour=red')).send(valid);
  expect(res.status).toBe(201);
});

describe("the mock's own routes", () => {
  test('GET /openapi.yaml serves the contract', async () => {
    const t = await createTestApp();
    const res = await t.request.get('/openapi.yaml');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/yaml/);
    expect(res.text).toContain('openapi: 3.0.3');
    expect(res.text).toContain('operationId: createLink');
  });

  test('GET /__admin/health is 200 JSON with status ok', async () => {
    const t = await createTestApp();
    const res = await t.request.get('/__admin/health');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({ status: 'ok', links: (await t.data()).links.size });
  });

  test('POST /__admin/reset brings back the exact seeded state', async () => {
    const t = await createTestApp();
    const fresh = await (await createTestApp()).data();
    const ids = (await t.linksOf(DEMO)).slice(0, 3).map((link) => link.id);
    for (const id of ids) expect((await withKey(t.request.delete(`/links/${id}`))).status).toBe(204);
    const created = await withKey(t.request.post('/links')).send({ ...valid, tags: [{ name: 'brand-new' }] });
    expectLink(created, 201);
    expect(await t.data()).not.toEqual(fresh);

    const res = await t.request.post('/__admin/reset');
    expect(res.status).toBe(200);
    expect(await t.data()).toEqual(fresh);
    const health = await t.request.get('/__admin/health');
    const freshLinks = fresh.links.size;
    expect((health.body as { links: number }).links).toBe(freshLinks);
    // The reset state is live: a deleted link is back for its owner, the new one is gone.
    const [first] = ids;
    expectLink(await withKey(t.request.put(`/links/${first ?? ''}`)).send({ tags: [] }), 200);
    expectError(await withKey(t.request.delete(`/links/${(created.body as { id: string }).id}`)), 404);
  });
});

describe('CORS', () => {
  const preflight = (t: TestApp, origin: string) =>
    t.request
      .options('/links')
      .set('Origin', origin)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'x-api-key,content-type');

  test('a preflight is answered 204 with the methods and headers the API needs', async () => {
    const t = await createTestApp();
    const res = await preflight(t, 'http://localhost:5173');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const methods = String(res.headers['access-control-allow-methods']).toUpperCase().split(/\s*,\s*/);
    expect(methods).toEqual(expect.arrayContaining(['POST', 'PUT', 'DELETE']));
    const headers = String(res.headers['access-control-allow-headers']).toLowerCase().split(/\s*,\s*/);
    expect(headers).toEqual(expect.arrayContaining(['x-api-key', 'content-type']));
  });

  test('an actual response, even a 401, carries access-control-allow-origin', async () => {
    const t = await createTestApp();
    const res = await t.request.post('/links').set('Origin', 'http://localhost:5173').send(valid);
    expectError(res, 401);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const ok = await withKey(t.request.post('/links')).set('Origin', 'http://localhost:5173').send(valid);
    expectLink(ok, 201);
    expect(ok.headers['access-control-allow-origin']).toBe('*');
  });

  test('with corsOrigins, an allowed origin is echoed and another is not allowed', async () => {
    const t = await createTestApp({ corsOrigins: ['http://app.test'] });
    const allowed = await preflight(t, 'http://app.test');
    expect(allowed.status).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe('http://app.test');
    const actual = await withKey(t.request.post('/links')).set('Origin', 'http://app.test').send(valid);
    expect(actual.headers['access-control-allow-origin']).toBe('http://app.test');

    const refused = await preflight(t, 'http://evil.test');
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    const refusedActual = await t.request.post('/links').set('Origin', 'http://evil.test').send(valid);
    expect(refusedActual.headers['access-control-allow-origin']).toBeUndefined();
  });
});
