// The ids of the file store's links (log-file-store.ts: what a compaction writes, lazily), in the
// order a Set would hold them, without a table of them all. The ids a read or a replace gave (`base`)
// stay as they came (a read's: a view of the links table's own order, SplitLinkTable.keysNow; a
// replace's: its array), not copied into a table: at 1,000,000 links a Set of them was a hash table built at start
// (~0.8 s of CPU on a busy machine, and ~30 MiB) only to answer "is this id new?" on each write.
// Only the ids put since go to tables, with the order they were put in, in tables of at most
// ID_CHUNK ids each: a table grows by copying itself whole, one step of tens of milliseconds at
// 1,000,000 ids in the middle of a create (issue 40). A put of an id (a create, or an update of a
// link read) and a delete are each one lookup per chunk, none in the base.
//
// Which of the two an id is, is told when the ids are listed: an id put before the listing began
// is listed after the base (a base id updated goes to the end: the keys' order in a compacted
// file, which nothing reads back but the file's own JSON.parse); one put after it, in its base place
// if it has one, else not (a compaction's snapshot is fuzzy: the change log replayed on it fixes it
// up). An id is listed only while data.links holds it, so a deleted base id is not.
import type { LinkTable } from '../../core/model.js';

/** Ids per chunk: its table's growth is a copy of at most this many. */
export const ID_CHUNK = 1 << 16;

export class LinkIds implements Iterable<string> {
  /** Id put since the base → its place in the order of puts; in chunks of at most ID_CHUNK. */
  private readonly chunks: Map<string, number>[] = [new Map()];
  private puts = 0;

  /** `links`: the live data's links, which the listing asks whether an id is still there; `base`: ids of them, each once, in their order (an array, or a Set: given to this class, not changed after). */
  constructor(
    private readonly links: LinkTable,
    private readonly base: Iterable<string> = [],
  ) {}

  /** An id put (created, or updated): at the end of the order unless it was put since the base already. */
  add(id: string): this {
    for (const chunk of this.chunks) if (chunk.has(id)) return this;
    let last = this.chunks[this.chunks.length - 1] as Map<string, number>;
    if (last.size >= ID_CHUNK) this.chunks.push((last = new Map()));
    this.puts += 1;
    last.set(id, this.puts);
    return this;
  }

  /** An id deleted: out of the puts (data.links no longer holds it, so the base's listing skips it). */
  delete(id: string): void {
    for (let at = 0; at < this.chunks.length; at += 1) {
      const chunk = this.chunks[at] as Map<string, number>;
      if (!chunk.delete(id)) continue;
      if (chunk.size === 0 && this.chunks.length > 1) this.chunks.splice(at, 1);
      return;
    }
  }

  /** The ids data.links holds, each once: the base's in their order, then those put since; read lazily. */
  *values(): Generator<string> {
    const start = this.puts;
    for (const id of this.base) {
      const put = this.putAt(id);
      if ((put === undefined || put > start) && this.links.has(id)) yield id;
    }
    // Copied first: a chunk dropped while this is read must not make it skip the next chunk.
    for (const chunk of this.chunks.slice()) for (const [id, put] of chunk) if (put <= start && this.links.has(id)) yield id;
  }

  [Symbol.iterator](): Generator<string> {
    return this.values();
  }

  private putAt(id: string): number | undefined {
    for (const chunk of this.chunks) {
      const put = chunk.get(id);
      if (put !== undefined) return put;
    }
    return undefined;
  }
}
