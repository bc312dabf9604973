// POST /__admin/reset takes no options: no body, an empty one or {}. Anything else is a 400 naming
// the field or the content type and resets nothing, so that {"seed": 1} is never taken for a re-seed
// while the default seed is used. The admin document says so (ResetRequest); its validator refuses.
import { connect, type AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Test } from 'supertest';
import { expectError } from '../helpers/contract-assert.js';
import { createTestApp, DEMO, type TestApp } from '../helpers/test-app.js';
import { expectAdminResponse } from './admin-contract.js';

const CREATE = { destinationUrl: 'https://example.com/reset-body', domain: 'short.test', tags: [] };

let t: TestApp;
let server: Server | undefined;
beforeEach(async () => {
  t = await createTestApp();
  // A change a reset would undo.
  expect((await t.request.post('/links').set('x-api-key', DEMO).send(CREATE)).status).toBe(201);
});
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

const reset = (): Test => t.request.post('/__admin/reset');

/** The answer to a POST /__admin/reset written by hand with these header lines: supertest always adds its own. */
async function rawReset(headerLines: string): Promise<string> {
  server ??= t.app.listen(0, '127.0.0.1');
  if (!server.listening) await new Promise((resolve) => server!.once('listening', resolve));
  const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
  // Written, not ended: Node's http server drops a request whose client half-closed before the
  // answer was ready, and a reset on Redis is not ready at once. Connection: close ends it.
  socket.write(`POST /__admin/reset HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${headerLines}\r\n`);
  let answer = '';
  for await (const chunk of socket) answer += String(chunk);
  return answer;
}

describe('POST /__admin/reset with a body of nothing', () => {
  test.each([
    ['no body and no Content-Length (curl -X POST)', ''],
    ['Content-Length: 0 and no content type (fetch, so the console, the toolkit and the MCP reset tool)', 'Content-Length: 0\r\n'],
  ])('%s resets', async (_, headerLines) => {
    const answer = await rawReset(headerLines);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('{"status":"reset","accounts":3,"links":60}');
  });

  test.each<[string, () => Test]>([
    ['an empty JSON body', () => reset().set('content-type', 'application/json').send('')],
    ['{}', () => reset().send({})],
    ['{} with a charset', () => reset().set('content-type', 'application/json; charset=utf-8').send('{}')],
  ])('%s resets', async (_, send) => {
    const res = await send();
    expectAdminResponse(res, 'POST', '/__admin/reset');
    expect(res.body).toEqual({ status: 'reset', accounts: 3, links: 60 });
  });
});

describe('POST /__admin/reset with anything else is a 400 and resets nothing', () => {
  test.each<[string, () => Test, RegExp]>([
    ['a seed it would ignore', () => reset().send({ seed: 1 }), /'seed'/],
    ['a field among others', () => reset().send({ links: [], fixtures: 'x' }), /'(links|fixtures)'/],
    ['a text/plain body', () => reset().set('content-type', 'text/plain').send('x'), /text\/plain/],
    ['a form', () => reset().set('content-type', 'application/x-www-form-urlencoded').send('seed=1'), /application\/x-www-form-urlencoded/],
    ['a JSON array', () => reset().set('content-type', 'application/json').send('[]'), /object/],
  ])('%s', async (_, send, names) => {
    const before = await t.data();
    const res = await send();
    expectAdminResponse(res, 'POST', '/__admin/reset');
    expectError(res, 400, { mentions: names });
    expect(await t.data()).toEqual(before);
  });
});
