// The key's and global scenario are read once a request: alongside authentication
// (readActiveScenarioEarly), and that read is the choice when no header picks a scenario
// (src/http/scenarios.ts). A read that found none used to be made again by the choice.
import { afterEach, describe, expect, test } from 'vitest';
import { createTestApp, DEMO, type TestApp } from '../helpers/test-app.js';

const CREATE = { destinationUrl: 'https://example.com/reads', domain: 'short.test', tags: [] };

/** Counts the registry's reads of the active scenarios, from now on. */
function countReads(t: TestApp): () => number {
  let reads = 0;
  const activeFor = t.scenarios.activeFor.bind(t.scenarios);
  t.scenarios.activeFor = (...args) => {
    reads += 1;
    return activeFor(...args);
  };
  return () => reads;
}

describe('scenario reads of a request', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
  });

  test('a create with no scenario active reads the active scenarios once', async () => {
    t = await createTestApp();
    const reads = countReads(t);
    await t.request.post('/links').set('x-api-key', DEMO).send(CREATE).expect(201);
    expect(reads()).toBe(1);
  });

  test('the one read still applies an active scenario', async () => {
    t = await createTestApp();
    await t.scenarios.setActive('unauthorized', 'test');
    const reads = countReads(t);
    await t.request.post('/links').set('x-api-key', DEMO).send(CREATE).expect(401);
    expect(reads()).toBe(1);
  });

  test('a header that picks a scenario is the choice, with no read of the active ones', async () => {
    t = await createTestApp();
    await t.scenarios.setActive('unauthorized', 'test');
    const reads = countReads(t);
    await t.request.post('/links').set('x-api-key', DEMO).set('x-mock-scenario', 'not-found').send(CREATE).expect(404);
    expect(reads()).toBe(0);
  });
});
