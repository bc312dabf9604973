// Named snapshots on Redis (D21), so a snapshot saved through one instance can be restored through
// any other. `<prefix>snapshots` is the index: name → {savedAt, links, id}. A snapshot's data is the
// hash `<prefix>snapshot:<id>` (redis-snapshot-fields.ts), written and read SNAPSHOT_BATCH fields a
// command (at 1,000,000 links one value was about 300 MB, one command far beyond any bound). A save
// writes a hash under a fresh id, with a time to live so that a writer that dies leaves nothing for
// ever, then one script makes it the name's (D24-style): it drops the time to live, points the
// index at it and deletes the hash it replaces. A reader therefore sees the old snapshot or the
// new, never a mix: a read that finds the hash gone or incomplete (a save or delete of the same name
// meanwhile) starts again from the index. Redis says OK to the swap once it holds the whole
// snapshot (D23). Snapshots saved as one value by an earlier version are still read.
import { randomBytes } from 'node:crypto';
import type { RedisClientType } from 'redis';
import type { MockData } from '../../core/model.js';
import { SplitLinkTable } from '../../core/link-table.js';
import type { SnapshotInfo, SnapshotStore } from '../../core/snapshots.js';
import { BULK_TIMEOUT_MS, COMMAND_TIMEOUT_MS } from './redis-connection.js';
import { inOrder, within } from './deadline.js';
import { WRITE_BATCH } from './redis-data.js';
import { WRITES_IN_FLIGHT } from './redis-generations.js';
import { snapshotFields, SnapshotReader } from './redis-snapshot-fields.js';

/** Fields per command while a snapshot is saved (HSET) or read (HSCAN's COUNT): the records of a generation's write. */
export const SNAPSHOT_BATCH = WRITE_BATCH;
/** A snapshot being written expires this long after its last command, if the save never finishes. */
export const SNAPSHOT_WRITE_TTL_S = 600;
/** A read that found its snapshot replaced meanwhile starts again this often. */
const READ_ATTEMPTS = 5;
/** Bounds one read's HSCAN rounds: 20,000 rounds of SNAPSHOT_BATCH is 10,000,000 fields. */
const MAX_SCAN_ROUNDS = 20_000;

/** An index entry; `data` only in a snapshot saved as one value by an earlier version. */
interface Entry {
  savedAt: string;
  links?: number;
  id?: string;
  data?: MockData;
}

/**
 * KEYS: index, the new hash (or '' to delete). ARGV: name, entry JSON (or '' to delete), the
 * prefix of snapshot hashes. Deletes the hash the name pointed at; answers its entry (nil: none).
 */
const SWAP = `if KEYS[2] ~= '' then
  if redis.call('EXISTS', KEYS[2]) == 0 then return redis.error_reply('the snapshot being saved expired before it was complete') end
  redis.call('PERSIST', KEYS[2])
end
local old = redis.call('HGET', KEYS[1], ARGV[1])
if ARGV[2] == '' then redis.call('HDEL', KEYS[1], ARGV[1]) else redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
if old then
  local ok, entry = pcall(cjson.decode, old)
  if ok and type(entry) == 'table' and type(entry.id) == 'string' then redis.call('UNLINK', ARGV[3] .. entry.id) end
end
return old`;

export function redisSnapshots(client: RedisClientType, prefix: string): SnapshotStore {
  const index = `${prefix}snapshots`;
  const hashPrefix = `${prefix}snapshot:`;
  const failed = (what: string, ms = COMMAND_TIMEOUT_MS) => `store unavailable: Redis did not answer ${what} within ${ms} ms`;
  const send = (what: string, args: string[], ms = COMMAND_TIMEOUT_MS): Promise<unknown> => within(unavailable(client.sendCommand(args)), ms, () => failed(what, ms));
  const entryOf = async (name: string): Promise<Entry | undefined> => {
    const text = await send('reading a snapshot', ['HGET', index, name]);
    return typeof text === 'string' ? (JSON.parse(text) as Entry) : undefined;
  };

  const write = async (hash: string, data: MockData): Promise<void> => {
    const commands = snapshotFields(data, SNAPSHOT_BATCH);
    for (let more = true; more; ) {
      const window: string[][] = [];
      for (let next = commands.next(); !next.done; next = commands.next()) {
        window.push(['HSET', hash, ...next.value]);
        if (window.length === WRITES_IN_FLIGHT) break;
      }
      more = window.length === WRITES_IN_FLIGHT;
      window.push(['EXPIRE', hash, String(SNAPSHOT_WRITE_TTL_S)]);
      const sent = await inOrder(window.map((args) => unavailable(client.sendCommand(args))), BULK_TIMEOUT_MS, () => failed('saving a snapshot', BULK_TIMEOUT_MS));
      const refused = sent.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
      if (refused) throw refused.reason;
    }
  };

  /** The snapshot's data, read whole from one hash; undefined when the hash was replaced or deleted meanwhile. */
  const readHash = async (hash: string): Promise<MockData | undefined> => {
    const reader = new SnapshotReader();
    let cursor = '0';
    for (let round = 0; round < MAX_SCAN_ROUNDS; round += 1) {
      const [next, flat] = (await send('reading a snapshot', ['HSCAN', hash, cursor, 'COUNT', String(SNAPSHOT_BATCH)], BULK_TIMEOUT_MS)) as [string, string[]];
      reader.add(flat);
      cursor = next;
      if (cursor === '0') return reader.result();
    }
    throw new Error(`store unavailable: the snapshot ${hash} was not read whole in ${MAX_SCAN_ROUNDS} reads`);
  };

  return {
    save: async (name, data) => {
      const id = randomBytes(8).toString('hex');
      const entry: Entry = { savedAt: new Date().toISOString(), links: data.links.size, id };
      try {
        await write(hashPrefix + id, data);
        await send('saving a snapshot', ['EVAL', SWAP, '2', index, hashPrefix + id, name, JSON.stringify(entry), hashPrefix]);
      } catch (error) {
        // What was written is deleted now rather than left to expire (a failure to delete: it expires).
        await send('deleting a snapshot', ['UNLINK', hashPrefix + id]).catch(() => undefined);
        throw error;
      }
      return infoOf(name, entry);
    },
    load: async (name) => {
      for (let attempt = 0; attempt < READ_ATTEMPTS; attempt += 1) {
        const entry = await entryOf(name);
        if (!entry) return undefined;
        // An entry of an older build holds its data, parsed: its links a plain object, the data's a table.
        if (entry.data) return { ...entry.data, links: SplitLinkTable.of(entry.data.links) };
        const data = await readHash(hashPrefix + String(entry.id));
        if (data) return data;
      }
      throw new Error(`store unavailable: the snapshot ${name} was replaced ${READ_ATTEMPTS} times while it was read`);
    },
    list: async () => {
      const flat = (await send('listing snapshots', ['HGETALL', index])) as string[];
      const infos: SnapshotInfo[] = [];
      for (let i = 0; i + 1 < flat.length; i += 2) infos.push(infoOf(flat[i] as string, JSON.parse(flat[i + 1] as string) as Entry));
      return infos.sort((a, b) => a.name.localeCompare(b.name));
    },
    delete: async (name) => (await send('deleting a snapshot', ['EVAL', SWAP, '2', index, '', name, '', hashPrefix])) != null,
  };
}

const infoOf = (name: string, entry: Entry): SnapshotInfo => ({ name, savedAt: entry.savedAt, links: entry.links ?? Object.keys(entry.data?.links ?? {}).length });

/** A failure of the client as D25's one kind of error. */
function unavailable<T>(reply: Promise<T>): Promise<T> {
  return reply.catch((error: unknown) => Promise.reject(new Error(`store unavailable: ${(error as Error).message}`)));
}
