// createHttpServer: Node builds each request and response with the app's own prototypes, so
// Express's per-request Object.setPrototypeOf changes nothing, and everything Express adds works.
import { once } from 'node:events';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { Server } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { afterEach, describe, expect, test } from 'vitest';
import { createHttpServer } from '../../src/http/server.js';
import { eventually } from '../helpers/eventually.js';
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

  test('requests, responses and res.locals keep fast properties through reads, refusals and creates, not dictionaries', async () => {
    // V8's own answer (%HasFastProperties): a dictionary-mode object makes each property read and
    // add a hash-table operation. The flag only lets this one function be compiled with the call.
    setFlagsFromString('--allow-natives-syntax');
    const hasFastProperties = new Function('object', 'return %HasFastProperties(object)') as (object: object) => boolean;
    const t = await createTestApp();
    server = createHttpServer(t.app);
    const seen: boolean[][] = [];
    server.prependListener('request', (req, res) => {
      res.once('close', () => seen.push([hasFastProperties(req), hasFastProperties(res), hasFastProperties((res as unknown as { locals: object }).locals)]));
    });
    const url = await listen(server);
    const headers = { 'x-api-key': DEMO, 'content-type': 'application/json' };
    const create = JSON.stringify({ destinationUrl: 'https://example.com/f', domain: 'short.test', tags: [{ name: 'fast' }] });
    // Past V8's first objects of a kind (its slack tracking fixes their size after a few), in a mixed order.
    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      const kind = i % 3;
      const answer = kind === 0
        ? await fetch(`${url}/links`, { method: 'POST', headers, body: create })
        : kind === 1 ? await fetch(`${url}/links`, { method: 'POST', headers, body: '{}' }) : await fetch(`${url}/__admin/links?account=other-key`);
      await answer.arrayBuffer();
      statuses.push(answer.status);
    }
    expect(statuses.slice(0, 3)).toEqual([201, 400, 200]);
    await eventually(async () => seen.length, (closed) => closed === 12, 5_000);
    expect(seen).toEqual(Array.from({ length: 12 }, () => [true, true, true]));
  });

  test('res.locals inherits no names, as Express\'s Object.create(null) does, and keeps what the steps put there', async () => {
    const t = await createTestApp();
    server = createHttpServer(t.app);
    const seen: unknown[] = [];
    server.prependListener('request', (_req, res) => {
      res.once('close', () => {
        const locals = (res as unknown as { locals: Record<string, unknown> }).locals;
        seen.push({ constructor: 'constructor' in locals, toString: 'toString' in locals, operationId: locals['operationId'], inherited: Object.getPrototypeOf(Object.getPrototypeOf(locals)) });
      });
    });
    const url = await listen(server);
    const body = JSON.stringify({ destinationUrl: 'https://example.com/l', domain: 'short.test', tags: [] });
    const answer = await fetch(`${url}/links`, { method: 'POST', headers: { 'x-api-key': DEMO, 'content-type': 'application/json' }, body });
    expect(answer.status).toBe(201);
    await eventually(async () => seen.length, (closed) => closed === 1, 5_000);
    expect(seen).toEqual([{ constructor: false, toString: false, operationId: 'createLink', inherited: null }]);
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

  // The watch for silent connections (--headers-timeout) must end at the first request: a 'close'
  // listener kept on the socket for its life turned Node's per-response 'close' listener into an
  // array on the socket each request, and made each request's objects outlive a young collection
  // (9.5 KB promoted per create, three times the GC time: bench/profile-notes.md).
  test('the silent-connection watch ends at the first request: the socket keeps only Node\'s own close listeners', async () => {
    const t = await createTestApp();
    const timeouts = { headersTimeoutMs: 60_000, requestTimeoutMs: 60_000 };
    server = createHttpServer(t.app, timeouts);
    const sockets: Socket[] = [];
    server.on('connection', (socket: Socket) => sockets.push(socket));
    const url = await listen(server);
    const before = await new Promise<number>((done) => {
      server!.once('connection', (socket: Socket) => setImmediate(() => done(socket.listenerCount('close'))));
      void fetch(`${url}/openapi.yaml`).then((res) => res.text());
    });
    await eventuallyTrue(() => sockets[0]!.listenerCount('close') < before);
    const plain = createHttpServer(t.app);
    const plainSockets: Socket[] = [];
    plain.on('connection', (socket: Socket) => plainSockets.push(socket));
    const plainUrl = await listen(plain);
    try {
      await (await fetch(`${plainUrl}/openapi.yaml`)).text();
      expect(sockets[0]!.listenerCount('close')).toBe(plainSockets[0]!.listenerCount('close'));
    } finally {
      plain.closeAllConnections();
      await new Promise<void>((done) => plain.close(() => done()));
    }
  });

  test('a connection that sends nothing is still closed after the head\'s timeout; one that sent a request is not', async () => {
    const t = await createTestApp();
    // 1 s: the talking connection's request goes with its connect and is read long before, even on
    // a loaded machine (200 ms raced that read); waiting costs no CPU.
    server = createHttpServer(t.app, { headersTimeoutMs: 1_000, requestTimeoutMs: 60_000 });
    const accepted: Socket[] = [];
    server.on('connection', (socket: Socket) => accepted.push(socket));
    const url = await listen(server);
    const open = (): Socket => {
      const socket = connect(Number(new URL(url).port), '127.0.0.1');
      socket.on('error', () => undefined);
      // Flowing, so that the server's FIN is read and 'close' follows (a paused socket never sees it).
      return socket.resume();
    };
    const silent = open();
    const silentClosed = once(silent, 'close');
    const talking = open();
    let answered = '';
    const firstAnswer = new Promise<void>((done) => talking.once('data', () => done()));
    talking.on('data', (chunk: Buffer) => (answered += chunk.toString('latin1')));
    talking.write('GET /openapi.yaml HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await firstAnswer;
    // Made once the talking one was accepted (it has answered): the server's timers of one length run
    // in the order they were set, so when this one is closed, the talking one's has run as well.
    const later = open();
    await Promise.all([silentClosed, once(later, 'close')]);
    expect(answered).toMatch(/^HTTP\/1\.1 200/);
    const serverEnd = accepted.find((socket) => socket.remotePort === talking.localPort);
    expect(serverEnd?.destroyed).toBe(false);
    talking.destroy();
  });
});

/** Polls `check` every 25 ms until it holds, for 5 s at most. */
async function eventuallyTrue(check: () => boolean): Promise<void> {
  expect(await eventually(async () => check(), Boolean, 5_000)).toBe(true);
}
