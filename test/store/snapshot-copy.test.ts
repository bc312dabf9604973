// LocalLinkStore#snapshot copies the data a slice at a time (src/store/file/link-copy.ts, issue 40):
// other turns run while it copies, and what it returns is the data as it was when it was called,
// whatever creates, updates, clicks, deletes and limit changes ran in between.
import { describe, expect, it } from 'vitest';
import type { LinkRecord, MockData } from '../../src/core/model.js';
import { LocalLinkStore } from '../../src/store/file/local-link-store.js';
import { SNAPSHOT_SLICE_LINKS } from '../../src/store/file/link-copy.js';
import { copyData, SplitLinkTable } from '../../src/core/link-table.js';

const LINKS = SNAPSHOT_SLICE_LINKS * 3 + 7;
const time = (i: number): string => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
const linkAt = (i: number, accountId = 'acc_1'): LinkRecord => ({ id: `lnk_${i}`, accountId, domainId: 'dom_1', slug: `s${i}`, destinationUrl: `https://example.com/${i}`, createdAt: time(i), clickCount: i % 7, tagIds: i % 2 ? ['tag_1'] : [] });

function data(): MockData {
  const links: Record<string, LinkRecord> = {};
  for (let i = 0; i < LINKS; i += 1) links[`lnk_${i}`] = linkAt(i, i % 5 ? 'acc_1' : 'acc_2');
  return {
    formatVersion: 1,
    seed: 1,
    defaultDomain: { id: 'dom_1', name: 'short.test' },
    accounts: [
      { id: 'acc_1', apiKey: 'k1', name: 'A', linkLimit: LINKS * 2, domains: [] },
      { id: 'acc_2', apiKey: 'k2', name: 'B', linkLimit: LINKS * 2, domains: [] },
    ],
    tags: { tag_1: { id: 'tag_1', accountId: 'acc_1', name: 'one' }, tag_2: { id: 'tag_2', accountId: 'acc_1', name: 'two' } },
    links: SplitLinkTable.of(links),
  };
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('a snapshot of the store of one process', () => {
  it('lets other turns of the event loop run while it copies', async () => {
    const store = new LocalLinkStore(data(), async () => {}, ':memory:');
    let done = false;
    const taking = store.snapshot().then(() => (done = true));
    let turnsBefore = 0;
    while (!done && turnsBefore < LINKS) {
      await nextTurn();
      if (!done) turnsBefore += 1;
    }
    await taking;
    expect(turnsBefore).toBeGreaterThan(0);
  });

  it('holds the data as it was when it was called, whatever changed while it copied', async () => {
    const store = new LocalLinkStore(data(), async () => {}, ':memory:');
    const before = copyData(store.state.data);
    let done = false;
    const taking = store.snapshot().finally(() => (done = true));
    const changes: Promise<unknown>[] = [];
    let whileCopying = 0;
    // One change per turn, from the last link (copied last) to the first, so some are changed
    // before the copy reaches them and some after.
    for (let step = 0; step < 12; step += 1) {
      await nextTurn();
      if (!done) whileCopying += 1;
      const i = LINKS - 1 - step * Math.floor(LINKS / 12);
      const stored = store.state.linkById(`lnk_${i}`) as LinkRecord;
      changes.push(
        store.updateLink(stored, { destinationUrl: `https://changed.example/${i}`, tagIds: ['tag_2'] }, []),
        store.addClicks(`lnk_${i}`, 3),
        store.deleteLink(store.state.linkById(`lnk_${i - 1}`) as LinkRecord),
        store.createLink({ link: { ...linkAt(LINKS + step), createdAt: time(i) }, linkLimit: LINKS * 2, newTags: [] }),
        store.setLinkLimit('acc_2', step + 1),
      );
    }
    await Promise.all(changes);
    const snapshot = await taking;
    expect(store.state.linkById(`lnk_${LINKS - 1}`)?.clickCount).toBe(((LINKS - 1) % 7) + 3);
    expect(whileCopying, 'changes made while the snapshot was copied').toBeGreaterThan(1);
    expect(snapshot).toEqual(before);
    expect([...snapshot.links.keys()]).toHaveLength(LINKS);
  });

  it("shares no record with the store: a change after it leaves it as it was", async () => {
    const store = new LocalLinkStore(data(), async () => {}, ':memory:');
    const snapshot = await store.snapshot();
    const before = copyData(snapshot);
    await store.updateLink(store.state.linkById('lnk_1') as LinkRecord, { tagIds: ['tag_2'] }, []);
    // A stored link's tags are replaced, never changed in place (src/core/tag-lists.ts).
    expect(() => ((store.state.linkById('lnk_3') as LinkRecord).tagIds as string[]).push('tag_2')).toThrow(TypeError);
    await store.setLinkLimit('acc_1', 1);
    expect(snapshot).toEqual(before);
  });
});
