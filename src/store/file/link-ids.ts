// The ids of the file store's links (log-file-store.ts: what a compaction writes, lazily), in the
// order they were added, as a Set keeps them, but held in Sets of at most ID_CHUNK ids. A Set grows
// by copying itself whole into a table twice its size, in one step: at 1,000,000 ids a step of tens
// of milliseconds (hundreds on a busy machine) in the middle of a restore's or a reset's build, or
// of a create past the table's capacity (issue 40). Here no table grows past ID_CHUNK ids.
// Adding an id first asks each chunk whether it holds it: one lookup per ID_CHUNK ids added since
// the Set this started from (16 at 1,000,000 creates); a chunk left empty by deletes is dropped.

/** Ids per chunk: its table's growth is a copy of at most this many. */
export const ID_CHUNK = 1 << 16;

export class LinkIds implements Iterable<string> {
  private readonly chunks: Set<string>[];

  /** From `first` (the Set a read of the base made), which it takes over: further ids go to chunks of their own. */
  constructor(first: Set<string> = new Set()) {
    this.chunks = [first];
  }

  get size(): number {
    let size = 0;
    for (const chunk of this.chunks) size += chunk.size;
    return size;
  }

  has(id: string): boolean {
    for (const chunk of this.chunks) if (chunk.has(id)) return true;
    return false;
  }

  add(id: string): this {
    return this.has(id) ? this : this.addNew(id);
  }

  /** An id the caller knows is not held (the keys of one object): no lookup in the other chunks. */
  addNew(id: string): this {
    let last = this.chunks[this.chunks.length - 1] as Set<string>;
    if (last.size >= ID_CHUNK) this.chunks.push((last = new Set()));
    last.add(id);
    return this;
  }

  delete(id: string): boolean {
    for (let at = 0; at < this.chunks.length; at += 1) {
      const chunk = this.chunks[at] as Set<string>;
      if (!chunk.delete(id)) continue;
      if (chunk.size === 0 && this.chunks.length > 1) this.chunks.splice(at, 1);
      return true;
    }
    return false;
  }

  /** In the order they were added (an id deleted and added again: at the end), read lazily. */
  *values(): Generator<string> {
    // Copied first: a chunk dropped while this is read must not make it skip the next chunk.
    for (const chunk of this.chunks.slice()) yield* chunk;
  }

  [Symbol.iterator](): Generator<string> {
    return this.values();
  }
}
