// The drift report's aggregate (src/core/violations.ts) on Redis, shared by every instance:
//   <prefix>traffic:violations:examples  hash: field (the violation's key as JSON) → "<n> <example JSON>", n the order first seen
//   <prefix>traffic:violations:counts    hash: field → exchanges (HINCRBY)
//   <prefix>traffic:violations:seen      hash: field → "<firstSeen> <lastSeen>" (ISO times, no spaces)
//   <prefix>traffic:violations:dropped-by-side  hash: side → sightings of new distinct violations past the bound
//   <prefix>traffic:violations:kept      hash: side → distinct violations kept of that side (the bound is per side)
// One record function takes one exchange's violations, in one script call however many it has: it
// keeps each one's first example, counts and moves the times in one atomic step (checking the
// bound and adding are one step, so racing instances never keep more than MAX_DISTINCT_VIOLATIONS of
// a side); one script reads the report at once; clearing is one DEL. The exchange's example (its
// bodies) is sent once, each violation adding only its own evidence.
import { buildViolationReport, MAX_DISTINCT_VIOLATIONS, sightingsOf, violationKeyOf, type TrackedViolation, type ViolationExample, type ViolationReport, type ViolationSide, type ViolationSource, type ViolationStore } from '../../core/violations.js';
import { recordKind } from './redis-record-batch.js';
import { luaScript, type TrafficRedis } from './redis-traffic-client.js';
import { pairs } from './redis-txn.js';

/**
 * K: examples, counts, seen, dropped, kept. A: time, bound, the exchange's example as JSON without
 * evidence, then per violation: field, side, and '+' and its evidence as JSON, or '-' for none.
 */
const RECORD = recordKind(
  'violation',
  `local time, bound, base = A[1], tonumber(A[2]), A[3]
for i = 4, #A, 3 do
  local field, side, detail = A[i], A[i + 1], A[i + 2]
  local known = redis.call('HEXISTS', K[1], field) == 1
  if not known and tonumber(redis.call('HGET', K[5], side) or '0') >= bound then
    redis.call('HINCRBY', K[4], side, 1)
  else
    if not known then
      local example = base
      if string.sub(detail, 1, 1) == '+' then example = string.sub(base, 1, -2) .. ',"detail":' .. string.sub(detail, 2) .. '}' end
      redis.call('HSET', K[1], field, redis.call('HLEN', K[1]) .. ' ' .. example)
      redis.call('HINCRBY', K[5], side, 1)
    end
    redis.call('HINCRBY', K[2], field, 1)
    local seen = redis.call('HGET', K[3], field)
    local first, last = time, time
    if seen then
      local space = string.find(seen, ' ', 1, true)
      first, last = string.sub(seen, 1, space - 1), string.sub(seen, space + 1)
      if time < first then first = time end
      if time > last then last = time end
    end
    redis.call('HSET', K[3], field, first .. ' ' .. last)
  end
end`,
);

const READ = luaScript(`return {redis.call('HGETALL', KEYS[1]), redis.call('HGETALL', KEYS[2]), redis.call('HGETALL', KEYS[3]), redis.call('HGETALL', KEYS[4])}`);

export class RedisViolations implements ViolationStore {
  private readonly keys: [examples: string, counts: string, seen: string, dropped: string, kept: string];

  constructor(
    private readonly redis: TrafficRedis,
    private readonly max = MAX_DISTINCT_VIOLATIONS,
  ) {
    this.keys = [redis.key('violations:examples'), redis.key('violations:counts'), redis.key('violations:seen'), redis.key('violations:dropped-by-side'), redis.key('violations:kept')];
  }

  record(entry: ViolationSource): void {
    // Sent every time: only Redis knows whether a violation is new, in the same step that keeps it
    // (a cache here would go stale when another instance clears the report).
    const sightings = sightingsOf(entry);
    if (sightings.length === 0) return;
    const args: string[] = [];
    try {
      const { time, method, path, apiKey, status, requestBody, responseBody } = entry;
      args.push(time, String(this.max), JSON.stringify({ time, method, path, apiKey, status, requestBody, responseBody }));
      for (const { field, key, example } of sightings) args.push(field, key.side, example.detail === undefined ? '-' : `+${JSON.stringify(example.detail)}`);
    } catch {
      return; // bodies are the journal's, already serialisable; recording must never throw regardless
    }
    void this.redis.record(RECORD, this.keys, args);
  }

  async report(side: ViolationSide = 'both'): Promise<ViolationReport> {
    const [examples, counts, seen, dropped] = (await this.redis.scriptAfterRecords(READ, this.keys.slice(0, 4), [])) as [string[], string[], string[], string[]];
    const droppedOf = pairs(dropped);
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
      { request: Number(droppedOf.get('request') ?? 0), response: Number(droppedOf.get('response') ?? 0) },
      side,
    );
  }

  async clear(): Promise<void> {
    await this.redis.callAfterRecords(['DEL', ...this.keys]);
  }
}
