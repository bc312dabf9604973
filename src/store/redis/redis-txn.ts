// The one Lua script of the Redis store: a guarded transaction, in the manner of etcd's
// Txn(If(compares).Then(ops).Else(ops)). It knows keys, fields and values, never what they mean:
// every rule stays in the core, and the store composes its few primitives from it (a conditional
// increment, set-if-absent, delete-if-equal, compare-and-set, insert-under-a-unique-name).
// Redis runs a script with nothing in between, so the checks, writes and reads are one atomic
// step across every instance; and it runs only while the caller's generation is still current,
// so a write can never land in data a reset has replaced (D24).
//
// Used instead of WATCH/MULTI: WATCH holds per connection, so it needs a connection per request
// in flight, and three round trips where this takes one.

/**
 * A check of a hash field: `has?` present, `lacks?` absent, `equals?` holds this value, `below?` a
 * counter (absent: 0) below this number; or of a whole key: `unset?` it does not exist.
 */
export type CheckOp = 'has?' | 'lacks?' | 'equals?' | 'below?' | 'unset?';
/**
 * A write: a plain command, or `HDELEQ` (delete the field if it still holds this value), or `ZADDIF`
 * (add a member, score 0, to a sorted set if a field is present in a hash: an index entry only for
 * a record that is there).
 */
export type WriteOp = 'HSET' | 'HDEL' | 'HINCRBY' | 'SADD' | 'SREM' | 'RPUSH' | 'HDELEQ' | 'ZADD' | 'ZREM' | 'ZADDIF';
/**
 * A read: a plain command, or `HGETVIA` (HGET k1 f, then that value as a field of k2: a reference
 * followed), or `ZPAGEVIA` (ZREVRANGEBYLEX k1 max - LIMIT 0 n, each member's id, after its first
 * two NUL bytes, taken as a field of k2: a page of references followed).
 */
export type ReadOp = 'GET' | 'HGET' | 'HMGET' | 'HGETALL' | 'HLEN' | 'HSCAN' | 'SMEMBERS' | 'SCARD' | 'LRANGE' | 'HGETVIA' | 'ZPAGEVIA';

export const TXN_SCRIPT = `
local current = redis.call('GET', KEYS[1])
if current ~= ARGV[1] then return {'stale', 0, {}, current or ''} end
local txn = cjson.decode(ARGV[2])
local WRITES = {HSET = true, HDEL = true, HINCRBY = true, SADD = true, SREM = true, RPUSH = true, HDELEQ = true, ZADD = true, ZREM = true, ZADDIF = true}
local READS = {GET = true, HGET = true, HMGET = true, HGETALL = true, HLEN = true, HSCAN = true, SMEMBERS = true, SCARD = true, LRANGE = true, HGETVIA = true, ZPAGEVIA = true}
-- Every step is known before anything runs: a script is not rolled back when it fails half-way.
for _, step in ipairs(txn.w) do if not WRITES[step[1]] then return redis.error_reply('txn: unknown write') end end
for _, step in ipairs(txn.r) do if not READS[step[1]] then return redis.error_reply('txn: unknown read') end end
for _, step in ipairs(txn.o) do if not READS[step[1]] then return redis.error_reply('txn: unknown read') end end

local function holds(c)
  local op, key, field = c[1], KEYS[c[2]], c[3]
  if op == 'has?' then return redis.call('HEXISTS', key, field) == 1 end
  if op == 'lacks?' then return redis.call('HEXISTS', key, field) == 0 end
  if op == 'equals?' then return redis.call('HGET', key, field) == c[4] end
  if op == 'below?' then return tonumber(redis.call('HGET', key, field) or '0') < tonumber(c[4]) end
  if op == 'unset?' then return redis.call('EXISTS', key) == 0 end
  return nil
end

local function reads(list)
  local out = {}
  for i, r in ipairs(list) do
    if r[1] == 'HGETVIA' then
      local ref = redis.call('HGET', KEYS[r[2]], r[3])
      out[i] = ref and redis.call('HGET', KEYS[tonumber(r[4])], ref)
    elseif r[1] == 'ZPAGEVIA' then
      local members = redis.call('ZREVRANGEBYLEX', KEYS[r[2]], r[3], '-', 'LIMIT', 0, tonumber(r[4]))
      local ids = {}
      for j, member in ipairs(members) do ids[j] = string.sub(member, string.find(member, '\\0\\0', 1, true) + 2) end
      out[i] = #ids > 0 and redis.call('HMGET', KEYS[tonumber(r[5])], unpack(ids)) or {}
    else
      out[i] = redis.call(r[1], KEYS[r[2]], unpack(r, 3))
    end
  end
  return out
end

for i, c in ipairs(txn.c) do
  local ok = holds(c)
  if ok == nil then return redis.error_reply('txn: unknown check') end
  if not ok then return {'failed', i, reads(txn.o), current} end
end
for _, w in ipairs(txn.w) do
  if w[1] == 'HDELEQ' then
    if redis.call('HGET', KEYS[w[2]], w[3]) == w[4] then redis.call('HDEL', KEYS[w[2]], w[3]) end
  elseif w[1] == 'ZADDIF' then
    if redis.call('HEXISTS', KEYS[tonumber(w[4])], w[5]) == 1 then redis.call('ZADD', KEYS[w[2]], 0, w[3]) end
  else
    redis.call(w[1], KEYS[w[2]], unpack(w, 3))
  end
end
return {'ok', 0, reads(txn.r), current}
`;

type Step = [string, number, ...string[]];

/** A transaction to send: its keys (KEYS[1] is always the generation key) and its steps. */
export class Txn {
  readonly keys: string[];
  private readonly steps: { c: Step[]; w: Step[]; r: Step[]; o: Step[] } = { c: [], w: [], r: [], o: [] };

  constructor(generationKey: string) {
    this.keys = [generationKey];
  }

  /** Every check must hold, in order; the first that fails stops the transaction before any write. `unset?` takes no field (''). */
  check(op: CheckOp, key: string, field: string, value?: string | number): this {
    return this.add('c', op, key, value === undefined ? [field] : [field, String(value)]);
  }

  write(op: WriteOp, key: string, ...args: Array<string | number>): this {
    return this.add('w', op, key, args.map(String));
  }

  /** Answered after the writes, when every check held. */
  read(op: ReadOp, key: string, ...args: string[]): this {
    return this.add('r', op, key, args);
  }

  /** `HGETVIA`: the value of `field` in `refs` taken as a field of `records`. */
  readVia(refs: string, field: string, records: string): this {
    return this.add('r', 'HGETVIA', refs, [field, String(this.keyIndex(records))]);
  }

  /** `ZADDIF`: `member` into the sorted set `zset` if `field` is present in `hash`. */
  addIfPresent(zset: string, member: string, hash: string, field: string): this {
    return this.add('w', 'ZADDIF', zset, [member, String(this.keyIndex(hash)), field]);
  }

  /** `ZPAGEVIA`: the values in `records` of the first `count` members of `zset` at or below `max` (ZREVRANGEBYLEX's), highest first. */
  pageVia(zset: string, max: string, count: number, records: string): this {
    return this.add('r', 'ZPAGEVIA', zset, [max, String(count), String(this.keyIndex(records))]);
  }

  /** Answered instead of the reads when a check failed. */
  otherwise(op: ReadOp, key: string, ...args: string[]): this {
    return this.add('o', op, key, args);
  }

  /** ARGV[2] of the script. */
  body(): string {
    return JSON.stringify(this.steps);
  }

  private add(list: keyof Txn['steps'], op: string, key: string, args: string[]): this {
    this.steps[list].push([op, this.keyIndex(key), ...args]);
    return this;
  }

  /** The Lua index of `key` in KEYS, adding it when new. */
  private keyIndex(key: string): number {
    let index = this.keys.indexOf(key);
    if (index === -1) index = this.keys.push(key) - 1;
    return index + 1;
  }
}

export type TxnOutcome =
  /** Every check held, the writes ran; `replies` answer the reads in order. */
  | { status: 'ok'; replies: unknown[]; generation: string }
  /** Check number `failed` (1-based) did not hold; nothing was written; `replies` answer `otherwise`. */
  | { status: 'failed'; failed: number; replies: unknown[]; generation: string }
  /** The generation is no longer the caller's: `generation` is the current one ('' when none). */
  | { status: 'stale'; generation: string };

export function parseOutcome(reply: unknown): TxnOutcome {
  const [status, failed, replies, generation] = reply as [string, number, unknown[], string];
  if (status === 'stale') return { status, generation };
  if (status === 'failed') return { status, failed, replies, generation };
  return { status: 'ok', replies, generation };
}

/** A reply of HGETALL (a flat list: field, value, ...) as a map. */
export function pairs(reply: unknown): Map<string, string> {
  const flat = reply as string[];
  const map = new Map<string, string>();
  for (let i = 0; i + 1 < flat.length; i += 2) map.set(flat[i] as string, flat[i + 1] as string);
  return map;
}
