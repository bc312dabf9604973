// A reset or a restore replaces the data and the state the start read (src/process/mock.ts): nothing
// may keep the old ones. createMock's options held the start's KeptData (its state and every link)
// for the mock's life, so after the first replace at 1,000,000 links the heap held two stores, which
// every full collection marked (issue 40: the long collections of a restore, a reset and a compaction).
// A full collection is run on purpose here (collect-garbage.ts); no timing.
import { describe, expect, it } from 'vitest';
import type { MockData } from '../../src/core/model.js';
import { collectGarbage } from '../../src/process/collect-garbage.js';
import { createMock, type Mock } from '../../src/process/mock.js';
import { keptData } from '../../src/store/file/open-data.js';
import { useFileDb } from '../helpers/file-db.js';
import { contract, fixtures, TEST_SEED } from '../helpers/test-app.js';

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
    await mock.store.replaceAll(structuredClone(readData.deref() as MockData));
    // A WeakRef's target is kept until the turn that made it ends.
    await nextTurn();
    collectGarbage();
    expect(readState.deref()).toBeUndefined();
    expect(readData.deref()).toBeUndefined();
  });
});
