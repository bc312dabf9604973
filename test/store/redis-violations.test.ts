// The drift report's aggregate on Redis (src/store/redis/redis-violations.ts): instances on one Redis and
// prefix, each with a connection of its own, report the same distinct violations, counted across
// all of them, with one example each, bounded however they race; clearing through one clears all;
// with Redis away, recording neither throws nor waits and a report is a `store unavailable` error.
import { createClient } from 'redis';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Violation } from '../../src/core/journal.js';
import type { ViolationSource } from '../../src/core/violations.js';
import { TrafficRedis } from '../../src/store/redis/redis-traffic-client.js';
import { RedisViolations } from '../../src/store/redis/redis-violations.js';
import type { TrafficState } from '../../src/core/traffic-state.js';
import { freshPrefix, keysUnder } from '../helpers/redis-store.js';
import { RedisTrafficStates } from '../helpers/redis-traffic.js';
import { sharedRedisUrl } from '../helpers/shared-redis.js';

const MISSING_ID: Violation = { side: 'response', rule: 'response body: must have required property id' };
const EXTRA: Violation = { side: 'request', rule: 'request body: must NOT have additional properties' };

let url: string;
const states = new RedisTrafficStates();
beforeAll(() => {
  url = sharedRedisUrl();
});
afterEach(() => states.closeAll());

/** Two instances of one mock: a fresh prefix, a connection each. */
async function twoInstances(): Promise<{ prefix: string; a: TrafficState; b: TrafficState }> {
  const prefix = freshPrefix();
  const [a, b] = await Promise.all([states.open(url, prefix), states.open(url, prefix)]);
  return { prefix, a: a.state, b: b.state };
}

function exchange(at: number, violations: Violation[], overrides: Partial<ViolationSource> = {}): ViolationSource {
  return {
    time: new Date(Date.UTC(2026, 0, 1, 0, 0, at)).toISOString(),
    method: 'POST', path: '/links', operationId: 'createLink', apiKey: 'demo*****', status: 201,
    requestBody: { at, text: 'quotes " and spaces' }, responseBody: null, violations, ...overrides,
  };
}

describe('RedisViolations', () => {
  it('violations recorded through both instances are reported by either: counted, first example kept, times spanning both', async () => {
    const { a, b } = await twoInstances();
    a.violations.record(exchange(5, [{ ...MISSING_ID, detail: 'first' }]));
    await a.flush(); // two connections: this one is first only once it is in
    b.violations.record(exchange(2, [{ ...MISSING_ID, detail: 'earlier time, later arrival' }, EXTRA]));
    a.violations.record(exchange(9, [MISSING_ID], { operationId: null, method: 'GET', path: '/nowhere', status: null }));
    await Promise.all([a.flush(), b.flush()]);
    const report = await b.violations.report();
    expect(report).toEqual({
      distinct: 3,
      dropped: 0,
      groups: [
        {
          operationId: 'createLink', method: 'POST', status: 201,
          violations: [
            {
              ...MISSING_ID, count: 2, firstSeen: '2026-01-01T00:00:02.000Z', lastSeen: '2026-01-01T00:00:05.000Z',
              example: { time: '2026-01-01T00:00:05.000Z', method: 'POST', path: '/links', apiKey: 'demo*****', status: 201, requestBody: { at: 5, text: 'quotes " and spaces' }, responseBody: null, detail: 'first' },
            },
            expect.objectContaining({ ...EXTRA, count: 1, firstSeen: '2026-01-01T00:00:02.000Z', lastSeen: '2026-01-01T00:00:02.000Z' }),
          ],
        },
        { operationId: null, method: 'GET', status: null, violations: [expect.objectContaining({ ...MISSING_ID, count: 1 })] },
      ],
    });
    expect(await a.violations.report()).toEqual(report);
  });

  it('racing instances never keep more than the bound; new ones past it are counted as dropped, kept ones still counted', async () => {
    const prefix = freshPrefix();
    const clients = await Promise.all([0, 1].map(() => createClient({ url }).connect()));
    try {
      const [x, y] = clients.map((client) => new RedisViolations(new TrafficRedis(client, prefix, () => undefined), 3));
      for (let i = 0; i < 10; i++) (i % 2 ? x! : y!).record(exchange(i, [{ side: 'response', rule: `rule ${i}` }]));
      await Promise.all([x!.report(), y!.report()]); // each is sent once its own instance's records are in
      const settled = await x!.report();
      expect(settled).toMatchObject({ distinct: 3, dropped: 7 });
      const kept = settled.groups[0]!.violations[0]!;
      x!.record(exchange(20, [{ side: kept.side, rule: kept.rule }]));
      expect((await x!.report()).groups[0]!.violations[0]!.count).toBe(2);
    } finally {
      for (const client of clients) client.destroy();
    }
  });

  it('one exchange is one script call, however many violations it has; the bound is per side (issue 23)', async () => {
    const client = await createClient({ url }).connect();
    try {
      const redis = new TrafficRedis(client, freshPrefix(), () => undefined);
      const calls = vi.spyOn(redis, 'record');
      const violations = new RedisViolations(redis, 3);
      violations.record(exchange(1, Array.from({ length: 30 }, (_, i) => ({ side: 'request' as const, rule: `noise ${i}`, detail: `d${i}` }))));
      expect(calls).toHaveBeenCalledTimes(1);
      violations.record(exchange(2, [{ ...MISSING_ID, detail: 'upstream' }]));
      const report = await violations.report();
      expect(report).toMatchObject({ distinct: 4, dropped: 27 });
      const rows = report.groups[0]!.violations;
      expect(rows.map((v) => `${v.side}: ${v.rule}`)).toEqual(['request: noise 0', 'request: noise 1', 'request: noise 2', `response: ${MISSING_ID.rule}`]);
      expect(rows[1]?.example).toMatchObject({ detail: 'd1', requestBody: { at: 1, text: 'quotes " and spaces' } });
      expect(rows[3]?.example).toMatchObject({ detail: 'upstream', time: '2026-01-01T00:00:02.000Z' });
      // One side alone, its dropped sightings its own (issue 25): the client's noise cannot fail a gate on the upstream.
      expect(await violations.report('response')).toMatchObject({ distinct: 1, dropped: 0, groups: [{ violations: [{ side: 'response', rule: MISSING_ID.rule }] }] });
      expect(await violations.report('request')).toMatchObject({ distinct: 3, dropped: 27 });
    } finally {
      client.destroy();
    }
  });

  it('clearing through one instance clears it for all, and leaves no key behind', async () => {
    const { prefix, a, b } = await twoInstances();
    a.violations.record(exchange(1, [MISSING_ID]));
    b.violations.record(exchange(2, [EXTRA]));
    await Promise.all([a.flush(), b.flush()]);
    await b.violations.clear();
    expect(await a.violations.report()).toEqual({ distinct: 0, dropped: 0, groups: [] });
    expect(await keysUnder(url, `${prefix}traffic:violations`)).toEqual([]);
  });

  it('with Redis away, recording returns at once without throwing and a report is a store unavailable error', async () => {
    const client = createClient({ url }); // never connected
    const prefix = freshPrefix();
    const lines: string[] = [];
    const violations = new RedisViolations(new TrafficRedis(client, prefix, (line) => lines.push(line)));
    expect(() => violations.record(exchange(1, [MISSING_ID]))).not.toThrow();
    await expect(violations.report()).rejects.toThrow(/^store unavailable: /);
    expect(lines).toHaveLength(1);
  });
});
