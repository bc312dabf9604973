// D25 from the log's side: while the data is out of reach every request is refused alike with a
// 500 `store unavailable: …`; the log says so once every few seconds with a count, not once per request.
import { expect, test } from 'vitest';
import { expectError } from '../helpers/contract-assert.js';
import { createTestApp, DEMO } from '../helpers/test-app.js';

const link = { tags: [], destinationUrl: 'https://example.com', domain: 'short.test' };

test('50 requests refused while the store is away: 50 × 500 store unavailable, one log line', async () => {
  const lines: string[] = [];
  const t = await createTestApp({
    log: (line) => lines.push(line),
    logRequests: false,
    handlers: { createLink: () => Promise.reject(new Error('store unavailable: Redis at redis://127.0.0.1:6379 is not reachable')) },
  });
  for (let i = 0; i < 50; i++) {
    const res = await t.request.post('/links').set('x-api-key', DEMO).send(link);
    expectError(res, 500, { mentions: /^store unavailable: Redis at redis:\/\/127\.0\.0\.1:6379 is not reachable$/ });
  }
  expect(lines).toHaveLength(1);
  expect(lines[0]).toBe('INTERNAL ERROR answering POST /links: store unavailable: Redis at redis://127.0.0.1:6379 is not reachable');
});
