// buildSeedState: the state a start with --reset serves, indexed from the tables the seed's draws
// built (no walk of the links), answers every lookup as a state built from the data by MockState's
// constructor does; and openData hands that state on with the data it writes.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { REPEATED_SLUGS_SPEC, SPEC_SEED } from '../helpers/seed-spec.js';
import { buildSeed, buildSeedState, keyLinks } from '../../fixtures/seed.js';
import type { AccountRecord, DomainRecord, LinkRecord } from '../../src/core/model.js';
import { linkBatches } from '../../src/core/link-batches.js';
import { MockState } from '../../src/core/state.js';
import { memoryStore } from '../../src/store/file/data-store.js';
import { LocalLinkStore } from '../../src/store/file/local-link-store.js';
import { LogFileStore } from '../../src/store/file/log-file-store.js';
import { openData } from '../../src/store/file/open-data.js';
import { SplitLinkTable } from '../../src/core/link-table.js';
import { slotSlug, type SlugIndex } from '../../src/core/slug-table.js';

const spec = REPEATED_SLUGS_SPEC;
const SEED = SPEC_SEED;

const ids = (links: readonly LinkRecord[]): string[] => links.map((link) => link.id);

function domainOf(state: MockState, link: LinkRecord): DomainRecord {
  const domain = state.domainById(link.domainId);
  if (!domain) throw new Error(`no domain ${link.domainId}`);
  return domain;
}

describe('buildSeedState', () => {
  const { data, state } = buildSeedState(SEED, spec);
  const reference = new MockState(buildSeed(SEED, spec));

  it("gives buildSeed's data, byte for byte", () => {
    expect(JSON.stringify(data)).toBe(JSON.stringify(buildSeed(SEED, spec)));
  });

  it('finds every link by id and by its domain and slug', () => {
    const links = [...data.links.values()];
    expect(links).toHaveLength(3040);
    for (const link of links) {
      expect(state.linkById(link.id)).toBe(link);
      expect(state.linkAt(domainOf(state, link).name, link.slug)).toBe(link);
      expect(state.isSlugTaken(link.domainId, link.slug)).toBe(true);
    }
  });

  it("keeps each account's count and page order as the constructor does", () => {
    expect(state.totalLinks()).toBe(reference.totalLinks());
    for (const account of data.accounts) {
      expect(state.linkCount(account)).toBe(reference.linkCount(account));
      expect(ids(state.linksOf(account))).toEqual(ids(reference.linksOf(account)));
      expect(ids(state.linkPage(account, undefined, 25))).toEqual(ids(reference.linkPage(account, undefined, 25)));
    }
  });

  it('takes changes after it is built: a link added to the account of none, a link removed', () => {
    const fresh = buildSeedState(SEED, spec);
    const empty = fresh.data.accounts.find((account) => account.apiKey === 'empty-key') as AccountRecord;
    const big = fresh.data.accounts.find((account) => account.apiKey === 'big-key') as AccountRecord;
    const gone = fresh.state.linksOf(big)[10] as LinkRecord;
    fresh.state.removeLink(gone);
    const link: LinkRecord = { ...gone, id: 'lnk_added0000000000', accountId: empty.id, slug: 'added-one', createdAt: '2026-11-02T00:00:00.000Z', tagIds: [] };
    fresh.state.addLink(link);
    expect(fresh.state.linkById(gone.id)).toBeUndefined();
    expect(fresh.state.linkAtDomain(gone.domainId, gone.slug)).toBeUndefined();
    expect(fresh.state.linkCount(big)).toBe(2999);
    expect(ids(fresh.state.linksOf(empty))).toEqual([link.id]);
    expect(fresh.state.linkAtDomain(link.domainId, 'added-one')).toBe(link);
  });
});

describe("the ids of a seed's links (fixtures/seed-keys.ts)", () => {
  it('are not given when two links drew the same id: the later link is kept, in the place of the first', () => {
    const data = buildSeed(SEED, spec);
    const [a, b, c] = [...data.links.values()].slice(0, 3).map((link) => ({ ...link })) as [LinkRecord, LinkRecord, LinkRecord];
    c.id = a.id;
    data.links = new SplitLinkTable();
    expect(keyLinks(data, [a, b, c])).toBeUndefined();
    expect([...data.links.keys()]).toEqual([a.id, b.id]);
    expect(data.links.get(a.id)).toBe(c);
    data.links = new SplitLinkTable();
    expect(keyLinks(data, [a, b])).toEqual([a.id, b.id]);
  });

  it('looks each id up once: the put tells a second link of an id, no lookup before it (a million more at 1,000,000 links)', () => {
    const { data } = buildSeedState(SEED, spec);
    const links = [...data.links.values()];
    const [a, b] = links.map((link) => ({ ...link }));
    data.links = new SplitLinkTable();
    const looked = vi.spyOn(data.links, 'has');
    expect(keyLinks(data, links)).toEqual(ids(links));
    expect(keyLinks(data, [a!, b!, { ...a!, title: 'again' }])).toBeUndefined();
    expect(looked).not.toHaveBeenCalled();
  });
});

describe('MockState adopting a sorted index', () => {
  it("takes each account's links as its maker ordered them (oldest first), without a pass to check them", () => {
    const data = buildSeed(SEED, spec);
    const small = data.accounts.find((account) => account.apiKey === 'small-key') as AccountRecord;
    const links = [...data.links.values()].filter((link) => link.accountId === small.id);
    const given = [...links].reverse();
    const givenIds = ids(given);
    const linksBySlug: SlugIndex = new Map();
    for (const link of links) slotSlug(linksBySlug, link);
    const state = new MockState(data, { linksBySlug, owned: new Map([[small.id, given]]), sorted: true });
    expect(ids(state.linksOf(small))).toEqual(givenIds);
    expect(state.linkCount(small)).toBe(40);
  });
});

describe('openData with a seed that brings its state', () => {
  it('writes the data and hands on that state, which the store then serves', async () => {
    const store = memoryStore();
    const seeded = buildSeedState(SEED, spec);
    const opened = await openData(store, async () => seeded, true);
    expect(opened).toMatchObject({ seeded: true, data: seeded.data });
    expect(opened.state).toBe(seeded.state);
    const links = new LocalLinkStore(opened.data, async () => undefined, store.location, opened.state);
    expect(links.state).toBe(seeded.state);
  });

  it('still takes a seed of the data alone (its state built by the store)', async () => {
    const opened = await openData(memoryStore(), async () => buildSeed(SEED, spec), true);
    expect(opened.seeded).toBe(true);
    expect(opened.state).toBeUndefined();
    expect([...opened.data.links.keys()]).toHaveLength(3040);
  });
});

describe('the write of a seed that brings its state', () => {
  it("takes the ids from the seed's array (no Object.keys of its links), writes them in buildSeed's order, then forgets the array", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slm-seed-state-'));
    const store = new LogFileStore(join(dir, 'db.json'), { durable: false, compactAfterBytes: 1 << 30 });
    const keys = vi.spyOn(Object, 'keys');
    try {
      const seeded = buildSeedState(SEED, spec);
      const opened = await openData(store, async () => seeded, true);
      expect(keys.mock.calls.filter(([target]) => target === seeded.data.links)).toEqual([]);
      keys.mockRestore();
      const written = JSON.parse(readFileSync(join(dir, 'db.json'), 'utf8')) as { links: Record<string, LinkRecord> };
      expect(Object.keys(written.links)).toEqual([...buildSeed(SEED, spec).links.keys()]);
      const gone = [...opened.data.links.keys()][0] as string;
      opened.data.links.delete(gone);
      const listed = [...linkBatches(opened.data)].flat();
      expect(listed).toHaveLength(3039);
      expect(listed.some((link) => link.id === gone)).toBe(false);
    } finally {
      keys.mockRestore();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
