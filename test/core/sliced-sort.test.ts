// A replace's build puts each account's links in page order a slice per turn (src/core/sliced-sort.ts,
// MockState.built): the same order as the constructor's one-step sort, pausing while it orders, not
// only between batches of links (issue 40: 1,000,000 seeded links sorted in one step held a reset's
// event loop ~0.3 s). No timing here: pauses are counted.
import { faker } from '@faker-js/faker';
import { describe, expect, it } from 'vitest';
import { LINK_BATCH } from '../../src/core/link-batches.js';
import { olderFirst } from '../../src/core/link-order.js';
import { sortLinks } from '../../src/core/link-sort.js';
import type { LinkRecord, MockData } from '../../src/core/model.js';
import { sortedBlocks } from '../../src/core/sliced-sort.js';
import { MockState } from '../../src/core/state.js';
import { SplitLinkTable } from '../../src/core/link-table.js';

/** `count` links of one account, created at random seconds (many sharing one: ties ordered by id). */
function links(count: number, seed: number): LinkRecord[] {
  faker.seed(seed);
  return Array.from({ length: count }, (_, i) => {
    const id = `lnk_${faker.string.alphanumeric(12)}${i}`;
    const createdAt = new Date(Date.UTC(2026, 0, 1) + faker.number.int({ max: count / 4 }) * 1000).toISOString();
    return { id, accountId: 'acc_1', domainId: 'dom_1', slug: `s${i}`, destinationUrl: 'https://example.com/', createdAt, clickCount: 0, tagIds: [] };
  });
}

function dataOf(records: LinkRecord[]): MockData {
  const byId: Record<string, LinkRecord> = {};
  for (const link of records) byId[link.id] = link;
  return {
    formatVersion: 2,
    seed: 1,
    defaultDomain: { id: 'dom_1', name: 'short.test' },
    accounts: [{ id: 'acc_1', apiKey: 'k1', name: 'A', linkLimit: records.length * 2, domains: [] }],
    tags: {},
    links: SplitLinkTable.of(byId),
  };
}

describe('sortedBlocks', () => {
  it('gives sortLinks’s order, in blocks, for links in any order, in order, and none', async () => {
    for (const count of [0, 1, 4_095, 4_096, 10_001]) {
      const shuffled = links(count, count + 1);
      const expected = shuffled.slice();
      sortLinks(expected, olderFirst);
      expect((await sortedBlocks(shuffled.slice(), async () => undefined)).flat()).toEqual(expected);
      expect((await sortedBlocks(expected.slice(), async () => undefined)).flat()).toEqual(expected);
    }
  });
});

describe('MockState.built', () => {
  it('pauses while it orders an account’s links, and pages them as the constructor does', async () => {
    const records = links(LINK_BATCH * 10, 40);
    let pauses = 0;
    const built = await MockState.built(dataOf(records), async () => void (pauses += 1));
    // One pause per batch of links read, and more while ordering 20,000 links out of time order.
    expect(pauses).toBeGreaterThan(10);
    const whole = new MockState(dataOf(records));
    const account = { id: 'acc_1' };
    expect(built.linkCount(account)).toBe(records.length);
    expect(built.linksOf(account)).toEqual(whole.linksOf(account));
    const middle = whole.linksOf(account)[records.length / 2] as LinkRecord;
    expect(built.linkPage(account, middle, 25)).toEqual(whole.linkPage(account, middle, 25));
  });
});
