// Named snapshots on Redis (D21): one hash under `<prefix>snapshots`, name → {savedAt, data} as
// JSON, so a snapshot saved through one instance can be restored through any other. Each save is
// one HSET: Redis says OK once it holds the whole snapshot (D23).
import type { RedisClientType } from 'redis';
import type { MockData } from '../../core/model.js';
import type { SnapshotInfo, SnapshotStore } from '../../core/snapshots.js';

interface Stored {
  savedAt: string;
  data: MockData;
}

/** A whole-state read or write moves megabytes at 100,000 links: it gets longer than one command. */
const SNAPSHOT_TIMEOUT_MS = 10_000;

export function redisSnapshots(client: RedisClientType, prefix: string): SnapshotStore {
  const key = `${prefix}snapshots`;
  const guarded = <T>(what: string, run: Promise<T>): Promise<T> => withDeadline(what, run, SNAPSHOT_TIMEOUT_MS);
  const read = async (name: string): Promise<Stored | undefined> => {
    const text = await guarded('reading a snapshot', client.hGet(key, name));
    return text == null ? undefined : (JSON.parse(text) as Stored);
  };
  return {
    save: async (name, data) => {
      const stored: Stored = { savedAt: new Date().toISOString(), data };
      await guarded('saving a snapshot', client.hSet(key, name, JSON.stringify(stored)));
      return infoOf(name, stored);
    },
    load: async (name) => (await read(name))?.data,
    list: async () => {
      const all = await guarded('listing snapshots', client.hGetAll(key));
      return Object.entries(all)
        .map(([name, text]) => infoOf(name, JSON.parse(text) as Stored))
        .sort((a, b) => a.name.localeCompare(b.name));
    },
    delete: async (name) => (await guarded('deleting a snapshot', client.hDel(key, name))) > 0,
  };
}

const infoOf = (name: string, stored: Stored): SnapshotInfo => ({ name, savedAt: stored.savedAt, links: Object.keys(stored.data.links).length });

/** Settles within `ms` whatever Redis does: D25's "never a hung request". */
function withDeadline<T>(what: string, run: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`store unavailable: Redis did not answer ${what} within ${ms} ms`)), ms);
  });
  return Promise.race([run.catch((error: unknown) => Promise.reject(new Error(`store unavailable: ${(error as Error).message}`))), deadline]).finally(() => clearTimeout(timer));
}
