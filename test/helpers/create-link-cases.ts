// LinkStore.createLink, the same cases for every store (link-store.ts): what is stored when every
// fact holds, which refusal comes first when several do not (the order of D19), that a refusal
// stores nothing, and that racing creates of one slug or one new tag name store exactly one.
import { expect, it } from 'vitest';
import type { AccountRecord, LinkRecord, MockData, TagRecord } from '../../src/core/model.js';
import type { LinkStore, NewLink } from '../../src/core/link-store.js';

export interface CreateLinkFixture {
  store: LinkStore;
  /** The data the store was seeded with. */
  data: MockData;
}

export function createLinkCases(open: () => Promise<CreateLinkFixture>): void {
  const account = (data: MockData, apiKey: string): AccountRecord => data.accounts.find((candidate) => candidate.apiKey === apiKey)!;
  const tagOf = (data: MockData, owner: AccountRecord): TagRecord => Object.values(data.tags).find((tag) => tag.accountId === owner.id)!;
  const linkOf = (data: MockData, owner: AccountRecord): LinkRecord => [...data.links.values()].find((link) => link.accountId === owner.id)!;
  const newLink = (data: MockData, owner: AccountRecord, over: Partial<LinkRecord> = {}): LinkRecord => ({
    id: 'lnk_CREATE0000000000',
    accountId: owner.id,
    domainId: data.defaultDomain.id,
    slug: 'created-here',
    destinationUrl: 'https://example.com/created',
    createdAt: '2026-12-01T10:00:00.000Z',
    clickCount: 0,
    tagIds: [],
    ...over,
  });
  const newTag = (owner: AccountRecord, name: string, id = 'tag_CREATE0000000000'): TagRecord => ({ id, accountId: owner.id, name });

  /** Nothing of the create is there. */
  async function expectNothingOf(store: LinkStore, data: MockData, create: NewLink): Promise<void> {
    expect(await store.linkById(create.link.id)).toBeUndefined();
    for (const tag of create.newTags) expect(await store.tagById(tag.id)).toBeUndefined();
    expect(await store.totalLinks()).toBe(data.links.size);
  }

  it('stores the link and its new tags when every fact holds; it is found every way and counted', async () => {
    const { store, data } = await open();
    const demo = account(data, 'demo-key');
    const tag = newTag(demo, 'brand-new');
    const link = newLink(data, demo, { tagIds: [tagOf(data, demo).id, tag.id] });
    const before = await store.linkCount(demo.id);
    expect(await store.createLink({ link, linkLimit: demo.linkLimit, newTags: [tag] })).toBe('stored');
    expect(await store.linkById(link.id)).toEqual(link);
    expect(await store.linkAt(link.domainId, link.slug)).toEqual(link);
    expect(await store.linksOf(demo.id)).toContainEqual(link);
    expect(await store.tagByName(demo.id, 'brand-new')).toEqual(tag);
    expect(await store.tagById(tag.id)).toEqual(tag);
    expect(await store.linkCount(demo.id)).toBe(before + 1);
    expect(await store.totalLinks()).toBe(data.links.size + 1);
  });

  it('refuses in the order of D19, storing nothing: limit, then a taken tag name, then the slug, then the id', async () => {
    const { store, data } = await open();
    const limited = account(data, 'limited-key');
    const seeded = linkOf(data, limited);
    const takenName = newTag(limited, tagOf(data, limited).name);
    const everything = { link: newLink(data, limited, { id: seeded.id, domainId: seeded.domainId, slug: seeded.slug, tagIds: [takenName.id] }), newTags: [takenName] };
    const cases: Array<[NewLink, string]> = [
      [{ ...everything, linkLimit: limited.linkLimit }, 'limit'],
      [{ ...everything, linkLimit: limited.linkLimit + 1 }, 'tag-name'],
      [{ link: { ...everything.link, tagIds: [] }, newTags: [], linkLimit: limited.linkLimit + 1 }, 'slug'],
      [{ link: { ...everything.link, slug: 'free-slug', tagIds: [] }, newTags: [], linkLimit: limited.linkLimit + 1 }, 'id'],
    ];
    for (const [create, refusal] of cases) {
      expect(await store.createLink(create)).toBe(refusal);
      expect(await store.linkAt(seeded.domainId, 'free-slug')).toBeUndefined();
      expect(await store.linkById(seeded.id)).toEqual(seeded);
      expect(await store.linkCount(limited.id)).toBe(limited.linkLimit);
    }
    expect(await store.tagById(takenName.id)).toBeUndefined();
  });

  it('is gone when its account, domain or an existing tag is not there, before any other refusal', async () => {
    const { store, data } = await open();
    const limited = account(data, 'limited-key');
    const base = newLink(data, limited);
    for (const link of [{ ...base, accountId: 'acc_missing000000000' }, { ...base, domainId: 'dom_missing000000000' }, { ...base, tagIds: ['tag_missing000000000'] }]) {
      const create = { link, linkLimit: limited.linkLimit, newTags: [] };
      expect(await store.createLink(create)).toBe('gone');
      await expectNothingOf(store, data, create);
    }
  });

  it('a tag made by another account under the same name is no clash: names are per account', async () => {
    const { store, data } = await open();
    const demo = account(data, 'demo-key');
    const other = account(data, 'other-key');
    const tag = newTag(demo, tagOf(data, other).name);
    const link = newLink(data, demo, { tagIds: [tag.id] });
    expect(await store.createLink({ link, linkLimit: demo.linkLimit, newTags: [tag] })).toBe('stored');
    expect(await store.tagByName(demo.id, tag.name)).toEqual(tag);
    expect(await store.tagByName(other.id, tag.name)).toEqual(tagOf(data, other));
  });

  it('racing creates: one slug is stored once, one new tag name is made once, and the limit is never passed', async () => {
    const { store, data } = await open();
    const demo = account(data, 'demo-key');
    const start = await store.linkCount(demo.id);
    const creates = Array.from({ length: 30 }, (_, i): NewLink => {
      const tag = newTag(demo, 'raced', `tag_RACE${String(i).padStart(12, '0')}`);
      return { link: newLink(data, demo, { id: `lnk_RACE${String(i).padStart(12, '0')}`, slug: i % 3 === 0 ? 'one-slug' : `own-${i}`, tagIds: [tag.id] }), linkLimit: start + 5, newTags: [tag] };
    });
    const outcomes = await Promise.all(creates.map((create) => store.createLink(create)));
    expect(outcomes.filter((outcome) => outcome === 'stored')).toHaveLength(1);
    expect(outcomes.every((outcome) => outcome === 'stored' || outcome === 'tag-name')).toBe(true);
    const winner = creates[outcomes.indexOf('stored')]!;
    expect(await store.tagByName(demo.id, 'raced')).toEqual(winner.newTags[0]);
    // The losers try again with the tag that exists now: at most the 4 places left, and one slug once.
    const tag = winner.newTags[0]!;
    const again = await Promise.all(creates.filter((create) => create !== winner).map((create) => store.createLink({ ...create, link: { ...create.link, tagIds: [tag.id] }, newTags: [] })));
    expect(again.filter((outcome) => outcome === 'stored')).toHaveLength(4);
    expect(await store.linkCount(demo.id)).toBe(start + 5);
    const slugHolders = (await store.linksOf(demo.id)).filter((link) => link.slug === 'one-slug');
    expect(slugHolders).toHaveLength(1);
  });
}
