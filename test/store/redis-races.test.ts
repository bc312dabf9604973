// D22 across instances: several RedisLinkStores on one Redis and prefix, each with its own
// connection and its own LinkService, as separate processes would be, racing with Promise.all.
// The core's rules decide; the store's claims make each decision hold for all of them.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Link } from '../../src/core/api-types.js';
import { ApiError } from '../../src/core/errors.js';
import { LinkService } from '../../src/core/links.js';
import type { AccountRecord } from '../../src/core/model.js';
import { cryptoRandomInt } from '../../src/core/random.js';
import type { RedisLinkStore } from '../../src/store/redis/redis-link-store.js';
import { freshPrefix, RedisStores, linkCountCounter } from '../helpers/redis-store.js';
import { sharedRedisUrl } from '../helpers/shared-redis.js';

const INSTANCES = 3;
let url: string;
const stores = new RedisStores();
let instances: Array<{ store: RedisLinkStore; service: LinkService }>;

beforeAll(() => {
  url = sharedRedisUrl();
});
beforeEach(async () => {
  const prefix = freshPrefix();
  instances = [];
  for (let i = 0; i < INSTANCES; i += 1) {
    const { store } = await stores.open(url, prefix);
    instances.push({ store, service: new LinkService({ store, random: cryptoRandomInt, now: () => new Date() }) });
  }
});
afterEach(() => stores.closeAll());

const instance = (i: number) => instances[i % INSTANCES]!;
const account = (apiKey: string): Promise<AccountRecord> => Promise.resolve(instance(0).service.authenticate(apiKey));

/** `count` operations spread over the instances, all started at once. */
function race<T>(count: number, op: (service: LinkService, i: number) => Promise<T>): Promise<Array<PromiseSettledResult<T>>> {
  return Promise.allSettled(Array.from({ length: count }, (_, i) => op(instance(i).service, i)));
}

const created = (results: Array<PromiseSettledResult<Link>>): Link[] => results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
const refusals = (results: Array<PromiseSettledResult<unknown>>): Array<{ status: number; code?: string; message: string }> =>
  results.flatMap((r) => (r.status === 'rejected' ? [{ status: (r.reason as ApiError).status, code: (r.reason as ApiError).code, message: (r.reason as Error).message }] : []));

describe('D22 across instances', () => {
  it('300 creates of one slug: one link, 299 refusals that the slug is taken', async () => {
    const demo = await account('demo-key');
    const total = await instance(0).store.totalLinks();
    const results = await race(300, (service) => service.create(demo, { destinationUrl: 'https://example.com/one', domain: 'short.test', slug: 'contested', tags: [] }));
    const winners = created(results);
    expect(winners).toHaveLength(1);
    expect(refusals(results).filter((r) => r.status === 400 && /slug 'contested' is already taken/.test(r.message))).toHaveLength(299);
    for (const { store } of instances) expect((await store.linkAt((await store.defaultDomain()).id, 'contested'))?.id).toBe(winners[0]!.id);
    expect(await instance(1).store.totalLinks()).toBe(total + 1);
    expect(await linkCountCounter(url, instance(0).store, demo.id)).toBe(await instance(2).store.linkCount(demo.id));
  });

  it('a limit of 20 more links and 200 creates: exactly 20 links, 180 LINK_LIMIT_REACHED', async () => {
    const limited = await account('limited-key');
    const stored = await instance(0).store.linkCount(limited.id);
    const raised = (await instance(0).store.setLinkLimit(limited.id, stored + 20))!;
    const results = await race(200, (service) => service.create(raised, { destinationUrl: 'https://example.com/many', domain: 'short.test', tags: [] }));
    expect(created(results)).toHaveLength(20);
    expect(refusals(results).filter((r) => r.code === 'LINK_LIMIT_REACHED')).toHaveLength(180);
    for (const { store } of instances) expect(await store.linkCount(limited.id)).toBe(stored + 20);
    expect(await linkCountCounter(url, instance(1).store, limited.id)).toBe(stored + 20);
  });

  it('100 creates naming one new tag: every link has the one tag of that name', async () => {
    const demo = await account('demo-key');
    const results = await race(100, (service) => service.create(demo, { destinationUrl: 'https://example.com/tagged', domain: 'short.test', tags: [{ name: 'launch-2027' }] }));
    const links = created(results);
    expect(links).toHaveLength(100);
    const tagIds = new Set(links.map((link) => link.tags[0]?.id));
    expect(tagIds.size).toBe(1);
    const tag = await instance(2).store.tagByName(demo.id, 'launch-2027');
    expect(tagIds).toEqual(new Set([tag?.id]));
    const snapshot = await instance(1).store.snapshot();
    expect(Object.values(snapshot.tags).filter((t) => t.name === 'launch-2027')).toEqual([tag]);
  });

  it('an update racing a delete answers 200 or 404, and the link is gone on every instance', async () => {
    const demo = await account('demo-key');
    const links = created(await race(40, (service) => service.create(demo, { destinationUrl: 'https://example.com/doomed', domain: 'short.test', tags: [] })));
    const outcomes = await Promise.all(
      links.map(async (link, i) => {
        const [updated, deleted] = await Promise.allSettled([
          instance(i).service.update(demo, link.id, { destinationUrl: 'https://example.com/revived', tags: [{ name: 'late' }] }),
          instance(i + 1).service.delete(demo, link.id),
        ]);
        expect(deleted.status).toBe('fulfilled');
        return updated.status === 'fulfilled' ? 200 : (updated.reason as ApiError).status;
      }),
    );
    expect(outcomes.every((status) => status === 200 || status === 404)).toBe(true);
    for (const { store } of instances) {
      for (const link of links) expect(await store.linkById(link.id)).toBeUndefined();
      const ids = new Set(links.map((link) => link.id));
      expect((await store.linksOf(demo.id)).filter((stored) => ids.has(stored.id))).toEqual([]);
    }
    expect(await linkCountCounter(url, instance(0).store, demo.id)).toBe(await instance(0).store.linkCount(demo.id));
  });

  it('two updates of different fields through two instances both stay', async () => {
    const demo = await account('demo-key');
    const links = created(await race(30, (service) => service.create(demo, { destinationUrl: 'https://example.com/before', domain: 'short.test', tags: [] })));
    await Promise.all(
      links.map((link, i) =>
        Promise.all([
          instance(i).service.update(demo, link.id, { destinationUrl: `https://example.com/after-${i}` }),
          instance(i + 1).service.update(demo, link.id, { tags: [{ name: `tag-${i % 3}` }] }),
        ]),
      ),
    );
    for (const [i, link] of links.entries()) {
      const stored = (await instance(i + 2).store.linkById(link.id))!;
      expect(stored.destinationUrl).toBe(`https://example.com/after-${i}`);
      expect(stored.tagIds).toEqual([(await instance(0).store.tagByName(demo.id, `tag-${i % 3}`))!.id]);
    }
  });
});
