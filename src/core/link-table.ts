// The data's links keyed by id (MockData.links): one plain object of 1,000,000 keys grew in one step
// of ~180 ms CPU when it passed 699,051 keys (bench/grow-step.mjs), while a restore or a reset read
// it and while a create crossed the next size: the event loop held that long (issue 40). Here the
// links are spread over TABLES Maps by two characters of the id, so each grows by itself, a 64th of
// the size: no step over a few ms. The order of the links is a plain object's (insertion, a key
// put again keeps its place, one deleted and put again goes last): the db and snapshot files list
// them in it, byte-for-byte as before.
import type { LinkRecord, LinkTable, MockData } from './model.js';
import { putEntry } from './own-entry.js';

/** How many Maps the links are spread over: at 1,000,000 links ~16,000 each, grown in ≤ ~3 ms steps. */
export const LINK_TABLES = 64;
/** The ids in order, in chunks of this many: appending never copies a list of a million. */
const ORDER_CHUNK = 8192;

/** The table of an id: its last two characters' codes mixed (ids are `lnk_` + random alphanumerics). */
const tableOf = (id: string): number => (id.charCodeAt(id.length - 1) + 7 * id.charCodeAt(id.length - 2)) & (LINK_TABLES - 1);

export class SplitLinkTable implements LinkTable {
  private readonly tables: Map<string, LinkRecord>[] = Array.from({ length: LINK_TABLES }, () => new Map());
  /** Each id in the order it was added; an entry is stale once its id is deleted (or moved: `moved`). */
  private order: string[][] = [[]];
  private entries = 0;
  private count = 0;
  /** Ids deleted since the order was last rebuilt: their entries in `order` are stale. */
  private deleted = new Set<string>();
  /** An id deleted and added again: the one entry of it in `order` that counts. */
  private moved = new Map<string, number>();

  /** A table of a plain object's links (a file read whole, a test's data), in its order; a table as it is. */
  static of(links: LinkTable | Record<string, LinkRecord>): LinkTable {
    if (links instanceof SplitLinkTable) return links;
    const record = links as Record<string, LinkRecord>;
    const table = new SplitLinkTable();
    for (const id of Object.keys(record)) table.set(id, record[id] as LinkRecord);
    return table;
  }

  get size(): number {
    return this.count;
  }

  get(id: string): LinkRecord | undefined {
    return this.tables[tableOf(id)]?.get(id);
  }

  has(id: string): boolean {
    return this.tables[tableOf(id)]?.has(id) ?? false;
  }

  /** Puts the link under `id`: in its place if the id is there, else last. */
  set(id: string, link: LinkRecord): this {
    const table = this.tables[tableOf(id)] as Map<string, LinkRecord>;
    const size = table.size;
    table.set(id, link);
    if (table.size > size) this.append(id);
    return this;
  }

  /**
   * Lists the table's ids in the order of `ids`, which must be each of them once and nothing else
   * (checked by their count only): for a seed that keys its links in the order they lie in memory
   * and lists them in another (fixtures/seed-keys.ts). Only for a table nothing was deleted from.
   */
  reorder(ids: readonly string[]): void {
    if (ids.length !== this.count || this.entries !== this.count) throw new Error(`reorder: ${ids.length} ids for a table of ${this.count} links and ${this.entries} entries`);
    this.order = [];
    for (let at = 0; at < ids.length; at += ORDER_CHUNK) this.order.push(ids.slice(at, at + ORDER_CHUNK));
    if (this.order.length === 0) this.order.push([]);
  }

  delete(id: string): boolean {
    if (!this.tables[tableOf(id)]?.delete(id)) return false;
    this.count -= 1;
    this.deleted.add(id);
    if (this.entries - this.count > Math.max(this.count, ORDER_CHUNK)) this.rebuildOrder();
    return true;
  }

  /** The ids in order, read lazily (a change made meanwhile may be seen or not; none is seen twice). */
  *keys(): Generator<string> {
    for (const [id] of this.live()) yield id;
  }

  *values(): Generator<LinkRecord> {
    for (const [, link] of this.live()) yield link;
  }

  [Symbol.iterator](): Generator<[string, LinkRecord]> {
    return this.live();
  }

  /** The largest of the Maps (tests: none holds all). */
  largestTable(): number {
    return Math.max(...this.tables.map((table) => table.size));
  }

  /** The plain object JSON.stringify writes: the file's `"links": {...}` as before. */
  toJSON(): Record<string, LinkRecord> {
    const links: Record<string, LinkRecord> = {};
    for (const [id, link] of this) putEntry(links, id, link);
    return links;
  }

  private append(id: string): void {
    if (this.deleted.size > 0 && this.deleted.has(id)) this.moved.set(id, this.entries);
    let chunk = this.order[this.order.length - 1] as string[];
    if (chunk.length === ORDER_CHUNK) this.order.push((chunk = []));
    chunk.push(id);
    this.entries += 1;
    this.count += 1;
  }

  /**
   * Each id with its link, in order: an entry of the order counts while its id is there and has not
   * moved since. Only the entries there when the listing began are read: an id listed, then deleted
   * and put back, has a new entry at the end, which would list it twice.
   */
  private *live(): Generator<[string, LinkRecord]> {
    // The order and its moves as they are now: a rebuild meanwhile replaces both, not these.
    const moved = this.moved;
    const end = this.entries;
    let at = 0;
    for (const chunk of this.order) {
      for (const id of chunk) {
        if (at === end) return;
        const link = this.tables[tableOf(id)]?.get(id);
        if (link !== undefined && (moved.size === 0 || (moved.get(id) ?? at) === at)) yield [id, link];
        at += 1;
      }
    }
  }

  /** The order without its stale entries: once as many were deleted as are left (amortised). */
  private rebuildOrder(): void {
    const ids = [...this.keys()];
    this.order = [];
    for (let at = 0; at < ids.length; at += ORDER_CHUNK) this.order.push(ids.slice(at, at + ORDER_CHUNK));
    if (this.order.length === 0) this.order.push([]);
    this.entries = ids.length;
    this.deleted = new Set();
    this.moved = new Map();
  }
}

/**
 * A copy of `data` of its own: structuredClone keeps no class, so the links go through it as a list
 * (one clone: records that share a list still share its copy) and into a new table.
 */
export function copyData(data: MockData): MockData {
  const { links, ...head } = data;
  const [headCopy, entries] = structuredClone([head, [...links]] as const);
  const table = new SplitLinkTable();
  for (const [id, link] of entries) table.set(id, link);
  return { ...headCopy, links: table };
}
