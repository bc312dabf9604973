// A snapshot of the live data on Redis (src/store/redis/redis-snapshot-read.ts) is read in batches
// of SNAPSHOT_READ_BATCH fields, never in one reply of the whole data (at 1,000,000 links some
// 400 MB), and still holds the data of one moment: changes made while its batches are read are not
// in it. The copy it reads is gone after it; one gone before it was read whole fails the snapshot.
// A Redis without COPY gets the one atomic read.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LinkRecord, MockData } from '../../src/core/model.js';
import { RedisConnection } from '../../src/store/redis/redis-connection.js';
import { SNAPSHOT_READ_BATCH } from '../../src/store/redis/redis-snapshot-read.js';
import { freshPrefix, keysUnder, RedisStores, seedWithLinks, withRawClient } from '../helpers/redis-store.js';
import { sharedRedisUrl } from '../helpers/shared-redis.js';

const LINKS = 5_000;
/** A reply of SNAPSHOT_READ_BATCH links is about 150 KB; the whole data of LINKS links is several times this. */
const MOST_REPLY_BYTES = 512 * 1024;

let url: string;
const stores = new RedisStores();
beforeAll(() => {
  url = sharedRedisUrl();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await stores.closeAll();
});

const seedOf = (links: number): MockData => seedWithLinks(links, 2468);

/** Bytes of a reply as it came (nested arrays of strings). */
const bytesOf = (reply: unknown): number => (Array.isArray(reply) ? reply.reduce((sum: number, item) => sum + bytesOf(item), 0) : String(reply).length);

/** Watches every command this process sends: the largest reply; `after(args)` runs once a command's reply is in. */
function watchReplies(after: (args: readonly string[]) => Promise<void> = async () => undefined): { largest: number; commands: string[] } {
  const seen = { largest: 0, commands: [] as string[] };
  const send = RedisConnection.prototype.send;
  vi.spyOn(RedisConnection.prototype, 'send').mockImplementation(async function (this: RedisConnection, args, timeoutMs) {
    const reply = await send.call(this, args, timeoutMs);
    seen.commands.push(String(args[0]));
    seen.largest = Math.max(seen.largest, bytesOf(reply));
    await after(args);
    return reply;
  });
  return seen;
}

describe('a snapshot of the live data on Redis', () => {
  it(`is read in batches of ${SNAPSHOT_READ_BATCH} fields: no reply holds the whole data, and nothing of the copy is left`, async () => {
    const prefix = freshPrefix();
    const data = seedOf(LINKS);
    const { store } = await stores.open(url, prefix, { seed: async () => data });
    const before = await keysUnder(url, prefix);
    const seen = watchReplies();
    expect(await store.snapshot()).toEqual(data);
    expect(seen.largest).toBeLessThan(MOST_REPLY_BYTES);
    expect(seen.commands.filter((command) => command === 'HSCAN').length).toBeGreaterThanOrEqual((2 * LINKS) / SNAPSHOT_READ_BATCH);
    expect(await keysUnder(url, prefix)).toEqual(before);
  });

  it('holds the data of one moment: a create, a delete and clicks made while its batches are read are not in it', async () => {
    const prefix = freshPrefix();
    const data = seedOf(1_200);
    const { store } = await stores.open(url, prefix, { seed: async () => data });
    const demo = data.accounts[0]!;
    const [gone, clicked] = [...data.links.values()].filter((link) => link.accountId === demo.id) as [LinkRecord, LinkRecord];
    const made: LinkRecord = { ...gone, id: 'lnk_madeMeanwhile0000', slug: 'made-meanwhile', createdAt: '2026-12-01T10:00:00.000Z', clickCount: 0 };
    let changed = false;
    // After the first batch is read (the copy is made by then), change the live data.
    watchReplies(async (args) => {
      if (changed || args[0] !== 'HSCAN') return;
      changed = true;
      expect(await store.createLink({ link: made, linkLimit: demo.linkLimit + 1, newTags: [] })).toBe('stored');
      expect(await store.deleteLink(gone)).toBe(true);
      expect(await store.addClicks(clicked.id, 5)).toMatchObject({ clickCount: clicked.clickCount + 5 });
    });
    expect(await store.snapshot()).toEqual(data);
    expect(changed).toBe(true);
    vi.restoreAllMocks();
    const now = await store.snapshot();
    expect(now.links.get(made.id)).toEqual(made);
    expect(now.links.get(gone.id)).toBeUndefined();
    expect(now.links.get(clicked.id)?.clickCount).toBe(clicked.clickCount + 5);
  });

  it('fails as store unavailable, naming the copy, when the copy is gone before it was read whole (expired after SNAPSHOT_COPY_TTL_S)', async () => {
    const prefix = freshPrefix();
    const { store } = await stores.open(url, prefix, { seed: async () => seedOf(1_200) });
    let dropped = false;
    watchReplies(async (args) => {
      if (dropped || args[0] !== 'HSCAN') return;
      dropped = true;
      await withRawClient(url, async (client) => {
        const copies = (await client.keys(`${prefix}*`)).filter((key) => key.includes(':frozen:'));
        expect(copies.length).toBeGreaterThan(0);
        await client.unlink(copies);
      });
    });
    await expect(store.snapshot()).rejects.toThrow(/^store unavailable: the snapshot's copy under .*:frozen:[0-9a-f]{16}: expired or was deleted while it was read$/);
  });

  it('on a Redis without COPY (before 6.2): the one atomic read, the same data', async () => {
    const prefix = freshPrefix();
    const data = seedOf(300);
    const { store } = await stores.open(url, prefix, { seed: async () => data });
    const send = RedisConnection.prototype.send;
    vi.spyOn(RedisConnection.prototype, 'send').mockImplementation(async function (this: RedisConnection, args, timeoutMs) {
      // What Redis 6.0 answers a script that calls COPY.
      if (args[0] === 'EVAL' && String(args[1]).includes("'COPY'")) throw new Error('store unavailable: Redis at x answered: ERR Error running script: @user_script:5: Unknown Redis command called from Lua script');
      return send.call(this, args, timeoutMs);
    });
    expect(await store.snapshot()).toEqual(data);
  });
});
