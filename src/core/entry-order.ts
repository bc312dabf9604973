// The order of a table's ids (SplitLinkTable, link-table.ts): a plain object's, kept as each id in the
// order it was added, in chunks. A deleted id's entry stays where it is (stale) until a rebuild drops
// the stale ones, once there are as many of them as live ones. That rebuild looked up every entry in
// one step: a delete held the event loop 716 ms at the 500,000th of 1,000,000 deletes (issue 40).
// Here it is done a few entries at a time, with each change made after it began: the order stays the
// old one until the new one has caught up with it, then takes its place.

/** The sizes of the order's pieces; smaller ones only in tests, to cross every boundary with a few ids. */
export interface OrderSizes {
  /** Ids per chunk: appending never copies a list of a million. */
  chunk: number;
  /** Entries a rebuild copies with each change made while it runs. */
  step: number;
}

export const ORDER_SIZES: OrderSizes = { chunk: 8192, step: 64 };

/** A new order being built from the old one, entry by entry (`cursor`: the old entries copied so far). */
interface Rebuild {
  order: string[][];
  entries: number;
  /** The ids moved, in the new order's positions. */
  moved: Map<string, number>;
  /** The ids deleted since the rebuild began: any of them may have a stale entry in the new order. */
  deleted: Set<string>;
  cursor: number;
}

export class EntryOrder<V> {
  private order: string[][] = [[]];
  private entries = 0;
  /** Ids deleted since the order was last rebuilt: their entries in `order` are stale. */
  private deleted = new Set<string>();
  /** An id deleted and added again: the one entry of it in `order` that counts. */
  private moved = new Map<string, number>();
  private rebuild: Rebuild | undefined;

  /** `get`: an id's value in the table, undefined once it is deleted. */
  constructor(
    private readonly get: (id: string) => V | undefined,
    private readonly sizes: OrderSizes = ORDER_SIZES,
  ) {}

  /** How many entries the order holds, stale ones too. */
  get length(): number {
    return this.entries;
  }

  /** An id added to the table (not there before): last. */
  added(id: string): void {
    if (this.deleted.size > 0 && this.deleted.has(id)) this.moved.set(id, this.entries);
    let chunk = this.order[this.order.length - 1] as string[];
    if (chunk.length === this.sizes.chunk) this.order.push((chunk = []));
    chunk.push(id);
    this.entries += 1;
    if (this.rebuild) this.advance(this.rebuild);
  }

  /** An id deleted from the table, which holds `live` ids now. */
  removed(id: string, live: number): void {
    this.deleted.add(id);
    if (this.rebuild) {
      this.rebuild.deleted.add(id);
      this.advance(this.rebuild);
    } else if (this.entries - live > Math.max(live, this.sizes.chunk)) {
      this.rebuild = { order: [[]], entries: 0, moved: new Map(), deleted: new Set(), cursor: 0 };
    }
  }

  /** The order made `ids` (each id of the table once: the caller checks), with no stale entry. */
  reset(ids: readonly string[]): void {
    this.order = [];
    for (let at = 0; at < ids.length; at += this.sizes.chunk) this.order.push(ids.slice(at, at + this.sizes.chunk));
    if (this.order.length === 0) this.order.push([]);
    this.entries = ids.length;
    this.deleted = new Set();
    this.moved = new Map();
    this.rebuild = undefined;
  }

  /**
   * Each id with its value, in order: an entry counts while its id is there and has not moved since.
   * Only the entries there when the listing began are read: an id listed, then deleted and put back,
   * has a new entry at the end, which would list it twice.
   */
  *live(): Generator<[string, V]> {
    // The order and its moves as they are now: a rebuild's end meanwhile replaces both, not these.
    const moved = this.moved;
    const end = this.entries;
    let at = 0;
    for (const chunk of this.order) {
      for (const id of chunk) {
        if (at === end) return;
        const value = this.get(id);
        if (value !== undefined && (moved.size === 0 || (moved.get(id) ?? at) === at)) yield [id, value];
        at += 1;
      }
    }
  }

  /** Copies the next `step` entries of the old order that count; the new order takes its place once it has them all. */
  private advance(rebuild: Rebuild): void {
    const { chunk: size, step } = this.sizes;
    for (let budget = step; budget > 0 && rebuild.cursor < this.entries; budget -= 1) {
      const at = rebuild.cursor;
      const id = (this.order[Math.floor(at / size)] as string[])[at % size] as string;
      const place = this.moved.size === 0 ? undefined : this.moved.get(id);
      if ((place ?? at) === at && this.get(id) !== undefined) {
        if (place !== undefined) rebuild.moved.set(id, rebuild.entries);
        let last = rebuild.order[rebuild.order.length - 1] as string[];
        if (last.length === size) rebuild.order.push((last = []));
        last.push(id);
        rebuild.entries += 1;
      }
      rebuild.cursor += 1;
    }
    if (rebuild.cursor < this.entries) return;
    this.order = rebuild.order;
    this.entries = rebuild.entries;
    this.moved = rebuild.moved;
    this.deleted = rebuild.deleted;
    this.rebuild = undefined;
  }
}
