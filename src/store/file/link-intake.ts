// The links of a file read record by record (db-records.ts), a parsed batch at a time: put into
// the data's table in the file's order, and each handed to the sink (the start's check and index)
// or, without one, its ids shared with the head's (head-ids.ts).
import type { LinkRecord, LinkTable } from '../../core/model.js';
import { ownText } from '../../core/own-text.js';
import { isObject } from './db-kind.js';
import { HeadIds } from './head-ids.js';

/**
 * Takes each link as it is parsed, while it is young and in the CPU's caches: the start checks and
 * indexes it then (src/store/file/checked-state.ts) instead of in a walk of a million links after
 * the read. False: it takes no more (something is wrong; the read goes on).
 */
export interface LinkSink {
  take(id: string, link: unknown): boolean;
}

/** The sink for the links of a file whose head (its links the empty table they are put in, `links`) is `head`; none: no sink. */
export type SinkFor = (head: Record<string, unknown>, links: LinkTable) => LinkSink | undefined;

export class LinkIntake {
  private readonly headIds: HeadIds;
  private sink: LinkSink | undefined;
  /** False once the sink takes no more. */
  private sinking: boolean;

  /** `head`: the file parsed without its links' members; `links`: the table in its place that they go into. */
  constructor(
    head: Record<string, unknown>,
    readonly links: LinkTable,
    sinkFor: SinkFor | undefined,
  ) {
    this.headIds = new HeadIds(head);
    this.sink = sinkFor?.(head, links);
    this.sinking = this.sink !== undefined;
  }

  /** Whether the sink took every link of the table, each once, in order (a key read twice: not). */
  get sinkKept(): boolean {
    return this.sink !== undefined;
  }

  /** A batch's links, in order; throws a SyntaxError for a batch of none (blanks between two commas, which the whole text would not parse with). */
  add(batch: Record<string, unknown>): void {
    let count = 0;
    for (const key in batch) {
      this.addMember(key, batch[key]);
      count += 1;
    }
    if (count === 0) throw new SyntaxError('an empty member');
  }

  /** A batch's links as its keys and values in turn (member-pairs.ts), in order; a duplicate key is a member again (the table keeps the first place, the later link). */
  addPairs(pairs: readonly unknown[]): void {
    if (pairs.length === 0) throw new SyntaxError('an empty member');
    for (let i = 0; i < pairs.length; i += 2) this.addMember(pairs[i] as string, pairs[i + 1]);
  }

  private addMember(key: string, link: unknown): void {
    const id = ownId(key, link);
    // A key read before (the table's size unchanged: one lookup, not two): its first link, which
    // the sink took, is not the one kept (a later duplicate wins, in its place).
    const size = this.links.size;
    this.links.set(id, link as LinkRecord);
    if (this.links.size === size) this.sink = undefined;
    if (this.sink && this.sinking) this.sinking = this.sink.take(id, link);
    else if (isObject(link)) this.headIds.share(link);
  }
}

/**
 * The id a link is kept under: its record's own `id` when that is the key, not the key. A key read as
 * an object's key (a batch in another layout) is internalized by JSON.parse, and a short one read as
 * a value too: an entry of V8's string table for as long as it is held, which every full collection
 * walks in its pause (src/core/own-text.ts). The record's `id` (20 characters) is a string of its own;
 * a short one is copied. The key dies with the parsed batch.
 */
function ownId(key: string, link: unknown): string {
  if (!isObject(link) || link['id'] !== key) return key;
  const id = ownText(link['id']);
  link['id'] = id;
  return id;
}
