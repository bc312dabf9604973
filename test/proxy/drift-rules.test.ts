// Issue 23 item 5: a drift rule reads the same for every exchange that breaks the contract the same
// way, so one client cannot fill the report: unknown fields, and fields under array indices (on the
// request and on the answer), are one rule each, the concrete field being the evidence.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { DEMO } from '../helpers/test-app.js';

const running: Array<{ stop: () => Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((item) => item.stop()));
});

const LINK = { id: 'lnk_1', createdAt: '2026-01-01T00:00:00Z', destinationUrl: 'https://e.test/', slug: 'abc', domain: { id: 'dom_1', name: 'short.test' }, shortUrl: 'https://short.test/abc' };

/** An upstream that answers each create with a Link whose tag number `n` (the request's count of tags) has a numeric id and an extra field. */
async function upstream(): Promise<string> {
  const server: Server = await new Promise((resolve) => {
    const listening = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const sent = JSON.parse(Buffer.concat(chunks).toString()) as { tags: unknown[] };
        const tags = sent.tags.map((_, i) => ({ id: `tag_${i}`, name: 't' }));
        tags.push({ id: 7 as unknown as string, name: 't', [`extra${tags.length}`]: 1 } as { id: string; name: string });
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ ...LINK, tags, [`top${tags.length}`]: 1 }));
      });
    }).listen(0, '127.0.0.1', () => resolve(listening));
  });
  running.push({ stop: () => new Promise<void>((done) => server.close(() => done())) });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

it('five exchanges with different unknown fields and indices: one rule each, the first concrete field as evidence', async () => {
  const proxy: RunningMock = await startMock({ proxy: await upstream() });
  running.push(proxy);
  for (let n = 0; n < 5; n++) {
    const tags = [...Array.from({ length: n }, () => ({ name: 'ok' })), { name: 'x', [`odd${n}`]: 1 }, { name: n }];
    const res = await fetch(`${proxy.url}/links`, {
      method: 'POST',
      headers: { 'x-api-key': DEMO, 'content-type': 'application/json' },
      body: JSON.stringify({ destinationUrl: 'https://e.test/', domain: 'short.test', tags, [`unknown${n}`]: 1 }),
    });
    expect(res.status).toBe(201);
  }
  const report = await proxy.violations();
  const rows = report.groups.flatMap((group) => group.violations.map((v) => [v.side, v.rule, v.count, v.example.detail]));
  expect(rows).toEqual([
    ['request', 'request body: unknown field', 5, "'unknown0'"],
    ['request', "request body: unknown field in 'tags[]'", 5, "'tags[0].odd0'"],
    ['request', "request body: 'tags[].name' must be string", 5, "'tags[1].name'"],
    ['response', 'body does not match Link: body has an unexpected field', 5, 'body.top3'],
    ['response', 'body does not match Link: body.tags[] has an unexpected field', 5, 'body.tags[2].extra2'],
    ['response', 'body does not match Link: body.tags[].id must be string', 5, 'body.tags[2].id: 7'],
    ['response', 'createLink answered 201 to a request the contract refuses (it must be a 400)', 5, expect.any(String)],
  ]);
});
