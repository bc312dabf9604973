// A request is recorded on its response's 'close' alone (src/http/record-requests.ts): a 'finish'
// listener of ours made Node's own one (resOnFinish) an array on every response, cloned at each
// emit. (That the record is still made is every journal test's business.)
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { createTestApp, DEMO, type TestApp } from '../helpers/test-app.js';

describe('recording a request', () => {
  let t: TestApp | undefined;
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
    await t?.close();
  });

  test("a create's response carries only Node's own 'finish' listener", async () => {
    t = await createTestApp();
    const app = t.app;
    const finishListeners: number[] = [];
    const server = createServer((req, res: ServerResponse) => {
      const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
      res.end = ((...args: unknown[]) => {
        finishListeners.push(res.listenerCount('finish'));
        return end(...args);
      }) as typeof res.end;
      app(req, res);
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    closers.push(() => new Promise((closed) => server.close(() => closed())));
    const { port } = server.address() as AddressInfo;
    const answer = await fetch(`http://127.0.0.1:${port}/links`, {
      method: 'POST',
      headers: { 'x-api-key': DEMO, 'content-type': 'application/json', connection: 'close' },
      body: JSON.stringify({ destinationUrl: 'https://example.com/listeners', domain: 'short.test', tags: [] }),
    });
    expect(answer.status).toBe(201);
    await answer.arrayBuffer();
    expect(finishListeners).toEqual([1]);
  });
});
