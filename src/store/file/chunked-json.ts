// Writes the whole data as readable JSON without blocking the event loop: records are
// stringified one by one and written in batches, each write yielding to the loop, so a file of
// 100,000 links never stalls request handling the way one JSON.stringify of 40 MB does.
import { DATA_FORMAT_VERSION, type MockData } from '../../core/model.js';
import { DB_KIND } from './db-kind.js';
import { ReusedBuffer, type ByteSink } from './reused-buffer.js';
import { nextTurn } from './next-turn.js';

const RECORDS_PER_WRITE = 1000;
/**
 * The most a turn of the event loop spends serialising records before it lets the loop go round:
 * a batch of RECORDS_PER_WRITE links took 30-45 ms of CPU on a loaded 2-core machine, one stall of
 * each snapshot and compaction batch (issue 40). The clock is read every CLOCK_EVERY records.
 */
export const WRITE_TURN_MS = 4;
const CLOCK_EVERY = 32;

/**
 * `linkIds` lists the links to write, read lazily batch by batch. A Set's iterator suits: taking
 * all the keys of 100,000+ links at once (Object.keys) was one blocking step of 25-55 ms.
 * The marker comes first, so even a file cut short is recognisably ours (src/store/file/db-kind.ts);
 * the format is the writer's, whatever the data was read from (an older snapshot, say);
 * `generation` goes beside it (src/store/file/base-file.ts). An aborted `signal` stops between batches.
 */
export async function writeDataChunked(handle: ByteSink, data: MockData, linkIds: Iterable<string>, generation: number, signal?: AbortSignal): Promise<void> {
  await writeBaseEntries(handle, data, present((id) => data.links.get(id), linkIds), generation, signal);
}

/**
 * writeDataChunked's file from the data's head and its links as entries, in their order: a seed's
 * worker thread (src/process/seed-base-worker.ts) holds its links as an array, not keyed, and
 * writes exactly what writeDataChunked would (test/process/seed-base-worker.test.ts).
 */
export async function writeBaseEntries(handle: ByteSink, head: Omit<MockData, 'links'>, links: Iterable<Entry>, generation: number, signal?: AbortSignal): Promise<void> {
  await writeObjectChunked(handle, { kind: DB_KIND, formatVersion: DATA_FORMAT_VERSION, generation }, head, links, signal, '\n');
}

/**
 * `head` and `links` as one JSON object, its fields after `first`'s, the links in their order: how a
 * base file and a snapshot's data are written (src/store/file/snapshot-store.ts). Each link is
 * serialised in the turn it is taken from `links` (a snapshot lends the stored records: DataAtMoment),
 * into one buffer reused write after write (reused-buffer.ts). `after` ends it (no newline by default);
 * everything is written out when it resolves.
 */
export async function writeObjectChunked(handle: ByteSink, first: Record<string, unknown>, head: Omit<MockData, 'links'>, links: Iterable<Entry>, signal?: AbortSignal, after = ''): Promise<void> {
  const out = new ReusedBuffer(handle);
  const top = { ...first, formatVersion: DATA_FORMAT_VERSION, seed: head.seed, defaultDomain: head.defaultDomain, accounts: head.accounts };
  const headText = JSON.stringify(top, null, 2);
  await out.put(`${headText.slice(0, -2)},\n`);
  await writeRecords(out, 'tags', present((id) => head.tags[id], Object.keys(head.tags)), false, signal);
  await writeRecords(out, 'links', links, true, signal);
  await out.put(`}${after}`);
  await out.flush();
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
 * At most RECORDS_PER_WRITE records, or WRITE_TURN_MS of them, a turn: the buffer is written out after each
 * RECORDS_PER_WRITE.
 */
async function writeRecords(out: ReusedBuffer, name: string, entries: Iterable<Entry>, last: boolean, signal: AbortSignal | undefined): Promise<void> {
  signal?.throwIfAborted();
  await out.put(`  ${JSON.stringify(name)}: {`);
  let first = true;
  let inBatch = 0;
  let turnStarted = performance.now();
  for (const [id, record] of entries) {
    // Both serialised before any wait (a snapshot's record may change in a later turn), then copied
    // into the buffer (no text of a batch, nor of a line, is built); awaited only when the buffer is full.
    const key = `${first ? '' : ','}\n    ${JSON.stringify(id)}: `;
    const json = JSON.stringify(record);
    if (!out.add(key)) await out.put(key);
    if (!out.add(json)) await out.put(json);
    first = false;
    inBatch += 1;
    // A full batch is written out (its write ends the turn); a turn out of time only lets the loop go round.
    if (inBatch === RECORDS_PER_WRITE) {
      inBatch = 0;
      await out.flush();
    } else if (inBatch % CLOCK_EVERY === 0 && performance.now() - turnStarted >= WRITE_TURN_MS) await nextTurn();
    else continue;
    signal?.throwIfAborted();
    turnStarted = performance.now();
  }
  await out.put(`${first ? '' : '\n  '}}${last ? '' : ','}\n`);
}
