// Issue 23 (10c): a Redis that refuses the mock's commands for want of permission (an ACL that
// leaves out the prefix's keys: NOPERM) is a store failure like Redis being away: health is 503
// naming why, the API and admin calls answer the documented 500 `store unavailable: …` (never an
// internal error), and once the permission is back everything answers by itself.
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, type Mock } from '../../src/process/mock.js';
import { openSharedState, sharedMockOptions } from '../../src/process/shared-state.js';
import { builtInScenarios, contract, DEMO, fixtures } from '../helpers/test-app.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { freshPrefix, seedData, withRawClient } from '../helpers/redis-store.js';
import { sharedRedisUrl } from '../helpers/shared-redis.js';

let redis: RedisServer | undefined;
let mock: Mock | undefined;
let request: supertest.Agent;
let linkId: string;

beforeAll(async () => {
  sharedRedisUrl(); // fails with the set-up's words when there is no redis-server
  redis = await startRedis();
  const state = await openSharedState({ url: redis.url, prefix: freshPrefix(), journalSize: 100, reset: false, seed: async () => seedData(), log: () => undefined });
  mock = await createMock({ contract, fixtures, seed: 1234, version: 'test', scenarios: builtInScenarios, log: () => undefined, ...sharedMockOptions(state) });
  request = supertest.agent(mock.app);
  linkId = [...seedData().links.values()].find((link) => link.accountId === seedData().accounts[0]!.id)!.id;
});
afterAll(async () => {
  await mock?.close();
  await redis?.stop();
});

/** The default user may run every command, PING included, but on no key of the mock's. */
const revoke = () => withRawClient(redis!.url, (client) => client.sendCommand(['ACL', 'SETUSER', 'default', 'resetkeys', '~not-the-mock:*']));
const grant = () => withRawClient(redis!.url, (client) => client.sendCommand(['ACL', 'SETUSER', 'default', 'allkeys']));

describe('an ACL that refuses the keys of the mock (NOPERM)', () => {
  it('health is 503 naming NOPERM, every call the documented 500 store unavailable; all answers again once it is granted', async () => {
    await revoke();
    try {
      const health = await request.get('/__admin/health');
      expect({ status: health.status, body: health.body }).toMatchObject({ status: 503, body: { status: 'unavailable', reason: expect.stringMatching(/NOPERM/) } });
      const calls = [
        request.put(`/links/${linkId}`).set('x-api-key', DEMO).send({ destinationUrl: 'https://example.com/acl' }),
        request.post('/links').set('x-api-key', DEMO).send({ destinationUrl: 'https://example.com/acl', domain: 'short.test', tags: [] }),
        request.get('/__admin/accounts'),
        request.get('/__admin/links').query({ account: DEMO }),
        request.get('/__admin/snapshots'),
        request.post('/__admin/reset'),
        request.post('/__admin/provider-states').send({ state: `a link ${linkId} exists for the account of ${DEMO}` }),
        request.get('/__admin/scenario'),
        request.put('/__admin/scenario').send({ name: 'slow' }),
        request.get('/__admin/requests'),
        request.get('/__admin/coverage'),
        request.get('/__admin/violations'),
      ];
      for (const [i, res] of (await Promise.all(calls)).entries()) {
        expect({ call: i, status: res.status, body: res.body }).toMatchObject({ status: 500, body: { errorDescription: expect.stringMatching(/^store unavailable: .*NOPERM/) } });
      }
    } finally {
      await grant();
    }
    expect((await request.get('/__admin/health')).status).toBe(200);
    expect((await request.put(`/links/${linkId}`).set('x-api-key', DEMO).send({ destinationUrl: 'https://example.com/acl' })).status).toBe(200);
  });
});
