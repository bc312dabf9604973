// A reset or a restore replaces the data and the state the start read (src/process/mock.ts): nothing
// may keep the old ones. createMock's options held the start's KeptData (its state and every link)
// for the mock's life, so after the first replace at 1,000,000 links the heap held two stores, which
// every full collection marked (issue 40: the long collections of a restore, a reset and a compaction).
// A full collection is run on purpose here (collect-garbage.ts); no timing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MockData } from '../../src/core/model.js';
import { collectGarbage } from '../../src/process/collect-garbage.js';
import { createMock, type Mock } from '../../src/process/mock.js';
import { keptData } from '../../src/store/file/open-data.js';
import { LogFileStore } from '../../src/store/file/log-file-store.js';
import { contract, fixtures, TEST_SEED } from '../helpers/test-app.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'slm-replaced-'));
  file = join(dir, 'db.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const fileStore = () => new LogFileStore(file, { durable: false, compactAfterBytes: 1 << 30 });

/**
 * A mock on the kept db as the CLI starts one (the data read and checked first: local-db.ts), and a
 * weak reference to the state that read built. In a function of its own: the test's frame holds no
 * reference to that state.
 */
async function startedOnKeptData(): Promise<{ mock: Mock; readState: WeakRef<object>; readData: WeakRef<MockData> }> {
  const store = fileStore();
  const storeData = await keptData(store, false);
  if (!storeData) throw new Error('no kept data');
  const mock = await createMock({ store, storeData, contract, fixtures, seed: TEST_SEED, version: 'test' });
  return { mock, readState: new WeakRef(storeData.state), readData: new WeakRef(storeData.data) };
}

describe('the state the start read', () => {
  it('is freed once a replace (a reset, a restore) has taken its place', async () => {
    const seeding = await createMock({ store: fileStore(), contract, fixtures, seed: TEST_SEED, reset: true, version: 'test' });
    await seeding.close();
    const { mock, readState, readData } = await startedOnKeptData();
    try {
      const replacing = structuredClone(readData.deref() as MockData);
      await mock.store.replaceAll(replacing);
      // A WeakRef's target is kept until the turn that made it ends.
      await nextTurn();
      collectGarbage();
      expect(readState.deref()).toBeUndefined();
      expect(readData.deref()).toBeUndefined();
    } finally {
      await mock.close();
    }
  });
});
