// Reads a snapshot file a chunk per turn of the event loop (issue 40): one JSON.parse of a
// 1,000,000-link snapshot held the loop for seconds. The layout is the one its writer gives it
// (snapshot-store.ts, chunked-json.ts): the head (savedAt, the link count, the data's small fields)
// pretty-printed, then one link a line, which the base's reader (db-records.ts) reads for both. A
// file in another layout (a snapshot saved by an older build, one JSON.stringify) is read whole, as
// before.
import { keepLinkBatches, LINK_BATCH } from '../../core/link-batches.js';
import type { LinkRecord, LinkTable, MockData } from '../../core/model.js';
import { SplitLinkTable } from '../../core/link-table.js';
import type { KnownLinks } from '../../core/snapshots.js';
import { isObject } from './db-kind.js';
import { readRecordWise, type Pieces } from './db-records.js';
import type { LinkSink } from './link-intake.js';
import { linksIn, type Layout } from './record-layout.js';

export interface StoredSnapshot {
  savedAt: string;
  /** Written since issue 40, so a listing reads no more than the head. */
  links?: number;
  data: MockData;
}

/** Thrown when the file is not in the layout read record by record: the caller reads it whole. */
export class OtherLayout extends Error {}

/**
 * A read of 256 KiB and a batch of as much per turn (~750 links), where the base's 8 MiB reads (a
 * start: nothing is served yet) are more: a restore is read while requests are served. A turn of
 * 1 MiB (parse, the comparison with the stored records, the scavenges of what survives) held the loop
 * 45–57 ms (bench/gc-windows.mjs, 30 Nov 2026). Batches this small are parsed as arrays of keys and
 * values (member-pairs.ts); only a batch in another layout is parsed as an object, which V8 gives a
 * hidden class per key below ~1,020 members (db-records.ts).
 */
const SNAPSHOT_PIECES: Pieces = { readBytes: 256 * 1024, batchChars: 256 * 1024 };

/** `{ "savedAt", "links": count, "data": {…, "links": {…}} }`: the links last in `data`, `data` last. */
const SNAPSHOT_LAYOUT: Layout = {
  after: '}}',
  linksOf: (head) => {
    if (!isObject(head) || typeof head['savedAt'] !== 'string' || Object.keys(head).at(-1) !== 'data') return undefined;
    const data = head['data'];
    return isObject(data) && Object.keys(data).at(-1) === 'links' ? linksIn(data) : undefined;
  },
};

/**
 * The snapshot in `file` (null when there is none), its links also kept in batches (core/link-batches.ts);
 * each link the stored record `known` gives for it, when it gives one (src/store/file/reused-links.ts); throws OtherLayout.
 */
export async function readSnapshotLines(file: string, pieces: Pieces = SNAPSHOT_PIECES, known?: KnownLinks): Promise<StoredSnapshot | null> {
  const batches: LinkRecord[][] = [];
  let batch: LinkRecord[] = [];
  let links: LinkTable = new SplitLinkTable();
  // The links, in batches for the state's build a batch per turn (MockState.built), as they are read.
  const sink: LinkSink = {
    take: (id, read) => {
      let link = read as LinkRecord;
      const stored = known?.take(id, link);
      // In the data's place of the record just read, which dies young.
      if (stored !== undefined && stored !== link) links.set(id, (link = stored));
      batch.push(link);
      if (batch.length === LINK_BATCH) {
        batches.push(batch);
        batch = [];
      }
      return true;
    },
  };
  const sinkFor = (_head: Record<string, unknown>, table: LinkTable): LinkSink => {
    links = table;
    known?.into(links);
    return sink;
  };
  const read = await readRecordWise(file, pieces, sinkFor, SNAPSHOT_LAYOUT);
  if (read === null) return null;
  if (!read) throw new OtherLayout('not the layout of the snapshot writer');
  if (batch.length) batches.push(batch);
  const stored = read.value as unknown as StoredSnapshot;
  // A key read twice: the batches hold a link the data does not; they are taken from its keys instead.
  if (read.sinkKept) keepLinkBatches(stored.data, batches);
  return stored;
}
