// LinkLoad (src/core/link-load.ts) tells, as it takes the links, whether each account's came oldest
// first: at start the reader takes 1,000,000 links in the file's order, and MockState then adopts
// each account's list without a pass of comparisons over links already out of the CPU's caches
// (issue 40), and sorts it when one came out of order.
import { describe, expect, it } from 'vitest';
import { LinkLoad } from '../../src/core/link-load.js';
import { SplitLinkTable } from '../../src/core/link-table.js';
import type { LinkRecord, MockData } from '../../src/core/model.js';
import { MockState } from '../../src/core/state.js';

const link = (n: number, accountId: string, createdAt: string): LinkRecord => ({ id: `lnk_${n}`, accountId, domainId: 'dom_1', slug: `s${n}`, destinationUrl: 'https://example.com/', createdAt, clickCount: 0, tagIds: [] });

const head: Pick<MockData, 'defaultDomain' | 'accounts' | 'tags'> = {
  defaultDomain: { id: 'dom_1', name: 'short.test' },
  accounts: [
    { id: 'acc_1', apiKey: 'k1', name: 'A', linkLimit: 10, domains: [] },
    { id: 'acc_2', apiKey: 'k2', name: 'B', linkLimit: 10, domains: [] },
  ],
  tags: {},
};

const loaded = (links: LinkRecord[]): LinkLoad => {
  const load = new LinkLoad(head);
  for (const each of links) load.take(each);
  return load;
};

describe('LinkLoad', () => {
  it("is sorted when each account's links come oldest first (accounts interleaved, one millisecond ordered by id)", () => {
    const load = loaded([link(1, 'acc_1', '2026-01-01T00:00:00.000Z'), link(2, 'acc_2', '2025-01-01T00:00:00.000Z'), link(3, 'acc_1', '2026-01-01T00:00:00.000Z'), link(4, 'acc_1', '2026-02-01T00:00:00.000Z'), link(5, 'acc_2', '2025-06-01T00:00:00.000Z')]);
    expect(load.sorted).toBe(true);
  });

  it("is not sorted once an account's link comes after a newer one of its own (by createdAt, or by id in the same millisecond); MockState then sorts", () => {
    const byTime = [link(1, 'acc_1', '2026-02-01T00:00:00.000Z'), link(2, 'acc_2', '2025-01-01T00:00:00.000Z'), link(3, 'acc_1', '2026-01-01T00:00:00.000Z')];
    expect(loaded(byTime).sorted).toBe(false);
    expect(loaded([link(2, 'acc_1', '2026-01-01T00:00:00.000Z'), link(1, 'acc_1', '2026-01-01T00:00:00.000Z')]).sorted).toBe(false);
    const data = { formatVersion: 1, seed: 1, ...head, links: SplitLinkTable.of(Object.fromEntries(byTime.map((each) => [each.id, each]))) } as MockData;
    const state = new MockState(data, loaded(byTime));
    expect(state.linkPage({ id: 'acc_1' }, undefined, 10).map((each) => each.id)).toEqual(['lnk_1', 'lnk_3']);
  });
});
