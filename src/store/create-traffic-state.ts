// The one place a traffic state is made (src/core/traffic-state.ts): in this process's memory
// (the default, for the file store and :memory:) or on Redis, shared by every instance that uses
// the same connection target and prefix.
import { MemoryCoverageCounts } from '../core/coverage-counts.js';
import { Journal } from '../core/journal.js';
import { MemoryScenarioState } from '../core/scenario-registry.js';
import { MemoryViolations } from '../core/violations.js';
import { RedisCoverageCounts } from './redis/redis-coverage.js';
import { RedisJournal } from './redis/redis-journal.js';
import { RedisScenarioState, type ReadAlongsideAccount } from './redis/redis-scenario-state.js';
import { RedisViolations } from './redis/redis-violations.js';
import { RedisVarietySettings } from './redis/redis-variety.js';
import { TrafficRedis, type TrafficRedisClient } from './redis/redis-traffic-client.js';
import type { TrafficState } from '../core/traffic-state.js';

export const DEFAULT_TRAFFIC_PREFIX = 'shortlink-mock:';

export type TrafficStateOptions =
  | { kind: 'memory'; journalSize: number }
  | {
      kind: 'redis';
      /** A connected node-redis client; the caller keeps owning it (the state never closes it). */
      client: TrafficRedisClient;
      /** Every key goes under `<prefix>traffic:` (default 'shortlink-mock:'). */
      prefix?: string;
      journalSize: number;
      /** Where the few lines about Redis going away and coming back go. */
      log?: (line: string) => void;
      /** The link store on the same Redis and prefix: a request's scenario names are read with its account. */
      readAlongsideAccount?: ReadAlongsideAccount;
    };

export function createTrafficState(options: TrafficStateOptions): TrafficState {
  if (options.kind === 'memory') {
    const done = async (): Promise<void> => {};
    return {
      journal: new Journal(options.journalSize),
      coverage: new MemoryCoverageCounts(),
      scenario: new MemoryScenarioState(),
      violations: new MemoryViolations(),
      flush: done,
      close: done,
    };
  }
  const log = options.log ?? (() => {});
  const redis = new TrafficRedis(options.client, options.prefix ?? DEFAULT_TRAFFIC_PREFIX, log);
  const journal = new RedisJournal(redis, options.journalSize, log);
  return {
    journal,
    coverage: new RedisCoverageCounts(redis),
    scenario: new RedisScenarioState(redis, options.readAlongsideAccount),
    violations: new RedisViolations(redis),
    variety: new RedisVarietySettings(redis),
    flush: () => redis.flush(),
    close: async () => {
      journal.close();
      await redis.flush();
    },
  };
}
