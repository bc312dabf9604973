// Network faults seen from a real client socket: the app listens on 127.0.0.1:0 and node:http
// sends the requests. Every wait is bounded and event-driven: the client's own events, a
// client-side timeout, or the log line written when the server side lets the connection go.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import type { Fault, Scenario } from '../../src/core/scenarios.js';
import { builtInScenarios, createTestApp, DEMO, type TestApp } from '../helpers/test-app.js';

const SAFETY_MS = 5_000;
const CREATE = { destinationUrl: 'https://example.com/fault', domain: 'short.test', tags: [] };

type Seen =
  | { kind: 'response'; status: number; body: string }
  | { kind: 'error'; code: string | undefined; message: string }
  | { kind: 'timeout' };

const faultScenario = (fault: Fault): Scenario => ({
  name: `all-${fault}`,
  description: `every operation: ${fault}`,
  source: 'faults.test.ts',
  rules: [{ match: { operations: '*' }, fault }],
});

let server: http.Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

interface Running {
  t: TestApp;
  port: number;
  lines: string[];
  /** Resolves when a log line matches (the server side has finished with the request). */
  logged: (pattern: RegExp) => Promise<string>;
}

async function listen(): Promise<Running> {
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  const log = (line: string): void => {
    lines.push(line);
    for (const waiter of waiters.filter((w) => w.pattern.test(line))) waiter.resolve(line);
  };
  const t = await createTestApp({ log, scenarios: [...builtInScenarios, ...(['connection-reset', 'empty-response', 'no-response'] as const).map(faultScenario)] });
  const listening = t.app.listen(0, '127.0.0.1');
  server = listening;
  await new Promise<void>((resolve, reject) => {
    listening.once('listening', resolve);
    listening.once('error', reject);
  });
  const logged = (pattern: RegExp): Promise<string> =>
    new Promise((resolve, reject) => {
      const found = lines.find((line) => pattern.test(line));
      if (found) return resolve(found);
      const timer = setTimeout(() => reject(new Error(`no log line ${String(pattern)} in:\n${lines.join('\n')}`)), SAFETY_MS);
      waiters.push({ pattern, resolve: (line) => (clearTimeout(timer), resolve(line)) });
    });
  return { t, port: (listening.address() as AddressInfo).port, lines, logged };
}

/** One request on a fresh connection; settles on the first of: response, error, client timeout. */
function send(port: number, method: string, path: string, headers: Record<string, string>, body?: object, timeoutMs = SAFETY_MS): Promise<Seen> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (seen: Seen): void => {
      if (settled) return;
      settled = true;
      resolve(seen);
    };
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request({ host: '127.0.0.1', port, method, path, agent: false, headers: { 'x-api-key': DEMO, ...(payload ? { 'content-type': 'application/json' } : {}), ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => settle({ kind: 'response', status: res.statusCode ?? 0, body: text }));
    });
    req.setTimeout(timeoutMs, () => {
      settle({ kind: 'timeout' });
      req.destroy();
    });
    req.on('error', (error: NodeJS.ErrnoException) => settle({ kind: 'error', code: error.code, message: error.message }));
    req.end(payload);
  });
}

const demoLinkId = async (t: TestApp): Promise<string> => {
  const [link] = await t.linksOf(DEMO);
  if (!link) throw new Error('no demo link');
  return link.id;
};

describe('each fault, from a real client socket', () => {
  test('connection-reset: the client gets ECONNRESET and no response; nothing changes', async () => {
    const { t, port, logged } = await listen();
    const before = await t.data();
    const seen = await send(port, 'POST', '/links', { 'x-mock-scenario': 'all-connection-reset' }, CREATE);
    expect(seen).toMatchObject({ kind: 'error', code: 'ECONNRESET' });
    expect(await logged(/^POST \/links /)).toMatch(/fault:connection-reset .*scenario=all-connection-reset$/);
    expect(await t.data()).toEqual(before);
  });

  test('empty-response: the connection closes without a byte ("socket hang up")', async () => {
    const { port, logged } = await listen();
    const seen = await send(port, 'DELETE', '/links/lnk_any', { 'x-mock-scenario': 'all-empty-response' });
    expect(seen).toMatchObject({ kind: 'error', message: 'socket hang up' });
    expect(await logged(/^DELETE /)).toMatch(/fault:empty-response .*scenario=all-empty-response$/);
  });

  test('no-response: nothing arrives until the client gives up; then the server lets go', async () => {
    const { t, port, lines, logged } = await listen();
    const id = await demoLinkId(t);
    const seen = await send(port, 'PUT', `/links/${id}`, { 'x-mock-scenario': 'all-no-response' }, { destinationUrl: 'https://example.com/never' }, 300);
    // The client's own 300 ms ran out before any byte or close: what "nothing arrives" means. How long
    // that took was Node's timer, not the mock, and a timer can fire early by the loop's stale clock.
    expect(seen.kind).toBe('timeout');
    expect(lines.filter((line) => line.startsWith('PUT '))).toEqual([]);
    expect(await logged(/^PUT /)).toMatch(/fault:no-response .*scenario=all-no-response$/);
    expect((await t.data()).links.get(id)?.destinationUrl).not.toBe('https://example.com/never');
  });

  test('a request without the header on the same server is answered normally', async () => {
    const { port } = await listen();
    expect(await send(port, 'POST', '/links', {}, CREATE)).toMatchObject({ kind: 'response', status: 201 });
  });
});

describe('flaky-network over a real socket: the first request of each operation is reset', () => {
  test.each(['header', 'global'] as const)('%s', async (mode) => {
    const { t, port } = await listen();
    const id = await demoLinkId(t);
    if (mode === 'global') await t.request.put('/__admin/scenario').send({ name: 'flaky-network' }).expect(200);
    const h: Record<string, string> = mode === 'header' ? { 'x-mock-scenario': 'flaky-network' } : {};
    expect(await send(port, 'POST', '/links', h, CREATE)).toMatchObject({ kind: 'error', code: 'ECONNRESET' });
    expect(await send(port, 'POST', '/links', h, CREATE)).toMatchObject({ kind: 'response', status: 201 });
    expect(await send(port, 'PUT', `/links/${id}`, h, { tags: [] })).toMatchObject({ kind: 'error', code: 'ECONNRESET' });
    expect(await send(port, 'PUT', `/links/${id}`, h, { tags: [] })).toMatchObject({ kind: 'response', status: 200 });
    expect(await send(port, 'DELETE', `/links/${id}`, h)).toMatchObject({ kind: 'error', code: 'ECONNRESET' });
    expect((await t.data()).links.get(id)).toBeDefined();
    expect(await send(port, 'DELETE', `/links/${id}`, h)).toMatchObject({ kind: 'response', status: 204 });
    expect(await send(port, 'DELETE', `/links/${id}`, h)).toMatchObject({ kind: 'response', status: 404 });
  });
});
