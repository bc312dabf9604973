// A stored link is changed by putting a new record in its place (MockState.replaceLink: the table,
// the slug index, the account's order), never in place (bench/packed-sites.md): a table that hands
// out copies (test/helpers/copying-link-table.ts), as a table of links off the JS heap will, sees
// every update and click, and the undo of one whose write failed; the record read before is left
// as it was, and the line written keeps the record's key order.
import { describe, expect, it } from 'vitest';
import type { StoreOp } from '../../src/core/changes.js';
import type { LinkRecord, LinkTable, MockData } from '../../src/core/model.js';
import { MockState } from '../../src/core/state.js';
import { LocalLinkStore } from '../../src/store/file/local-link-store.js';
import { CopyingLinkTable } from '../helpers/copying-link-table.js';

const time = (i: number): string => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
const linkAt = (i: number): LinkRecord => ({ id: `lnk_${i}`, accountId: 'acc_1', domainId: 'dom_1', slug: `s${i}`, destinationUrl: `https://example.com/${i}`, createdAt: time(i), clickCount: i, tagIds: [] });

function data(table: LinkTable): MockData {
  for (let i = 0; i < 5; i += 1) table.set(`lnk_${i}`, linkAt(i));
  return {
    formatVersion: 2,
    seed: 1,
    defaultDomain: { id: 'dom_1', name: 'short.test' },
    accounts: [{ id: 'acc_1', apiKey: 'k1', name: 'A', linkLimit: 10, domains: [] }],
    tags: { tag_1: { id: 'tag_1', accountId: 'acc_1', name: 'one' } },
    links: table,
  };
}

/** The link as each of the state's indexes holds it: by id, by slug, and in its account's page. */
function everyView(state: MockState, id: string): LinkRecord[] {
  const byId = state.linkById(id) as LinkRecord;
  const inPage = state.linkPage({ id: byId.accountId }, undefined, 10).find((link) => link.id === id) as LinkRecord;
  return [byId, state.linkAtDomain(byId.domainId, byId.slug) as LinkRecord, inPage];
}

function copyingStore(): { store: LocalLinkStore; written: StoreOp[][]; failNext: () => void } {
  const written: StoreOp[][] = [];
  let fail = false;
  const persist = async (ops: StoreOp[]): Promise<void> => {
    if (fail) {
      fail = false;
      throw new Error('disk full');
    }
    written.push(ops);
  };
  return { store: new LocalLinkStore(data(new CopyingLinkTable()), persist, ':memory:'), written, failNext: () => (fail = true) };
}

describe('MockState.replaceLink', () => {
  it('puts the new record in the table, the slug index and the account order, and leaves the old one as it was', () => {
    const state = new MockState(data(new CopyingLinkTable()));
    const old = state.linkById('lnk_2') as LinkRecord;
    const next = { ...old, destinationUrl: 'https://example.com/new' };
    state.replaceLink(old, next);
    for (const view of everyView(state, 'lnk_2')) expect(view).toEqual(next);
    expect(old.destinationUrl).toBe('https://example.com/2');
    expect(state.linkCount({ id: 'acc_1' })).toBe(5);
    expect(state.linksOf({ id: 'acc_1' }).map((link) => link.id)).toEqual(['lnk_0', 'lnk_1', 'lnk_2', 'lnk_3', 'lnk_4']);
  });

  it('moves a link whose slug or time differs: the old slug free, the link in its new place, counted once', () => {
    const state = new MockState(data(new CopyingLinkTable()));
    const old = state.linkById('lnk_1') as LinkRecord;
    state.replaceLink(old, { ...old, slug: 'moved', createdAt: time(9) });
    expect(state.isSlugTaken('dom_1', 's1')).toBe(false);
    expect(state.linkAtDomain('dom_1', 'moved')?.id).toBe('lnk_1');
    expect(state.linksOf({ id: 'acc_1' }).map((link) => link.id)).toEqual(['lnk_0', 'lnk_2', 'lnk_3', 'lnk_4', 'lnk_1']);
    expect(state.linkCount({ id: 'acc_1' })).toBe(5);
  });
});

describe('the store of one process on a table that hands out copies', () => {
  it('sees an update and a click in every index, and writes the record in its key order', async () => {
    const { store, written } = copyingStore();
    const read = store.linkById('lnk_3') as LinkRecord;
    const updated = await store.updateLink(read, { destinationUrl: 'https://example.com/updated', tagIds: ['tag_1'], extra: { note: 'x' } }, []);
    const clicked = await store.addClicks('lnk_3', 4);
    const expected = { ...linkAt(3), destinationUrl: 'https://example.com/updated', tagIds: ['tag_1'], extra: { note: 'x' }, clickCount: 3 + 4 };
    expect(clicked).toEqual(expected);
    for (const view of everyView(store.state, 'lnk_3')) expect(view).toEqual(expected);
    expect(read).toEqual(linkAt(3));
    expect(updated?.clickCount).toBe(3);
    const lines = written.map((ops) => JSON.stringify(ops.at(-1)));
    expect(lines.at(-1)).toBe(JSON.stringify({ op: 'put-link', link: expected }));
    expect(Object.keys(clicked as LinkRecord)).toEqual([...Object.keys(linkAt(3)), 'extra']);
  });

  it('puts back what a failed update or click changed, in every index, keeping the changes written before it', async () => {
    const { store, failNext } = copyingStore();
    failNext();
    await expect(store.updateLink(store.linkById('lnk_4') as LinkRecord, { destinationUrl: 'https://example.com/lost', extra: { note: 'lost' } }, [])).rejects.toThrow('disk full');
    for (const view of everyView(store.state, 'lnk_4')) expect(view).toEqual(linkAt(4));
    await store.updateLink(store.linkById('lnk_4') as LinkRecord, { destinationUrl: 'https://example.com/kept' }, []);
    failNext();
    await expect(store.addClicks('lnk_4', 10)).rejects.toThrow('disk full');
    for (const view of everyView(store.state, 'lnk_4')) expect(view).toEqual({ ...linkAt(4), destinationUrl: 'https://example.com/kept' });
  });
});
