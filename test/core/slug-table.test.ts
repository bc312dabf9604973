// A domain's slug index (src/core/slug-table.ts, issue 40): one Map of 1,000,000 slugs grew in one
// step of ~73 ms; the table spreads them over SLUG_TABLES Maps, none of which holds much more than
// its share of the seed's slugs (half lorem words, half random), and answers as one Map did.
import { faker } from '@faker-js/faker';
import { describe, expect, it } from 'vitest';
import { buildSeed } from '../../fixtures/seed.js';
import type { FixtureSpec } from '../../fixtures/fixture-spec.js';
import type { LinkRecord } from '../../src/core/model.js';
import { SLUG_TABLES, SlugTable, slotSlug, type SlugIndex } from '../../src/core/slug-table.js';

const link = (slug: string, n: number): LinkRecord => ({ id: `lnk_${n}`, accountId: 'acc_1', domainId: 'dom_1', slug, destinationUrl: 'https://example.com/', createdAt: '2026-11-29T00:00:00.000Z', clickCount: n, tagIds: [] });

describe('the slug table', () => {
  it("spreads a seed's slugs (lorem words and random ones) over its tables: none holds 1.5 times its share", () => {
    const count = 20_000;
    const spec: FixtureSpec = { defaultDomain: 'short.test', accounts: [{ apiKey: 'k', name: 'K', linkLimit: count, customDomains: [], tags: 3, links: count }] };
    const index: SlugIndex = new Map();
    for (const seeded of buildSeed(40, spec).links.values()) expect(slotSlug(index, seeded)).toBe(true);
    const [table] = [...index.values()] as [SlugTable];
    expect(index.size).toBe(1);
    expect(table.size).toBe(count);
    expect(table.largestTable()).toBeLessThanOrEqual((1.5 * count) / SLUG_TABLES);
  });

  it('answers as one Map through puts, puts again, deletes and lookups (seeded, 20,000 steps; slugs of 1 to 3 characters too)', () => {
    faker.seed(41);
    const slugs = ['a', 'zz', '__proto__', 'constructor', ...Array.from({ length: 196 }, () => faker.lorem.slug({ min: 1, max: 2 }))];
    const table = new SlugTable();
    const model = new Map<string, LinkRecord>();
    for (let step = 0; step < 20_000; step += 1) {
      const slug = faker.helpers.arrayElement(slugs);
      if (faker.datatype.boolean()) {
        const next = link(slug, step);
        expect(table.put(slug, next)).toBe(!model.has(slug));
        model.set(slug, next);
      } else expect(table.delete(slug)).toBe(model.delete(slug));
      expect(table.size).toBe(model.size);
    }
    for (const slug of slugs) {
      expect(table.get(slug)).toBe(model.get(slug));
      expect(table.has(slug)).toBe(model.has(slug));
    }
  });
});
