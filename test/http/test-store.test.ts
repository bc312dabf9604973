// The test builder really builds on the Vitest project's store (D27): without this, a project that
// meant to run on Redis could pass on memory unnoticed.
import { expect, test } from 'vitest';
import { createTestApp, DEMO } from '../helpers/test-app.js';
import { testStoreKind } from '../helpers/test-store.js';

test('createTestApp builds on the store SHORTLINK_MOCK_TEST_STORE names, seeded alike, a prefix of its own each', async () => {
  const [one, two] = [await createTestApp(), await createTestApp()];
  expect(one.store.location).toMatch(testStoreKind() === 'redis' ? /^redis:\/\// : /^:memory:$/);
  expect(await one.data()).toEqual(await two.data());
  expect((await one.request.delete(`/links/${(await one.linksOf(DEMO))[0]?.id ?? ''}`).set('x-api-key', DEMO)).status).toBe(204);
  expect([...(await one.data()).links.keys()]).toHaveLength((await two.data()).links.size - 1);
});
