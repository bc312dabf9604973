// A new user's browser at the mock: the root page, the favicon, CORS preflights (none of them in
// the journal), the served contracts naming the address they were fetched from, and Swagger UI
// making no outside request.
import { parse } from 'yaml';
import { describe, expect, test } from 'vitest';
import { expectError } from '../helpers/contract-assert.js';
import { contract, createTestApp, DEMO } from '../helpers/test-app.js';

describe('GET /', () => {
  test('a browser gets a page linking the console, the docs and the contract', async () => {
    const t = await createTestApp();
    const res = await t.request.get('/').set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    for (const link of ['href="/__admin/"', 'href="/docs"', 'href="/openapi.yaml"']) expect(res.text).toContain(link);
  });

  test.each(['application/json', '*/*'])('Accept: %s gets a 404 Error object that names /__admin/ and /docs', async (accept) => {
    const t = await createTestApp();
    const res = await t.request.get('/').set('Accept', accept);
    expectError(res, 404, { mentions: /\/__admin\/.*\/docs/ });
  });

  test('/favicon.ico is an icon', async () => {
    const t = await createTestApp();
    const res = await t.request.get('/favicon.ico');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/icon/);
    expect(Number(res.headers['content-length'])).toBeGreaterThan(100);
  });

  test('browser noise stays out of the journal: the page, the favicon, CORS preflights', async () => {
    const t = await createTestApp();
    await t.request.get('/').set('Accept', 'text/html');
    await t.request.get('/').set('Accept', 'application/json');
    await t.request.get('/favicon.ico');
    const preflight = await t.request.options('/links').set('Origin', 'http://localhost:5173').set('Access-Control-Request-Method', 'POST');
    expect(preflight.status).toBe(204);
    expect(await t.journal.list()).toEqual([]);
    await t.request.post('/links').set('x-api-key', DEMO).send({ tags: [], destinationUrl: 'https://example.com', domain: 'short.test' });
    expect((await t.journal.list()).map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual(['POST /links 201']);
  });
});

describe('the served contracts name the address they were served from', () => {
  test.each([
    ['127.0.0.1:5555', 'http://127.0.0.1:5555'],
    ['localhost:4011', 'http://localhost:4011'],
    ['[::1]:4012', 'http://[::1]:4012'],
    ['mock.ci.internal', 'http://mock.ci.internal'],
    ['bad host" x', '/'],
  ])('GET /openapi.yaml with Host %s: servers is %s, the rest is the file', async (host, url) => {
    const t = await createTestApp();
    const res = await t.request.get('/openapi.yaml').set('Host', host);
    expect(res.status).toBe(200);
    const served = parse(res.text) as { servers: { url: string }[] };
    expect(served.servers.map((server) => server.url)).toEqual([url]);
    expect({ ...served, servers: [] }).toEqual({ ...(parse(contract.text) as object), servers: [] });
  });

  test('GET /__admin/openapi.yaml too', async () => {
    const t = await createTestApp();
    const res = await t.request.get('/__admin/openapi.yaml').set('Host', 'localhost:4999');
    expect((parse(res.text) as { servers: { url: string }[] }).servers).toEqual([expect.objectContaining({ url: 'http://localhost:4999' })]);
  });
});

test("Swagger UI's outside validator is off", async () => {
  const t = await createTestApp();
  expect((await t.request.get('/docs/init.js')).text).toMatch(/validatorUrl:\s*null/);
});
