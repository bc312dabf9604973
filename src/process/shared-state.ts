// `--db redis://…` (D20-D25), for the CLI: the links on Redis (src/store/redis/redis-link-store.ts, which
// seeds an empty prefix exactly once), and the journal, coverage, global scenario and snapshots on
// the same Redis under the same prefix (one more connection, with the same D25 settings: no offline
// queue, so a call while Redis is away fails at once instead of waiting; a capped reconnect).
import type { RedisClientType } from 'redis';
import type { MockData } from '../core/model.js';
import type { MockOptions } from './mock.js';
import { createTrafficState } from '../store/create-traffic-state.js';
import { openRedisLinkStore, RedisStartError, type KeptFrom, type RedisLinkStore } from '../store/redis/redis-link-store.js';
import { clientOptions, redactUrl } from '../store/redis/redis-connection.js';
import { redisSnapshots } from '../store/redis/redis-snapshots.js';
import { connectAtStart } from '../store/redis/redis-start.js';
import type { SnapshotStore } from '../core/snapshots.js';
import type { TrafficState } from '../core/traffic-state.js';

export interface SharedStateOptions {
  url: string;
  prefix: string;
  journalSize: number;
  reset: boolean;
  seed: () => Promise<MockData>;
  log: (line: string) => void;
}

export interface SharedState {
  store: RedisLinkStore;
  seeded: boolean;
  /** When this start kept the data: who wrote it. */
  keptFrom?: KeptFrom;
  traffic: TrafficState;
  snapshots: SnapshotStore;
  close: () => Promise<void>;
}

/** Rejects with a one-line RedisStartError naming the URL when Redis cannot be reached (D25). */
export async function openSharedState(options: SharedStateOptions): Promise<SharedState> {
  const { store, seeded, keptFrom } = await openRedisLinkStore({ url: options.url, prefix: options.prefix, seed: options.seed, reset: options.reset, log: options.log });
  let client: RedisClientType;
  try {
    client = await connectTrafficClient(options.url);
  } catch (error) {
    await store.close();
    throw new RedisStartError(`cannot connect to Redis at ${redactUrl(options.url)}: ${(error as Error).message}`);
  }
  const traffic = createTrafficState({ kind: 'redis', client, prefix: options.prefix, journalSize: options.journalSize, log: options.log, readAlongsideAccount: store });
  return {
    store,
    seeded,
    keptFrom,
    traffic,
    snapshots: redisSnapshots(client, options.prefix),
    // The traffic state is closed by the mock that uses it; then its connection and the store's.
    close: async () => {
      client.destroy();
      await store.close();
    },
  };
}

/**
 * The mock's options for this state: its store, traffic state and snapshots. The store's replace
 * (reset, restore) deletes this traffic state's `times` counters itself, atomically: the two share
 * the prefix.
 */
export function sharedMockOptions(state: SharedState): Pick<MockOptions, 'shared' | 'traffic' | 'snapshots'> {
  return {
    shared: { store: state.store, seeded: state.seeded, keptFrom: state.keptFrom, close: state.close, countersResetBy: state.traffic },
    traffic: state.traffic,
    snapshots: state.snapshots,
  };
}

async function connectTrafficClient(url: string): Promise<RedisClientType> {
  const { createClient } = await import('redis');
  let ready = false;
  const client = createClient(clientOptions(url, () => ready, (cause) => cause)) as unknown as RedisClientType;
  // node-redis emits 'error' for every failed reconnect: the traffic state says what matters, once.
  client.on('error', () => undefined);
  // Bounded as the store's connect: Redis may have stopped answering since the store's.
  await connectAtStart(client);
  ready = true;
  return client;
}
