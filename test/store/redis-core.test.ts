// The core's own rules (src/core/links.ts, tags.ts, admin-ops.ts) over RedisLinkStore, end to end:
// what a request is answered, and that a refused one changes nothing, as on the in-process store
// (D19, D27); and what the lead wiring needs for --accept-any-key. Then how many round trips to
// Redis one create, update and delete take, counted by the store and checked against MONITOR.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CreateLinkRequest } from '../../src/core/api-types.js';
import { buildAccountForKey } from '../../fixtures/seed.js';
import { addClicks, linksOfAccount, setLinkLimit, visit } from '../../src/core/admin-ops.js';
import { ApiError } from '../../src/core/errors.js';
import { LinkService } from '../../src/core/links.js';
import type { AccountRecord } from '../../src/core/model.js';
import { cryptoRandomInt } from '../../src/core/random.js';
import type { RedisLinkStore } from '../../src/store/redis/redis-link-store.js';
import { expectMatchesSchema } from '../helpers/contract-assert.js';
import { eventually } from '../helpers/eventually.js';
import { freshPrefix, RedisStores, linkCountCounter, withRawClient } from '../helpers/redis-store.js';
import { sharedRedisUrl } from '../helpers/shared-redis.js';

const NOW = new Date('2026-12-01T10:00:00.000Z');
let url: string;
const stores = new RedisStores();
let store: RedisLinkStore;
let service: LinkService;
let demo: AccountRecord;

beforeAll(() => {
  url = sharedRedisUrl();
});
beforeEach(async () => {
  store = (await stores.open(url, freshPrefix())).store;
  service = serviceOver(store);
  demo = await service.authenticate('demo-key');
});
afterEach(() => stores.closeAll());

function serviceOver(over: RedisLinkStore): LinkService {
  return new LinkService({ store: over, random: cryptoRandomInt, now: () => NOW });
}

const create = (input: Partial<CreateLinkRequest> = {}, account = demo) =>
  service.create(account, { destinationUrl: 'https://example.com/a', domain: 'short.test', tags: [], ...input });

/** Refused with this status (and code), and the data, the counts and the claims are exactly as before. */
async function expectRefused(op: () => Promise<unknown>, status: number, code?: string): Promise<void> {
  const before = await store.snapshot();
  const error = await op().then(() => 'no error', (e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  expect({ status: (error as ApiError).status, code: (error as ApiError).code }).toEqual({ status, code });
  expect(await store.snapshot()).toEqual(before);
  for (const account of before.accounts) expect(await linkCountCounter(url, store, account.id)).toBe(await store.linkCount(account.id));
}

describe('LinkService over RedisLinkStore', () => {
  it('creates a link that every instance then finds, in the contract shape', async () => {
    const link = await create({ slug: 'spring-sale', tags: [{ name: 'launch' }] });
    expectMatchesSchema('Link', link);
    expect(link).toMatchObject({ slug: 'spring-sale', shortUrl: 'https://short.test/spring-sale', clickCount: 0, createdAt: NOW.toISOString() });
    const other = (await stores.open(url, store.keys.prefix)).store;
    expect(await serviceOver(other).view((await other.linkById(link.id))!)).toEqual(link);
  });

  it('refuses, in the order of D19, and changes nothing: slug taken, limit, unknown domain, unknown tag', async () => {
    await create({ slug: 'taken' });
    await expectRefused(() => create({ slug: 'taken', tags: [{ name: 'would-be-new' }] }), 400);
    const limited = await service.authenticate('limited-key');
    await expectRefused(() => create({ tags: [{ name: 'would-be-new' }] }, limited), 400, 'LINK_LIMIT_REACHED');
    await expectRefused(() => create({ domain: 'unknown.test' }), 404);
    await expectRefused(() => create({ domain: 'links.globex.test' }), 404);
    await expectRefused(() => create({ slug: 'free', tags: [{ id: 'tag_0000000000000000', name: 'x' }] }), 404);
  });

  it('reuses a tag by its name, and creates a new name once', async () => {
    const existing = (await store.snapshot()).tags;
    const named = Object.values(existing).find((tag) => tag.accountId === demo.id)!;
    const first = await create({ tags: [{ name: ` ${named.name} ` }, { name: 'fresh' }] });
    const second = await create({ tags: [{ name: 'fresh' }] });
    expect(first.tags[0]).toEqual({ id: named.id, name: named.name });
    expect(second.tags).toEqual([first.tags[1]]);
    expect(Object.keys((await store.snapshot()).tags)).toHaveLength(Object.keys(existing).length + 1);
  });

  it('keeps text beyond ASCII exactly: a tag found again by its name, a link updated by compare-and-set', async () => {
    const link = await create({ destinationUrl: 'https://example.com/ünïcode/✓', tags: [{ name: 'équipe 🚀' }] });
    const again = await create({ tags: [{ name: 'équipe 🚀' }] });
    expect(again.tags).toEqual(link.tags);
    const updated = await service.update(demo, link.id, { destinationUrl: 'https://example.com/日本語' });
    expect(updated).toEqual({ ...link, destinationUrl: 'https://example.com/日本語' });
    expect(await service.update(demo, link.id, { tags: [{ name: 'équipe 🚀' }, { name: 'ß' }] })).toMatchObject({ destinationUrl: 'https://example.com/日本語' });
  });

  it('updates only what is sent, and not another account’s link', async () => {
    const link = await create({ slug: 'to-update' });
    const updated = await service.update(demo, link.id, { destinationUrl: 'https://example.com/b' });
    expect(updated).toEqual({ ...link, destinationUrl: 'https://example.com/b' });
    const tagged = await service.update(demo, link.id, { tags: [{ name: 'later' }] });
    expect(tagged).toMatchObject({ destinationUrl: 'https://example.com/b', tags: [{ name: 'later' }] });
    const other = await service.authenticate('other-key');
    await expectRefused(() => service.update(other, link.id, { destinationUrl: 'https://example.com/c' }), 404);
  });

  it('deletes once, freeing the slug and the place under the limit', async () => {
    const limited = await service.authenticate('limited-key');
    const [victim] = (await linksOfAccount(service, 'limited-key')).links;
    await service.delete(limited, victim!.id);
    await expectRefused(() => service.delete(limited, victim!.id), 404);
    const again = await create({ slug: victim!.slug, domain: victim!.domain.name }, limited);
    expect(again.slug).toBe(victim!.slug);
    await expectRefused(() => create({}, limited), 400, 'LINK_LIMIT_REACHED');
  });

  it('admin operations: clicks by visit and by count, a new limit, the links newest first', async () => {
    const link = await create({ slug: 'clicked' });
    expect(await visit(service, 'SHORT.test', 'clicked')).toBe('https://example.com/a');
    expect((await addClicks(service, link.id, 4)).clickCount).toBe(5);
    expect((await setLinkLimit(service, 'other-key', 2)).linkLimit).toBe(2);
    expect((await service.authenticate('other-key')).linkLimit).toBe(2);
    const listed = (await linksOfAccount(service, 'demo-key')).links;
    expect(listed[0]!.id).toBe(link.id);
    expect(listed.map((l) => l.createdAt)).toEqual([...listed.map((l) => l.createdAt)].sort().reverse());
  });

  it('--accept-any-key: a new key is one account, whichever instance sees it first', async () => {
    const other = (await stores.open(url, store.keys.prefix)).store;
    const createAccount = async (over: RedisLinkStore, apiKey: string) => {
      const defaultDomain = await over.defaultDomain();
      const planned = buildAccountForKey(apiKey, defaultDomain, () => false);
      const taken = await over.slugsTaken(defaultDomain.id, planned.links.map((link) => link.slug));
      return taken.size === 0 ? planned : buildAccountForKey(apiKey, defaultDomain, (slug) => taken.has(slug));
    };
    const services = [store, other].map((over) => new LinkService({ store: over, random: cryptoRandomInt, now: () => NOW, createAccount: (key) => createAccount(over, key) }));
    const accounts = await Promise.all(services.map((each) => each.authenticate('ci-key-123')));
    expect(accounts[0]).toEqual(accounts[1]);
    expect(await store.linkCount(accounts[0]!.id)).toBe(5);
    expect((await store.accounts()).filter((account) => account.apiKey === 'ci-key-123')).toHaveLength(1);
  });
});

describe('round trips to Redis through LinkService (measured)', () => {
  /** Commands and round trips of `op`, and the commands MONITOR saw under the prefix meanwhile. */
  async function measure(op: () => Promise<unknown>): Promise<{ commands: number; roundTrips: number; monitored: number }> {
    let monitored = 0;
    return withRawClient(url, async (monitor) => {
      await monitor.monitor((line) => {
        // The client's own commands; those a script runs show as `[0 lua]`.
        if (line.includes(store.keys.prefix) && !line.includes(' lua]')) monitored += 1;
      });
      const before = { ...store.stats };
      await op();
      const commands = store.stats.commands - before.commands;
      // MONITOR lines arrive after the replies: wait (bounded; 10 s, as a loaded machine may need) until they are all in.
      await eventually(async () => monitored, (seen) => seen >= commands, 10_000);
      return { commands, roundTrips: store.stats.roundTrips - before.roundTrips, monitored };
    });
  }

  it('create, update, delete: few round trips each, every command seen by MONITOR', async () => {
    const account = await service.authenticate('demo-key');
    // The first create reads the domain (and its view the domain by id) once per generation.
    const first = await measure(() => create({ slug: 'measured-first' }, account));
    let id = '';
    const created = await measure(async () => (id = (await create({ slug: 'measured' }, account)).id));
    const tagged = await measure(() => create({ slug: 'measured-tags', tags: [{ name: 'measured-new' }] }, account));
    const reused = await measure(() => create({ slug: 'measured-reused', tags: [{ name: 'measured-new' }] }, account));
    const updated = await measure(() => service.update(account, id, { destinationUrl: 'https://example.com/u' }));
    const deleted = await measure(() => service.delete(account, id));
    const authenticated = await measure(async () => service.authenticate('demo-key'));
    const counts = { first, created, tagged, reused, updated, deleted, authenticated };
    process.stdout.write(`Redis round trips (commands): ${Object.entries(counts).map(([name, c]) => `${name} ${c.roundTrips} (${c.commands})`).join(', ')}\n`);
    for (const c of Object.values(counts)) expect(c.monitored).toBe(c.commands);
    expect(Object.fromEntries(Object.entries(counts).map(([name, c]) => [name, c.roundTrips]))).toEqual({
      first: 3,
      // One transaction: its checks and its writes.
      created: 1,
      // A name not known yet is looked up, then made by the create's transaction.
      tagged: 2,
      reused: 1,
      // The link read, then its compare-and-set.
      updated: 2,
      deleted: 2,
      authenticated: 1,
    });
  });
});
