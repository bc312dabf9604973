// D24 on Redis: a prefix is seeded exactly once by instances that start together; a replace
// through one instance is what every other reads and writes at its very next call; a create
// decided before a replace is checked against the new data, as one step, never against a mix of
// the two; replaced data leaves no key.
import { isDeepStrictEqual } from 'node:util';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LinkService } from '../../src/core/links.js';
import type { LinkRecord, MockData, TagRecord } from '../../src/core/model.js';
import { cryptoRandomInt } from '../../src/core/random.js';
import { ABANDONED_MS } from '../../src/store/redis/redis-generations.js';
import type { RedisLinkStore } from '../../src/store/redis/redis-link-store.js';
import { freshPrefix, keysUnder, linkCountCounter, RedisStores, seedData, withRawClient } from '../helpers/redis-store.js';
import { sharedRedisUrl } from '../helpers/shared-redis.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';

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

const generationOf = (under: string, at = url): Promise<string | null> => withRawClient(at, (client) => client.get(`${under}generation`));

/** The prefix holds the current generation's keys, the two top keys, and nothing else. */
async function expectOnlyCurrentGeneration(under: string, at = url): Promise<void> {
  const generation = await generationOf(under, at);
  const stray = (await keysUnder(at, under)).filter((key) => !key.startsWith(`${under}${generation}:`));
  expect(stray).toEqual([`${under}generation`, `${under}generations`]);
  expect(await withRawClient(at, (client) => client.zRange(`${under}generations`, 0, -1))).toEqual([generation]);
}

describe('seeding', () => {
  it('five instances opening an empty prefix at once: exactly one seeds, all hold its data, no other seed is left', async () => {
    const opened = await Promise.all([1, 2, 3, 4, 5].map((seed) => stores.open(url, prefix, { seed: async () => seedData(seed) })));
    const seeders = opened.filter((o) => o.seeded);
    expect(seeders).toHaveLength(1);
    const winner = await seeders[0]!.store.snapshot();
    expect([1, 2, 3, 4, 5].map((seed) => seedData(seed)).filter((data) => isDeepStrictEqual(JSON.parse(JSON.stringify(data)), JSON.parse(JSON.stringify(winner))))).toHaveLength(1);
    for (const { store } of opened) expect(await store.snapshot()).toEqual(winner);
    await expectOnlyCurrentGeneration(prefix);
  });
});

describe('who wrote the data a start kept (issue 37, C8)', () => {
  it('another instance while the connection that seeded it is open, an earlier run once it is closed, unknown when the data names no writer', async () => {
    const seeder = await stores.open(url, prefix);
    expect([seeder.seeded, seeder.keptFrom]).toEqual([true, undefined]);
    expect(await stores.open(url, prefix)).toMatchObject({ seeded: false, keptFrom: 'another-instance' });
    await seeder.store.close();
    expect(await stores.open(url, prefix)).toMatchObject({ seeded: false, keptFrom: 'earlier-run' });
    // Data written before the writer was recorded (an older version of the mock) names none.
    await withRawClient(url, async (client) => client.hDel(`${prefix}${(await generationOf(prefix))!}:meta`, 'seededBy'));
    expect(await stores.open(url, prefix)).toMatchObject({ seeded: false, keptFrom: 'unknown' });
  });

  it('a replace names its writer too: an instance started after a reset through a running one says another instance', async () => {
    const a = (await stores.open(url, prefix)).store;
    await a.replaceAll(seedData(7));
    expect(await stores.open(url, prefix)).toMatchObject({ seeded: false, keptFrom: 'another-instance' });
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
    const fresh = [...seedData(99).links.values()][0]!;
    expect(await b.addClicks(fresh.id, 5)).toEqual({ ...fresh, clickCount: fresh.clickCount + 5 });
    expect(await a.linkById(fresh.id)).toEqual({ ...fresh, clickCount: fresh.clickCount + 5 });
    await expectOnlyCurrentGeneration(prefix);
  });

  it('a create decided before it is checked against the new data: stored and counted there, or gone when it names what the new data lacks', async () => {
    const a = (await stores.open(url, prefix)).store;
    const b = (await stores.open(url, prefix)).store;
    const c = (await stores.open(url, prefix)).store;
    const demo = (await b.accountByKey('demo-key'))!;
    const domainId = (await b.defaultDomain()).id;
    const seeded = await b.linkCount(demo.id);
    const linkOf = (id: string, slug: string, tagIds: string[] = []): LinkRecord => ({ id, accountId: demo.id, domainId, slug, destinationUrl: `https://example.com/${slug}`, createdAt: '2026-12-01T10:00:00.000Z', clickCount: 0, tagIds });

    // The old data holds what the new will not: one more link of demo's, and a tag.
    const before = linkOf('lnk_BEFORE0000000000', 'before');
    expect(await b.createLink({ link: before, linkLimit: demo.linkLimit, newTags: [] })).toBe('stored');
    const oldTag: TagRecord = { id: 'tag_OLDDATA000000000', accountId: demo.id, name: 'old-data' };
    expect(await b.claimTagName(oldTag)).toEqual({ tag: oldTag, created: true });
    expect(await linkCountCounter(url, b, demo.id)).toBe(seeded + 1);

    // Decided on the old data: (a) a place under a limit of seeded + 1, which the old data has no
    // more room for, and a new tag; (b) a link naming the tag only the old data has.
    const newTag: TagRecord = { id: 'tag_SPANS000000000000', accountId: demo.id, name: 'spans' };
    const spans = linkOf('lnk_SPANS00000000000', 'spans', [newTag.id]);
    const orphan = linkOf('lnk_ORPHAN0000000000', 'orphan', [oldTag.id]);
    // On the old data (a) is refused for the limit, and that refusal stores nothing.
    expect(await b.createLink({ link: spans, linkLimit: seeded + 1, newTags: [newTag] })).toBe('limit');
    expect(await b.linkById(spans.id)).toBeUndefined();
    expect(await b.tagByName(demo.id, newTag.name)).toBeUndefined();

    await a.replaceAll(seedData());
    // Neither b nor c has called since: each learns of the new generation from its create's refusal, and runs it there.
    expect(await b.createLink({ link: spans, linkLimit: seeded + 1, newTags: [newTag] })).toBe('stored');
    expect(await c.createLink({ link: orphan, linkLimit: demo.linkLimit, newTags: [] })).toBe('gone');

    // (a) stored in the new data, with its tag, and counted exactly: seeded + 1, the old data's extra link not among them.
    expect(await a.linkById(spans.id)).toEqual(spans);
    expect(await a.linkAt(domainId, spans.slug)).toEqual(spans);
    expect(await a.tagByName(demo.id, newTag.name)).toEqual(newTag);
    expect(await a.linkById(before.id)).toBeUndefined();
    expect(await a.linkCount(demo.id)).toBe(seeded + 1);
    expect(await linkCountCounter(url, a, demo.id)).toBe(await a.linkCount(demo.id));
    // (b) gone: nothing of it stored, nor counted.
    expect(await a.linkById(orphan.id)).toBeUndefined();
    expect(await a.linkAt(domainId, orphan.slug)).toBeUndefined();
    expect(await a.tagById(oldTag.id)).toBeUndefined();
    const expected: MockData = seedData();
    expected.tags[newTag.id] = newTag;
    expected.links.set(spans.id, spans);
    expect(await a.snapshot()).toEqual(expected);
    await expectOnlyCurrentGeneration(prefix);
  });

  it('a create after it is stored in the new data and counted there', async () => {
    const a = (await stores.open(url, prefix)).store;
    const b = (await stores.open(url, prefix)).store;
    await a.replaceAll(seedData());
    const service = new LinkService({ store: b, random: cryptoRandomInt, now: () => new Date() });
    const demo = await service.authenticate('demo-key');
    const link = await service.create(demo, { destinationUrl: 'https://example.com/after', domain: 'short.test', tags: [{ name: 'after-reset' }] });
    expect((await a.linkById(link.id))?.destinationUrl).toBe('https://example.com/after');
    expect(await linkCountCounter(url, a, demo.id)).toBe(await a.linkCount(demo.id));
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

describe('a replace that fails half-way (issue 23, 10b)', () => {
  let own: RedisServer | undefined;
  afterEach(async () => {
    await own?.stop();
    own = undefined;
  });

  it('on Redis memory (maxmemory) deletes what it wrote at once, and changes nothing', async () => {
    own = await startRedis();
    const at = own.url;
    const store = (await stores.open(at, prefix)).store;
    const before = await store.snapshot();
    const used = await withRawClient(at, async (client) => Number(/used_memory:(\d+)/.exec(await client.info('memory'))?.[1]));
    await withRawClient(at, (client) => client.configSet('maxmemory', String(used + 1024 * 1024)));
    await expect(store.replaceAll(withLinks(seedData(99), 20_000))).rejects.toThrow(/OOM/);
    await withRawClient(at, (client) => client.configSet('maxmemory', '0'));
    expect(await store.snapshot()).toEqual(before);
    await expectOnlyCurrentGeneration(prefix, at);
  });
});

/** `data` with `count` more links of its first account. */
function withLinks(data: MockData, count: number): MockData {
  const account = data.accounts[0]!;
  for (let i = 0; i < count; i += 1) {
    const id = `lnk_MANY${String(i).padStart(12, '0')}`;
    data.links.set(id, { id, accountId: account.id, domainId: data.defaultDomain.id, slug: `many-${i}`, destinationUrl: `https://example.com/many/${i}`, createdAt: '2026-12-01T10:00:00.000Z', clickCount: 0, tagIds: [] });
  }
  return data;
}

describe('prefixes (issue 23, 10e)', () => {
  it('a prefix that is another prefix and one of its generations is refused at open, so a reset through that one cannot delete its keys', async () => {
    const a = (await stores.open(url, prefix)).store;
    const inside = `${prefix}${await generationOf(prefix)}:`;
    await expect(stores.open(url, inside)).rejects.toThrow(/Redis prefix .* holds 16 hex digits and ':' after its first character/);
    await a.replaceAll(seedData(99));
    expect(await keysUnder(url, inside)).toEqual([]);
    await expectOnlyCurrentGeneration(prefix);
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
});
