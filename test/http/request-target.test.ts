// Requests at the edge of HTTP: request targets that do not decode or come in absolute-form, and the
// refusals Node's parser makes before Express sees anything. Each answer is an Error object with a
// status the contract documents, or (for the parser's refusals) one the README lists.
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { literalUndecodableSegments } from '../../src/http/request-target.js';
import { createHttpServer } from '../../src/http/server.js';
import { expectError } from '../helpers/contract-assert.js';
import { createTestApp, DEMO, type TestApp } from '../helpers/test-app.js';

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

async function serve(t: TestApp): Promise<number> {
  server = createHttpServer(t.app);
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return (server.address() as AddressInfo).port;
}

/** Sends raw bytes and reads until the server closes or a whole answer arrived (bounded). */
function rawExchange(port: number, request: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within 5 s: ${JSON.stringify(text)}`));
    }, 5_000);
    const finish = (): void => {
      clearTimeout(timer);
      socket.destroy();
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), headers: head, body });
    };
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const length = /content-length: (\d+)/i.exec(text)?.[1];
      const bodyStart = text.indexOf('\r\n\r\n');
      if (length !== undefined && bodyStart !== -1 && Buffer.byteLength(text.slice(bodyStart + 4)) >= Number(length)) finish();
    });
    socket.on('end', finish);
    socket.on('error', () => finish());
  });
}

const aLinkOf = async (t: TestApp): Promise<string> => (await t.linksOf(DEMO))[0]!.id;

describe('ids that cannot be percent-decoded name no link (404, never a 400 deleteLink does not document)', () => {
  test.each(['%zz', '%ff', 'abc%', '%E0%A4%A', 'lnk_%zz_x'])('DELETE /links/%s', async (id) => {
    const t = await createTestApp();
    const before = await t.data();
    const res = await t.request.delete(`/links/${id}`).set('x-api-key', DEMO);
    expectError(res, 404, { mentions: 'not found' });
    expect((res.body as { errorDescription: string }).errorDescription).not.toMatch(/malformed|'$/);
    expect(await t.data()).toEqual(before);
  });

  test('PUT /links/%zz with a valid body is a 404; with an invalid body the body is judged first, as for any unknown id', async () => {
    const t = await createTestApp();
    expectError(await t.request.put('/links/%zz').set('x-api-key', DEMO).send({ tags: [] }), 404);
    expectError(await t.request.put('/links/%zz').set('x-api-key', DEMO).send({ slug: 'x' }), 400, { mentions: 'slug' });
  });

  test('without a key it is still 401 first (D14)', async () => {
    const t = await createTestApp();
    expectError(await t.request.delete('/links/%zz'), 401);
  });

  test.each([
    ['/links/%zz', '/links/%25zz'],
    ['/links/%zz?a=%zz', '/links/%25zz?a=%zz'],
    ['/links/ok%20id', '/links/ok%20id'],
    ['/a%ff/b%20c', '/a%25ff/b%20c'],
  ])('literalUndecodableSegments(%s) is %s', (input, output) => {
    expect(literalUndecodableSegments(input)).toBe(output);
  });
});

describe('absolute-form request targets', () => {
  test('DELETE http://host/links/<id> deletes that link, as the origin-form would', async () => {
    const t = await createTestApp();
    const port = await serve(t);
    const id = await aLinkOf(t);
    const res = await rawExchange(port, `DELETE http://127.0.0.1:${port}/links/${id} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nx-api-key: ${DEMO}\r\nConnection: close\r\n\r\n`);
    expect(res.status).toBe(204);
    expect((await t.data()).links.get(id)).toBeUndefined();
  });

  test('PUT in absolute-form is validated and answered like any update', async () => {
    const t = await createTestApp();
    const port = await serve(t);
    const id = await aLinkOf(t);
    const body = JSON.stringify({ destinationUrl: 'https://example.com/absolute' });
    const res = await rawExchange(
      port,
      `PUT http://127.0.0.1:${port}/links/${id} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nx-api-key: ${DEMO}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ id, destinationUrl: 'https://example.com/absolute' });
  });
});

describe("refusals of Node's HTTP parser carry an Error object", () => {
  test.each([
    ['headers over 16 KiB', (port: number) => `GET /links HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, /16 KiB/],
    ['a header name with a space', (port: number) => `GET /links HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nbad header: 1\r\n\r\n`, 400, /not valid HTTP/],
    ['a request line that is not HTTP', () => 'HELLO\r\n\r\n', 400, /not valid HTTP/],
    ['Expect: something-else', (port: number) => `POST /links HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nExpect: something-else\r\nContent-Length: 0\r\n\r\n`, 417, /100-continue/],
  ])('%s: %i with an Error object', async (_name, request, status, mentions) => {
    const t = await createTestApp();
    const port = await serve(t);
    const res = await rawExchange(port, request(port));
    expect(res.status).toBe(status);
    expect(res.headers).toMatch(/content-type: application\/json/i);
    const body = JSON.parse(res.body) as { errorDescription: string };
    expect(Object.keys(body)).toEqual(['errorDescription']);
    expect(body.errorDescription).toMatch(mentions);
  });
});
