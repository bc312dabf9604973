// The links of a MockData a batch at a time, for work that goes over all of them a slice per turn of
// the event loop (a replace building its indexes: src/core/state.ts, MockState.built). Object.keys of
// 1,000,000 links was one step of the loop of 100 ms and more (issue 40), so a reader that builds the
// data (a snapshot read line by line, src/store/file/snapshot-reader.ts) keeps its links in the
// batches it read them in, and they are handed out instead. They hold while the data is not changed:
// a replace reads them before its data is in use.
import type { LinkRecord, MockData } from './model.js';

/** Links per batch when they are taken from the keys (data no reader kept batches of). */
export const LINK_BATCH = 2_000;

const kept = new WeakMap<MockData, readonly LinkRecord[][]>();

/** Remembers the data's links, in batches, as the reader that made the data holds them. */
export function keepLinkBatches(data: MockData, batches: readonly LinkRecord[][]): void {
  kept.set(data, batches);
}

/** The data's links in batches: those kept when there are, else from its keys (one step). */
export function* linkBatches(data: MockData): Generator<LinkRecord[]> {
  const batches = kept.get(data);
  if (batches) {
    yield* batches;
    return;
  }
  let batch: LinkRecord[] = [];
  for (const link of data.links.values()) {
    batch.push(link);
    if (batch.length === LINK_BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** Forgets the data's kept batches once the replace that wrote it read them: kept, they would hold links deleted since. */
export function forgetLinkBatches(data: MockData): void {
  kept.delete(data);
}
