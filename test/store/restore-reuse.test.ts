// A restore takes the stored record of each link its snapshot did not change (src/store/file/reused-links.ts,
// issue 40: a million records read anew cost seconds of garbage collection at 1,000,000 links), and
// still restores exactly what the snapshot holds when a record it took is changed in place before the
// replace: by an update, a click, or the undo of a change that could not be written.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoreOp } from '../../src/core/changes.js';
import { DATA_FORMAT_VERSION, type LinkRecord, type MockData } from '../../src/core/model.js';
import { collectGarbage } from '../../src/process/collect-garbage.js';
import { LocalLinkStore } from '../../src/store/file/local-link-store.js';
import { sameJson } from '../../src/store/file/reused-links.js';
import { directorySnapshots } from '../../src/store/file/snapshot-store.js';
import { copyData, SplitLinkTable } from '../../src/core/link-table.js';

const LINKS = 2_500; // over one batch of the reader and of LINK_BATCH
const time = (i: number): string => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
const linkAt = (i: number): LinkRecord => ({ id: `lnk_${i}`, accountId: 'acc_1', domainId: 'dom_1', slug: `s${i}`, destinationUrl: `https://example.com/${i}`, createdAt: time(i), clickCount: i % 7, tagIds: i % 2 ? ['tag_1'] : [] });

function data(): MockData {
  const links: Record<string, LinkRecord> = {};
  for (let i = 0; i < LINKS; i += 1) links[`lnk_${i}`] = linkAt(i);
  return {
    formatVersion: DATA_FORMAT_VERSION,
    seed: 1,
    defaultDomain: { id: 'dom_1', name: 'short.test' },
    accounts: [{ id: 'acc_1', apiKey: 'k1', name: 'A', linkLimit: LINKS * 2, domains: [] }],
    tags: { tag_1: { id: 'tag_1', accountId: 'acc_1', name: 'one' } },
    links: SplitLinkTable.of(links),
  };
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A store whose writes succeed unless `failNext` holds one, and a snapshot 's' of its data saved to files. */
interface Saved {
  store: LocalLinkStore;
  saved: MockData;
  failNext: { write?: Promise<void> };
  read: () => Promise<MockData>;
  restore: () => Promise<void>;
}

async function savedStore(): Promise<Saved> {
  const failNext: { write?: Promise<void> } = {};
  const persist = (_ops: StoreOp[]): Promise<void> => {
    const write = failNext.write ?? Promise.resolve();
    delete failNext.write;
    return write;
  };
  const store = new LocalLinkStore(data(), persist, ':memory:');
  const dir = mkdtempSync(join(tmpdir(), 'slm-restore-reuse-'));
  dirs.push(dir);
  const snapshots = directorySnapshots(dir);
  await snapshots.save('s', store.state.data);
  const saved = copyData(store.state.data);
  const read = (): Promise<MockData> => store.readReusing(async (known) => (await snapshots.load('s', known)) as MockData);
  const restore = async (): Promise<void> => store.replaceAll(await read());
  return { store, restore, saved, failNext, read };
}

const stored = (store: LocalLinkStore, i: number): LinkRecord => store.state.linkById(`lnk_${i}`) as LinkRecord;

describe('a restore of a snapshot file', () => {
  it('takes the stored record of each link the snapshot did not change, and the snapshot of a changed one', async () => {
    const { store, restore, saved } = await savedStore();
    const kept = stored(store, 1);
    const changed = stored(store, 2);
    await store.updateLink(changed, { destinationUrl: 'https://example.com/changed' }, []);
    await store.addClicks('lnk_3', 5);
    await restore();
    expect(stored(store, 1)).toBe(kept);
    expect(stored(store, 2)).not.toBe(changed);
    expect(store.state.data).toEqual(saved);
    expect(store.state.linkAtDomain('dom_1', 's2')).toBe(stored(store, 2));
  });

  it('restores what the snapshot holds when a record it took is changed before the replace', async () => {
    const { store, saved, read } = await savedStore();
    const restored = await read();
    const taken = stored(store, 4);
    expect(restored.links.get('lnk_4')).toBe(taken);
    await store.updateLink(taken, { destinationUrl: 'https://example.com/after-the-read' }, []);
    await store.addClicks('lnk_5', 3);
    await store.replaceAll(restored);
    expect(store.state.data).toEqual(saved);
    expect(stored(store, 4).destinationUrl).toBe('https://example.com/4');
    expect(store.state.linksOf({ id: 'acc_1' })).toHaveLength(LINKS);
  });

  it('restores what the snapshot holds when the record it took is put back by the undo of a write that failed', async () => {
    const { store, saved, failNext, read } = await savedStore();
    const link = stored(store, 6);
    await store.updateLink(link, { destinationUrl: 'https://example.com/other' }, []);
    // Back to the snapshot's value, in memory while its write is pending: the read takes the record.
    let fail: (error: Error) => void = () => {};
    failNext.write = new Promise<void>((_resolve, reject) => (fail = reject));
    const updating = store.updateLink(link, { destinationUrl: 'https://example.com/6' }, []);
    const restored = await read();
    expect(restored.links.get('lnk_6')).toBe(link);
    fail(new Error('disk full'));
    await expect(updating).rejects.toThrow('disk full');
    expect(link.destinationUrl).toBe('https://example.com/other');
    await store.replaceAll(restored);
    expect(store.state.data).toEqual(saved);
  });
});

describe('a restore of a snapshot file edited by hand', () => {
  it('reads what it would read without the stored records: a member that is no record (null), keys in another order', async () => {
    const { store } = await savedStore();
    const dir = dirs.at(-1) as string;
    const file = join(dir, 's.json');
    const text = readFileSync(file, 'utf8');
    const one = JSON.stringify(linkAt(1));
    const { id, ...rest } = linkAt(2);
    expect(text).toContain(one);
    writeFileSync(file, text.replace(one, 'null').replace(JSON.stringify(linkAt(2)), JSON.stringify({ ...rest, id })));
    const snapshots = directorySnapshots(dir);
    const plain = await snapshots.load('s');
    const reusing = (await store.readReusing((known) => snapshots.load('s', known))) as MockData;
    expect(JSON.stringify(reusing)).toBe(JSON.stringify(plain));
    expect(reusing.links.get('lnk_1')).toBeNull();
    expect(reusing.links.get('lnk_2')).not.toBe(stored(store, 2));
    expect(reusing.links.get('lnk_3')).toBe(stored(store, 3));
  });
});

describe('a restore that took stored records', () => {
  it('keeps nothing of the state it replaced (its read is watched no more)', async () => {
    const { store, restore } = await savedStore();
    const replaced = new WeakRef(store.state);
    await restore();
    // A WeakRef's target is kept until the turn that made it ends.
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    expect(replaced.deref()).toBeUndefined();
  });
});

describe('sameJson', () => {
  it('holds for the same keys and values in any order, and for nothing else', () => {
    expect(sameJson({ a: 1, b: ['x', { c: null }] }, { b: ['x', { c: null }], a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameJson({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(sameJson({ a: [] }, { a: {} })).toBe(false);
    expect(sameJson({ a: '1' }, { a: 1 })).toBe(false);
    expect(sameJson(null, {})).toBe(false);
  });
});
