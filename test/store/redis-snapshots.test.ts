// Issue 40: a snapshot on Redis is a hash written and read SNAPSHOT_BATCH fields a command
// (src/store/redis/redis-snapshots.ts), not one value (about 300 MB at 1,000,000 links). Saved at a
// size over one batch, every link comes back and pages right after a restore; a reader sees the
// old snapshot of a name or the new, never a mix; a snapshot saved as one value by an earlier
// version is still read.
import { createClient, type RedisClientType } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildSeed } from '../../fixtures/seed.js';
import type { MockData } from '../../src/core/model.js';
import type { SnapshotStore } from '../../src/core/snapshots.js';
import { readFixtureSpec } from '../../src/contract/package-files.js';
import { redisSnapshots, SNAPSHOT_BATCH } from '../../src/store/redis/redis-snapshots.js';
import { allPages, newestFirst } from '../helpers/link-page-cases.js';
import { freshPrefix, RedisStores, withRawClient } from '../helpers/redis-store.js';
import { sharedRedisUrl } from '../helpers/shared-redis.js';

/** Over three batches of fields. */
const LINKS = 3 * SNAPSHOT_BATCH + 17;

let url: string;
let client: RedisClientType;
const stores = new RedisStores();

beforeAll(async () => {
  url = sharedRedisUrl();
  client = (await createClient({ url }).connect()) as unknown as RedisClientType;
});
afterEach(async () => {
  vi.restoreAllMocks();
  await stores.closeAll();
});
afterAll(() => {
  client.destroy();
});

function seedOf(links: number, seed: number): MockData {
  const spec = structuredClone(readFixtureSpec());
  const demo = spec.accounts[0]!;
  Object.assign(demo, { links, linkLimit: Math.max(demo.linkLimit, links) });
  return buildSeed(seed, spec);
}

describe('snapshots on Redis, in batches', () => {
  it('a snapshot over several batches is a hash of its records, not one value, and comes back whole', async () => {
    const prefix = freshPrefix();
    const snapshots = redisSnapshots(client, prefix);
    const data = seedOf(LINKS, 11);
    const info = await snapshots.save('big', data);
    const links = data.links.size;
    expect(info).toMatchObject({ name: 'big', links });

    const entry = JSON.parse((await withRawClient(url, (raw) => raw.hGet(`${prefix}snapshots`, 'big')))!) as Record<string, unknown>;
    expect(entry).not.toHaveProperty('data');
    const hash = `${prefix}snapshot:${String(entry['id'])}`;
    const records = 1 + data.accounts.length + Object.keys(data.tags).length + links;
    expect(await withRawClient(url, (raw) => raw.hLen(hash))).toBe(records);
    // Saved whole: no time to live left on it.
    expect(await withRawClient(url, (raw) => raw.ttl(hash))).toBe(-1);

    expect(await snapshots.load('big')).toEqual(data);
    expect(await snapshots.list()).toEqual([info]);
  });

  it('restored, every link is back and every account pages newest first', async () => {
    const prefix = freshPrefix();
    const data = seedOf(LINKS, 12);
    const { store } = await stores.open(url, prefix, { seed: async () => data });
    const snapshots = redisSnapshots(client, prefix);
    await snapshots.save('before', await store.snapshot());
    await store.replaceAll(seedOf(40, 13));

    await store.replaceAll((await snapshots.load('before'))!);
    expect(await store.snapshot()).toEqual(data);
    for (const account of data.accounts) {
      const owned = [...data.links.values()].filter((link) => link.accountId === account.id);
      expect(await allPages(store, account.id, 250)).toEqual(newestFirst(owned).map((link) => link.id));
    }
  });

  it('a read while the same name is saved again gets the old snapshot or the new, never a mix', async () => {
    const prefix = freshPrefix();
    const snapshots = redisSnapshots(client, prefix);
    const [old, next] = [seedOf(LINKS, 21), seedOf(LINKS + 5, 22)];
    await snapshots.save('same', old);
    await snapshots.save('staged', next);
    // After the reader's first batch, the name is given the new hash and the old one deleted: what
    // the save's swap does in one step, made here at that point (a whole save would take the reader's bound).
    const swap = (): Promise<unknown> =>
      withRawClient(url, async (raw) => {
        const index = `${prefix}snapshots`;
        const [was, staged] = [JSON.parse((await raw.hGet(index, 'same'))!) as { id: string }, (await raw.hGet(index, 'staged'))!];
        await raw.hSet(index, 'same', staged);
        await raw.hDel(index, 'staged');
        await raw.unlink(`${prefix}snapshot:${was.id}`);
      });
    expect(await readerPausedAfterFirstBatch(snapshots, swap)).toEqual(next);
    expect((await snapshots.list()).map((info) => [info.name, info.links])).toEqual([['same', next.links.size]]);
  });

  it('deleting removes the hash with the name; a snapshot saved as one value by an earlier version is still read', async () => {
    const prefix = freshPrefix();
    const snapshots = redisSnapshots(client, prefix);
    const data = seedOf(30, 31);
    await snapshots.save('gone', data);
    expect(await snapshots.delete('gone')).toBe(true);
    expect(await snapshots.delete('gone')).toBe(false);
    expect((await withRawClient(url, (raw) => raw.keys(`${prefix}snapshot:*`)))).toEqual([]);

    await withRawClient(url, (raw) => raw.hSet(`${prefix}snapshots`, 'old-style', JSON.stringify({ savedAt: '2026-11-01T00:00:00.000Z', data })));
    expect(await snapshots.load('old-style')).toEqual(data);
    expect(await snapshots.list()).toEqual([{ name: 'old-style', savedAt: '2026-11-01T00:00:00.000Z', links: data.links.size }]);
  });
});

/** load(name) with `between` run to its end after the first HSCAN reply, before the second HSCAN is sent. */
async function readerPausedAfterFirstBatch(snapshots: SnapshotStore, between: () => Promise<unknown>): Promise<MockData | undefined> {
  const send = client.sendCommand.bind(client);
  let scans = 0;
  vi.spyOn(client, 'sendCommand').mockImplementation((async (args: string[], ...rest: unknown[]) => {
    if (args[0] === 'HSCAN' && ++scans === 2) await between();
    return (send as (...all: unknown[]) => Promise<unknown>)(args, ...rest);
  }) as typeof client.sendCommand);
  return snapshots.load('same');
}
