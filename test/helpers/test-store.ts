// Where a test's mock keeps its data (D27: every test the same on every store). The Vitest project
// names the store in SHORTLINK_MOCK_TEST_STORE (vitest.config.ts): 'memory' (the default) or
// 'redis', where each mock gets a fresh random prefix on the run's shared Redis server, with its
// links, traffic state and snapshots there, as `--db redis://` opens them (src/process/shared-state.ts).
import { buildSeed } from '../../fixtures/seed.js';
import type { FixtureSpec } from '../../fixtures/fixture-spec.js';
import type { MockData } from '../../src/core/model.js';
import { DEFAULT_JOURNAL_SIZE } from '../../src/core/journal.js';
import type { MockOptions } from '../../src/process/mock.js';
import { openSharedState, sharedMockOptions } from '../../src/process/shared-state.js';
import { memoryStore } from '../../src/store/file/data-store.js';
import { freshPrefix } from './redis-store.js';
import { sharedRedisUrl } from './shared-redis.js';
import { copyData } from '../../src/core/link-table.js';

export const TEST_STORE_ENV = 'SHORTLINK_MOCK_TEST_STORE';
export type TestStoreKind = 'memory' | 'redis';
/** Both stores, for a file that runs its tests on each itself (validation-cost.test.ts: one worker in the suite's tail, not two). */
export const TEST_STORE_KINDS: readonly TestStoreKind[] = ['memory', 'redis'];

export function testStoreKind(): TestStoreKind {
  const named = process.env[TEST_STORE_ENV] ?? 'memory';
  if (named !== 'memory' && named !== 'redis') throw new Error(`${TEST_STORE_ENV} must be 'memory' or 'redis', got '${named}'`);
  return named;
}

/** What createMock needs to keep its data on the project's store. */
export type TestStoreOptions = Pick<MockOptions, 'store' | 'shared' | 'traffic' | 'snapshots'>;

const seeds = new Map<number, MockData>();

/** The seed's data, built once per file and copied for each store (faker takes a while). */
function seedData(seed: number, fixtures: FixtureSpec): MockData {
  let data = seeds.get(seed);
  if (!data) seeds.set(seed, (data = buildSeed(seed, fixtures)));
  return copyData(data);
}

/**
 * The store of this project for a mock seeded with `seed`, with the caller's traffic state when it
 * brings one. On Redis, the data is seeded here (the prefix is new) and the mock's close releases
 * the connections.
 */
export async function openTestStore(
  options: { seed: number; fixtures: FixtureSpec; journalSize?: number; traffic?: MockOptions['traffic'] },
  kind: TestStoreKind = testStoreKind(),
): Promise<TestStoreOptions> {
  if (kind === 'memory') return { store: memoryStore(), ...(options.traffic ? { traffic: options.traffic } : {}) };
  const state = await openSharedState({
    url: sharedRedisUrl(),
    prefix: freshPrefix(),
    journalSize: options.journalSize ?? DEFAULT_JOURNAL_SIZE,
    reset: false,
    seed: async () => seedData(options.seed, options.fixtures),
    log: () => undefined,
  });
  if (!options.traffic) return sharedMockOptions(state);
  // The caller's traffic state is closed by the mock; this one is not used (and the store's replace
  // does not reset the caller's counters: the mock clears them after it).
  const close = async () => {
    await state.traffic.close();
    await state.close();
  };
  return { shared: { store: state.store, seeded: state.seeded, close }, traffic: options.traffic, snapshots: state.snapshots };
}
