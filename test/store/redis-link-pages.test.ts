// Issue 40: the page read of the Redis store (linkPageOf, from a sorted set per account written in
// the same script as each link: src/store/redis/redis-link-order.ts). The cases every store shares
// (test/helpers/link-page-cases.ts); a second instance reads the same pages; reset and snapshot
// restore; and data written before the order existed: pages stay right meanwhile, the next start
// gives it its order, also after a build that was stopped part-way (an instance killed mid-build).
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LinkRecord, MockData } from '../../src/core/model.js';
import type { RedisLinkStore } from '../../src/store/redis/redis-link-store.js';
import { orderMember } from '../../src/store/redis/redis-link-order.js';
import { allPages, DEMO_KEY, linkPageCases, newestFirst, pageLink, pageSeed, TIMES } from '../helpers/link-page-cases.js';
import { freshPrefix, RedisStores, withRawClient } from '../helpers/redis-store.js';
import { sharedRedisUrl } from '../helpers/shared-redis.js';

let url: string;
const stores = new RedisStores();
beforeAll(() => {
  url = sharedRedisUrl();
});
afterEach(() => stores.closeAll());

const open = async (prefix: string, data?: MockData): Promise<RedisLinkStore> => (await stores.open(url, prefix, data ? { seed: async () => data } : {})).store;

/** Data with `count` more links for the demo account, in TIMES (many in one millisecond). */
function withLinks(count: number): MockData {
  const data = pageSeed();
  for (let i = 0; i < count; i += 1) {
    const link = pageLink(data, TIMES[i % TIMES.length] as string, `lnk_bulk${String((i * 7919) % count).padStart(5, '0')}`);
    data.links.set(link.id, link);
  }
  return data;
}

/** What a generation written before the page order existed holds: no sorted sets, no meta field; `keep` entries of a build that was stopped part-way. */
async function asWrittenBefore(prefix: string, keep: LinkRecord[] = []): Promise<void> {
  await withRawClient(url, async (client) => {
    const generation = await client.get(`${prefix}generation`);
    const sets = await client.keys(`${prefix}${generation}:links-by-time:*`);
    expect(sets.length).toBeGreaterThan(0);
    await client.del(sets);
    expect(await client.hDel(`${prefix}${generation}:meta`, 'link-order')).toBe(1);
    for (const link of keep) await client.zAdd(`${prefix}${generation}:links-by-time:${link.accountId}`, { score: 0, value: orderMember(link) });
  });
}

const accountOf = (data: MockData): string => data.accounts.find((account) => account.apiKey === DEMO_KEY)!.id;

describe('the page read of the Redis store', () => {
  linkPageCases((data) => open(freshPrefix(), data), 25);

  it('a second instance reads the same pages, after creates and deletes through the first', async () => {
    const prefix = freshPrefix();
    const data = withLinks(50);
    const [first, second] = [await open(prefix, data), await open(prefix)];
    const accountId = accountOf(data);
    await first.createLink({ link: pageLink(data, TIMES[2] as string, 'lnk_late'), linkLimit: 1_000, newTags: [] });
    expect(await first.deleteLink(data.links.get('lnk_bulk00007') as LinkRecord)).toBe(true);
    const expected = newestFirst(await second.linksOf(accountId)).map((link) => link.id);
    expect(expected).toContain('lnk_late');
    expect(expected).not.toContain('lnk_bulk00007');
    expect(await allPages(second, accountId, 9)).toEqual(expected);
    expect(await allPages(first, accountId, 9)).toEqual(expected);
  });

  it('a reset and a snapshot restore bring their own pages', async () => {
    const prefix = freshPrefix();
    const data = withLinks(30);
    const store = await open(prefix, data);
    const accountId = accountOf(data);
    const saved = await store.snapshot();
    const before = await allPages(store, accountId, 7);
    await store.replaceAll(pageSeed());
    expect(await allPages(store, accountId, 7)).toEqual(newestFirst([...pageSeed().links.values()].filter((link) => link.accountId === accountId)).map((link) => link.id));
    await store.replaceAll(saved);
    expect(await allPages(store, accountId, 7)).toEqual(before);
  });

  it('data written before the order existed: pages stay right, the next start gives it its order, in batches', async () => {
    const prefix = freshPrefix();
    const data = withLinks(1_600);
    const first = await open(prefix, data);
    const accountId = accountOf(data);
    const expected = newestFirst(await first.linksOf(accountId)).map((link) => link.id);
    await asWrittenBefore(prefix);
    expect(await allPages(first, accountId, 100)).toEqual(expected);

    const second = await open(prefix);
    expect(await second.linkOrderBuilt).toBe('built');
    expect(await allPages(second, accountId, 100)).toEqual(expected);
    expect(await allPages(first, accountId, 100)).toEqual(expected);
    const third = await open(prefix);
    expect(await third.linkOrderBuilt).toBe('already');
  });

  it('a build stopped part-way (its instance killed) leaves right pages, and the next start finishes it', async () => {
    const prefix = freshPrefix();
    const data = withLinks(1_200);
    const first = await open(prefix, data);
    const accountId = accountOf(data);
    const all = newestFirst(await first.linksOf(accountId));
    // What a build killed after its first batches left: some entries, no mark.
    await asWrittenBefore(prefix, all.slice(0, 500));
    const expected = all.map((link) => link.id);
    expect(await allPages(first, accountId, 64)).toEqual(expected);
    await first.deleteLink(all[3] as LinkRecord);
    await first.deleteLink(all[900] as LinkRecord);
    const second = await open(prefix);
    expect(await second.linkOrderBuilt).toBe('built');
    const left = expected.filter((id) => id !== all[3]?.id && id !== all[900]?.id);
    expect(await allPages(second, accountId, 64)).toEqual(left);
  });
});
