// Journal entries and coverage counts go to Redis in batches (src/store/redis/redis-record-batch.ts):
// one alone is sent at once; those made while a batch is in flight go together in the next call,
// at most MAX_BATCH per call. Every record is stored, in the order it was made, and the journal's
// reads and clearing act on what this instance recorded before them.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { NewJournalEntry } from '../../src/core/journal.js';
import { MAX_BATCH } from '../../src/store/redis/redis-record-batch.js';
import { MAX_PENDING_RECORDS } from '../../src/store/redis/redis-traffic-client.js';
import { freshPrefix } from '../helpers/redis-store.js';
import { RedisTrafficStates, type TrafficInstance } from '../helpers/redis-traffic.js';
import { sharedRedisUrl } from '../helpers/shared-redis.js';

/** Entries, and as many counts: together within MAX_PENDING_RECORDS, past which records are dropped by design. */
const RECORDS = 2 * MAX_BATCH;
let url: string;
const states = new RedisTrafficStates();

beforeAll(() => {
  url = sharedRedisUrl();
});
afterEach(() => states.closeAll());

const entry = (n: number): NewJournalEntry => ({
  time: '2026-01-01T00:00:00.000Z', method: 'POST', path: `/links/${n}`, operationId: 'createLink', apiKey: null, accountId: null,
  status: 401, durationMs: 1, scenario: null, fault: null, verdict: 'ok', requestBody: null, responseBody: null,
});

/** Counts the script calls the instance's client sends from now on (by SHA: a first EVAL that loads a script is not counted). */
function countScriptCalls(instance: TrafficInstance): { calls: number } {
  const counted = { calls: 0 };
  const client = instance.client as unknown as { sendCommand: (args: string[], ...rest: unknown[]) => Promise<unknown> };
  const send = client.sendCommand.bind(client);
  client.sendCommand = (args, ...rest) => {
    if (args[0] === 'EVALSHA') counted.calls += 1;
    return send(args, ...rest);
  };
  return counted;
}

describe('records in batches', () => {
  it(`${RECORDS} entries and ${RECORDS} counts made at once: all stored, in order, in a few calls of at most ${MAX_BATCH}`, async () => {
    const instance = await states.open(url, freshPrefix(), RECORDS);
    expect(2 * RECORDS).toBeLessThanOrEqual(MAX_PENDING_RECORDS);
    const counted = countScriptCalls(instance);
    for (let n = 1; n <= RECORDS; n += 1) {
      instance.state.journal.add(entry(n));
      instance.state.coverage.count({ group: 'withoutKey' }, 'createLink 401 ');
    }
    await instance.state.flush();
    // The first alone, then the other 2 × RECORDS - 1 in calls of MAX_BATCH.
    expect(counted.calls).toBe(1 + Math.ceil((2 * RECORDS - 1) / MAX_BATCH));
    const listed = await instance.state.journal.list();
    expect(listed.map((each) => each.path)).toEqual(Array.from({ length: RECORDS }, (_, i) => `/links/${i + 1}`));
    expect(listed.map((each) => each.seq)).toEqual(Array.from({ length: RECORDS }, (_, i) => i + 1));
    expect((await instance.state.coverage.read()).group.withoutKey).toBe(RECORDS);
  });

  it('a list or a clearing right after recording acts on every record made before it', async () => {
    const instance = await states.open(url, freshPrefix(), RECORDS);
    for (let n = 1; n <= 50; n += 1) instance.state.journal.add(entry(n));
    expect(await instance.state.journal.list()).toHaveLength(50);
    for (let n = 51; n <= 100; n += 1) instance.state.journal.add(entry(n));
    await instance.state.journal.clear();
    expect(await instance.state.journal.list()).toEqual([]);
    for (let n = 1; n <= 50; n += 1) instance.state.coverage.count({ group: 'unknownKey' }, 'createLink 401 ');
    await instance.state.coverage.clear();
    expect((await instance.state.coverage.read()).group.unknownKey).toBe(0);
  });
});
