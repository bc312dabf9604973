// The drift report's aggregate (src/core/violations.ts) on Redis, shared by every instance:
//   <prefix>traffic:violations:examples  hash: field (the violation's key as JSON) → "<n> <example JSON>", n the order first seen
//   <prefix>traffic:violations:counts    hash: field → exchanges (HINCRBY)
//   <prefix>traffic:violations:seen      hash: field → "<firstSeen> <lastSeen>" (ISO times, no spaces)
//   <prefix>traffic:violations:dropped   sightings of new distinct violations past the bound
// One record function keeps the first example, counts and moves the times in one atomic step
// (checking the bound and adding are one step, so racing instances never keep more than
// MAX_DISTINCT_VIOLATIONS); one script reads all four at once; clearing is one DEL.
import { buildViolationReport, MAX_DISTINCT_VIOLATIONS, sightingsOf, violationKeyOf, type TrackedViolation, type ViolationExample, type ViolationReport, type ViolationSource, type ViolationStore } from '../core/violations.js';
import { recordKind } from './redis-record-batch.js';
import { luaScript, type TrafficRedis } from './redis-traffic-client.js';
import { pairs } from './redis-txn.js';

/** K: examples, counts, seen, dropped. A: field, time, example JSON, bound. */
const RECORD = recordKind(
  'violation',
  `if redis.call('HEXISTS', K[1], A[1]) == 0 then
  local n = redis.call('HLEN', K[1])
  if n >= tonumber(A[4]) then
    redis.call('INCR', K[4])
    return
  end
  redis.call('HSET', K[1], A[1], n .. ' ' .. A[3])
end
redis.call('HINCRBY', K[2], A[1], 1)
local seen = redis.call('HGET', K[3], A[1])
local first, last = A[2], A[2]
if seen then
  local space = string.find(seen, ' ', 1, true)
  first, last = string.sub(seen, 1, space - 1), string.sub(seen, space + 1)
  if A[2] < first then first = A[2] end
  if A[2] > last then last = A[2] end
end
redis.call('HSET', K[3], A[1], first .. ' ' .. last)`,
);

const READ = luaScript(`return {redis.call('HGETALL', KEYS[1]), redis.call('HGETALL', KEYS[2]), redis.call('HGETALL', KEYS[3]), redis.call('GET', KEYS[4])}`);

export class RedisViolations implements ViolationStore {
  private readonly keys: [examples: string, counts: string, seen: string, dropped: string];

  constructor(
    private readonly redis: TrafficRedis,
    private readonly max = MAX_DISTINCT_VIOLATIONS,
  ) {
    this.keys = [redis.key('violations:examples'), redis.key('violations:counts'), redis.key('violations:seen'), redis.key('violations:dropped')];
  }

  record(entry: ViolationSource): void {
    // The example is sent every time: only Redis knows whether this violation is new, in the same
    // step that keeps it (a cache here would go stale when another instance clears the report).
    for (const sighting of sightingsOf(entry)) {
      let example: string;
      try {
        example = JSON.stringify(sighting.example);
      } catch {
        continue; // bodies are the journal's, already serialisable; recording must never throw regardless
      }
      void this.redis.record(RECORD, this.keys, [sighting.field, sighting.time, example, String(this.max)]);
    }
  }

  async report(): Promise<ViolationReport> {
    const [examples, counts, seen, dropped] = (await this.redis.scriptAfterRecords(READ, this.keys, [])) as [string[], string[], string[], string | null];
    const countOf = pairs(counts);
    const seenOf = pairs(seen);
    const tracked: (TrackedViolation & { order: number })[] = [];
    for (const [field, value] of pairs(examples)) {
      const space = value.indexOf(' ');
      const [firstSeen = '', lastSeen = ''] = (seenOf.get(field) ?? '').split(' ');
      const example = JSON.parse(value.slice(space + 1)) as ViolationExample;
      tracked.push({ key: violationKeyOf(field), order: Number(value.slice(0, space)), count: Number(countOf.get(field) ?? 0), firstSeen, lastSeen, example });
    }
    return buildViolationReport(
      tracked.sort((a, b) => a.order - b.order),
      Number(dropped ?? 0),
    );
  }

  async clear(): Promise<void> {
    await this.redis.callAfterRecords(['DEL', ...this.keys]);
  }
}
