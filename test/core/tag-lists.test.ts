// Loaded links of the same tags share one frozen tagIds list (src/core/tag-lists.ts, issue 40:
// ~56 bytes a link at 1,000,000 links): a change to one link's tags never reaches another's, and
// what hostile data can make the lists keep is bounded.
import { describe, expect, it } from 'vitest';
import type { LinkRecord, MockData } from '../../src/core/model.js';
import { SplitLinkTable } from '../../src/core/link-table.js';
import { SHARED_TAG_LISTS, TagLists } from '../../src/core/tag-lists.js';
import { LocalLinkStore } from '../../src/store/file/local-link-store.js';

const link = (i: number, tagIds: string[]): LinkRecord => ({ id: `lnk_${i}`, accountId: 'acc_1', domainId: 'dom_1', slug: `s${i}`, destinationUrl: `https://example.com/${i}`, createdAt: `2026-01-01T00:00:0${i}.000Z`, clickCount: 0, tagIds });

function data(): MockData {
  return {
    formatVersion: 2,
    seed: 1,
    defaultDomain: { id: 'dom_1', name: 'short.test' },
    accounts: [{ id: 'acc_1', apiKey: 'k1', name: 'A', linkLimit: 10, domains: [] }],
    tags: { tag_1: { id: 'tag_1', accountId: 'acc_1', name: 'one' }, tag_2: { id: 'tag_2', accountId: 'acc_1', name: 'two' } },
    links: SplitLinkTable.of({ lnk_1: link(1, ['tag_1', 'tag_2']), lnk_2: link(2, ['tag_1', 'tag_2']), lnk_3: link(3, []), lnk_4: link(4, []) }),
  };
}

describe('tagIds lists of loaded links', () => {
  it('are shared and frozen; an update of one link\'s tags leaves the link sharing its list unchanged', async () => {
    const store = new LocalLinkStore(data(), async () => {}, ':memory:');
    const [first, second, third, fourth] = [1, 2, 3, 4].map((i) => store.state.linkById(`lnk_${i}`) as LinkRecord) as [LinkRecord, LinkRecord, LinkRecord, LinkRecord];
    expect(first.tagIds).toBe(second.tagIds);
    expect(third.tagIds).toBe(fourth.tagIds);
    expect(Object.isFrozen(first.tagIds)).toBe(true);
    expect(() => (first.tagIds as string[]).push('tag_3')).toThrow(TypeError);
    await store.updateLink(first, { tagIds: ['tag_2'] }, []);
    expect(store.state.linkById('lnk_1')?.tagIds).toEqual(['tag_2']);
    expect(second.tagIds).toEqual(['tag_1', 'tag_2']);
    expect(store.state.toLink(second).tags.map((tag) => tag.name)).toEqual(['one', 'two']);
    expect(JSON.parse(JSON.stringify((await store.snapshot()).links))).toEqual({ ...data().links.toJSON(), lnk_1: link(1, ['tag_2']) });
  });

  it("hold what `instance` gives for each id (the tag's own id string), and are found again by equal ids", () => {
    const lists = new Set<string>();
    const tagLists = new TagLists();
    const made = tagLists.shared(['tag_1', 'tag_2'], (id) => (lists.add(id), `own:${id}`));
    expect(made).toEqual(['own:tag_1', 'own:tag_2']);
    expect([...lists]).toEqual(['tag_1', 'tag_2']);
    expect(tagLists.shared(['tag_1', 'tag_2'])).toBe(made);
  });

  it('are left as they are past SHARED_TAG_LISTS distinct lists, or when not lists of strings', () => {
    const lists = new TagLists();
    let frozen = 0;
    for (let i = 1; i < SHARED_TAG_LISTS; i += 1) if (Object.isFrozen(lists.shared([`tag_${i}`]))) frozen += 1;
    expect(frozen).toBe(SHARED_TAG_LISTS - 1);
    const past = ['tag_past'];
    expect(lists.shared(past)).toBe(past);
    expect(Object.isFrozen(past)).toBe(false);
    expect(lists.shared(['tag_1'])).toBe(lists.shared(['tag_1']));
    const odd = ['tag_1', 7];
    expect(lists.shared(odd)).toBe(odd);
    expect(lists.shared('not a list')).toBe('not a list');
  });
});
