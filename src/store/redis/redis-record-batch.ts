// Records (journal entries, coverage counts) sent to Redis in batches: one script call carries
// every record made while the previous call was under way, so under load a request costs a share
// of one round trip instead of one per record, and alone it is sent at once. Each kind of record is
// a Lua function of its own keys and arguments (`K`, `A`); the batch script calls them in order, in
// one atomic step, so entries keep their order. At most one batch is in flight.
import { createHash } from 'node:crypto';

/** A kind of record: `body` is Lua run with `K` (its keys) and `A` (its arguments). */
export interface RecordKind {
  name: string;
  body: string;
}

export function recordKind(name: string, body: string): RecordKind {
  if (!/^[a-z]+$/.test(name)) throw new Error(`record kind '${name}': lower-case letters only`);
  return { name, body };
}

export interface RecordBatchItem {
  kind: RecordKind;
  keys: readonly string[];
  args: readonly string[];
}

/** A call of a batch script: its source (for EVAL), SHA (for EVALSHA), keys and arguments. */
export interface BatchCall {
  source: string;
  sha: string;
  keys: string[];
  args: string[];
}

/** Records per call at most: its arguments stay far below Lua's unpack limit. */
export const MAX_BATCH = 200;

const scripts = new Map<string, { source: string; sha: string }>();

/**
 * One call for these records. ARGV holds, per record: its kind, how many keys and their places in
 * KEYS, how many arguments and the arguments.
 */
export function batchCall(items: readonly RecordBatchItem[]): BatchCall {
  const kinds = [...new Map(items.map((item) => [item.kind.name, item.kind])).values()].sort((a, b) => a.name.localeCompare(b.name));
  const script = batchScript(kinds);
  const keys: string[] = [];
  const args: string[] = [];
  for (const item of items) {
    args.push(item.kind.name, String(item.keys.length));
    for (const key of item.keys) {
      let index = keys.indexOf(key);
      if (index === -1) index = keys.push(key) - 1;
      args.push(String(index + 1));
    }
    args.push(String(item.args.length), ...item.args);
  }
  return { ...script, keys, args };
}

function batchScript(kinds: readonly RecordKind[]): { source: string; sha: string } {
  const id = kinds.map((kind) => kind.name).join(',');
  let script = scripts.get(id);
  if (!script) {
    const source = `local run = {}
${kinds.map((kind) => `run['${kind.name}'] = function(K, A)\n${kind.body}\nend`).join('\n')}
local i = 1
while i <= #ARGV do
  local f = run[ARGV[i]]
  local K, A = {}, {}
  local nk = tonumber(ARGV[i + 1])
  for j = 1, nk do K[j] = KEYS[tonumber(ARGV[i + 1 + j])] end
  i = i + 2 + nk
  local na = tonumber(ARGV[i])
  for j = 1, na do A[j] = ARGV[i + j] end
  i = i + 1 + na
  f(K, A)
end
return 1`;
    script = { source, sha: createHash('sha1').update(source).digest('hex') };
    scripts.set(id, script);
  }
  return script;
}
