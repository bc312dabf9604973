// Variety settings on Redis (--db redis://): two instances on one Redis and prefix are one mock.
// A setting made through one is the other's after its next read of the change counter; each
// answers from its own copy, so a request never waits on Redis for variety.
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { readContract } from '../../src/contract/package-files.js';
import { buildDimensions } from '../../src/variety/dimensions.js';
import { followShared } from '../../src/variety/follow-shared.js';
import { VarietySwitch } from '../../src/variety/switch.js';
import { eventually } from '../helpers/eventually.js';
import { freshPrefix } from '../helpers/redis-store.js';
import { RedisTrafficStates } from '../helpers/redis-traffic.js';
import { sharedRedisUrl } from '../helpers/shared-redis.js';

const catalogue = buildDimensions(readContract().document);
const states = new RedisTrafficStates();
let url: string;
let a: VarietySwitch;
let b: VarietySwitch;

beforeAll(() => {
  url = sharedRedisUrl();
});
beforeEach(async () => {
  const prefix = freshPrefix();
  a = new VarietySwitch(catalogue, (await states.open(url, prefix, 5)).state.variety);
  b = new VarietySwitch(catalogue, (await states.open(url, prefix, 5)).state.variety);
});
afterEach(() => states.closeAll());

it('a setting made through one instance, global or per key, is the other\'s; cleared through the other, for both', async () => {
  await a.set({ seed: 3, apiKey: 'demo-key', only: ['createLink.clickCount:absent'] });
  await a.set({ seed: 4 });
  expect(await b.overview()).toEqual({
    global: { seed: 4, apiKey: null, only: null, except: null },
    byKey: { 'demo-key': { seed: 3, apiKey: 'demo-key', only: ['createLink.clickCount:absent'], except: null } },
  });
  expect(b.on).toBe(true);
  expect(b.planFor('demo-key')?.seed).toBe(3);
  await b.clear('demo-key');
  await b.clear();
  expect(await a.overview()).toEqual({ global: null, byKey: {} });
  expect(a.on).toBe(false);
});

it('an instance follows the others in the background, without a request waiting', async () => {
  const stop = followShared(b, 20, () => undefined);
  try {
    await a.set({ seed: 11, apiKey: 'other-key' });
    await eventually(async () => b.planFor('other-key')?.seed, (seed) => seed === 11, 5_000);
    await a.clear('other-key');
    await eventually(async () => b.on, (on) => !on, 5_000);
  } finally {
    stop();
  }
});
