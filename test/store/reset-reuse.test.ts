// A reset takes the stored record of each link its seed draws equal (src/process/seeded-data.ts with
// LinkStore.readReusing, issue 40: a million new records beside the state they replace cost hundreds
// of ms of the collector's marking at 1,000,000 links), and its data is still exactly a fresh seed's:
// a link created, deleted, updated or clicked since is the seed's own record again, and a record
// taken and changed in place before the replace is put back as the seed drew it.
import { describe, expect, it } from 'vitest';
import { buildSeed } from '../../fixtures/seed.js';
import { readFixtureSpec } from '../../src/contract/package-files.js';
import type { StoreOp } from '../../src/core/changes.js';
import type { LinkRecord, MockData } from '../../src/core/model.js';
import { seededData } from '../../src/process/seeded-data.js';
import { LocalLinkStore } from '../../src/store/file/local-link-store.js';
import { sameLink } from '../../src/store/file/reused-links.js';

const SEED = 29;
const fixtures = readFixtureSpec();
const persist = (_ops: StoreOp[]): Promise<void> => Promise.resolve();

async function seededStore(): Promise<LocalLinkStore> {
  return new LocalLinkStore(await seededData(SEED, fixtures), persist, ':memory:');
}

const seedRead = (store: LocalLinkStore): Promise<MockData> => store.readReusing((known) => seededData(SEED, fixtures, 'worker', known));
const written = (data: MockData): string => JSON.stringify(data);

describe('a reset of the file store', () => {
  it('takes the stored record of each unchanged link, the seed’s of each changed one, and gives a fresh seed’s data', async () => {
    const store = await seededStore();
    const [kept, updated, clicked, deleted] = [...store.state.data.links.values()] as [LinkRecord, LinkRecord, LinkRecord, LinkRecord];
    const account = store.state.accounts().find((candidate) => candidate.id === kept.accountId)!;
    const created: LinkRecord = { ...kept, id: 'lnk_createdSinceSeed', slug: 'created-since-seed', clickCount: 0, tagIds: [] };
    expect(await store.createLink({ link: created, linkLimit: account.linkLimit + 1, newTags: [] })).toBe('stored');
    await store.updateLink(updated, { destinationUrl: 'https://example.com/updated' }, []);
    await store.addClicks(clicked.id, 3);
    expect(await store.deleteLink(deleted)).toBe(true);
    const before = new Map([...store.state.data.links].map(([id, link]) => [id, link]));

    await store.replaceAll(await seedRead(store));

    const fresh = buildSeed(SEED, fixtures);
    expect(written(store.state.data)).toBe(written(fresh));
    expect(store.state.linkById(created.id)).toBeUndefined();
    expect(store.state.linkById(kept.id)).toBe(kept);
    for (const changed of [updated, clicked]) {
      expect(store.state.linkById(changed.id)).not.toBe(changed);
      expect(store.state.linkById(changed.id)).toEqual(fresh.links.get(changed.id));
    }
    expect(store.state.linkById(deleted.id)).not.toBe(deleted);
    expect(store.state.linkById(deleted.id)).toEqual(fresh.links.get(deleted.id));
    // Every other link is the record stored before the reset.
    let taken = 0;
    for (const [id, link] of store.state.data.links) if (before.get(id) === link) taken += 1;
    expect(taken).toBe(fresh.links.size - 3);
    expect(store.state.linkAtDomain(updated.domainId, updated.slug)?.destinationUrl).toBe(fresh.links.get(updated.id)?.destinationUrl);
    expect(store.state.linksOf({ id: account.id })).toHaveLength(fixtures.accounts.find((spec) => spec.apiKey === account.apiKey)!.links);
  });

  it('gives the seed’s data when a record it took is changed in place before the replace', async () => {
    const store = await seededStore();
    const taken = [...store.state.data.links.values()][5] as LinkRecord;
    const seeded = { ...taken, tagIds: [...taken.tagIds] };
    const read = await seedRead(store);
    expect(read.links.get(taken.id)).toBe(taken);
    await store.updateLink(taken, { destinationUrl: 'https://example.com/after-the-seed' }, []);
    await store.addClicks(taken.id, 9);
    await store.replaceAll(read);
    expect(store.state.linkById(taken.id)).toEqual(seeded);
    expect(written(store.state.data)).toBe(written(buildSeed(SEED, fixtures)));
  });
});

describe('sameLink', () => {
  const link: LinkRecord = { id: 'lnk_1', accountId: 'acc_1', domainId: 'dom_1', slug: 's', destinationUrl: 'https://example.com/', title: 'T', createdAt: '2026-01-01T00:00:00.000Z', clickCount: 2, tagIds: ['tag_1'] };

  it('holds for the same fields and keys in the same order, each the same value', () => {
    expect(sameLink(link, { ...link, tagIds: ['tag_1'] })).toBe(true);
    expect(sameLink({ ...link, extra: { a: [1, { b: null }] } }, { ...link, extra: { a: [1, { b: null }] } })).toBe(true);
  });

  it('fails for any field, tag, key or key order that differs (the bytes written would)', () => {
    const { title: _title, ...untitled } = link;
    expect(sameLink(link, { ...link, clickCount: 3 })).toBe(false);
    expect(sameLink(link, { ...link, tagIds: ['tag_1', 'tag_2'] })).toBe(false);
    expect(sameLink(link, { ...link, tagIds: ['tag_2'] })).toBe(false);
    expect(sameLink(link, untitled)).toBe(false);
    expect(sameLink(untitled, { ...untitled, title: undefined } as LinkRecord)).toBe(false);
    expect(sameLink({ ...link, extra: { a: 1 } }, { ...link, extra: { a: 2 } })).toBe(false);
    expect(sameLink(link, { ...link, extra: {} })).toBe(false);
    const { id, ...rest } = link;
    expect(sameLink(link, { ...rest, id } as LinkRecord)).toBe(false);
    expect(sameLink(link, { ...link, destinationUrl: 'https://example.com/x' })).toBe(false);
  });

  it('compares a record of many keys (a hand-made file’s) key by key, and the records after it as before', () => {
    const many = { ...link, ...Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, i])) } as LinkRecord;
    expect(sameLink(many, { ...many })).toBe(true);
    expect(sameLink(many, { ...many, k99: 'other' } as LinkRecord)).toBe(false);
    expect(sameLink(link, { ...link, tagIds: ['tag_1'] })).toBe(true);
    expect(sameLink(link, many)).toBe(false);
  });
});
