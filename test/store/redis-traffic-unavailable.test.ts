// D25 on the traffic state: with Redis killed, or stopped so that it no longer answers, recording
// (journal entries, coverage counts) never throws and never waits, drops what it cannot send and
// says so in one line; reading the global scenario, the counters, the journal or coverage settles
// within 2 s as a `store unavailable: ` rejection. Once Redis is back, all of it works again by
// itself, the journal's live feed included.
import { once } from 'node:events';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { JournalEntry, NewJournalEntry } from '../../src/core/journal.js';
import type { Scenario } from '../../src/core/scenarios.js';
import { MAX_PENDING_RECORDS, TRAFFIC_TIMEOUT_MS } from '../../src/store/redis/redis-traffic-client.js';
import { cpuMsOf, runnableMsOf } from '../helpers/own-time.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { freshPrefix } from '../helpers/redis-store.js';
import { RedisTrafficStates, type TrafficInstance } from '../helpers/redis-traffic.js';
import { sharedRedisUrl } from '../helpers/shared-redis.js';
import { createTestApp, DEMO } from '../helpers/test-app.js';

const SETTLE_LIMIT_MS = 2_000;
const WAIT_MS = 10_000;
const THRICE: Scenario = { name: 'thrice', description: 'd', source: 'test', rules: [{ match: { operations: '*' }, times: 3 }] };
const ENTRY: NewJournalEntry = {
  time: '2026-01-01T00:00:00.000Z', method: 'DELETE', path: '/links/x', operationId: 'deleteLink', apiKey: null, accountId: null,
  status: 401, durationMs: 1, scenario: null, fault: null, verdict: 'ok', requestBody: null, responseBody: null,
};

let redis: RedisServer | undefined;
const states = new RedisTrafficStates();
let it1: TrafficInstance;

beforeAll(async () => {
  sharedRedisUrl(); // fails with the set-up's words when there is no redis-server
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});
beforeEach(async () => {
  it1 = await states.open(redis!.url, freshPrefix());
});
afterEach(async () => {
  await states.closeAll();
  // A test that failed half-way must not leave the server stopped or killed for the next.
  try {
    process.kill(redis!.pid, 'SIGCONT');
  } catch {
    await redis!.restart();
  }
});

/** Records `count` of each kind; each call returns at once without throwing (the CPU of the batch: load-proof, and a wait would not count). */
async function recordMany(count: number): Promise<number> {
  const { cpuMs } = await cpuMsOf(() => {
    for (let i = 0; i < count; i++) {
      it1.state.journal.add(ENTRY);
      it1.state.coverage.count({ group: 'withoutKey' }, 'deleteLink 401 ');
    }
  });
  return cpuMs;
}

/** Every read a request or an admin call waits on: each rejects `store unavailable: …` matching `reason`, within 2 s. */
async function expectReadsUnavailable(reason: RegExp): Promise<void> {
  const { state } = it1;
  const reads: Array<[string, () => unknown]> = [
    ['activeName', () => state.scenario.activeName()],
    ['setActive', () => state.scenario.setActive('thrice')],
    ['take', () => state.scenario.counters.take(THRICE, 0, THRICE.rules[0]!)],
    ['hasUses', () => state.scenario.counters.hasUses(THRICE, 0, THRICE.rules[0]!)],
    ['activeNames', () => state.scenario.activeNames('suite-key')],
    ['setKeyScenario', () => state.scenario.setKeyScenario('suite-key', 'thrice')],
    ['keyScenarios', () => state.scenario.keyScenarios()],
    ['countersOf.take', () => state.scenario.countersOf('suite-key').take(THRICE, 0, THRICE.rules[0]!)],
    ['journal.list', () => state.journal.list()],
    ['coverage.read', () => state.coverage.read()],
  ];
  const outcomes = await Promise.all(
    reads.map(async ([name, read]) => {
      // Time this process could run: a wall clock would also count a loaded machine giving it none.
      const { outcome, ms } = await runnableMsOf(async () => read());
      const message = outcome.status === 'fulfilled' ? `${name} succeeded` : (outcome.reason as Error).message;
      return { name, message, ms };
    }),
  );
  for (const { name, message, ms } of outcomes) {
    expect(message, name).toMatch(/^store unavailable: /);
    expect(message, name).toMatch(reason);
    expect(ms, name).toBeLessThan(SETTLE_LIMIT_MS);
  }
}

/** Resolves once the client is connected again (event-driven, bounded). */
async function reconnected(): Promise<void> {
  if (!it1.client.isReady) await once(it1.client, 'ready', { signal: AbortSignal.timeout(WAIT_MS) });
}

describe('the traffic state with Redis unavailable (D25)', () => {
  it('killed: recording drops without waiting, in one log line; reads reject within 2 s; once back, everything works again', async () => {
    const feed: JournalEntry[] = [];
    it1.state.journal.on('entry', (entry) => feed.push(entry));
    await it1.state.journal.listening();
    const closed = once(it1.client, 'error', { signal: AbortSignal.timeout(WAIT_MS) });
    await redis!.kill9();
    await closed;
    expect(await recordMany(500)).toBeLessThan(500);
    await it1.state.flush();
    expect(it1.lines.filter((line) => line.startsWith('journal entries and coverage counts are dropped'))).toEqual([
      'journal entries and coverage counts are dropped while Redis cannot take them (Redis is not connected); requests are answered as usual',
    ]);
    await expectReadsUnavailable(new RegExp(`Redis did not answer within ${TRAFFIC_TIMEOUT_MS} ms|The client is offline`));

    await redis!.restart();
    await reconnected();
    await it1.state.journal.listening();
    const delivered = new Promise<JournalEntry>((resolve) => it1.state.journal.once('entry', resolve));
    it1.state.journal.add(ENTRY);
    await it1.state.flush();
    expect(it1.lines.at(-1)).toBe('Redis takes journal entries and coverage counts again');
    expect((await it1.state.journal.list()).map((entry) => entry.seq)).toEqual([1]);
    expect(await delivered).toEqual({ seq: 1, ...ENTRY });
    expect(feed).toEqual([{ seq: 1, ...ENTRY }]);
    expect(it1.lines.filter((line) => line.startsWith('the live journal stream is not receiving entries'))).toHaveLength(1);
    expect(await it1.state.scenario.activeName()).toBeNull();
  });

  it('not answering (stopped): recording stays bounded and never waits; reads reject within 2 s; answering again, it works', async () => {
    process.kill(redis!.pid, 'SIGSTOP');
    try {
      expect(await recordMany(MAX_PENDING_RECORDS)).toBeLessThan(1_000);
      await expectReadsUnavailable(new RegExp(`Redis did not answer within ${TRAFFIC_TIMEOUT_MS} ms`));
      const flushed = await runnableMsOf(() => it1.state.flush());
      expect(flushed.outcome.status).toBe('fulfilled');
      expect(flushed.ms).toBeLessThan(SETTLE_LIMIT_MS);
      expect(it1.lines.filter((line) => line.startsWith('journal entries and coverage counts are dropped'))).toHaveLength(1);
    } finally {
      process.kill(redis!.pid, 'SIGCONT');
    }
    await it1.state.scenario.setActive('thrice');
    expect(await it1.state.scenario.activeName()).toBe('thrice');
    it1.state.journal.add(ENTRY);
    await it1.state.flush();
    // Of the records made while stopped, the first (a journal entry) was sent at once, in a batch of
    // its own, and has run now; the others waited behind it and were dropped unsent when it timed out.
    expect((await it1.state.journal.list()).at(-1)).toEqual({ seq: 2, ...ENTRY });
    expect((await it1.state.coverage.read()).group.withoutKey).toBe(0);
  });

  it('a request that needs the global scenario answers the documented 500 within 2 s; one that names its own is answered', async () => {
    const { request } = await createTestApp({ traffic: it1.state });
    const closed = once(it1.client, 'error', { signal: AbortSignal.timeout(WAIT_MS) });
    await redis!.kill9();
    await closed;
    const { outcome, ms } = await runnableMsOf(async () => request.post('/links').set('x-api-key', DEMO).send({ destinationUrl: 'https://example.com', domain: 'short.test', tags: [] }));
    expect(ms).toBeLessThan(SETTLE_LIMIT_MS);
    if (outcome.status === 'rejected') throw outcome.reason;
    const res = outcome.value;
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ errorDescription: expect.stringMatching(/store unavailable: /) });
    const forced = await request.post('/links').set({ 'x-api-key': DEMO, 'x-mock-scenario': 'not-found' }).send({ destinationUrl: 'https://example.com', domain: 'short.test', tags: [] });
    expect(forced.status).toBe(404);
    await redis!.restart();
    await reconnected();
    expect((await request.post('/links').set('x-api-key', DEMO).send({ destinationUrl: 'https://example.com', domain: 'short.test', tags: [] })).status).toBe(201);
  });
});
