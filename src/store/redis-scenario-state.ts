// The global scenario and the `times` counters on Redis, shared by every instance of the mock:
//   <prefix>traffic:scenario   string: the active scenario's name (absent: none)
//   <prefix>traffic:times      hash: "<scenario>#<rule index>" → uses so far; the Redis link
//                              store deletes it in the same step as a reset's or restore's switch
//                              (redis-generations.ts), so the mock does not clear it after (mock.ts)
// The name is read for every request that does not pick its own scenario (one GET), so a switch
// through any instance applies to the very next request on every other. A use is counted by
// HINCRBY first and fires only if the new count is within `times`: racing instances can never
// fire a rule more often than `times` (the count may pass it; that only means "used up").
import type { Awaitable } from '../core/awaitable.js';
import { ruleKey, type Scenario, type ScenarioRule } from '../core/scenarios.js';
import type { RuleCounterStore, ScenarioState } from './traffic-state.js';
import { luaScript, type TrafficRedis } from './redis-traffic-client.js';

/** Sets or clears the name and starts the counters over, in one step. ARGV[1]: '1' to set, '0' to clear. */
const SET_ACTIVE = luaScript(`
if ARGV[1] == '1' then redis.call('SET', KEYS[1], ARGV[2]) else redis.call('DEL', KEYS[1]) end
redis.call('DEL', KEYS[2])
return 1`);

/** Clears the name only if it is still this one: a reload on one instance never undoes a later switch through another. */
const DROP_ACTIVE = luaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`);

export class RedisScenarioState implements ScenarioState {
  readonly counters: RuleCounterStore;
  private readonly activeKey: string;
  private readonly timesKey: string;

  constructor(private readonly redis: TrafficRedis) {
    this.activeKey = redis.key('scenario');
    this.timesKey = redis.key('times');
    this.counters = new RedisRuleCounters(redis, this.timesKey);
  }

  async activeName(): Promise<string | null> {
    return (await this.redis.call(['GET', this.activeKey])) as string | null;
  }

  async setActive(name: string | null): Promise<void> {
    await this.redis.script(SET_ACTIVE, [this.activeKey, this.timesKey], name === null ? ['0', ''] : ['1', name]);
  }

  async dropActive(name: string): Promise<void> {
    await this.redis.script(DROP_ACTIVE, [this.activeKey], [name]);
  }
}

class RedisRuleCounters implements RuleCounterStore {
  constructor(
    private readonly redis: TrafficRedis,
    private readonly key: string,
  ) {}

  /** Rules without `times` are never counted: they cost no round trip. */
  hasUses(scenario: Scenario, index: number, rule: ScenarioRule): Awaitable<boolean> {
    const times = rule.times;
    if (times === undefined) return true;
    return this.redis.call(['HGET', this.key, ruleKey(scenario, index)]).then((count) => Number(count ?? 0) < times);
  }

  take(scenario: Scenario, index: number, rule: ScenarioRule): Awaitable<boolean> {
    const times = rule.times;
    if (times === undefined) return true;
    return this.redis.call(['HINCRBY', this.key, ruleKey(scenario, index), '1']).then((count) => Number(count) <= times);
  }

  async clear(): Promise<void> {
    await this.redis.call(['DEL', this.key]);
  }
}
