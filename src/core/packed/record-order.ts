// The insertion order of a packed table: record numbers in Int32Array chunks, appended, never
// copied whole on an append. Each entry carries a sequence number (Float64: counted, never reused,
// exact to 2^53) that the table also keeps per record for its current entry: an entry counts while
// its record's sequence is the entry's. A record removed (its number maybe handed out again) or
// put again after a delete (a new entry, a new sequence) leaves its old entry stale, and a listing
// stops at the sequence it began at, whatever happened since, a rebuild included (the rebuild
// keeps the sequences).

/** Entries per chunk: 8,192 (32 KiB of record numbers, 64 KiB of sequences). */
export const ORDER_CHUNK = 8192;

export interface Chunk {
  readonly records: Int32Array;
  readonly seqs: Float64Array;
  length: number;
}

const newChunk = (): Chunk => ({ records: new Int32Array(ORDER_CHUNK), seqs: new Float64Array(ORDER_CHUNK), length: 0 });

/** Whether record n's current entry is the one of sequence `seq` (the record live, not moved). */
export type Current = (n: number, seq: number) => boolean;

export class RecordOrder {
  private chunks: Chunk[] = [newChunk()];
  /** The next entry's sequence number: an order made to replace another starts after its last. */
  nextSeq: number;
  /** Entries, stale ones included. */
  entries = 0;

  constructor(after?: RecordOrder) {
    this.nextSeq = after?.nextSeq ?? 0;
  }

  /** Appends record n: its entry's sequence number. */
  append(n: number): number {
    const seq = this.nextSeq;
    this.nextSeq += 1;
    this.keep(n, seq);
    return seq;
  }

  /**
   * The records of the entries there when the listing began that are current when it gets to them,
   * in order, lazily. The chunks as they are now: a rebuild meanwhile makes new ones, these stay.
   */
  *records(current: Current): Generator<number> {
    const chunks = this.chunks;
    const end = this.nextSeq;
    for (const chunk of chunks) {
      for (let at = 0; at < chunk.length; at += 1) {
        const seq = chunk.seqs[at] as number;
        if (seq >= end) return;
        const n = chunk.records[at] as number;
        if (current(n, seq)) yield n;
      }
    }
  }

  /** The order without its stale entries (new chunks; the sequences kept). */
  rebuild(current: Current): void {
    const old = this.chunks;
    this.chunks = [newChunk()];
    this.entries = 0;
    for (const chunk of old) {
      for (let at = 0; at < chunk.length; at += 1) {
        const n = chunk.records[at] as number;
        const seq = chunk.seqs[at] as number;
        if (current(n, seq)) this.keep(n, seq);
      }
    }
  }

  /** Bytes held off the heap (benches). */
  get bytes(): number {
    return this.chunks.length * ORDER_CHUNK * 12;
  }

  private keep(n: number, seq: number): void {
    let chunk = this.chunks[this.chunks.length - 1] as Chunk;
    if (chunk.length === ORDER_CHUNK) this.chunks.push((chunk = newChunk()));
    chunk.records[chunk.length] = n;
    chunk.seqs[chunk.length] = seq;
    chunk.length += 1;
    this.entries += 1;
  }
}
