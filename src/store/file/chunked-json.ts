// Writes the whole data as readable JSON without blocking the event loop: records are
// stringified one by one and written in batches, each write yielding to the loop, so a file of
// 100,000 links never stalls request handling the way one JSON.stringify of 40 MB does.
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
export async function writeDataChunked(handle: TextWriter, data: MockData, linkIds: Iterable<string>, generation: number, signal?: AbortSignal): Promise<void> {
  await writeBaseEntries(handle, data, present((id) => data.links.get(id), linkIds), generation, signal);
}

/**
 * writeDataChunked's file from the data's head and its links as entries, in their order: a seed's
 * worker thread (src/process/seed-base-worker.ts) holds its links as an array, not keyed, and
 * writes exactly what writeDataChunked would (test/process/seed-base-worker.test.ts).
 */
export async function writeBaseEntries(handle: TextWriter, head: Omit<MockData, 'links'>, links: Iterable<Entry>, generation: number, signal?: AbortSignal): Promise<void> {
  await writeObjectChunked(handle, { kind: DB_KIND, formatVersion: DATA_FORMAT_VERSION, generation }, head, links, signal);
  await handle.write('\n');
}

/** Where the text goes: a FileHandle, or a worker thread's synchronous writer of a file descriptor. */
export interface TextWriter {
  write(text: string): Promise<unknown>;
}

/**
 * `head` and `links` as one JSON object, its fields after `first`'s, the links in their order: how a
 * base file and a snapshot's data are written (src/store/file/snapshot-store.ts). Each link is
 * serialised in the turn it is taken from `links` (a snapshot lends the stored records: DataAtMoment).
 * Without a newline after.
 */
export async function writeObjectChunked(handle: TextWriter, first: Record<string, unknown>, head: Omit<MockData, 'links'>, links: Iterable<Entry>, signal?: AbortSignal): Promise<void> {
  const top = { ...first, formatVersion: DATA_FORMAT_VERSION, seed: head.seed, defaultDomain: head.defaultDomain, accounts: head.accounts };
  const headText = JSON.stringify(top, null, 2);
  await handle.write(`${headText.slice(0, -2)},\n`);
  await writeRecords(handle, 'tags', present((id) => head.tags[id], Object.keys(head.tags)), false, signal);
  await writeRecords(handle, 'links', links, true, signal);
  await handle.write('}');
}

/** A record and the key it is written under. */
export type Entry = readonly [string, unknown];

/** The records `ids` names that are there now, with their ids, read lazily. */
function* present(recordOf: (id: string) => unknown, ids: Iterable<string>): Generator<Entry> {
  for (const id of ids) {
    const record = recordOf(id);
    if (record !== undefined) yield [id, record];
  }
}

/**
 * `"name": {` then one record a line: a fuzzy snapshot, which the change log replayed on top fixes
 * up. Records deleted meanwhile are skipped; records added meanwhile may be written or not.
 */
async function writeRecords(handle: TextWriter, name: string, entries: Iterable<Entry>, last: boolean, signal: AbortSignal | undefined): Promise<void> {
  await handle.write(`  ${JSON.stringify(name)}: {`);
  let first = true;
  for (const batch of batches(entries[Symbol.iterator]())) {
    signal?.throwIfAborted();
    const lines = batch.map(([id, record]) => `\n    ${JSON.stringify(id)}: ${JSON.stringify(record)}`);
    await handle.write(`${first ? '' : ','}${lines.join(',')}`);
    first = false;
  }
  await handle.write(`${first ? '' : '\n  '}}${last ? '' : ','}\n`);
}

/** Up to RECORDS_PER_WRITE entries at a time, taken from the iterator only when the batch is due. */
function* batches<T>(iterator: Iterator<T>): Generator<T[]> {
  for (;;) {
    const batch: T[] = [];
    for (let next = iterator.next(); !next.done; next = iterator.next()) {
      batch.push(next.value);
      if (batch.length === RECORDS_PER_WRITE) break;
    }
    if (batch.length === 0) return;
    yield batch;
  }
}
