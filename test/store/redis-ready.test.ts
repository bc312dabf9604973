// D35 on Redis: GET /__admin/ready is 200 while the mock's Redis answers a PING, and 503 (empty
// body: neither the Redis URL nor the reason) while it is gone or has stopped answering; 200 again
// once Redis is back, which the mock notices by itself. No admin token is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/toolkit/start-mock.js';
import { eventually } from '../helpers/eventually.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { freshPrefix } from '../helpers/redis-store.js';
import { sharedRedisUrl } from '../helpers/shared-redis.js';

const BACK_LIMIT_MS = 10_000;

let redis: RedisServer | undefined;
let mock: RunningMock | undefined;

beforeAll(async () => {
  sharedRedisUrl(); // fails with the set-up's words when there is no redis-server
  redis = await startRedis();
  mock = await startMock({ db: redis.url, redisPrefix: freshPrefix(), adminToken: 'a-token', quiet: true, log: () => {} });
});
afterAll(async () => {
  await mock?.stop();
  await redis?.stop();
});

const ready = async (): Promise<{ status: number; body: string }> => {
  const res = await fetch(`${mock!.url}/__admin/ready`);
  return { status: res.status, body: await res.text() };
};

describe('GET /__admin/ready on Redis', () => {
  it('200 while Redis answers, 503 with an empty body while it is gone, 200 again once it is back', async () => {
    expect(await ready()).toEqual({ status: 200, body: '' });
    await redis!.kill9();
    expect(await ready()).toEqual({ status: 503, body: '' });
    await redis!.restart();
    expect(await eventually(ready, (answer) => answer.status === 200, BACK_LIMIT_MS)).toEqual({ status: 200, body: '' });
  });

  it('503 while Redis is stopped (SIGSTOP): the PING has a bound, the probe is not kept waiting', async () => {
    process.kill(redis!.pid, 'SIGSTOP');
    try {
      expect(await ready()).toEqual({ status: 503, body: '' });
    } finally {
      process.kill(redis!.pid, 'SIGCONT');
    }
    expect((await eventually(ready, (answer) => answer.status === 200, BACK_LIMIT_MS)).status).toBe(200);
  });
});
