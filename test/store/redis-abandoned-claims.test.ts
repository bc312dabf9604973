// Claims a create left in Redis when its process died between the claim and its link (issue 13):
// a slug claimed and never stored, places under a limit reserved and never used. Each is taken
// over by another instance once abandoned: at once when the claiming connection is gone (a dead
// process's socket closes with it), else once older than abandonedClaimMs. A claim of a create
// still alive is not, and one taken over by mistake still never shares a slug or exceeds a limit.
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { LinkService } from '../../src/core/links.js';
import type { AccountRecord } from '../../src/core/model.js';
import { cryptoRandomInt } from '../../src/core/random.js';
import type { RedisLinkStore } from '../../src/store/redis-link-store.js';
import { freshPrefix, RedisStores, slotsCounter, withRawClient } from '../helpers/redis-store.js';
import { sharedRedisUrl } from '../helpers/shared-redis.js';

let url: string;
let prefix: string;
const stores = new RedisStores();
beforeAll(() => {
  url = sharedRedisUrl();
});
beforeEach(() => {
  prefix = freshPrefix();
});
afterEach(() => stores.closeAll());

const serviceOf = (store: RedisLinkStore): LinkService => new LinkService({ store, random: cryptoRandomInt, now: () => new Date() });
const createOf = (store: RedisLinkStore, account: AccountRecord, slug?: string) =>
  serviceOf(store)
    .create(account, { destinationUrl: 'https://example.com/x', domain: 'short.test', tags: [], ...(slug ? { slug } : {}) })
    .catch((error: Error) => error.message);

/** What the generation's slug hashes hold for one slug, as Redis has them. */
const slugKeys = (store: RedisLinkStore, field: string) =>
  withRawClient(url, async (client) => {
    const base = `${store.keys.prefix}${await client.get(`${store.keys.prefix}generation`)}:`;
    return { slug: await client.hGet(`${base}slugs`, field), claim: await client.hGet(`${base}slug-claims`, field) };
  });

it('a slug claimed by an instance that died before storing its link is taken by the next create, and swept by an instance opening', async () => {
  const dying = (await stores.open(url, prefix)).store;
  const survivor = (await stores.open(url, prefix)).store;
  const domain = await dying.defaultDomain();
  expect(await dying.claimSlug(domain.id, 'orphaned', 'lnk_neverStored00')).toBe(true);
  expect(await dying.claimSlug(domain.id, 'swept', 'lnk_neverStored01')).toBe(true);
  const demo = await serviceOf(survivor).authenticate('demo-key');
  // While its instance lives (and the claim is young), the slug is taken: a racing create must lose.
  expect(await createOf(survivor, demo, 'orphaned')).toMatch(/slug 'orphaned' is already taken/);
  await dying.close();
  expect(await createOf(survivor, demo, 'orphaned')).toMatchObject({ slug: 'orphaned' });
  expect(await slugKeys(survivor, `${domain.id}/orphaned`)).toEqual({ slug: expect.stringMatching(/^lnk_/), claim: null });
  // An instance opening frees the other: no link has it, and its claim is gone.
  await stores.open(url, prefix);
  expect(await slugKeys(survivor, `${domain.id}/swept`)).toEqual({ slug: null, claim: null });
  expect(await createOf(survivor, demo, 'swept')).toMatchObject({ slug: 'swept' });
});

it('a slug claimed longer ago than abandonedClaimMs is taken over; the create that claimed it is then refused, never sharing it', async () => {
  const slow = (await stores.open(url, prefix)).store;
  const impatient = (await stores.open(url, prefix, { abandonedClaimMs: 0 })).store;
  const domain = await slow.defaultDomain();
  const demo = (await slow.accountByKey('demo-key'))!;
  expect(await slow.reserveLinkSlot(demo.id, demo.linkLimit)).toBe(true);
  expect(await slow.claimSlug(domain.id, 'slow', 'lnk_slowCreate000')).toBe(true);
  const taken = await createOf(impatient, demo, 'slow');
  expect(taken).toMatchObject({ slug: 'slow' });
  const link = { id: 'lnk_slowCreate000', accountId: demo.id, domainId: domain.id, slug: 'slow', destinationUrl: 'https://example.com/s', createdAt: new Date().toISOString(), clickCount: 0, tagIds: [] };
  await expect(slow.insertLink(link)).rejects.toThrow(/was not stored/);
  await slow.releaseSlug(domain.id, 'slow', link.id);
  await slow.releaseLinkSlot(demo.id);
  expect((await slow.linkAt(domain.id, 'slow'))?.id).toBe((taken as { id: string }).id);
  expect(await slotsCounter(url, slow, demo.id)).toBe(await slow.linkCount(demo.id));
});

it('places held by an instance that died are given back when its account is refused at the limit; those of a live one are not', async () => {
  const dying = (await stores.open(url, prefix)).store;
  const live = (await stores.open(url, prefix)).store;
  const survivor = (await stores.open(url, prefix)).store;
  const other = (await survivor.accountByKey('other-key'))!;
  const links = await survivor.linkCount(other.id);
  const limit = links + 4;
  for (let i = 0; i < 3; i += 1) expect(await dying.reserveLinkSlot(other.id, limit)).toBe(true);
  expect(await live.reserveLinkSlot(other.id, limit)).toBe(true);
  expect(await survivor.reserveLinkSlot(other.id, limit)).toBe(false);
  await dying.close();
  const again = await Promise.all(Array.from({ length: 6 }, () => survivor.reserveLinkSlot(other.id, limit)));
  expect(again.filter(Boolean).length).toBe(3);
  expect(await slotsCounter(url, survivor, other.id)).toBe(limit);
  for (let i = 0; i < 3; i += 1) await survivor.releaseLinkSlot(other.id);
  await live.releaseLinkSlot(other.id);
  expect(await slotsCounter(url, survivor, other.id)).toBe(links);
});

it('a place taken over from a create still alive (older than abandonedClaimMs) never lets the account past its limit', async () => {
  const slow = (await stores.open(url, prefix)).store;
  const impatient = (await stores.open(url, prefix, { abandonedClaimMs: 0 })).store;
  const other = await serviceOf(slow).authenticate('other-key');
  const limit = (await slow.linkCount(other.id)) + 1;
  await slow.setLinkLimit(other.id, limit);
  const account = { ...other, linkLimit: limit };
  expect(await slow.reserveLinkSlot(other.id, limit)).toBe(true);
  const domain = await slow.defaultDomain();
  expect(await slow.claimSlug(domain.id, 'late', 'lnk_lateCreate000')).toBe(true);
  expect(await createOf(impatient, account)).toMatchObject({ slug: expect.any(String) });
  const link = { id: 'lnk_lateCreate000', accountId: other.id, domainId: domain.id, slug: 'late', destinationUrl: 'https://example.com/l', createdAt: new Date().toISOString(), clickCount: 0, tagIds: [] };
  await expect(slow.insertLink(link)).rejects.toThrow(/was not stored/);
  await slow.releaseSlug(domain.id, 'late', link.id);
  await slow.releaseLinkSlot(other.id);
  expect(await slow.linkCount(other.id)).toBe(limit);
  expect(await slotsCounter(url, slow, other.id)).toBe(limit);
});
