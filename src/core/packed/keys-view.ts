// The ids of a packed table as at one moment (LinkTable.keysNow), read lazily instead of copied:
// the order's entries then (its chunks as they were and the sequence it had reached; an append
// after goes past that sequence, a rebuild makes new chunks), each id read from the arena while
// its record is still the one of the entry, else from the ids the table's deletes hand the view
// before they free a record (`KeysViews.removing`: only while a view is alive, one string a
// delete). A view of a million ids made in O(chunks), not a copy of a million.
import type { OrderSnapshot } from './record-order.js';

export class KeysView implements Iterable<string> {
  /** The ids deleted since the view was made, by their entry's sequence. */
  readonly removed = new Map<number, string>();
  private frozen: string[] | undefined;

  constructor(
    private readonly snapshot: OrderSnapshot,
    private readonly current: (n: number, seq: number) => boolean,
    private readonly key: (n: number) => string,
  ) {}

  /** The sequence the order had reached: entries from it on are not the view's. */
  get end(): number {
    return this.snapshot.end;
  }

  *[Symbol.iterator](): Generator<string> {
    if (this.frozen !== undefined) {
      yield* this.frozen;
      return;
    }
    for (const chunk of this.snapshot.chunks) {
      for (let at = 0; at < chunk.length; at += 1) {
        const seq = chunk.seqs[at] as number;
        if (seq >= this.snapshot.end) return;
        const n = chunk.records[at] as number;
        const id = this.current(n, seq) ? this.key(n) : this.removed.get(seq);
        if (id !== undefined) yield id;
      }
    }
  }

  /** Copies the ids now (before a change that renumbers every entry: reorder). */
  freeze(): void {
    if (this.frozen === undefined) this.frozen = [...this];
  }
}

/** The views alive, told of each record a delete is about to free. */
export class KeysViews {
  private refs: WeakRef<KeysView>[] = [];

  add(view: KeysView): void {
    this.refs = this.refs.filter((ref) => ref.deref() !== undefined);
    this.refs.push(new WeakRef(view));
  }

  /** Record n, of entry `seq`, is about to be freed: each view that lists it keeps its id. */
  removing(seq: number, key: () => string): void {
    let id: string | undefined;
    for (const ref of this.refs) {
      const view = ref.deref();
      if (view !== undefined && seq < view.end) view.removed.set(seq, (id ??= key()));
    }
  }

  /** Every view alive copies its ids now. */
  freezeAll(): void {
    for (const ref of this.refs) ref.deref()?.freeze();
    this.refs = [];
  }
}
