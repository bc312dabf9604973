// Coverage counters on Redis, shared by every instance of the mock:
//   <prefix>traffic:coverage:keys     hash: API key → "<n> <accountId>", n the order it was first counted in
//   <prefix>traffic:coverage:counts   hash: JSON [API key or null (the group), outcome] → count (HINCRBY)
//   <prefix>traffic:coverage:group    hash: withoutKey / unknownKey → count
// One script counts (checking the bound on keys and counting are one step, so racing instances
// never track more than MAX_TRACKED_KEYS), one reads all three at once (a consistent report), and
// clearing is one DEL of the three.
import { MAX_TRACKED_KEYS } from '../../core/coverage-counts.js';
import type { CoverageCaller, CoverageCountStore, CoverageCounts, KeyCounts } from '../../core/traffic-state.js';
import { luaScript, type TrafficRedis } from './redis-traffic-client.js';
import { recordKind } from './redis-record-batch.js';

/** K: keys, counts, group. A: who ('key', 'withoutKey' or 'unknownKey'), counts field, API key, account id, bound on keys. */
const COUNT = recordKind(
  'coverage',
  `if A[1] == 'key' then
  if redis.call('HEXISTS', K[1], A[3]) == 0 then
    local n = redis.call('HLEN', K[1])
    if n >= tonumber(A[5]) then return end
    redis.call('HSET', K[1], A[3], n .. ' ' .. A[4])
  end
else
  redis.call('HINCRBY', K[3], A[1], 1)
end
redis.call('HINCRBY', K[2], A[2], 1)`,
);

const READ = luaScript(`return {redis.call('HGETALL', KEYS[1]), redis.call('HGETALL', KEYS[2]), redis.call('HGETALL', KEYS[3])}`);

export class RedisCoverageCounts implements CoverageCountStore {
  private readonly keys: [keys: string, counts: string, group: string];

  constructor(private readonly redis: TrafficRedis) {
    this.keys = [redis.key('coverage:keys'), redis.key('coverage:counts'), redis.key('coverage:group')];
  }

  count(caller: CoverageCaller, outcome: string): void {
    const args = 'group' in caller ? [caller.group, field(null, outcome), '', ''] : ['key', field(caller.apiKey, outcome), caller.apiKey, caller.accountId];
    void this.redis.record(COUNT, this.keys, [...args, String(MAX_TRACKED_KEYS)]);
  }

  async read(onlyKey?: string): Promise<CoverageCounts> {
    const [keys, counts, group] = (await this.redis.scriptAfterRecords(READ, this.keys, [])) as [string[], string[], string[]];
    const byKey = new Map<string, KeyCounts & { order: number; counts: Map<string, number> }>();
    for (const [apiKey, value] of pairs(keys)) {
      if (onlyKey !== undefined && apiKey !== onlyKey) continue;
      const space = value.indexOf(' ');
      byKey.set(apiKey, { apiKey, accountId: value.slice(space + 1), order: Number(value.slice(0, space)), counts: new Map() });
    }
    const groupCounts = new Map<string, number>();
    for (const [name, count] of pairs(counts)) {
      const [apiKey, outcome] = JSON.parse(name) as [string | null, string];
      // Keys past the bound were never counted; a count of another key than `onlyKey` is left out.
      if (apiKey === null) groupCounts.set(outcome, Number(count));
      else byKey.get(apiKey)?.counts.set(outcome, Number(count));
    }
    const totals = new Map(pairs(group));
    const withoutKey = onlyKey === undefined ? Number(totals.get('withoutKey') ?? 0) : 0;
    const unknownKey = onlyKey === undefined ? Number(totals.get('unknownKey') ?? 0) : 0;
    return {
      keys: [...byKey.values()].sort((a, b) => a.order - b.order).map(({ apiKey, accountId, counts: of }) => ({ apiKey, accountId, counts: of })),
      group: { counts: onlyKey === undefined ? groupCounts : new Map(), withoutKey, unknownKey },
    };
  }

  async clear(): Promise<void> {
    await this.redis.callAfterRecords(['DEL', ...this.keys]);
  }
}

/** The field a count is kept under: JSON, so no API key can be mistaken for another's outcome. */
const field = (apiKey: string | null, outcome: string): string => JSON.stringify([apiKey, outcome]);

/** HGETALL's flat [field, value, field, value, …] as pairs. */
function pairs(flat: string[]): [string, string][] {
  const result: [string, string][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) result.push([flat[i] as string, flat[i + 1] as string]);
  return result;
}
