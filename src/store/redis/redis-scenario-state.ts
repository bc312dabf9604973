// The scenarios and their `times` counters on Redis, shared by every instance of the mock:
//   <prefix>traffic:scenario         string: the global scenario's name (absent: none), or
//                                    "<name>\0<uses left>" when it was set with `times`
//   <prefix>traffic:times            hash: "<scenario>#<rule index>" → uses so far, for the global
//                                    scenario and those a request names itself (x-mock-scenario)
//   <prefix>traffic:scenario-by-key  hash: API key → the name of that key's own scenario (with
//                                    "\0<uses left>" when set with `times`)
//   <prefix>traffic:times-by-key     hash: "<API key>\0<scenario>#<rule index>" → uses so far of a
//                                    key's own scenario (a NUL cannot be in a header, so no key's
//                                    fields can be mistaken for another's)
// Both counter hashes are deleted by the Redis link store in the same step as a reset's or
// restore's switch (redis-generations.ts), so the mock does not clear them after (mock.ts).
// Scenarios, global and per key, stay through a reset (with their uses left), like the global one always has. A reload
// (--watch) that changes a rule deletes that rule's fields from both hashes in one step; each
// instance that reloads the edit does so (they read the same files).
// A request with a key reads the global name and its key's in one step; on the mock's shared
// state that step is the link store's read of the key's account (ReadAlongsideAccount): one script
// call and one round trip for both; a create's may even be no read, when the link store remembers
// the key with no scenario set, and its write checks that this still holds
// (redis-remembered-accounts.ts). A switch through any instance applies to the very next request
// on every other.
// A scenario set with `times` (src/core/scenario-uses.ts) is stored as "<name>\0<uses left>" in
// the name's own place (a name holds no control character): the read a request makes anyway tells
// whether it must take a use, so a scenario without a count costs no extra round trip. A use is
// taken by one script call (TAKE_USE, TAKE_KEY_USE) that decrements the count, or clears the
// scenario with its counters at the last use, only while the name is still the one the request
// read: racing requests on any number of instances take exactly the uses there are.
// A rule's use is counted by HINCRBY first and fires only if the new count is within
// `times`: racing instances can never fire a rule more often than `times` (the count may pass it;
// that only means "used up").
import type { Awaitable } from '../../core/awaitable.js';
import { ruleKey, type Scenario, type ScenarioRule } from '../../core/scenarios.js';
import type { TimesLeft } from '../../core/scenario-uses.js';
import { MAX_KEY_SCENARIOS, type ActiveNames, type RuleCounterStore, type ScenarioState } from '../../core/traffic-state.js';
import { ACTIVE_NAMES, CLEAR_KEY_COUNTERS, DROP_ACTIVE, RESTART_RULES, SET_ACTIVE, SET_KEY_SCENARIO, TAKE_KEY_USE, TAKE_USE } from './redis-scenario-scripts.js';
import type { TrafficRedis } from './redis-traffic-client.js';

/**
 * The link store's read of a key's account with two values of the traffic state in the same step
 * (redis-read-alongside.ts): a request's scenario names then share the script call, and the round
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
    return nameIn((await this.redis.call(['GET', this.activeKey])) as string | null);
  }

  async activeNames(apiKey: string, recall = false): Promise<ActiveNames> {
    const read = this.withAccount ? this.withAccount.namesWithAccount(apiKey, this.activeKey, this.byKeyKey, recall) : this.redis.script(ACTIVE_NAMES, [this.activeKey, this.byKeyKey], [apiKey]);
    const [global, key] = (await read) as [string | null, string | null];
    return { global: nameIn(global), key: nameIn(key), globalCounted: countedIn(global), keyCounted: countedIn(key) };
  }

  async activeGlobal(): Promise<ActiveNames> {
    const global = (await this.redis.call(['GET', this.activeKey])) as string | null;
    return { global: nameIn(global), key: null, globalCounted: countedIn(global), keyCounted: false };
  }

  async setActive(name: string | null, times?: number): Promise<void> {
    await this.redis.script(SET_ACTIVE, [this.activeKey, this.timesKey], name === null ? ['0', ''] : ['1', stored(name, times)]);
  }

  async setKeyScenario(apiKey: string, name: string | null, times?: number): Promise<boolean> {
    const set = await this.redis.script(SET_KEY_SCENARIO, [this.byKeyKey, this.timesByKeyKey], [...(name === null ? ['0', apiKey, ''] : ['1', apiKey, stored(name, times)]), String(MAX_KEY_SCENARIOS)]);
    return Number(set) === 1;
  }

  async takeUse(apiKey: string | undefined, name: string): Promise<boolean> {
    const taken = apiKey === undefined ? this.redis.script(TAKE_USE, [this.activeKey, this.timesKey], [name]) : this.redis.script(TAKE_KEY_USE, [this.byKeyKey, this.timesByKeyKey], [apiKey, name]);
    return Number(await taken) === 1;
  }

  async timesLeft(): Promise<TimesLeft> {
    const [global, byKey] = await Promise.all([this.redis.call(['GET', this.activeKey]) as Promise<string | null>, this.storedByKey()]);
    const left: TimesLeft = { byKey: {} };
    if (countedIn(global)) left.global = leftIn(global as string);
    for (const [key, value] of Object.entries(byKey)) if (countedIn(value)) left.byKey[key] = leftIn(value);
    return left;
  }

  async keyScenarios(): Promise<Record<string, string>> {
    const byKey = await this.storedByKey();
    for (const key of Object.keys(byKey)) byKey[key] = nameIn(byKey[key]) as string;
    return byKey;
  }

  /** The by-key hash as stored: key → name, or name and uses left. */
  private async storedByKey(): Promise<Record<string, string>> {
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

/** A scenario's name as stored: alone, or with its uses left after a NUL (set with `times`). */
const stored = (name: string, times: number | undefined): string => (times === undefined ? name : `${name}\u0000${times}`);
const nameIn = (value: string | null | undefined): string | null => {
  if (value == null) return null;
  const nul = value.indexOf('\u0000');
  return nul < 0 ? value : value.slice(0, nul);
};
const countedIn = (value: string | null | undefined): boolean => value != null && value.includes('\u0000');
const leftIn = (value: string): number => Number(value.slice(value.indexOf('\u0000') + 1));

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
