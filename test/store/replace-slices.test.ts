// A replace (reset, snapshot restore) and a snapshot saved to a file go over every link a slice per
// turn of the event loop (issue 40: at 1,000,000 links each held it for seconds). Other turns run
// meanwhile and must see the data before or after, whole: never a mix, never a half-built index.
// Changes wait for the replace and land on the new data. No timing here.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LINK_BATCH } from '../../src/core/link-batches.js';
import type { LinkRecord, MockData } from '../../src/core/model.js';
import { LocalLinkStore } from '../../src/store/file/local-link-store.js';
import { directorySnapshots } from '../../src/store/file/snapshot-store.js';
import { copyData, SplitLinkTable } from '../../src/core/link-table.js';

const LINKS = LINK_BATCH * 3 + 11;
const time = (i: number): string => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();

function data(prefix: string, links = LINKS): MockData {
  const records: Record<string, LinkRecord> = {};
  for (let i = 0; i < links; i += 1) {
    const id = `lnk_${prefix}${i}`;
    records[id] = { id, accountId: 'acc_1', domainId: 'dom_1', slug: `${prefix}${i}`, destinationUrl: `https://example.com/${i}`, createdAt: time(i), clickCount: 0, tagIds: [] };
  }
  return {
    formatVersion: 2,
    seed: 1,
    defaultDomain: { id: 'dom_1', name: 'short.test' },
    accounts: [{ id: 'acc_1', apiKey: 'k1', name: 'A', linkLimit: links * 2, domains: [] }],
    tags: {},
    links: SplitLinkTable.of(records),
  };
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** What one turn sees: 'old', 'new', or a description of the mix. */
function seen(store: LocalLinkStore): string {
  const state = store.state;
  const old = state.linkById('lnk_old0') !== undefined && state.linkAtDomain('dom_1', `old${LINKS - 1}`) !== undefined;
  const fresh = state.linkById('lnk_new0') !== undefined && state.linkAtDomain('dom_1', `new${LINKS - 1}`) !== undefined;
  const total = state.totalLinks();
  const page = state.linkPage({ id: 'acc_1' }, undefined, 1)[0]?.id;
  if (old && !fresh && total === LINKS && page === `lnk_old${LINKS - 1}`) return 'old';
  if (fresh && !old && total === LINKS + 5 && page === `lnk_new${LINKS + 4}`) return 'new';
  return `mix: old ${old}, new ${fresh}, total ${total}, first ${page}`;
}

/** Every link once, newest first, following the pages. */
function walk(store: LocalLinkStore): string[] {
  const ids: string[] = [];
  for (let after: LinkRecord | undefined, pages = 0; pages < LINKS; pages += 1) {
    const page = store.state.linkPage({ id: 'acc_1' }, after, 500);
    ids.push(...page.map((link) => link.id));
    if (page.length < 500) break;
    after = page.at(-1);
  }
  return ids;
}

describe('a replace of the store of one process', () => {
  it('lets other turns run while it builds, each seeing the old data or the new, whole', async () => {
    const store = new LocalLinkStore(data('old'), async () => {}, ':memory:');
    let done = false;
    const replacing = store.replaceAll(data('new', LINKS + 5)).finally(() => (done = true));
    const views: string[] = [];
    for (let turn = 0; !done && turn < LINKS; turn += 1) {
      views.push(seen(store));
      await nextTurn();
    }
    await replacing;
    views.push(seen(store));
    expect(views.filter((view) => view.startsWith('mix'))).toEqual([]);
    expect(views.filter((view) => view === 'old').length, 'turns run while it built').toBeGreaterThan(1);
    expect(views.at(-1)).toBe('new');
    const ids = walk(store);
    expect(ids).toHaveLength(LINKS + 5);
    expect(new Set(ids).size).toBe(LINKS + 5);
    expect(ids[0]).toBe(`lnk_new${LINKS + 4}`);
    expect(ids.at(-1)).toBe('lnk_new0');
  });

  it('makes a change sent while it builds wait, and land on the new data', async () => {
    const store = new LocalLinkStore(data('old'), async () => {}, ':memory:');
    const replacing = store.replaceAll(data('new'));
    await nextTurn();
    const link: LinkRecord = { id: 'lnk_during', accountId: 'acc_1', domainId: 'dom_1', slug: 'during', destinationUrl: 'https://example.com/d', createdAt: time(LINKS * 2), clickCount: 0, tagIds: [] };
    const created = store.createLink({ link, linkLimit: LINKS * 3, newTags: [] });
    await Promise.all([replacing, created]);
    expect(await created).toBe('stored');
    expect(store.state.linkById('lnk_during')).toBeDefined();
    expect(store.state.linkById('lnk_old0')).toBeUndefined();
    expect(walk(store)[0]).toBe('lnk_during');
  });
});

describe('a snapshot saved to a file from the data lent (no copy)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'slm-lent-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('holds the data as it was when it was asked for, whatever changed while it was written, and leaves no partial file', async () => {
    const store = new LocalLinkStore(data('old'), async () => {}, ':memory:');
    const before = copyData(store.state.data);
    const snapshots = directorySnapshots(dir);
    let done = false;
    const saving = store.lendSnapshot((lent) => snapshots.saveFrom?.('s', lent) as Promise<unknown>).finally(() => (done = true));
    let whileSaving = 0;
    for (let step = 0; step < 12; step += 1) {
      await nextTurn();
      if (!done) whileSaving += 1;
      const i = LINKS - 1 - step * 37;
      const stored = store.state.linkById(`lnk_old${i}`) as LinkRecord;
      await store.updateLink(stored, { destinationUrl: `https://changed.example/${i}` }, []);
      await store.addClicks(`lnk_old${i}`, 3);
      await store.deleteLink(store.state.linkById(`lnk_old${i - 1}`) as LinkRecord);
    }
    await saving;
    expect(whileSaving, 'changes made while the snapshot was written').toBeGreaterThan(1);
    expect(await snapshots.list()).toEqual([{ name: 's', savedAt: expect.any(String), links: LINKS }]);
    expect(await snapshots.load('s')).toEqual(before);
    expect(readdirSync(dir)).toEqual(['s.json']);
  });
});
