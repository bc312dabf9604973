// RedisLinkStore, method by method, on the run's shared Redis under a prefix of each test's own:
// what each read answers for the seeded data, what each write changes, and the key layout it
// leaves (redis-keys.ts). createLink runs the cases every store shares (create-link-cases.ts).
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AccountRecord, LinkRecord, MockData, TagRecord } from '../../src/core/model.js';
import { SeededAccountClash } from '../../src/core/link-store.js';
import { redactUrl } from '../../src/store/redis/redis-connection.js';
import { RedisStartError, type RedisLinkStore } from '../../src/store/redis/redis-link-store.js';
import { createLinkCases } from '../helpers/create-link-cases.js';
import { runnableMsOf } from '../helpers/own-time.js';
import { freshPrefix, keysUnder, RedisStores, seedData, withRawClient } from '../helpers/redis-store.js';
import { sharedRedisUrl } from '../helpers/shared-redis.js';

let url: string;
const stores = new RedisStores();
let prefix: string;
let store: RedisLinkStore;
let data: MockData;

beforeAll(() => {
  url = sharedRedisUrl();
});
beforeEach(async () => {
  prefix = freshPrefix();
  store = (await stores.open(url, prefix)).store;
  data = seedData();
});
afterEach(() => stores.closeAll());

const account = (apiKey: string): AccountRecord => data.accounts.find((candidate) => candidate.apiKey === apiKey)!;
const linksOf = (accountId: string): LinkRecord[] => [...data.links.values()].filter((link) => link.accountId === accountId);
const tagsOf = (accountId: string): TagRecord[] => Object.values(data.tags).filter((tag) => tag.accountId === accountId);
const byId = (links: LinkRecord[]): LinkRecord[] => [...links].sort((a, b) => a.id.localeCompare(b.id));
const newLink = (over: Partial<LinkRecord> = {}): LinkRecord => ({
  id: 'lnk_NEW0000000000000',
  accountId: account('demo-key').id,
  domainId: data.defaultDomain.id,
  slug: 'brand-new',
  destinationUrl: 'https://example.com/new',
  createdAt: '2026-12-01T10:00:00.000Z',
  clickCount: 0,
  tagIds: [],
  ...over,
});

/** What a create does through the store. */
async function insert(link: LinkRecord): Promise<void> {
  const owner = data.accounts.find((candidate) => candidate.id === link.accountId)!;
  expect(await store.createLink({ link, linkLimit: owner.linkLimit, newTags: [] })).toBe('stored');
}

describe('opening', () => {
  it('seeds an empty prefix once: the next open keeps the data, and a snapshot gives back exactly the seed', async () => {
    const again = await stores.open(url, prefix, { seed: async () => seedData(99) });
    expect(again.seeded).toBe(false);
    expect(await again.store.snapshot()).toEqual(data);
  });

  it('with reset, replaces what the prefix holds', async () => {
    await insert(newLink());
    const reset = await stores.open(url, prefix, { seed: async () => seedData(99), reset: true });
    expect(reset.seeded).toBe(true);
    expect(await store.snapshot()).toEqual(seedData(99));
  });

  it('an unreachable Redis is one line naming the URL, without its password, at once', async () => {
    // The time this process could run: a loaded machine's wall clock would count the time it had none.
    const { outcome, ms } = await runnableMsOf(() => stores.open('redis://user:secret@127.0.0.1:1', freshPrefix()));
    const error = outcome.status === 'rejected' ? outcome.reason : outcome.value;
    expect(error).toBeInstanceOf(RedisStartError);
    expect((error as Error).message).toMatch(/^cannot connect to Redis at redis:\/\/user:\*\*\*@127\.0\.0\.1:1: connect ECONNREFUSED/);
    expect((error as Error).message).not.toMatch(/secret|\n/);
    expect(ms).toBeLessThan(2_000);
  });

  it('redactUrl hides only the password', () => {
    expect(redactUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
    expect(redactUrl('rediss://me:pw@h:1/2')).toBe('rediss://me:***@h:1/2');
    expect(redactUrl('redis://:pw@h:1')).toBe('redis://:***@h:1');
  });

  it('keeps every key under its prefix, in one generation (the layout of redis-keys.ts)', async () => {
    const keys = await keysUnder(url, prefix);
    const generation = await withRawClient(url, (client) => client.get(`${prefix}generation`));
    const data = keys.filter((key) => key.startsWith(`${prefix}${generation}:`)).map((key) => key.slice(`${prefix}${generation}:`.length));
    const accountIds = seedData().accounts.map((a) => a.id);
    expect(keys.length).toBe(data.length + 2);
    expect(data.sort()).toEqual(
      ['meta', 'accounts', 'account-ids', 'account-order', 'domains', 'domain-ids', 'links', 'clicks', 'slugs', 'link-counts', 'tags', 'tag-names', ...accountIds.flatMap((id) => [`links-of:${id}`, `links-by-time:${id}`])].sort(),
    );
    expect(keys).toContain(`${prefix}generations`);
  });
});

describe('reads', () => {
  it('accounts, by key and all in order; domains by name (any case) and id, with their owner', async () => {
    expect(await store.accountByKey('demo-key')).toEqual(account('demo-key'));
    expect(await store.accountByKey('nobody')).toBeUndefined();
    expect(await store.accounts()).toEqual(data.accounts);
    expect(await store.defaultDomain()).toEqual(data.defaultDomain);
    expect(await store.domainByName(' SHORT.test ')).toEqual({ domain: data.defaultDomain });
    const custom = account('demo-key').domains[0]!;
    expect(await store.domainByName(custom.name.toUpperCase())).toEqual({ domain: custom, ownerId: account('demo-key').id });
    expect(await store.domainById(custom.id)).toEqual(custom);
    expect(await store.domainByName('unknown.test')).toBeUndefined();
    expect(await store.domainById('dom_unknown')).toBeUndefined();
  });

  it('links by id, by domain and slug, by account; counts; tags by id and by name', async () => {
    const demo = account('demo-key');
    const link = linksOf(demo.id)[0]!;
    expect(await store.linkById(link.id)).toEqual(link);
    expect(await store.linkAt(link.domainId, link.slug)).toEqual(link);
    expect(await store.linkAt(link.domainId, 'no-such-slug')).toBeUndefined();
    expect(await store.linkById('lnk_unknown')).toBeUndefined();
    expect(byId(await store.linksOf(demo.id))).toEqual(byId(linksOf(demo.id)));
    expect(await store.linksOf('acc_nobody')).toEqual([]);
    expect(await store.linkCount(demo.id)).toBe(linksOf(demo.id).length);
    expect(await store.totalLinks()).toBe(data.links.size);
    const tag = tagsOf(demo.id)[0]!;
    expect(await store.tagById(tag.id)).toEqual(tag);
    expect(await store.tagByName(demo.id, tag.name)).toEqual(tag);
    expect(await store.tagByName(account('other-key').id, tag.name)).toBeUndefined();
  });

  it('a snapshot is a copy: changing it changes nothing stored', async () => {
    const copy = await store.snapshot();
    copy.accounts[0]!.linkLimit = -1;
    expect(await store.snapshot()).toEqual(data);
  });
});

describe('createLink', () => {
  createLinkCases(async () => ({ store, data }));
});

describe('claimTagName', () => {
  it('the first claim creates the tag; a later one gets that tag', async () => {
    const demo = account('demo-key');
    const first: TagRecord = { id: 'tag_first00000000000', accountId: demo.id, name: 'launch' };
    expect(await store.claimTagName(first)).toEqual({ tag: first, created: true });
    expect(await store.claimTagName({ ...first, id: 'tag_second0000000000' })).toEqual({ tag: first, created: false });
    expect(await store.tagByName(demo.id, 'launch')).toEqual(first);
    expect(await store.tagById(first.id)).toEqual(first);
    expect(await store.tagById('tag_second0000000000')).toBeUndefined();
  });
});

describe('writes', () => {
  it('updateLink changes only the fields sent, even from a record read before another update', async () => {
    const link = linksOf(account('demo-key').id)[0]!;
    const tag = tagsOf(account('demo-key').id)[1]!;
    const first = await store.updateLink(link, { destinationUrl: 'https://example.com/first' }, []);
    expect(first).toEqual({ ...link, destinationUrl: 'https://example.com/first' });
    // `link` is stale now: the update compares, reads the stored record and applies its change to it.
    const second = await store.updateLink(link, { tagIds: [tag.id] }, []);
    expect(second).toEqual({ ...link, destinationUrl: 'https://example.com/first', tagIds: [tag.id] });
    expect(await store.linkById(link.id)).toEqual(second);
  });

  it('updateLink of a deleted link is undefined and brings nothing back; naming a missing tag is refused', async () => {
    const [gone, kept] = linksOf(account('demo-key').id) as [LinkRecord, LinkRecord];
    expect(await store.deleteLink(gone)).toBe(true);
    expect(await store.updateLink(gone, { destinationUrl: 'https://example.com/x' }, [])).toBeUndefined();
    expect(await store.linkById(gone.id)).toBeUndefined();
    await expect(store.updateLink(kept, { tagIds: ['tag_missing000000000'] }, [])).rejects.toThrow(/a tag of link .* is gone/);
    expect(await store.linkById(kept.id)).toEqual(kept);
  });

  it('deleteLink removes the link once, frees its slug and its place', async () => {
    const limited = account('limited-key');
    const link = linksOf(limited.id)[0]!;
    expect(await store.deleteLink(link)).toBe(true);
    expect(await store.deleteLink(link)).toBe(false);
    expect(await store.linkById(link.id)).toBeUndefined();
    expect(await store.linkAt(link.domainId, link.slug)).toBeUndefined();
    expect(await store.linkCount(limited.id)).toBe(limited.linkLimit - 1);
    expect(await store.totalLinks()).toBe(data.links.size - 1);
    // Its place and its slug serve the next create, once.
    const next = newLink({ id: 'lnk_next000000000000', accountId: limited.id, domainId: link.domainId, slug: link.slug });
    expect(await store.createLink({ link: next, linkLimit: limited.linkLimit, newTags: [] })).toBe('stored');
    expect(await store.createLink({ link: { ...next, id: 'lnk_next100000000000', slug: 'another' }, linkLimit: limited.linkLimit, newTags: [] })).toBe('limit');
  });

  it('addClicks adds in place; an unknown link is undefined', async () => {
    const link = [...data.links.values()][0]!;
    expect(await store.addClicks(link.id, 3)).toEqual({ ...link, clickCount: link.clickCount + 3 });
    expect(await store.addClicks(link.id, 2)).toEqual({ ...link, clickCount: link.clickCount + 5 });
    expect(await store.addClicks('lnk_unknown', 1)).toBeUndefined();
  });

  it('setLinkLimit changes the account everywhere it is read; an unknown account is undefined', async () => {
    const other = account('other-key');
    expect(await store.setLinkLimit(other.id, 7)).toEqual({ ...other, linkLimit: 7 });
    expect(await store.accountByKey('other-key')).toEqual({ ...other, linkLimit: 7 });
    expect((await store.accounts()).map((a) => a.linkLimit)).toEqual(data.accounts.map((a) => (a.id === other.id ? 7 : a.linkLimit)));
    expect(await store.setLinkLimit('acc_unknown', 7)).toBeUndefined();
  });
});

describe('addAccount', () => {
  const seeded = () => {
    const accountRecord: AccountRecord = { id: 'acc_NEW0000000000000', name: 'New', apiKey: 'new-key', linkLimit: 10, domains: [] };
    const tag: TagRecord = { id: 'tag_NEW0000000000000', accountId: accountRecord.id, name: 'first' };
    const link = newLink({ accountId: accountRecord.id, slug: 'new-account-link', tagIds: [tag.id], clickCount: 4 });
    return { account: accountRecord, tags: [tag], links: [link] };
  };

  it('stores the account with its tags and links, once: the same key again gets that account', async () => {
    const { account: created, tags, links } = seeded();
    expect(await store.addAccount(seeded())).toEqual(created);
    expect(await store.addAccount({ ...seeded(), account: { ...created, name: 'Another' } })).toEqual(created);
    expect(await store.accountByKey('new-key')).toEqual(created);
    expect((await store.accounts()).at(-1)).toEqual(created);
    expect(await store.accounts()).toHaveLength(data.accounts.length + 1);
    expect(await store.linksOf(created.id)).toEqual(links);
    expect(await store.tagByName(created.id, 'first')).toEqual(tags[0]);
    expect(await store.linkCount(created.id)).toBe(1);
    // Its seeded link counts under its limit.
    const second = newLink({ id: 'lnk_second0000000000', accountId: created.id, slug: 'second' });
    expect(await store.createLink({ link: second, linkLimit: 2, newTags: [] })).toBe('stored');
    expect(await store.createLink({ link: { ...second, id: 'lnk_third00000000000', slug: 'third' }, linkLimit: 2, newTags: [] })).toBe('limit');
  });

  it('refuses an account whose link would take a slug already held, and stores none of it', async () => {
    const taken = [...data.links.values()].find((link) => link.domainId === data.defaultDomain.id)!;
    expect(await store.slugsTaken(data.defaultDomain.id, [taken.slug, 'new-account-link'])).toEqual(new Set([taken.slug]));
    const clash = seeded();
    clash.links[0]!.slug = taken.slug;
    // A slug taken since the seeding: the caller seeds the account again, clear of it (issue 23, item 9).
    await expect(store.addAccount(clash)).rejects.toEqual(new SeededAccountClash('slug'));
    expect(await store.accountByKey('new-key')).toBeUndefined();
    expect(await store.tagById(clash.tags[0]!.id)).toBeUndefined();
  });

  it('tells an id already held from a slug taken', async () => {
    const clash = seeded();
    clash.links[0]!.id = [...data.links.keys()][0]!;
    await expect(store.addAccount(clash)).rejects.toEqual(new SeededAccountClash('id'));
    await expect(store.addAccount({ ...seeded(), tags: [{ ...seeded().tags[0]!, id: Object.keys(data.tags)[0]! }] })).rejects.toEqual(new SeededAccountClash('id'));
    expect(await store.accountByKey('new-key')).toBeUndefined();
  });
});

describe('replaceAll', () => {
  it('replaces everything, and the replaced generation leaves no key behind', async () => {
    const before = await keysUnder(url, prefix);
    await insert(newLink());
    await store.replaceAll(seedData(99));
    expect(await store.snapshot()).toEqual(seedData(99));
    const after = await keysUnder(url, prefix);
    expect(after).toHaveLength(before.length);
    expect(after.filter((key) => before.includes(key))).toEqual([`${prefix}generation`, `${prefix}generations`]);
    expect(await withRawClient(url, (client) => client.zRange(`${prefix}generations`, 0, -1))).toHaveLength(1);
  });

  it('many links: an account of 9,001 (more than one batch of reads) is listed whole, and a snapshot holds them all', async () => {
    const big = seedData();
    const demo = big.accounts[0]!;
    for (let i = 0; i < 9_001; i += 1) {
      const link = newLink({ id: `lnk_many${String(i).padStart(12, '0')}`, accountId: demo.id, slug: `many-${i}`, clickCount: i });
      big.links.set(link.id, link);
    }
    await store.replaceAll(big);
    const expected = [...big.links.values()].filter((link) => link.accountId === demo.id);
    expect(byId(await store.linksOf(demo.id))).toEqual(byId(expected));
    expect(await store.linkCount(demo.id)).toBe(expected.length);
    expect(await store.snapshot()).toEqual(big);
  });

  it('health answers ok while Redis answers', async () => {
    expect(await store.health()).toEqual({ ok: true });
  });
});
