// createHttpServer: Node builds each request and response with the app's own prototypes, so
// Express's per-request Object.setPrototypeOf changes nothing, and everything Express adds works.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { createHttpServer } from '../../src/http/server.js';
import { createTestApp, DEMO } from '../helpers/test-app.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  server?.closeAllConnections();
  server = undefined;
});

async function listen(s: Server): Promise<string> {
  await new Promise<void>((done) => s.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

describe('createHttpServer', () => {
  test('requests and responses arrive with the Express prototypes already set', async () => {
    const t = await createTestApp();
    server = createHttpServer(t.app);
    const seen: boolean[] = [];
    server.prependListener('request', (req, res) => {
      seen.push(Object.getPrototypeOf(req) === t.app.request, Object.getPrototypeOf(res) === t.app.response);
    });
    const url = await listen(server);
    await fetch(`${url}/openapi.yaml`);
    expect(seen).toEqual([true, true]);
  });

  test('the mock answers through it as through app.listen: a create, an error, keep-alive reuse', async () => {
    const t = await createTestApp();
    server = createHttpServer(t.app);
    const url = await listen(server);
    const headers = { 'x-api-key': DEMO, 'content-type': 'application/json' };
    const created = await fetch(`${url}/links`, { method: 'POST', headers, body: JSON.stringify({ destinationUrl: 'https://example.com/s', domain: 'short.test', tags: [] }) });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ destinationUrl: 'https://example.com/s', domain: { name: 'short.test' } });
    const refused = await fetch(`${url}/links`, { method: 'POST', headers, body: '{"destinationUrl": 1' });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ errorDescription: expect.any(String) });
    const missing = await fetch(`${url}/links/lnk_nope`, { method: 'DELETE', headers: { 'x-api-key': DEMO } });
    expect(missing.status).toBe(404);
  });
});
