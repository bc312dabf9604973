// The journal keeps the request headers that name a client (user-agent, x-client-*), bounded, so
// that `evolve --consumer-by header:NAME` can tell consumers apart; never a credential.
import { beforeEach, expect, it } from 'vitest';
import { MAX_HEADER_VALUE_CHARS, MAX_RECORDED_HEADERS, type JournalEntry } from '../../src/core/journal.js';
import { createTestApp, DEMO, type TestApp } from '../helpers/test-app.js';
import { expectAdminResponse } from './admin-contract.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

async function lastEntry(): Promise<JournalEntry | undefined> {
  const res = await t.request.get('/__admin/requests');
  expectAdminResponse(res, 'GET', '/__admin/requests');
  return (res.body as { entries: JournalEntry[] }).entries.at(-1);
}

it('keeps user-agent and x-client-* headers, and no credential', async () => {
  await t.request.delete('/links/lnk_x').set('x-api-key', DEMO).set('user-agent', 'acme-web/1.0').set('x-client-name', 'web').set('authorization', 'Bearer secret').set('cookie', 'a=b');
  expect((await lastEntry())?.headers).toEqual({ 'user-agent': 'acme-web/1.0', 'x-client-name': 'web' });
});

it('bounds how many headers and how much of each value it keeps (hostile input)', async () => {
  const request = t.request.delete('/links/lnk_x').set('x-api-key', DEMO).set('user-agent', 'u'.repeat(10_000));
  for (let index = 0; index < 50; index += 1) request.set(`x-client-${index}`, 'v');
  await request;
  const headers = (await lastEntry())?.headers ?? {};
  expect(Object.keys(headers)).toHaveLength(MAX_RECORDED_HEADERS);
  expect(headers['user-agent']).toHaveLength(MAX_HEADER_VALUE_CHARS);
});
