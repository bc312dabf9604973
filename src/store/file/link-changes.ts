// Which links changed since the base on disk was written, as the change log says (issue 40): a
// compaction copies the base's line of every other link byte for byte (carried-base.ts) instead of
// serialising 1,000,000 records again for a quarter of that in changes. An id's place in the
// table's order is kept by a put of a link that is there (an update) and taken last by a put of
// one that is not (a create, or one deleted before): so the table lists the base's links never
// deleted since, in the base's order, then the links put since in the order they were (re)added.
// That second order is kept here: an id is entered when first changed and moved last when put
// again after a delete.
import type { Change } from '../../core/changes.js';
import { idHash } from './id-hash.js';

/** A changed link was deleted at some point since the base: its line there is not its place now. */
const DELETED = 1;
/** Its last change was a delete: a put of it adds it again, last. */
const GONE = 2;
/** Written in the base's order already (carried-base.ts), not again after it. */
const WRITTEN = 4;

/**
 * The most ids kept: past it the changes are not known (a compaction serialises every link). At
 * 1,000,000 links a compaction is due every ~280,000 creates (log-file-store.ts COMPACT_LOG_SHARE).
 */
export const LINK_CHANGES_MAX = 1 << 19;
/** Bits of the filter of changed ids' hashes: at LINK_CHANGES_MAX ids, ~1 in 9 unchanged lines is looked up for nothing. */
const FILTER_BITS = 1 << 22;

export class LinkChanges {
  /** Id → its flags, in the order of the ids' places among the links put since the base. */
  private readonly flags = new Map<string, number>();
  /** A bit per hash (id-hash.ts) of the ids in `flags`: an id whose bit is clear was not changed. */
  private readonly filter = new Uint8Array(FILTER_BITS >>> 3);
  private known: boolean;

  /** `known`: false when what the base holds is not known (an older format, a compaction that failed). */
  constructor(known = true) {
    this.known = known;
  }

  /** Whether every change since the base was noted: only then may a base's line be copied. */
  get complete(): boolean {
    return this.known;
  }

  get size(): number {
    return this.flags.size;
  }

  note(change: Change): void {
    if (!this.known) return;
    let id: string;
    if (change.op === 'put-link') this.put((id = change.link.id));
    else if (change.op === 'delete-link') this.flags.set((id = change.id), DELETED | GONE);
    else return;
    const bit = idHash(id) & (FILTER_BITS - 1);
    this.filter[bit >>> 3] = (this.filter[bit >>> 3] as number) | (1 << (bit & 7));
    if (this.flags.size > LINK_CHANGES_MAX) this.forget();
  }

  /** False when no id of that hash (idBytesHash of a base line's id) was changed; true when one may have been. */
  mayHold(hash: number): boolean {
    const bit = hash & (FILTER_BITS - 1);
    return ((this.filter[bit >>> 3] as number) & (1 << (bit & 7))) !== 0;
  }

  /** Undefined: not changed since the base (its line there is the link as it is); else whether its line there is still its place. */
  lineKept(id: string): boolean | undefined {
    const flags = this.flags.get(id);
    return flags === undefined ? undefined : (flags & DELETED) === 0;
  }

  /** A changed link written at its base line's place: not again after the base's lines. */
  written(id: string): void {
    const flags = this.flags.get(id);
    if (flags !== undefined) this.flags.set(id, flags | WRITTEN);
  }

  /**
   * The changed ids not written at a base line's place, in the order of their places after the base's
   * links. Not one whose last change was a delete: in the table now (the compaction reads it as it
   * is), it was added again since these changes were set aside, last, and the log that has that put
   * puts it there again.
   */
  *added(): Generator<string> {
    for (const [id, flags] of this.flags) if ((flags & (WRITTEN | GONE)) === 0) yield id;
  }

  private put(id: string): void {
    const flags = this.flags.get(id);
    if (flags === undefined) this.flags.set(id, 0);
    else if (flags & GONE) {
      // Added again: its place is last now.
      this.flags.delete(id);
      this.flags.set(id, DELETED);
    }
  }

  private forget(): void {
    this.known = false;
    this.flags.clear();
  }
}
