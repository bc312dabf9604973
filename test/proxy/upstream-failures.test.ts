// An upstream that gives no answer: one that refuses connections, one that never answers, one that
// hangs up halfway. Each is a 502 Error object with the reason, in the journal as upstream-error,
// and the proxy stays up. Plus the wire details a proxy must get right: a compressed answer is
// judged decoded and passed on as it came, and the client's headers reach the upstream.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { holdRefusingPort } from '../helpers/refusing-port.js';

const running: Array<{ stop: () => Promise<void> }> = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((item) => item.stop()));
});

const createBody = JSON.stringify({ destinationUrl: 'https://example.com', domain: 'short.test', tags: [] });

async function proxyTo(url: string, options: { proxyTimeoutMs?: number } = {}): Promise<RunningMock> {
  const proxy = await startMock({ proxy: url, ...options });
  running.push(proxy);
  return proxy;
}

async function upstream(handle: Parameters<typeof createServer>[1]): Promise<string> {
  const server: Server = await new Promise((resolve) => {
    const listening = createServer(handle).listen(0, '127.0.0.1', () => resolve(listening));
  });
  running.push({
    stop: () => {
      server.closeAllConnections();
      return new Promise<void>((done) => server.close(() => done()));
    },
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A port that refuses connections while the test runs (test/helpers/refusing-port.ts). */
async function portNothingListensOn(): Promise<string> {
  const refusing = await holdRefusingPort();
  running.push({ stop: refusing.release });
  return refusing.url;
}

async function post(proxy: RunningMock): Promise<{ status: number; body: { errorDescription?: string } }> {
  const res = await fetch(`${proxy.url}/links`, { method: 'POST', headers: { 'x-api-key': 'demo-key', 'content-type': 'application/json' }, body: createBody });
  return { status: res.status, body: (await res.json()) as { errorDescription?: string } };
}

describe('an upstream that gives no answer', () => {
  it('refusing connections: a 502 Error object saying so', async () => {
    const closed = await portNothingListensOn();
    const proxy = await proxyTo(closed);
    const answer = await post(proxy);
    expect(answer.status).toBe(502);
    expect(answer.body.errorDescription).toMatch(/^the upstream http:\/\/127\.0\.0\.1:\d+\/links gave no answer: connection refused \(ECONNREFUSED\)/);
    const [entry] = await proxy.journal({ limit: 1 });
    expect(entry).toMatchObject({ status: 502, verdict: 'upstream-error', upstream: { status: null, error: expect.stringMatching(/ECONNREFUSED/) } });
    expect((await proxy.health()).status).toBe('ok');
  });

  it('never answering: a 502 once --proxy-timeout has passed', async () => {
    const silent = await upstream(() => undefined); // reads the request, never answers
    const proxy = await proxyTo(silent, { proxyTimeoutMs: 150 });
    const answer = await post(proxy);
    expect(answer.status).toBe(502);
    expect(answer.body.errorDescription).toMatch(/gave no answer: no complete answer within 150 ms \(--proxy-timeout\)$/);
    const [entry] = await proxy.journal({ limit: 1 });
    expect(entry).toMatchObject({ verdict: 'upstream-error', upstream: { status: null } });
  });

  it('hanging up halfway through its answer: a 502, not half an answer', async () => {
    const halfway = await upstream((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('{"id":"lnk_');
      setImmediate(() => res.socket?.destroy());
    });
    const proxy = await proxyTo(halfway);
    const answer = await post(proxy);
    expect(answer.status).toBe(502);
    expect(answer.body.errorDescription).toMatch(/gave no answer/);
  });
});

describe('a kept-alive connection the upstream drops as it is reused', () => {
  it('is tried once more on a new connection, so the client never sees it', async () => {
    // Each connection answers its first request (kept alive) and is reset on its second: the
    // race of an upstream closing an idle connection just as the proxy reuses it, made certain.
    const server = createNetServer((socket) => {
      let requests = 0;
      socket.on('data', () => {
        requests += 1;
        if (requests > 1) return void socket.resetAndDestroy();
        socket.write('HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\nKeep-Alive: timeout=60\r\n\r\n');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    running.push({ stop: () => new Promise<void>((done) => server.close(() => done())) });
    const proxy = await proxyTo(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      statuses.push((await fetch(`${proxy.url}/links/lnk_z`, { method: 'DELETE', headers: { 'x-api-key': 'demo-key' } })).status);
    }
    expect(statuses).toEqual([204, 204, 204]);
    await proxy.stop(); // the proxy's idle connections go first, so the server can close
  });
});

describe('on the wire', () => {
  it('never joins a target that is not a path to the upstream URL (GET *): a 404 Error object, nothing sent', async () => {
    let calls = 0;
    const counting = await upstream((_req, res) => {
      calls += 1;
      res.writeHead(204).end();
    });
    const proxy = await proxyTo(counting);
    const { port } = new URL(proxy.url);
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write('GET * HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 404 /);
    expect(answer).toMatch(/"errorDescription":"no operation at GET '\*'/);
    expect(calls).toBe(0);
  });

  it('judges a gzip answer decoded and passes the compressed bytes on unchanged', async () => {
    const wrong = gzipSync(JSON.stringify({ errorDescription: '' }));
    const gzipped = await upstream((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(wrong.length) });
      res.end(wrong);
    });
    const proxy = await proxyTo(gzipped);
    const res = await fetch(`${proxy.url}/links/lnk_x`, { method: 'DELETE', headers: { 'x-api-key': 'demo-key', 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(await res.json()).toEqual({ errorDescription: '' }); // fetch undoes the gzip: the same bytes came through
    expect(res.headers.get('x-contract-violations')).toBe('1');
    const [entry] = await proxy.journal({ limit: 1 });
    expect(entry?.violations).toEqual([{ side: 'response', rule: 'body does not match Error: body.errorDescription must NOT have fewer than 1 characters', detail: '""' }]);
  });

  it("forwards the client's headers but the mock's own and the connection's", async () => {
    let seen: IncomingHttpHeaders = {};
    const echo = await upstream((req, res) => {
      seen = req.headers;
      res.writeHead(204).end();
    });
    const proxy = await proxyTo(echo);
    const res = await fetch(`${proxy.url}/links/lnk_y`, { method: 'DELETE', headers: { 'x-api-key': 'demo-key', 'x-request-id': 'r-1', 'x-mock-scenario': 'none-such', 'x-admin-token': 'secret' } });
    // x-mock-scenario names a scenario the mock does not have: answered locally, as in mock mode.
    expect(res.status).toBe(400);
    const forwarded = await fetch(`${proxy.url}/links/lnk_y`, { method: 'DELETE', headers: { 'x-api-key': 'demo-key', 'x-request-id': 'r-1', 'x-admin-token': 'secret', connection: 'keep-alive' } });
    expect(forwarded.status).toBe(204);
    expect(seen['x-api-key']).toBe('demo-key');
    expect(seen['x-request-id']).toBe('r-1');
    expect(seen['x-admin-token']).toBeUndefined();
    expect(seen['host']).toBe(new URL(echo).host);
  });
});
