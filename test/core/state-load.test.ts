// MockState at load (issue 40): what it builds per link is what a start on 1,000,000 links pays for.
import { describe, expect, it } from 'vitest';
import type { LinkRecord, MockData } from '../../src/core/model.js';
import { MockState } from '../../src/core/state.js';
import { SplitLinkTable } from '../../src/core/link-table.js';

const data = (): MockData => {
  const links: Record<string, LinkRecord> = {};
  for (let i = 0; i < 5; i += 1) {
    const id = `lnk_${i}`;
    links[id] = { id, accountId: i < 3 ? 'acc_1' : 'acc_2', domainId: 'dom_1', slug: `s${i}`, destinationUrl: 'https://example.com/', createdAt: `2026-11-2${i}T00:00:00.000Z`, clickCount: 0, tagIds: ['tag_1'] };
  }
  return {
    formatVersion: 1,
    seed: 1,
    defaultDomain: { id: 'dom_1', name: 'short.test' },
    accounts: [
      { id: 'acc_1', apiKey: 'k1', name: 'A', linkLimit: 10, domains: [] },
      { id: 'acc_2', apiKey: 'k2', name: 'B', linkLimit: 10, domains: [] },
    ],
    tags: { tag_1: { id: 'tag_1', accountId: 'acc_1', name: 'one' } },
    links: SplitLinkTable.of(links),
  };
};

describe('MockState at load', () => {
  it('gives the links of the same tags one frozen tagIds list (no array made per link: one per distinct list)', () => {
    const loaded = data();
    const state = new MockState(loaded);
    const lists = new Set([...loaded.links.values()].map((link) => link.tagIds));
    expect(lists.size).toBe(1);
    const [list] = [...lists] as [readonly string[]];
    expect(Object.isFrozen(list)).toBe(true);
    expect(list).toEqual(['tag_1']);
    expect(state.linkById('lnk_0')?.tagIds).toBe(list);
  });

  it("counts each account's links, and counts on from there", () => {
    const state = new MockState(data());
    expect([state.linkCount({ id: 'acc_1' }), state.linkCount({ id: 'acc_2' }), state.totalLinks()]).toEqual([3, 2, 5]);
    state.removeLink(state.linkById('lnk_4') as LinkRecord);
    state.addLink({ ...(state.linkById('lnk_0') as LinkRecord), id: 'lnk_9', slug: 's9', createdAt: '2026-11-29T00:00:00.000Z' });
    expect([state.linkCount({ id: 'acc_1' }), state.linkCount({ id: 'acc_2' })]).toEqual([4, 1]);
  });
});
