// sortedOrder (src/core/link-sort.ts): where each link of sortLinks' order was, so that a seed that
// wrote each link's line as it drew it writes the lines in page order (src/process/seed-base.ts, issue 40).
import { describe, expect, it } from 'vitest';
import { buildSeedLinks } from '../../fixtures/seed.js';
import { olderFirst } from '../../src/core/link-order.js';
import { sortedOrder, sortLinks } from '../../src/core/link-sort.js';
import type { LinkRecord } from '../../src/core/model.js';
import { fixtures } from '../helpers/test-app.js';

function shuffled(links: readonly LinkRecord[]): LinkRecord[] {
  // A fixed shuffle: every 7th link to the front, the rest reversed.
  return [...links.filter((_, i) => i % 7 === 0), ...links.filter((_, i) => i % 7 !== 0).reverse()];
}

function applied(links: readonly LinkRecord[]): LinkRecord[] {
  const order = sortedOrder(links, olderFirst);
  return order ? Array.from(order, (i) => links[i] as LinkRecord) : [...links];
}

describe('sortedOrder', () => {
  it('gives sortLinks’ order: mock times, shared milliseconds ordered by id, times of another form', () => {
    const { links } = buildSeedLinks(3, fixtures);
    const same = links.slice(0, 6).map((link, i) => ({ ...link, createdAt: links[0]!.createdAt, id: `lnk_${'fedcba'[i]}` }));
    const odd = links.slice(6, 12).map((link, i) => ({ ...link, createdAt: `2025-0${i + 1}-01T00:00:00Z` }));
    for (const given of [shuffled(links), shuffled([...links, ...same]), shuffled([...links, ...odd])]) {
      const expected = [...given];
      sortLinks(expected, olderFirst);
      expect(applied(given).map((link) => link.id)).toEqual(expected.map((link) => link.id));
    }
  });

  it('is undefined for links in order already', () => {
    const { links } = buildSeedLinks(3, fixtures);
    const sorted = [...links];
    sortLinks(sorted, olderFirst);
    expect(sortedOrder(sorted, olderFirst)).toBeUndefined();
  });
});
