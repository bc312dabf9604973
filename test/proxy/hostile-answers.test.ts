// Answers of a hostile upstream that are odd but legal JSON must be judged, never crash the
// proxy: an answer nested 100,000 levels deep is a violation (the client gets it unchanged, with
// x-contract-violations), not a 500 from serialising it for the journal or the drift report.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';

const running: Array<{ stop: () => Promise<void> }> = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((item) => item.stop()));
});

async function upstreamAnswering(body: string, status: number): Promise<string> {
  const server: Server = await new Promise((resolve) => {
    const listening = createServer((_req, res) => res.writeHead(status, { 'content-type': 'application/json' }).end(body)).listen(0, '127.0.0.1', () => resolve(listening));
  });
  running.push({ stop: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))) });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

it('an answer nested 100,000 levels deep is a violation, passed on unchanged, not a 500', async () => {
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  const proxy = await startMock({ proxy: await upstreamAnswering(deep, 201) });
  running.push(proxy);
  const res = await fetch(`${proxy.url}/links`, { method: 'POST', headers: { 'x-api-key': 'demo-key', 'content-type': 'application/json' }, body: JSON.stringify({ destinationUrl: 'https://example.com', domain: 'short.test', tags: [] }) });
  expect(res.status).toBe(201);
  expect(await res.text()).toBe(deep);
  expect(Number(res.headers.get('x-contract-violations'))).toBeGreaterThanOrEqual(1);
  const [entry] = await proxy.journal({ limit: 1 });
  expect(entry).toMatchObject({ status: 201, verdict: 'contract-violation', violations: [expect.objectContaining({ side: 'response', rule: expect.stringMatching(/nested more than 64 levels deep/) })] });
  expect((await proxy.violations()).distinct).toBeGreaterThanOrEqual(1);
  expect((await proxy.health()).status).toBe('ok');
});
