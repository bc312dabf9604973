// D24 on Redis: a reset or snapshot restore starts the scenarios' `times` counters over in the same
// atomic step as the switch to the new data (redis-generations.ts), never in a later one: no
// instance sees the new data with the old counts, and a count made through any instance after
// the switch is kept (a second clear after it would erase that legitimate use).
import supertest from 'supertest';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Scenario, ScenarioRule } from '../../src/core/scenarios.js';
import { createMock, type Mock } from '../../src/process/mock.js';
import { openSharedState, sharedMockOptions } from '../../src/process/shared-state.js';
import { contract, fixtures, TEST_SEED } from '../helpers/test-app.js';
import { freshPrefix, RedisStores, seedData, withRawClient } from '../helpers/redis-store.js';
import { RedisTrafficStates } from '../helpers/redis-traffic.js';
import { sharedRedisUrl } from '../helpers/shared-redis.js';

const ONCE: ScenarioRule = { match: { operations: ['createLink'] }, fault: 'connection-reset', times: 1 };
const scenario: Scenario = { name: 'once', description: 'One reset connection.', source: 'test', rules: [ONCE] };

let url: string;
let prefix: string;
const stores = new RedisStores();
const traffic = new RedisTrafficStates();
const mocks: Mock[] = [];

beforeAll(() => {
  url = sharedRedisUrl();
});
beforeEach(() => {
  prefix = freshPrefix();
});
afterEach(async () => {
  await Promise.all(mocks.splice(0).map((mock) => mock.close()));
  await stores.closeAll();
  await traffic.closeAll();
});

/** The generation and the rule's count as one read: what any instance sees at one moment. */
const readTogether = (): Promise<[string | null, string | null]> =>
  withRawClient(url, async (client) => {
    const replies = await client.multi().get(`${prefix}generation`).hGet(`${prefix}traffic:times`, 'once#0').exec();
    return replies as unknown as [string | null, string | null];
  });

describe('a replace on Redis starts the `times` counters over in its own switch', () => {
  it('never shows the new generation with the old count, and leaves no count once it resolves', async () => {
    const { store } = await stores.open(url, prefix);
    const counters = (await traffic.open(url, prefix)).state.scenario.counters;
    expect(await counters.take(scenario, 0, ONCE)).toBe(true);
    const [before] = await readTogether();
    let replaced = false;
    const replacing = store.replaceAll(seedData(99)).then(() => (replaced = true));
    const seen: [string | null, string | null][] = [];
    while (!replaced) seen.push(await readTogether());
    await replacing;
    seen.push(await readTogether());
    expect(seen.filter(([generation, count]) => generation !== before && count !== null)).toEqual([]);
    expect(await counters.hasUses(scenario, 0, ONCE)).toBe(true);
  });

  it('the per-key counters start over in that same switch too; the key scenarios stay', async () => {
    const { store } = await stores.open(url, prefix);
    const state = (await traffic.open(url, prefix)).state.scenario;
    await state.setKeyScenario('suite-key', 'once');
    const ofKey = state.countersOf('suite-key');
    expect(await ofKey.take(scenario, 0, ONCE)).toBe(true);
    expect(await ofKey.hasUses(scenario, 0, ONCE)).toBe(false);
    await store.replaceAll(seedData(98));
    expect(await ofKey.hasUses(scenario, 0, ONCE)).toBe(true);
    expect(await state.keyScenarios()).toEqual({ 'suite-key': 'once' });
  });

  it('POST /__admin/reset keeps a use counted through another instance right after the switch', async () => {
    const state = await openSharedState({ url, prefix, journalSize: 100, reset: false, seed: async () => seedData(), log: () => undefined });
    const mock = await createMock({ contract, fixtures, seed: TEST_SEED, version: 'test', scenarios: [scenario], ...sharedMockOptions(state) });
    mocks.push(mock);
    const other = (await traffic.open(url, prefix)).state.scenario.counters;
    // The other instance fires the rule between the switch and the reset's answer.
    const replaceAll = state.store.replaceAll.bind(state.store);
    state.store.replaceAll = async (data) => {
      await replaceAll(data);
      expect(await other.take(scenario, 0, ONCE)).toBe(true);
    };
    expect((await supertest(mock.app).post('/__admin/reset')).status).toBe(200);
    expect(await other.hasUses(scenario, 0, ONCE)).toBe(false);
    expect(await mock.scenarios.counters.hasUses(scenario, 0, ONCE)).toBe(false);
  });
});
