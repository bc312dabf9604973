// Where a link stands in an account's order (link-order.ts: newest first by createdAt, then id),
// for links held as arena records: a record's position is read from the arena's columns (createdAt
// ms) and its key bytes (the id), never by parsing its JSON, when its createdAt is the mock's own
// form (toISOString's text, the arena's ms; NaN otherwise). Only a NaN (a createdAt of another form,
// from an imported file) is read as text, parsed out of the record: olderFirst compares the texts,
// and ms order is text order only between texts of toISOString's form.
import type { LinkPosition } from '../link-order.js';
import { MAX_KEY_BYTES } from './bounds.js';
import { createdAtMs } from './created-at-ms.js';
import { KeyBytes } from './key-bytes.js';
import type { LinkArena } from './link-arena.js';

/** A record's id bytes not copied yet. */
const UNREAD = -2;

/** The createdAt text of record n whose ms is `ms` (NaN: parsed out of its JSON). */
function createdAtText(arena: LinkArena, n: number, ms: number): string {
  if (ms === ms) return new Date(ms).toISOString();
  return String((JSON.parse(arena.text(n, arena.head(n))) as { createdAt: unknown }).createdAt);
}

/** One position at a time (a record's or a cursor's), compared with records: olderFirst(record, it). */
export class OrderKey {
  private readonly keys = new KeyBytes();
  private readonly scratch = Buffer.allocUnsafe(MAX_KEY_BYTES);
  private ms = Number.NaN;
  /** Its createdAt text, read when first needed ('' unread). */
  private text = '';
  /** The record it was taken from, or -1 (a cursor: `text` is given). */
  private record = -1;
  /** Its id's UTF-8 bytes are bytes[0, idLength); -1 when the id has none (then `id` is compared as text), UNREAD. */
  private bytes: Uint8Array = this.scratch;
  private idLength = 0;
  private id = '';

  constructor(private readonly arena: LinkArena) {}

  /** Record n's position (its createdAt and its key, the id). */
  ofRecord(n: number): this {
    this.ms = this.arena.createdAt(n);
    this.text = '';
    this.record = n;
    // Its id's bytes copied when first compared: a create, the newest, meets a newer ms at once.
    this.idLength = UNREAD;
    this.bytes = this.scratch;
    return this;
  }

  /** A cursor's position: the link it names need not be there. */
  ofPosition(position: LinkPosition): this {
    this.ms = createdAtMs(position.createdAt);
    this.text = position.createdAt;
    this.record = -1;
    this.idLength = this.keys.of(position.id);
    this.bytes = this.keys.bytes;
    this.id = position.id;
    return this;
  }

  /** olderFirst(record n, this position): negative when n is older (shown after it), 0 at the same position. */
  compare(n: number): number {
    const ms = this.arena.createdAt(n);
    // Equal ms: equal texts. A NaN on either side (NaN !== NaN): the texts compared.
    if (ms !== this.ms) {
      if (ms === ms && this.ms === this.ms) return ms < this.ms ? -1 : 1;
      const mine = createdAtText(this.arena, n, ms);
      const theirs = this.createdAt();
      if (mine !== theirs) return mine < theirs ? -1 : 1;
    }
    if (this.idLength === UNREAD) this.idLength = this.arena.copy(this.record, 0, this.arena.head(this.record), this.scratch, 0);
    if (this.idLength >= 0) return this.arena.compareHead(n, this.bytes, this.idLength);
    const id = this.arena.text(n, 0, this.arena.head(n));
    return id < this.id ? -1 : id > this.id ? 1 : 0;
  }

  private createdAt(): string {
    if (this.text === '' && this.record >= 0) this.text = createdAtText(this.arena, this.record, this.ms);
    return this.text;
  }
}
