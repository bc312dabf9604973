// A start that seeds a large fixtures file (more links than a seed kept in memory) serves the state
// its seed indexed as it drew the links (fixtures/seed.ts buildSeedState, adopted by MockState as sorted), not
// one built by walking the links again (issue 40): the same pages, slugs and counts as buildSeed's
// data gives. A small seed is still the kept copy, its state built by MockState's constructor.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildSeed } from '../../fixtures/seed.js';
import type { FixtureSpec } from '../../fixtures/fixture-spec.js';
import { OrderedLinks } from '../../src/core/link-order.js';
import { MockState } from '../../src/core/state.js';
import { MAX_KEPT_SEED_LINKS, seededAtStart } from '../../src/process/seeded-data.js';
import { memoryStore } from '../../src/store/file/data-store.js';
import { createTestApp, fixtures, OTHER } from '../helpers/test-app.js';
import { copyData } from '../../src/core/link-table.js';

const BIG = MAX_KEPT_SEED_LINKS + 1;
const big: FixtureSpec = { ...fixtures, accounts: fixtures.accounts.map((account, i) => (i === 0 ? { ...account, links: BIG, linkLimit: BIG } : account)) };
const SEED = 99;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the seed of a start', () => {
  it(`of more than ${MAX_KEPT_SEED_LINKS.toLocaleString('en')} links comes with the state its draws indexed`, async () => {
    const seeded = await seededAtStart(SEED, big);
    expect('state' in seeded && seeded.state instanceof MockState).toBe(true);
  });

  it('of fewer is the kept data alone', async () => {
    const seeded = await seededAtStart(SEED, fixtures);
    expect(seeded).toEqual(buildSeed(SEED, fixtures));
  });

  it("is served from that state: every page of an account and every slug as buildSeed's data gives them", async () => {
    // Adopted as the draws ordered it: each account's links taken as they are, none sorted again.
    const sorted = vi.spyOn(OrderedLinks, 'of');
    const taken = vi.spyOn(OrderedLinks, 'ofSorted');
    const t = await createTestApp({ store: memoryStore(), fixtures: big, seed: SEED, reset: true }, 'memory');
    try {
      expect(sorted).not.toHaveBeenCalled();
      expect(taken).toHaveBeenCalled();
      const data = buildSeed(SEED, big);
      const reference = new MockState(copyData(data));
      const other = data.accounts.find((account) => account.apiKey === OTHER);
      const body = (await t.request.get(`/__admin/links?account=${OTHER}&limit=100`).expect(200)).body as { links: { id: string }[] };
      expect(body.links.map((link) => link.id)).toEqual(reference.linkPage(other!, undefined, 100).map((link) => link.id));
      const state = (t.store as unknown as { state: MockState }).state;
      expect(state.totalLinks()).toBe(data.links.size);
      for (const link of [...data.links.values()]) expect(state.linkAtDomain(link.domainId, link.slug)?.id).toBe(link.id);
    } finally {
      await t.close();
    }
  });
});
