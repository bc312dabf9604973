// Reads a snapshot file a chunk per turn of the event loop (issue 40): one JSON.parse of a
// 1,000,000-link snapshot held the loop for seconds. The layout is the one its writer gives it
// (snapshot-store.ts, chunked-json.ts): the head (savedAt, the link count, the data's small fields)
// pretty-printed, then one tag or link a line. A file in another layout (a snapshot saved by an older
// build, one JSON.stringify) is read whole, as before.
import { createReadStream } from 'node:fs';
import { keepLinkBatches, LINK_BATCH } from '../../core/link-batches.js';
import type { LinkRecord, MockData, TagRecord } from '../../core/model.js';
import { putEntry } from '../../core/own-entry.js';

export interface StoredSnapshot {
  savedAt: string;
  /** Written since issue 40, so a listing reads no more than the head. */
  links?: number;
  data: MockData;
}

/** Thrown when the file is not in the layout read line by line: the caller reads it whole. */
export class OtherLayout extends Error {}

const RECORD = /^ {4}("(?:[^"\\]|\\.)*"): (\{.*\}),?$/;
const TAGS = '  "tags": {';
const LINKS = '  "links": {';

type Section = 'head' | 'tags' | 'links' | 'end';

/** The snapshot in `file`, its links also kept in batches (core/link-batches.ts); throws OtherLayout. */
export async function readSnapshotLines(file: string): Promise<StoredSnapshot> {
  const reader = new LineReader();
  let carry = '';
  for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 256 * 1024 })) {
    const lines = (carry + (chunk as string)).split('\n');
    carry = lines.pop() as string;
    for (const line of lines) reader.line(line);
  }
  if (carry !== '') reader.line(carry);
  return reader.result();
}

class LineReader {
  private section: Section = 'head';
  private head: string[] = [];
  private stored: StoredSnapshot | undefined;
  private readonly batches: LinkRecord[][] = [];
  private batch: LinkRecord[] = [];

  line(line: string): void {
    if (this.section === 'head') return this.headLine(line);
    // The data's closing brace, then the file's.
    if (this.section === 'end') {
      if (line !== '}' && line !== '') throw new OtherLayout('text after the links');
      return;
    }
    const record = RECORD.exec(line);
    if (record) return this.record(JSON.parse(record[1] as string) as string, JSON.parse(record[2] as string) as TagRecord & LinkRecord);
    if (this.section === 'tags' && (line === '  },' || line === `${TAGS}},`)) return void (this.section = 'links');
    if (this.section === 'links' && line === LINKS) return;
    if (this.section === 'links' && (line === '  }' || line === `${LINKS}}`)) return void (this.section = 'end');
    throw new OtherLayout(`unexpected line in ${this.section}`);
  }

  result(): StoredSnapshot {
    if (this.section !== 'end' || !this.stored) throw new OtherLayout('cut short');
    if (this.batch.length) this.batches.push(this.batch);
    keepLinkBatches(this.stored.data, this.batches);
    return this.stored;
  }

  private headLine(line: string): void {
    if (line !== TAGS && line !== `${TAGS}},`) return void this.head.push(line);
    const stored = JSON.parse(`${this.head.join('\n')}"tags": {}, "links": {}}}`) as StoredSnapshot;
    if (typeof stored?.data !== 'object' || stored.data === null) throw new OtherLayout('no data');
    this.stored = stored;
    this.section = line === TAGS ? 'tags' : 'links';
  }

  private record(id: string, record: TagRecord & LinkRecord): void {
    const data = (this.stored as StoredSnapshot).data;
    if (this.section === 'tags') return putEntry(data.tags, id, record);
    putEntry(data.links, id, record);
    this.batch.push(record);
    if (this.batch.length < LINK_BATCH) return;
    this.batches.push(this.batch);
    this.batch = [];
  }
}
