// node:test: a mock for this file, started before its tests and stopped after them.
// Run it with: node --import tsx --test node-test.test.ts
import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { startMock, type Link, type RunningMock } from 'shortlink-mock';

let mock: RunningMock;
before(async () => {
  mock = await startMock();
});
after(() => mock.stop());
beforeEach(() => mock.reset());

/** POST /links on the default domain with the given key. */
function createLink(apiKey: string): Promise<Response> {
  return fetch(`${mock.url}/links`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ destinationUrl: 'https://example.com', domain: 'short.test', tags: [] }),
  });
}

test('a created link gets simulated clicks', async () => {
  const response = await createLink(mock.apiKeys.demoKey);
  assert.equal(response.status, 201);
  const link = (await response.json()) as Link;
  assert.equal((await mock.addClicks(link.id, 5)).clickCount, 5);
});

test('the limited account is refused with LINK_LIMIT_REACHED', async () => {
  const response = await createLink(mock.apiKeys.limitedKey);
  assert.equal(response.status, 400);
  assert.equal(((await response.json()) as { code?: string }).code, 'LINK_LIMIT_REACHED');
});
