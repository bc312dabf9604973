// A client that sends a whole request and then half-closes its socket (FIN: "I am done sending")
// still gets its whole answer, on every store, and the server then closes the connection. On
// Redis the answer waits for Redis, so it comes after the FIN: without httpAllowHalfOpen, Node's
// server ended the socket at the FIN and the answer was lost (src/http/server.ts).
import { connect, type AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { createHttpServer } from '../../src/http/server.js';
import { eventually } from '../helpers/eventually.js';
import { createTestApp, DEMO } from '../helpers/test-app.js';

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

interface HalfClosedAnswer {
  status: number;
  headers: string;
  body: string;
  /** The server sent its FIN: it closed the connection itself. */
  endedByServer: boolean;
}

/** Writes `request`, half-closes at once, and reads everything until the socket closes (bounded). */
function halfClosedExchange(port: number, request: string): Promise<HalfClosedAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(request);
      socket.end();
    });
    const chunks: Buffer[] = [];
    let endedByServer = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the socket was still open after 5 s; received ${JSON.stringify(Buffer.concat(chunks).toString())}`));
    }, 5_000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => (endedByServer = true));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString();
      const split = text.indexOf('\r\n\r\n');
      const headers = split === -1 ? text : text.slice(0, split);
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(headers)?.[1]), headers, body: split === -1 ? '' : text.slice(split + 4), endedByServer });
    });
  });
}

function rawRequest(method: string, path: string, headers: Record<string, string>, body = ''): string {
  const lines = [`${method} ${path} HTTP/1.1`, ...Object.entries({ host: '127.0.0.1', ...headers }).map(([name, value]) => `${name}: ${value}`)];
  if (body) lines.push('content-type: application/json', `content-length: ${Buffer.byteLength(body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

const createBody = JSON.stringify({ destinationUrl: 'https://example.com/x', domain: 'short.test', tags: [] });

const rows = [
  { name: 'a create: 201 with the link', request: rawRequest('POST', '/links', { 'x-api-key': DEMO }, createBody), status: 201, json: { destinationUrl: 'https://example.com/x' } },
  { name: 'a create without a key: 401', request: rawRequest('POST', '/links', {}, createBody), status: 401, json: { errorDescription: expect.any(String) } },
  { name: 'a create with an unknown key: 401', request: rawRequest('POST', '/links', { 'x-api-key': 'nobody-key' }, createBody), status: 401, json: { errorDescription: expect.any(String) } },
  { name: 'a visit by Host: 302 to the destination', request: rawRequest('GET', '/half-closed', { host: 'short.test' }), status: 302, location: 'https://example.com/visited' },
  { name: 'a visit through /__r: 302 to the destination', request: rawRequest('GET', '/__r/short.test/half-closed', {}), status: 302, location: 'https://example.com/visited' },
];

describe('a client that half-closes after its request', () => {
  test.each(rows)('$name, then the server closes the connection', async (row) => {
    const t = await createTestApp();
    const visited = await t.request.post('/links').set('x-api-key', DEMO).send({ destinationUrl: 'https://example.com/visited', domain: 'short.test', slug: 'half-closed', tags: [] });
    expect(visited.status).toBe(201);
    server = createHttpServer(t.app);
    await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
    const answer = await halfClosedExchange((server.address() as AddressInfo).port, row.request);
    expect(answer.status, `${answer.headers}\n\n${answer.body}`).toBe(row.status);
    const length = Number(/^content-length: (\d+)$/im.exec(answer.headers)?.[1]);
    expect(Buffer.byteLength(answer.body)).toBe(length);
    if (row.json) expect(JSON.parse(answer.body)).toMatchObject(row.json);
    if (row.location) expect(answer.headers).toMatch(new RegExp(`^location: ${row.location}$`, 'im'));
    expect(answer.endedByServer).toBe(true);
    // Nothing left open on the server's side either.
    const open = (): Promise<number> => new Promise((done, fail) => server!.getConnections((error, count) => (error ? fail(error) : done(count))));
    expect(await eventually(open, (count) => count === 0, 2_000)).toBe(0);
  });
});
