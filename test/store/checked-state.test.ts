// The start walks the kept data's links once (issue 40): the integrity check and MockState's indexes
// are built in the same walk (src/store/file/checked-state.ts), and the state it builds is the one
// the store serves with, the same as the one MockState's constructor builds.
import { describe, expect, it } from 'vitest';
import { buildSeed } from '../../fixtures/seed.js';
import type { LinkRecord, MockData } from '../../src/core/model.js';
import { MockState } from '../../src/core/state.js';
import { checkedState } from '../../src/store/file/checked-state.js';
import { memoryStore } from '../../src/store/file/data-store.js';
import { createTestApp, DEMO, fixtures, TEST_SEED } from '../helpers/test-app.js';

const seed = (): MockData => buildSeed(TEST_SEED, fixtures);

/** `data` whose links count every read of a link by its key. */
function counted(data: MockData): { data: MockData; reads: Map<string, number> } {
  const reads = new Map<string, number>();
  const links = new Proxy(data.links, {
    get(target, key, receiver) {
      if (typeof key === 'string' && Object.hasOwn(target, key)) reads.set(key, (reads.get(key) ?? 0) + 1);
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { data: { ...data, links }, reads };
}

describe('the start on kept data', () => {
  it('reads each link from the data once: the check and the indexes are one walk', async () => {
    const { data, reads } = counted(seed());
    const store = memoryStore();
    await store.write([{ op: 'replace', data }]);
    const app = await createTestApp({ store });
    try {
      const ids = Object.keys(data.links);
      expect(ids.length).toBeGreaterThan(10);
      expect([...new Set(ids.map((id) => reads.get(id) ?? 0))]).toEqual([1]);
      // And the state served is the one built: the demo account's links are all there.
      expect(app.store.linkCount((await app.accountByKey(DEMO))?.id ?? '')).toBe(ids.filter((id) => data.links[id]?.accountId === (data.accounts.find((a) => a.apiKey === DEMO)?.id)).length);
    } finally {
      await app.close();
    }
  });

  it('builds the state MockState builds: the same slugs, counts and pages', () => {
    const data = seed();
    const expected = new MockState(structuredClone(data));
    const checked = checkedState(data, Object.keys(data.links));
    if (!checked.state) throw new Error(`refused: ${checked.problem.text}`);
    const state = checked.state;
    expect(state.totalLinks()).toBe(expected.totalLinks());
    for (const account of data.accounts) {
      expect(state.linkCount(account)).toBe(expected.linkCount(account));
      const ids = (links: LinkRecord[]) => links.map((link) => link.id);
      expect(ids(state.linkPage(account, undefined, 1000))).toEqual(ids(expected.linkPage(account, undefined, 1000)));
    }
    for (const link of Object.values(data.links)) expect(state.linkAtDomain(link.domainId, link.slug)).toBe(link);
  });

  it('refuses a slug taken twice, naming both links, and builds no state', () => {
    const data = seed();
    const link = Object.values(data.links)[0] as LinkRecord;
    data.links['lnk_twin'] = { ...link, id: 'lnk_twin' };
    const checked = checkedState(data, Object.keys(data.links));
    expect(checked.state).toBeUndefined();
    expect(checked.problem?.text).toBe(`link 'lnk_twin' has slug '${link.slug}' of link '${link.id}' in domain '${link.domainId}'`);
  });
});
