// Issue 23 item 3: the violations of one proxied exchange are capped wherever they are kept (the
// first 20 of each side, plus a count of the rest): the journal entry, the log line, the drift
// report. The x-contract-violations header stays the true count. A 12 KiB request of 990 unknown
// fields, answered with a 201 of 990 unknown fields, is ~2,000 violations.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { DEMO } from '../helpers/test-app.js';

const running: Array<{ stop: () => Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((item) => item.stop()));
});

const fields = (prefix: string): Record<string, number> => Object.fromEntries(Array.from({ length: 990 }, (_, i) => [`${prefix}${i}`, 1]));
const LINK = { id: 'lnk_1', createdAt: '2026-01-01T00:00:00Z', destinationUrl: 'https://e.test/', slug: 'abc', domain: { id: 'dom_1', name: 'short.test' }, shortUrl: 'https://short.test/abc', tags: [] };

async function upstream(body: string): Promise<string> {
  const server: Server = await new Promise((resolve) => {
    const listening = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end(body));
    }).listen(0, '127.0.0.1', () => resolve(listening));
  });
  running.push({ stop: () => new Promise<void>((done) => server.close(() => done())) });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

it('990 violations on each side: 20 of each kept in the journal, the log line and the report, the rest counted; the header says all', async () => {
  const lines: string[] = [];
  const proxy: RunningMock = await startMock({ proxy: await upstream(JSON.stringify({ ...LINK, ...fields('answer') })), log: (line) => lines.push(line) });
  running.push(proxy);
  const res = await fetch(`${proxy.url}/links`, {
    method: 'POST',
    headers: { 'x-api-key': DEMO, 'content-type': 'application/json' },
    body: JSON.stringify({ destinationUrl: 'https://e.test/', domain: 'short.test', tags: [], ...fields('sent') }),
  });
  expect(res.status).toBe(201);
  // 990 unknown fields sent, 990 answered, and a 201 to a request the contract refuses.
  expect(res.headers.get('x-contract-violations')).toBe('1981');
  const [entry] = await proxy.journal({ limit: 1 });
  const sides = (side: string) => entry?.violations?.filter((violation) => violation.side === side) ?? [];
  expect(sides('request')).toHaveLength(20);
  expect(sides('response')).toHaveLength(20);
  expect(entry?.violationsNotKept).toBe(1981 - 40);
  expect(sides('request')[0]?.detail).toBe("'sent0'");
  const logged = lines.filter((line) => line.startsWith('CONTRACT VIOLATION'));
  expect(logged).toHaveLength(1);
  expect(logged[0]!.length).toBeLessThan(8 * 1024);
  expect(logged[0]).toMatch(/and 1941 more violations not shown$/);
  const report = await proxy.violations();
  expect(report.distinct).toBeLessThanOrEqual(40);
});
