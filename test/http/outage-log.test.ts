// D25 from the log's side: while the data is out of reach every request is refused alike with a
// 500 `store unavailable: …`; the log says so once every few seconds with a count, not once per request.
import { expect, test } from 'vitest';
import type { JournalEntry } from '../../src/core/journal.js';
import { expectError } from '../helpers/contract-assert.js';
import { createTestApp, DEMO } from '../helpers/test-app.js';

const link = { tags: [], destinationUrl: 'https://example.com', domain: 'short.test' };

test('50 requests refused while the store is away: 50 × 500 store unavailable, one log line naming an outage, not a bug', async () => {
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
  // INTERNAL ERROR is a bug of the mock (README); an outage is named as one, in the log and the journal alike.
  expect(lines[0]).toBe('STORE UNAVAILABLE answering POST /links: Redis at redis://127.0.0.1:6379 is not reachable');
  const journal = (await t.request.get('/__admin/requests')).body as { entries: JournalEntry[] };
  expect(journal.entries).toHaveLength(50);
  expect(new Set(journal.entries.map((entry) => entry.verdict))).toEqual(new Set(['store-unavailable']));
});
