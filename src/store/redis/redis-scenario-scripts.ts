// The Lua scripts of the scenarios on Redis (redis-scenario-state.ts says what each key holds):
// each change is one script, so it is one step for every instance.
import { luaScript } from './redis-traffic-client.js';

/** Sets or clears the name and starts the counters over, in one step. ARGV[1]: '1' to set, '0' to clear. */
export const SET_ACTIVE = luaScript(`
if ARGV[1] == '1' then redis.call('SET', KEYS[1], ARGV[2]) else redis.call('DEL', KEYS[1]) end
redis.call('DEL', KEYS[2])
return 1`);

/** Clears the name only if it is still this one (with or without a count): a reload on one instance never undoes a later switch through another. */
export const DROP_ACTIVE = luaScript(`
local value = redis.call('GET', KEYS[1])
if value == ARGV[1] or (value and string.sub(value, 1, #ARGV[1] + 1) == ARGV[1] .. '\\0') then redis.call('DEL', KEYS[1]) end
return 1`);

/**
 * A Lua function: whether a request that read scenario NAME may be shaped by it, given the
 * value stored now, and what to store after its use: false to leave the value, '' to clear the
 * scenario (its last use), else the value with one use less.
 */
const NEXT_USE = `
local function next_use(value, name)
  if not value then return 0, false end
  if value == name then return 1, false end
  local nul = string.find(value, '\\0', 1, true)
  if not nul or string.sub(value, 1, nul - 1) ~= name then return 0, false end
  local left = tonumber(string.sub(value, nul + 1))
  if left <= 1 then return 1, '' end
  return 1, name .. '\\0' .. string.format('%d', left - 1)
end`;

/** KEYS: global name, global counters. ARGV: the name the request read. 1: shape it, 0: answer normally. */
export const TAKE_USE = luaScript(`${NEXT_USE}
local applies, value = next_use(redis.call('GET', KEYS[1]), ARGV[1])
if value == '' then redis.call('DEL', KEYS[1], KEYS[2]) elseif value then redis.call('SET', KEYS[1], value) end
return applies`);

/** KEYS: global name, names by key. ARGV: the key. Both names (nil: none) in one round trip. */
export const ACTIVE_NAMES = luaScript(`return {redis.call('GET', KEYS[1]), redis.call('HGET', KEYS[2], ARGV[1])}`);

/** A Lua function that deletes one key's counters from the by-key hash (a small hash: keys × rules with `times`). */
const DELETE_KEY_COUNTERS = `
local function delete_key_counters(hash, key)
  local prefix = key .. '\\0'
  for _, field in ipairs(redis.call('HKEYS', hash)) do
    if string.sub(field, 1, #prefix) == prefix then redis.call('HDEL', hash, field) end
  end
end`;

/**
 * KEYS: names by key, counters by key. ARGV: '1' to set or '0' to clear, the key, the name, the
 * most keys that may have one (MAX_KEY_SCENARIOS). The key's counters start over in the same step.
 * 0, and nothing changed, when a new key would pass the bound: checked in the step, so racing
 * instances cannot pass it together.
 */
export const SET_KEY_SCENARIO = luaScript(`${DELETE_KEY_COUNTERS}
if ARGV[1] == '1' then
  if redis.call('HEXISTS', KEYS[1], ARGV[2]) == 0 and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
  redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
else redis.call('HDEL', KEYS[1], ARGV[2]) end
delete_key_counters(KEYS[2], ARGV[2])
return 1`);

/** KEYS: names by key, counters by key. ARGV: the key, the name the request read. As TAKE_USE, for a key's own scenario. */
export const TAKE_KEY_USE = luaScript(`${DELETE_KEY_COUNTERS}${NEXT_USE}
local applies, value = next_use(redis.call('HGET', KEYS[1], ARGV[1]), ARGV[2])
if value == '' then
  redis.call('HDEL', KEYS[1], ARGV[1])
  delete_key_counters(KEYS[2], ARGV[1])
elseif value then redis.call('HSET', KEYS[1], ARGV[1], value) end
return applies`);

/** KEYS: counters by key. ARGV: the key. */
export const CLEAR_KEY_COUNTERS = luaScript(`${DELETE_KEY_COUNTERS}
delete_key_counters(KEYS[1], ARGV[1])
return 1`);

/**
 * KEYS: counters, counters by key. ARGV: rule keys ("<scenario>#<index>"). Deletes those rules'
 * counts, the global ones and every key's (a field's rule key is what follows its NUL), in one step.
 */
export const RESTART_RULES = luaScript(`
local wanted = {}
for _, rule in ipairs(ARGV) do wanted[rule] = true end
redis.call('HDEL', KEYS[1], unpack(ARGV))
for _, field in ipairs(redis.call('HKEYS', KEYS[2])) do
  local nul = string.find(field, '\\0', 1, true)
  if nul and wanted[string.sub(field, nul + 1)] then redis.call('HDEL', KEYS[2], field) end
end
return 1`);
