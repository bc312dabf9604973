// D24 on Redis: a prefix is seeded exactly once by instances that start together; a replace
// through one instance is what every other reads and writes at its very next call; a create
// that spans a replace is refused rather than mixing the two; replaced data leaves no key.
import { isDeepStrictEqual } from 'node:util';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LinkService } from '../../src/core/links.js';
import type { LinkRecord } from '../../src/core/model.js';
import { cryptoRandomInt } from '../../src/core/random.js';
import { ABANDONED_MS } from '../../src/store/redis-generations.js';
import type { RedisLinkStore } from '../../src/store/redis-link-store.js';
import { freshPrefix, keysUnder, RedisStores, seedData, slotsCounter, withRawClient } from '../helpers/redis-store.js';
import { sharedRedisUrl } from '../helpers/shared-redis.js';

let url: string;
const stores = new RedisStores();
let prefix: string;

beforeAll(() => {
  url = sharedRedisUrl();
});
beforeEach(() => {
  prefix = freshPrefix();
});
afterEach(() => stores.closeAll());

const generationOf = (under: string): Promise<string | null> => withRawClient(url, (client) => client.get(`${under}generation`));

/** The prefix holds the current generation's keys, the two top keys, and nothing else. */
async function expectOnlyCurrentGeneration(under: string): Promise<void> {
  const generation = await generationOf(under);
  const stray = (await keysUnder(url, under)).filter((key) => !key.startsWith(`${under}${generation}:`));
  expect(stray).toEqual([`${under}generation`, `${under}generations`]);
  expect(await withRawClient(url, (client) => client.zRange(`${under}generations`, 0, -1))).toEqual([generation]);
}

describe('seeding', () => {
  it('five instances opening an empty prefix at once: exactly one seeds, all hold its data, no other seed is left', async () => {
    const opened = await Promise.all([1, 2, 3, 4, 5].map((seed) => stores.open(url, prefix, { seed: async () => seedData(seed) })));
    const seeders = opened.filter((o) => o.seeded);
    expect(seeders).toHaveLength(1);
    const winner = await seeders[0]!.store.snapshot();
    expect([1, 2, 3, 4, 5].map((seed) => seedData(seed)).filter((data) => isDeepStrictEqual(data, winner))).toHaveLength(1);
    for (const { store } of opened) expect(await store.snapshot()).toEqual(winner);
    await expectOnlyCurrentGeneration(prefix);
  });
});

describe('replace through one instance', () => {
  it('is what the other reads and writes at its very next call', async () => {
    const a = (await stores.open(url, prefix)).store;
    const b = (await stores.open(url, prefix)).store;
    const service = new LinkService({ store: b, random: cryptoRandomInt, now: () => new Date() });
    const demo = await service.authenticate('demo-key');
    const link = await service.create(demo, { destinationUrl: 'https://example.com/before-reset', domain: 'short.test', slug: 'before-reset', tags: [] });
    await a.replaceAll(seedData(99));
    expect(await b.linkById(link.id)).toBeUndefined();
    expect(await b.snapshot()).toEqual(seedData(99));
    const fresh = Object.values(seedData(99).links)[0]!;
    expect(await b.addClicks(fresh.id, 5)).toEqual({ ...fresh, clickCount: fresh.clickCount + 5 });
    expect(await a.linkById(fresh.id)).toEqual({ ...fresh, clickCount: fresh.clickCount + 5 });
    await expectOnlyCurrentGeneration(prefix);
  });

  it('a create that began before it is refused, and the new data counts no place for it', async () => {
    const a = (await stores.open(url, prefix)).store;
    const b = (await stores.open(url, prefix)).store;
    const demo = (await b.accountByKey('demo-key'))!;
    const link: LinkRecord = { id: 'lnk_SPANS0000000000', accountId: demo.id, domainId: (await b.defaultDomain()).id, slug: 'spans', destinationUrl: 'https://example.com/spans', createdAt: '2026-12-01T10:00:00.000Z', clickCount: 0, tagIds: [] };
    expect(await b.reserveLinkSlot(demo.id, demo.linkLimit)).toBe(true);
    await a.replaceAll(seedData());
    // b learns of the new generation here: the slug is claimed in it, the place was reserved before.
    expect(await b.claimSlug(link.domainId, link.slug, link.id)).toBe(true);
    await expect(b.insertLink(link, [])).rejects.toThrow(/the data was replaced \(reset or snapshot restore\) while this request ran/);
    await b.releaseSlug(link.domainId, link.slug, link.id);
    await b.releaseLinkSlot(demo.id);
    expect(await a.linkById(link.id)).toBeUndefined();
    expect(await a.linkAt(link.domainId, link.slug)).toBeUndefined();
    expect(await slotsCounter(url, a, demo.id)).toBe(await a.linkCount(demo.id));
    expect(await a.snapshot()).toEqual(seedData());
  });

  it('a place reserved in the new data serves a create that finishes after it', async () => {
    const a = (await stores.open(url, prefix)).store;
    const b = (await stores.open(url, prefix)).store;
    await a.replaceAll(seedData());
    const service = new LinkService({ store: b, random: cryptoRandomInt, now: () => new Date() });
    const demo = await service.authenticate('demo-key');
    const link = await service.create(demo, { destinationUrl: 'https://example.com/after', domain: 'short.test', tags: [{ name: 'after-reset' }] });
    expect((await a.linkById(link.id))?.destinationUrl).toBe('https://example.com/after');
    expect(await slotsCounter(url, a, demo.id)).toBe(await a.linkCount(demo.id));
  });

  it('leaves alone the keys of another prefix that a glob of this one would match', async () => {
    const globbed = `${prefix.slice(0, -1)}-*?[x]:`;
    const store = (await stores.open(url, globbed)).store;
    const generation = await generationOf(globbed);
    const neighbour = `${prefix.slice(0, -1)}-ab[x]:${generation}:links`;
    await withRawClient(url, (client) => client.set(neighbour, 'not ours'));
    await store.replaceAll(seedData(99));
    expect(await withRawClient(url, (client) => client.get(neighbour))).toBe('not ours');
    await withRawClient(url, (client) => client.del(neighbour));
    await expectOnlyCurrentGeneration(globbed);
  });
});

describe('data lost', () => {
  it('every key of the prefix gone (Redis restarted without persistence): the next calls seed it again, once', async () => {
    const logged: string[] = [];
    const a = (await stores.open(url, prefix, { log: (line) => logged.push(line) })).store;
    const b = (await stores.open(url, prefix, { log: (line) => logged.push(line) })).store;
    await withRawClient(url, async (client) => client.del(await keysUnder(url, prefix)));
    const [fromA, fromB] = await Promise.all([a.accountByKey('demo-key'), b.accountByKey('demo-key')]);
    expect(fromA).toEqual(seedData().accounts[0]);
    expect(fromB).toEqual(fromA);
    expect(logged.filter((line) => /held no data any more .*: seeded it again$/.test(line))).toHaveLength(1);
    expect(await b.snapshot()).toEqual(seedData());
    await expectOnlyCurrentGeneration(prefix);
  });
});

describe('sweeping', () => {
  it('an open deletes the generations a crashed writer left long ago, and keeps one still being written', async () => {
    await stores.open(url, prefix);
    await withRawClient(url, async (client) => {
      await client.zAdd(`${prefix}generations`, [
        { score: Date.now() - ABANDONED_MS - 1_000, value: 'abandoned' },
        { score: Date.now(), value: 'underway' },
      ]);
      await client.hSet(`${prefix}abandoned:links`, 'lnk_x', '{}');
      await client.hSet(`${prefix}underway:links`, 'lnk_y', '{}');
    });
    await stores.open(url, prefix);
    const keys = await keysUnder(url, prefix);
    expect(keys).not.toContain(`${prefix}abandoned:links`);
    expect(keys).toContain(`${prefix}underway:links`);
    expect(await withRawClient(url, (client) => client.zRange(`${prefix}generations`, 0, -1))).toContain('underway');
  });

  it('a place an instance held when it died is given back once abandoned; one still held is not', async () => {
    const crashed = (await stores.open(url, prefix)).store;
    const live = (await stores.open(url, prefix)).store;
    const demo = (await live.accountByKey('demo-key'))!;
    expect(await crashed.reserveLinkSlot(demo.id, demo.linkLimit)).toBe(true);
    expect(await live.reserveLinkSlot(demo.id, demo.linkLimit)).toBe(true);
    const links = await live.linkCount(demo.id);
    expect(await slotsCounter(url, live, demo.id)).toBe(links + 2);
    expect(await live.sweepReservations()).toBe(0);
    expect(await live.sweepReservations(Date.now() + ABANDONED_MS + 1_000)).toBe(1);
    expect(await slotsCounter(url, live, demo.id)).toBe(links + 1);
    await live.releaseLinkSlot(demo.id);
    expect(await slotsCounter(url, live, demo.id)).toBe(links);
  });
});
