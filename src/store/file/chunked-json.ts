// Writes the whole data as readable JSON without blocking the event loop: records are
// stringified one by one and written in batches, each write yielding to the loop, so a file of
// 100,000 links never stalls request handling the way one JSON.stringify of 40 MB does.
import type { FileHandle } from 'node:fs/promises';
import { DATA_FORMAT_VERSION, type MockData } from '../../core/model.js';
import { DB_KIND } from './db-kind.js';

const RECORDS_PER_WRITE = 1000;

/**
 * `linkIds` lists the links to write, read lazily batch by batch. A Set's iterator suits: taking
 * all the keys of 100,000+ links at once (Object.keys) was one blocking step of 25-55 ms.
 * The marker comes first, so even a file cut short is recognisably ours (src/store/file/db-kind.ts);
 * the format is the writer's, whatever the data was read from (an older snapshot, say);
 * `generation` goes beside it (src/store/file/base-file.ts). An aborted `signal` stops between batches.
 */
export async function writeDataChunked(handle: FileHandle, data: MockData, linkIds: Iterable<string>, generation: number, signal?: AbortSignal): Promise<void> {
  await writeObjectChunked(handle, { kind: DB_KIND, formatVersion: DATA_FORMAT_VERSION, generation }, data, linkIds, signal);
  await handle.write('\n');
}

/**
 * `data` as one JSON object, its fields after `first`'s, the links in `linkIds`' order: how a base
 * file and a snapshot's data are written (src/store/file/snapshot-store.ts). Without a newline after.
 */
export async function writeObjectChunked(handle: FileHandle, first: Record<string, unknown>, data: MockData, linkIds: Iterable<string>, signal?: AbortSignal): Promise<void> {
  const head = { ...first, formatVersion: DATA_FORMAT_VERSION, seed: data.seed, defaultDomain: data.defaultDomain, accounts: data.accounts };
  const headText = JSON.stringify(head, null, 2);
  await handle.write(`${headText.slice(0, -2)},\n`);
  await writeRecords(handle, 'tags', data.tags, Object.keys(data.tags), false, signal);
  await writeRecords(handle, 'links', data.links, linkIds, true, signal);
  await handle.write('}');
}

/**
 * `"name": {` then one record a line: a fuzzy snapshot, which the change log replayed on top fixes
 * up. Records deleted meanwhile are skipped; records added meanwhile may be written or not.
 */
async function writeRecords(handle: FileHandle, name: string, records: Record<string, unknown>, ids: Iterable<string>, last: boolean, signal: AbortSignal | undefined): Promise<void> {
  await handle.write(`  ${JSON.stringify(name)}: {`);
  let first = true;
  for (const batch of batches(ids[Symbol.iterator]())) {
    signal?.throwIfAborted();
    const lines = batch.filter((id) => records[id] !== undefined).map((id) => `\n    ${JSON.stringify(id)}: ${JSON.stringify(records[id])}`);
    if (lines.length === 0) continue;
    await handle.write(`${first ? '' : ','}${lines.join(',')}`);
    first = false;
  }
  await handle.write(`${first ? '' : '\n  '}}${last ? '' : ','}\n`);
}

/** Up to RECORDS_PER_WRITE ids at a time, taken from the iterator only when the batch is due. */
function* batches(iterator: Iterator<string>): Generator<string[]> {
  for (;;) {
    const batch: string[] = [];
    for (let next = iterator.next(); !next.done; next = iterator.next()) {
      batch.push(next.value);
      if (batch.length === RECORDS_PER_WRITE) break;
    }
    if (batch.length === 0) return;
    yield batch;
  }
}
