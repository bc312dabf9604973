// MockData.links held off the JS heap (issue 40): the links as their JSON bytes in a LinkArena
// (each record the key's bytes, its head, then the link's JSON), id → record number in a
// ByteKeyIndex, the insertion order as record numbers (RecordOrder). A full collection marks a
// few hundred Buffers and typed arrays, not a million objects (bench/packed-gc.mjs: ~4-7 ms at
// 1,000,000 links, against ~440-2,600 ms for SplitLinkTable's, on a loaded machine).
//
// The order is a plain object's, as SplitLinkTable's (insertion; a key set again keeps its place;
// one deleted and set again goes last). What differs, by design:
// - get materialises a fresh LinkRecord from the bytes (JSON.parse of ~300 bytes: ~1.3 µs a get
//   with all in cache, ~3-4 µs at 1,000,000 links, loaded, mostly cache misses): no identity is kept
//   (two gets give two objects; changing one changes nothing stored: set it again), its tagIds the
//   frozen list shared by equal lists (tag-lists.ts, as a loaded store's), and a value is what
//   JSON makes of it (an undefined field is absent).
// - a key must have a UTF-8 form within MAX_KEY_BYTES (no lone surrogate): set refuses others.
import type { LinkRecord, LinkTable } from '../model.js';
import { putEntry } from '../own-entry.js';
import { TagLists } from '../tag-lists.js';
import { ByteKeyIndex } from './byte-key-index.js';
import { Float64Column } from './column.js';
import { LinkArena } from './link-arena.js';
import { ORDER_CHUNK, RecordOrder } from './record-order.js';
import { createdAtMs } from './created-at-ms.js';
import { RecordBytes } from './record-bytes.js';

export class PackedLinkTable implements LinkTable {
  /** The records: a slug index and the account orders hold these record numbers (recordOf). */
  readonly arena = new LinkArena();
  /** The sequence of each record's current entry in the order. */
  private readonly seqOf = new Float64Column();
  private readonly index = new ByteKeyIndex({ sameKey: (n, key, length) => this.arena.sameHead(n, key, length) });
  private order = new RecordOrder();
  private readonly writer = new RecordBytes();
  private readonly current = (n: number, seq: number): boolean => this.arena.has(n) && this.seqOf.get(n) === seq;

  /** `tagLists`: the store's, to share the lists its other links hold. */
  constructor(private readonly tagLists = new TagLists()) {}

  get size(): number {
    return this.index.size;
  }

  get(id: string): LinkRecord | undefined {
    const n = this.index.find(id);
    return n < 0 ? undefined : this.value(n);
  }

  /** The record number of the link under `id` in `arena`, or -1. */
  recordOf(id: string): number {
    return this.index.find(id);
  }

  /** The link of live record n (a number from recordOf, a slug index or an account order), materialised as get's. */
  linkAt(n: number): LinkRecord {
    return this.value(n);
  }

  has(id: string): boolean {
    return this.index.find(id) >= 0;
  }

  /** Puts the link under `id`: in its place if the id is there, else last. A link JSON cannot write is refused, nothing changed. */
  set(id: string, link: LinkRecord): this {
    const record = this.writer.write(id, link);
    const keyLength = this.writer.keyLength;
    const key = record.subarray(0, keyLength);
    const createdAt = createdAtMs(link.createdAt);
    const there = this.index.find(key);
    if (there >= 0) {
      this.arena.replace(there, record, createdAt, keyLength);
      return this;
    }
    const n = this.arena.add(record, createdAt, keyLength);
    this.index.insert(key, n);
    this.seqOf.set(n, this.order.append(n));
    return this;
  }

  delete(id: string): boolean {
    const n = this.index.delete(id);
    if (n < 0) return false;
    this.arena.remove(n);
    // Amortised as SplitLinkTable's: once as many entries are stale as are live.
    if (this.order.entries - this.size > Math.max(this.size, ORDER_CHUNK)) this.order.rebuild(this.current);
    return true;
  }

  /**
   * Lists the ids in the order of `ids`, which must be each of them once and nothing else (for a
   * seed that keys its links in one order and lists them in another: fixtures/seed-keys.ts). Only
   * for a table nothing was deleted from; checked.
   */
  reorder(ids: readonly string[]): void {
    if (ids.length !== this.size || this.order.entries !== this.size) throw new Error(`reorder: ${ids.length} ids for a table of ${this.size} links and ${this.order.entries} entries`);
    // Checked whole before anything changes: a record met twice (a bit per record number).
    const records = new Int32Array(ids.length);
    const met = new Uint8Array((this.arena.numbers >>> 3) + 1);
    for (const [at, id] of ids.entries()) {
      const n = this.index.find(id);
      if (n < 0) throw new Error(`reorder: no link ${JSON.stringify(id)}`);
      if (((met[n >>> 3] as number) & (1 << (n & 7))) !== 0) throw new Error(`reorder: ${JSON.stringify(id)} listed twice`);
      met[n >>> 3] = (met[n >>> 3] as number) | (1 << (n & 7));
      records[at] = n;
    }
    // Its sequences after the old order's: a listing of the old one meets none of them.
    const order = new RecordOrder(this.order);
    for (const n of records) this.seqOf.set(n, order.append(n));
    this.order = order;
  }

  /** The ids in order, read lazily (a change made meanwhile may be seen or not; none is seen twice). */
  *keys(): Generator<string> {
    for (const n of this.order.records(this.current)) yield this.key(n);
  }

  *values(): Generator<LinkRecord> {
    for (const n of this.order.records(this.current)) yield this.value(n);
  }

  *[Symbol.iterator](): Generator<[string, LinkRecord]> {
    for (const n of this.order.records(this.current)) yield [this.key(n), this.value(n)];
  }

  /** The plain object JSON.stringify writes: the file's `"links": {...}`. */
  toJSON(): Record<string, LinkRecord> {
    const links: Record<string, LinkRecord> = {};
    for (const [id, link] of this) putEntry(links, id, link);
    return links;
  }

  /** The link's createdAt in ms when it is the mock's own form (toISOString's), else NaN; undefined without the link. */
  createdAtOf(id: string): number | undefined {
    const n = this.index.find(id);
    return n < 0 ? undefined : this.arena.createdAt(n);
  }

  /** Bytes held off the heap, live and free (tests, benches). */
  held(): ReturnType<LinkArena['held']> & { indexSlots: number } {
    return { ...this.arena.held(), indexSlots: this.index.slots };
  }

  /** One bounded step of the arena's compaction (the caller's turn): the bytes walked, 0 when none is due. */
  compactStep(budget?: number): number {
    return this.arena.compactStep(budget);
  }

  private key(n: number): string {
    return this.arena.text(n, 0, this.arena.head(n));
  }

  private value(n: number): LinkRecord {
    const link = JSON.parse(this.arena.text(n, this.arena.head(n))) as LinkRecord;
    link.tagIds = this.tagLists.shared(link.tagIds);
    return link;
  }
}
