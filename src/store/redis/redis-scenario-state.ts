// The scenarios and their `times` counters on Redis, shared by every instance of the mock:
//   <prefix>traffic:scenario         string: the global scenario's name (absent: none)
//   <prefix>traffic:times            hash: "<scenario>#<rule index>" → uses so far, for the global
//                                    scenario and those a request names itself (x-mock-scenario)
//   <prefix>traffic:scenario-by-key  hash: API key → the name of that key's own scenario
//   <prefix>traffic:times-by-key     hash: "<API key>\0<scenario>#<rule index>" → uses so far of a
//                                    key's own scenario (a NUL cannot be in a header, so no key's
//                                    fields can be mistaken for another's)
// Both counter hashes are deleted by the Redis link store in the same step as a reset's or
// restore's switch (redis-generations.ts), so the mock does not clear them after (mock.ts).
// Scenarios, global and per key, stay through a reset, like the global one always has. A reload
// (--watch) that changes a rule deletes that rule's fields from both hashes in one step; each
// instance that reloads the edit does so (they read the same files).
// A request with a key reads the global name and its key's in one step; on the mock's shared
// state that step is the link store's read of the key's account (ReadAlongsideAccount): one script
// call and one round trip for both; a create's may even be no read, when the link store remembers
// the key with no scenario set, and its write checks that this still holds
// (redis-remembered-accounts.ts). A switch through any instance applies to the very next request
// on every other. A use is counted by HINCRBY first and fires only if the new count is within
// `times`: racing instances can never fire a rule more often than `times` (the count may pass it;
// that only means "used up").
import type { Awaitable } from '../../core/awaitable.js';
import { ruleKey, type Scenario, type ScenarioRule } from '../../core/scenarios.js';
import type { ActiveNames, RuleCounterStore, ScenarioState } from '../../core/traffic-state.js';
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

/** KEYS: global name, names by key. ARGV: the key. Both names (nil: none) in one round trip. */
const ACTIVE_NAMES = luaScript(`return {redis.call('GET', KEYS[1]), redis.call('HGET', KEYS[2], ARGV[1])}`);

/** A Lua function that deletes one key's counters from the by-key hash (a small hash: keys × rules with `times`). */
const DELETE_KEY_COUNTERS = `
local function delete_key_counters(hash, key)
  local prefix = key .. '\\0'
  for _, field in ipairs(redis.call('HKEYS', hash)) do
    if string.sub(field, 1, #prefix) == prefix then redis.call('HDEL', hash, field) end
  end
end`;

/** KEYS: names by key, counters by key. ARGV: '1' to set or '0' to clear, the key, the name. The key's counters start over in the same step. */
const SET_KEY_SCENARIO = luaScript(`${DELETE_KEY_COUNTERS}
if ARGV[1] == '1' then redis.call('HSET', KEYS[1], ARGV[2], ARGV[3]) else redis.call('HDEL', KEYS[1], ARGV[2]) end
delete_key_counters(KEYS[2], ARGV[2])
return 1`);

/** KEYS: counters by key. ARGV: the key. */
const CLEAR_KEY_COUNTERS = luaScript(`${DELETE_KEY_COUNTERS}
delete_key_counters(KEYS[1], ARGV[1])
return 1`);

/**
 * KEYS: counters, counters by key. ARGV: rule keys ("<scenario>#<index>"). Deletes those rules'
 * counts, the global ones and every key's (a field's rule key is what follows its NUL), in one step.
 */
const RESTART_RULES = luaScript(`
local wanted = {}
for _, rule in ipairs(ARGV) do wanted[rule] = true end
redis.call('HDEL', KEYS[1], unpack(ARGV))
for _, field in ipairs(redis.call('HKEYS', KEYS[2])) do
  local nul = string.find(field, '\\0', 1, true)
  if nul and wanted[string.sub(field, nul + 1)] then redis.call('HDEL', KEYS[2], field) end
end
return 1`);

/**
 * The link store's read of a key's account with two values of the traffic state in the same step
 * (redis-link-reads.ts): a request's scenario names then share the script call, and the round
 * trip, of its authentication.
 */
export interface ReadAlongsideAccount {
  namesWithAccount(apiKey: string, globalKey: string, byKeyKey: string, recall?: boolean): Promise<[unknown, unknown]>;
}

export class RedisScenarioState implements ScenarioState {
  readonly counters: RuleCounterStore;
  private readonly activeKey: string;
  private readonly timesKey: string;
  private readonly byKeyKey: string;
  private readonly timesByKeyKey: string;

  constructor(
    private readonly redis: TrafficRedis,
    private readonly withAccount?: ReadAlongsideAccount,
  ) {
    this.activeKey = redis.key('scenario');
    this.timesKey = redis.key('times');
    this.byKeyKey = redis.key('scenario-by-key');
    this.timesByKeyKey = redis.key('times-by-key');
    this.counters = new RedisRuleCounters(redis, this.timesKey);
  }

  async activeName(): Promise<string | null> {
    return (await this.redis.call(['GET', this.activeKey])) as string | null;
  }

  async activeNames(apiKey: string, recall = false): Promise<ActiveNames> {
    const read = this.withAccount ? this.withAccount.namesWithAccount(apiKey, this.activeKey, this.byKeyKey, recall) : this.redis.script(ACTIVE_NAMES, [this.activeKey, this.byKeyKey], [apiKey]);
    const [global, key] = (await read) as [string | null, string | null];
    return { global: global ?? null, key: key ?? null };
  }

  async setActive(name: string | null): Promise<void> {
    await this.redis.script(SET_ACTIVE, [this.activeKey, this.timesKey], name === null ? ['0', ''] : ['1', name]);
  }

  async setKeyScenario(apiKey: string, name: string | null): Promise<void> {
    await this.redis.script(SET_KEY_SCENARIO, [this.byKeyKey, this.timesByKeyKey], name === null ? ['0', apiKey, ''] : ['1', apiKey, name]);
  }

  async keyScenarios(): Promise<Record<string, string>> {
    const reply = (await this.redis.call(['HGETALL', this.byKeyKey])) as Record<string, string> | string[];
    // node-redis answers HGETALL with an object (RESP2 map) or a flat list, by version and protocol.
    if (!Array.isArray(reply)) return { ...reply };
    const byKey: Record<string, string> = {};
    for (let i = 0; i + 1 < reply.length; i += 2) byKey[reply[i] as string] = reply[i + 1] as string;
    return byKey;
  }

  async dropActive(name: string): Promise<void> {
    await this.redis.script(DROP_ACTIVE, [this.activeKey], [name]);
  }

  countersOf(apiKey: string): RuleCounterStore {
    return new RedisRuleCounters(this.redis, this.timesByKeyKey, apiKey);
  }

  async clearCounters(): Promise<void> {
    await this.redis.call(['DEL', this.timesKey, this.timesByKeyKey]);
  }

  async restartRules(keys: readonly string[]): Promise<void> {
    if (keys.length > 0) await this.redis.script(RESTART_RULES, [this.timesKey, this.timesByKeyKey], [...keys]);
  }
}

/** The global counters (no key), or one key's: its fields in the by-key hash. */
class RedisRuleCounters implements RuleCounterStore {
  private readonly prefix: string;

  constructor(
    private readonly redis: TrafficRedis,
    private readonly key: string,
    private readonly apiKey?: string,
  ) {
    this.prefix = apiKey === undefined ? '' : `${apiKey}\u0000`;
  }

  /** Rules without `times` are never counted: they cost no round trip. */
  hasUses(scenario: Scenario, index: number, rule: ScenarioRule): Awaitable<boolean> {
    const times = rule.times;
    if (times === undefined) return true;
    return this.redis.call(['HGET', this.key, this.prefix + ruleKey(scenario, index)]).then((count) => Number(count ?? 0) < times);
  }

  take(scenario: Scenario, index: number, rule: ScenarioRule): Awaitable<boolean> {
    const times = rule.times;
    if (times === undefined) return true;
    return this.redis.call(['HINCRBY', this.key, this.prefix + ruleKey(scenario, index), '1']).then((count) => Number(count) <= times);
  }

  async clear(): Promise<void> {
    if (this.apiKey === undefined) await this.redis.call(['DEL', this.key]);
    else await this.redis.script(CLEAR_KEY_COUNTERS, [this.key], [this.apiKey]);
  }
}
