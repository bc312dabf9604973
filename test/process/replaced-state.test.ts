// A reset or a restore replaces the data and the state the start read (src/process/mock.ts): nothing
// may keep the old ones. createMock's options held the start's KeptData (its state and every link)
// for the mock's life, so after the first replace at 1,000,000 links the heap held two stores, which
// every full collection marked (issue 40: the long collections of a restore, a reset and a compaction).
// A full collection is run on purpose here (collect-garbage.ts); no timing.
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSeed } from '../../fixtures/seed.js';
import type { MockData } from '../../src/core/model.js';
import { collectGarbage } from '../../src/process/collect-garbage.js';
import { createMock, type Mock } from '../../src/process/mock.js';
import { LocalLinkStore } from '../../src/store/file/local-link-store.js';
import { keptData } from '../../src/store/file/open-data.js';
import { directorySnapshots } from '../../src/store/file/snapshot-store.js';
import { useFileDb } from '../helpers/file-db.js';
import { contract, fixtures, TEST_SEED } from '../helpers/test-app.js';
import { copyData } from '../../src/core/link-table.js';

const db = useFileDb('slm-replaced-');
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * A mock on the kept db as the CLI starts one (the data read and checked first: local-db.ts), and a
 * weak reference to the state that read built. In a function of its own: the test's frame holds no
 * reference to that state.
 */
async function startedOnKeptData(): Promise<{ mock: Mock; readState: WeakRef<object>; readData: WeakRef<MockData> }> {
  const store = db.logStore();
  const storeData = await keptData(store, false);
  if (!storeData) throw new Error('no kept data');
  const mock = await createMock({ store, storeData, contract, fixtures, seed: TEST_SEED, version: 'test' });
  db.running.push(mock);
  return { mock, readState: new WeakRef(storeData.state), readData: new WeakRef(storeData.data) };
}

describe('the state the start read', () => {
  it('is freed once a replace (a reset, a restore) has taken its place', async () => {
    const seeding = await createMock({ store: db.logStore(), contract, fixtures, seed: TEST_SEED, reset: true, version: 'test' });
    await seeding.close();
    const { mock, readState, readData } = await startedOnKeptData();
    await mock.store.replaceAll(copyData(readData.deref() as MockData));
    // A WeakRef's target is kept until the turn that made it ends.
    await nextTurn();
    collectGarbage();
    expect(readState.deref()).toBeUndefined();
    expect(readData.deref()).toBeUndefined();
  });

  it("holds no link deleted since a restore (the snapshot reader's batches of links are let go once the replace has read them)", async () => {
    const gone = await restoredThenDeleted();
    await nextTurn();
    collectGarbage();
    expect(gone.deref()).toBeUndefined();
  });
});

/** A store restored from a snapshot file (read with its links in batches: link-batches.ts) that then deletes a link; a weak reference to that link. */
async function restoredThenDeleted(): Promise<WeakRef<object>> {
  const files = db.logStore();
  const links = new LocalLinkStore(buildSeed(TEST_SEED, fixtures), (ops) => files.write(ops), db.file);
  const snapshots = directorySnapshots(join(dirname(db.file), 'snapshots'));
  await snapshots.save('before', links.state.data);
  const restored = (await snapshots.load('before')) as MockData;
  await links.replaceAll(restored);
  const link = links.state.linkById([...restored.links.keys()][0] as string);
  if (!link || !(await links.deleteLink(link))) throw new Error('no link deleted');
  db.running.push(files);
  return new WeakRef(link);
}
