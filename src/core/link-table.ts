// The data's links keyed by id (MockData.links): one plain object of 1,000,000 keys grew in one step
// of ~180 ms CPU when it passed 699,051 keys (bench/grow-step.mjs), while a restore or a reset read
// it and while a create crossed the next size: the event loop held that long (issue 40). Here the
// links are spread over TABLES Maps by two characters of the id, so each grows by itself, a 64th of
// the size: no step over a few ms. The order of the links is a plain object's (insertion, a key
// put again keeps its place, one deleted and put again goes last): the db and snapshot files list
// them in it, byte-for-byte as before.
import { EntryOrder, ORDER_SIZES, type OrderSizes } from './entry-order.js';
import type { LinkRecord, LinkTable, MockData } from './model.js';
import { putEntry } from './own-entry.js';

/** How many Maps the links are spread over: at 1,000,000 links ~16,000 each, grown in ≤ ~3 ms steps. */
export const LINK_TABLES = 64;

/** The table of an id: its last two characters' codes mixed (ids are `lnk_` + random alphanumerics). */
const tableOf = (id: string): number => (id.charCodeAt(id.length - 1) + 7 * id.charCodeAt(id.length - 2)) & (LINK_TABLES - 1);

export class SplitLinkTable implements LinkTable {
  private readonly tables: Map<string, LinkRecord>[] = Array.from({ length: LINK_TABLES }, () => new Map());
  /** The ids in the order they were added (entry-order.ts). */
  private readonly order: EntryOrder<LinkRecord>;
  private count = 0;

  /** `sizes`: the order's pieces (tests only). */
  constructor(sizes: OrderSizes = ORDER_SIZES) {
    // Its own lookup, not `get`: a test may count the table's reads through it.
    const tables = this.tables;
    this.order = new EntryOrder((id) => tables[tableOf(id)]?.get(id), sizes);
  }

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
    if (table.size > size) {
      this.count += 1;
      this.order.added(id);
    }
    return this;
  }

  /**
   * Lists the table's ids in the order of `ids`, which must be each of them once and nothing else
   * (checked by their count only): for a seed that keys its links in the order they lie in memory
   * and lists them in another (fixtures/seed-keys.ts). Only for a table nothing was deleted from.
   */
  reorder(ids: readonly string[]): void {
    if (ids.length !== this.count || this.order.length !== this.count) throw new Error(`reorder: ${ids.length} ids for a table of ${this.count} links and ${this.order.length} entries`);
    this.order.reset(ids);
  }

  delete(id: string): boolean {
    if (!this.tables[tableOf(id)]?.delete(id)) return false;
    this.count -= 1;
    this.order.removed(id, this.count);
    return true;
  }

  /** The ids in order, read lazily (a change made meanwhile may be seen or not; none is seen twice). */
  *keys(): Generator<string> {
    for (const [id] of this.order.live()) yield id;
  }

  *values(): Generator<LinkRecord> {
    for (const [, link] of this.order.live()) yield link;
  }

  [Symbol.iterator](): Generator<[string, LinkRecord]> {
    return this.order.live();
  }

  /** The largest of the Maps (tests: none holds all). */
  largestTable(): number {
    return Math.max(...this.tables.map((table) => table.size));
  }

  /** How many entries its order holds, stale ones too (tests: the rebuild drops them). */
  orderEntries(): number {
    return this.order.length;
  }

  /** The plain object JSON.stringify writes: the file's `"links": {...}` as before. */
  toJSON(): Record<string, LinkRecord> {
    const links: Record<string, LinkRecord> = {};
    for (const [id, link] of this) putEntry(links, id, link);
    return links;
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
