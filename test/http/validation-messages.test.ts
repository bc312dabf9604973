// Validator findings read as sentences about the API, not as the validator's internals (issue 12).
import { connect } from 'node:net';
import { describe, expect, test } from 'vitest';
import type { Test } from 'supertest';
import { expectError } from '../helpers/contract-assert.js';
import { createTestApp, DEMO, type TestApp } from '../helpers/test-app.js';

const json = (req: Test, body: string): Test => req.set('x-api-key', DEMO).set('content-type', 'application/json').send(body);
const post = (t: TestApp, body: string): Test => json(t.request.post('/links'), body);

describe('the body as a whole', () => {
  test.each([
    ['null', 'request body must be a JSON object, not null'],
    ['"https://example.com"', 'request body must be a JSON object, not a string'],
    ['42', 'request body must be a JSON object, not a number'],
    ['true', 'request body must be a JSON object, not a boolean'],
    ['[]', 'request body must be a JSON object, not an array'],
    ['{"tags": [}', /^request body is not valid JSON: /],
    // One byte-order mark is dropped as UTF-8 decoders do; a second one is what the parser meets (issue 37 A9).
    ['\uFEFF\uFEFF{"tags": []}', 'request body is not valid JSON: it starts with a second byte-order mark (U+FEFF); at most one may come before the JSON'],
    ['\uFEFF\uFEFF\uFEFF{}', 'request body is not valid JSON: it starts with a second byte-order mark (U+FEFF); at most one may come before the JSON'],
    [' \r\n\t ', 'request body holds nothing but whitespace; send a JSON object'],
    // JSON's whitespace is four characters; a no-break space is none of them.
    ['\u00A0{}', /^request body is not valid JSON: /],
  ])('POST /links with %j', async (body, expected) => {
    const t = await createTestApp();
    const res = await post(t, body);
    expectError(res, 400);
    expect((res.body as { errorDescription: string }).errorDescription).toMatch(expected);
  });

  // PUT was answered 500 ("Cannot read properties of undefined (reading 'tags')"): found by a black-box sweep, stop 54.
  // A body of no bytes is no body either: body-parser reads it as {}, and PUT said "must have at least one field".
  const FRAMINGS = {
    'no body at all (no Content-Length, no Transfer-Encoding)': '\r\n',
    'Content-Length: 0': 'Content-Length: 0\r\n\r\n',
    'a chunked body of no chunks': 'Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
  };
  test.each([
    ['POST', () => '/links'],
    ['PUT', (id: string) => `/links/${id}`],
  ].flatMap(([method, path]) => Object.entries(FRAMINGS).map(([name, tail]) => [method, name, path, tail] as [string, string, (id: string) => string, string])))('%s with a JSON content type and %s', async (method, _name, path, tail) => {
    const t = await createTestApp();
    const id = (await t.request.get(`/__admin/links?account=${DEMO}&limit=1`)).body.links[0].id as string;
    const before = JSON.stringify(await t.request.get(`/__admin/links?account=${DEMO}`).then((res) => res.body));
    const server = t.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as { port: number };
      const answer = await new Promise<string>((resolve, reject) => {
        // Written, not ended: Node's http server drops a request whose client half-closed before
        // the answer was ready, and on Redis (a round trip first) it is not ready yet.
        const socket = connect(port, '127.0.0.1', () =>
          socket.write(`${method} ${path(id)} HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${DEMO}\r\ncontent-type: application/json\r\nConnection: close\r\n${tail}`),
        );
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 400/);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ errorDescription: 'the request has no body; send a JSON object' });
      expect(JSON.stringify(await t.request.get(`/__admin/links?account=${DEMO}`).then((res) => res.body))).toBe(before);
    } finally {
      server.close();
    }
  });

  test('a field with an empty name is named as such, wherever it is', async () => {
    const t = await createTestApp();
    const valid = { tags: [{ name: 'a', '': 2 }], destinationUrl: 'https://example.com', domain: 'short.test' };
    expectError(await post(t, JSON.stringify(valid)), 400, { mentions: "unknown field '' (a field with an empty name)" });
    expectError(await post(t, '{"":1}'), 400, { mentions: "unknown field ''" });
  });

  // openapi.yaml's example of an invalid URL, word for word (a black-box sweep found it never said so:
  // the pattern's regular expression or format "uri" were shown instead).
  test.each(['https://', 'example.com', 'short.test/x', '//example.com/x'])('a destinationUrl of %j: the words of D13 and of the contract\'s example', async (url) => {
    const t = await createTestApp();
    const res = await post(t, JSON.stringify({ tags: [], destinationUrl: url, domain: 'short.test' }));
    expectError(res, 400);
    expect((res.body as { errorDescription: string }).errorDescription).toBe("request body: 'destinationUrl' must be an absolute URL with a scheme and a host");
  });

  test('updateLink with null', async () => {
    const t = await createTestApp();
    const id = [...(await t.data()).links.keys()][0] ?? '';
    expectError(await json(t.request.put(`/links/${id}`), 'null'), 400, { mentions: 'must be a JSON object, not null' });
  });
});
