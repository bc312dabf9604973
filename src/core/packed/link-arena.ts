// Records (a link's JSON text as UTF-8 bytes) packed into Buffer segments, by record number, with
// no JS object or string per record (issue 40: the collector marks a Buffer once, not its bytes).
// Per record number, side by side in Uint32Array chunks (record-meta.ts): its segment (0 when no
// record is live under the number), offset, length and head (the bytes of a key it starts with, 0
// if none); its createdAt in ms in a column. A record number stays the record's through replaces
// and compaction; once removed, it is handed out again by a later add.
//
// In a segment each record sits in a slot: [record number u32][slot length u32][bytes], so that a
// compaction can walk a segment from the front and tell a live slot (its record still points at
// it) from a dead one, a slice at a time.
import { COMPACT_STEP_BYTES, MAX_RECORD_BYTES, MAX_RECORDS } from './bounds.js';
import { compareAsText, sameBytes } from './byte-hash.js';
import { Float64Column, Int32Column } from './column.js';
import { HEAD, LENGTH, OFFSET, RecordMeta, SEGMENT } from './record-meta.js';
import { Segments } from './segments.js';

/** A slot's header: the record number and the slot's length, u32 each. */
export const SLOT_HEADER_BYTES = 8;
const HEADER = SLOT_HEADER_BYTES;

export class LinkArena {
  private readonly segments = new Segments();
  private readonly meta = new RecordMeta();
  private readonly createdAtOf = new Float64Column(Number.NaN);
  /** Record numbers removed, to hand out again (a stack). */
  private readonly spare = new Int32Column();
  private spares = 0;
  private next = 0;
  private count = 0;
  /** The segment being moved out by compactStep, and where its walk is. */
  private moving = -1;
  private cursor = 0;
  /** When `moving` was made: a segment dropped meanwhile, its number (and Buffer) reused, is not it. */
  private movingMade = 0;

  /** Live records. */
  get size(): number {
    return this.count;
  }

  /** Record numbers ever handed out: every one is below it. */
  get numbers(): number {
    return this.next;
  }

  /** Stores a copy of the bytes, whose first `head` bytes are its key (0: none); returns its record number. */
  add(bytes: Uint8Array, createdAt = Number.NaN, head = 0): number {
    checkLength(bytes, head);
    const n = this.spares > 0 ? this.spare.get(--this.spares) : this.next;
    if (n === this.next) {
      if (n >= MAX_RECORDS) throw new RangeError(`LinkArena: ${MAX_RECORDS} records live at once at most (MAX_RECORDS)`);
      this.next += 1;
    }
    this.place(n, bytes, 0, bytes.length);
    this.meta.set(n, HEAD, head);
    this.createdAtOf.set(n, createdAt);
    this.count += 1;
    return n;
  }

  /** Record n's bytes in place: valid until the arena's next change. */
  bytes(n: number): Buffer {
    const at = this.meta.get(this.check(n), OFFSET);
    return this.buffer(n).subarray(at, at + this.meta.get(n, LENGTH));
  }

  /** Record n's bytes [start, end) (to its end by default), as text. */
  text(n: number, start = 0, end = Number.MAX_SAFE_INTEGER): string {
    const at = this.meta.get(this.check(n), OFFSET);
    return this.buffer(n).toString('utf8', at + start, at + Math.min(end, this.meta.get(n, LENGTH)));
  }

  /** Copies record n's bytes [start, end) into `target` at `to`; returns the bytes copied. */
  copy(n: number, start: number, end: number, target: Uint8Array, to: number): number {
    const at = this.meta.get(this.check(n), OFFSET);
    return this.buffer(n).copy(target, to, at + start, at + Math.min(end, this.meta.get(n, LENGTH)));
  }

  /** The bytes of record n's key (its head). */
  head(n: number): number {
    return this.meta.get(this.check(n), HEAD);
  }

  /** Whether live record n's key (its head) is key[0, length). */
  sameHead(n: number, key: Uint8Array, length: number): boolean {
    const at = this.meta.get(n, OFFSET);
    return this.meta.get(n, HEAD) === length && sameBytes(this.buffer(n), at, at + length, key, 0, length);
  }

  /** Live record n's key (its head) against key[0, length), as JavaScript compares the strings (byte-hash.ts). */
  compareHead(n: number, key: Uint8Array, length: number): number {
    const at = this.meta.get(n, OFFSET);
    return compareAsText(this.buffer(n), at, at + this.meta.get(n, HEAD), key, 0, length);
  }

  has(n: number): boolean {
    return n >= 0 && n < this.next && this.meta.get(n, SEGMENT) !== 0;
  }

  createdAt(n: number): number {
    return this.createdAtOf.get(this.check(n));
  }

  /** Record n becomes these bytes: in its slot when they fit (the rest counted free), else in a new one (the old counted free). */
  replace(n: number, bytes: Uint8Array, createdAt = this.createdAtOf.get(n), head = this.meta.get(n, HEAD)): void {
    checkLength(bytes, head);
    const segment = this.meta.get(this.check(n), SEGMENT) - 1;
    const at = this.meta.get(n, OFFSET);
    const old = this.meta.get(n, LENGTH);
    const buffer = this.buffer(n);
    this.createdAtOf.set(n, createdAt);
    this.meta.set(n, HEAD, head);
    if (bytes.length <= buffer.readUInt32LE(at - 4)) {
      buffer.set(bytes, at);
      this.meta.set(n, LENGTH, bytes.length);
      this.segments.count(segment, bytes.length - old);
      return;
    }
    this.place(n, bytes, 0, bytes.length);
    this.segments.count(segment, -(HEADER + old));
  }

  /** Frees record n: its bytes counted free, its number handed out again. */
  remove(n: number): void {
    const segment = this.meta.get(this.check(n), SEGMENT) - 1;
    this.meta.set(n, SEGMENT, 0);
    this.count -= 1;
    this.spare.set(this.spares++, n);
    this.segments.count(segment, -(HEADER + this.meta.get(n, LENGTH)));
  }

  /**
   * Moves live records out of the segment most free (under half live), walking at most `budget`
   * bytes of it (and one slot past, whatever its size): bounded work per call. Returns the bytes
   * walked, 0 when no segment is under half live. The segment is dropped once walked to its end.
   */
  compactStep(budget = COMPACT_STEP_BYTES): number {
    if (this.moving < 0 || !this.stillMoving()) {
      this.moving = this.segments.mostFree();
      this.movingMade = this.segments.made[this.moving] ?? 0;
      this.cursor = 0;
      if (this.moving < 0) return 0;
    }
    const segment = this.moving;
    const buffer = this.segments.buffers[segment] as Buffer;
    const end = this.segments.used[segment] as number;
    let walked = 0;
    // Dropped once its last live record is moved (live bytes 0): nothing left to walk.
    while (this.cursor < end && walked < budget && this.stillMoving()) {
      const n = buffer.readUInt32LE(this.cursor);
      const slot = HEADER + buffer.readUInt32LE(this.cursor + 4);
      const at = this.cursor + HEADER;
      if (this.has(n) && this.meta.get(n, SEGMENT) === segment + 1 && this.meta.get(n, OFFSET) === at) {
        const length = this.meta.get(n, LENGTH);
        this.place(n, buffer, at, at + length);
        this.segments.count(segment, -(HEADER + length));
      }
      this.cursor += slot;
      walked += slot;
    }
    if (!this.stillMoving()) this.moving = -1;
    else if (this.cursor >= end) {
      this.segments.drop(segment);
      this.moving = -1;
    }
    return walked;
  }

  /** Segments held and their bytes, live and free (tests, benches). */
  held(): ReturnType<Segments['held']> {
    return this.segments.held();
  }

  /** Writes bytes[start, end) in a new slot for record n (the caller counts its old slot free). */
  private place(n: number, bytes: Uint8Array, start: number, end: number): void {
    const length = end - start;
    const segment = this.segments.room(HEADER + length);
    const buffer = this.segments.buffers[segment] as Buffer;
    const at = this.segments.used[segment] as number;
    buffer.writeUInt32LE(n, at);
    buffer.writeUInt32LE(length, at + 4);
    buffer.set(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end), at + HEADER);
    this.segments.used[segment] = at + HEADER + length;
    this.segments.count(segment, HEADER + length);
    this.meta.set(n, SEGMENT, segment + 1);
    this.meta.set(n, OFFSET, at + HEADER);
    this.meta.set(n, LENGTH, length);
  }

  /** Whether the segment being moved out is still the one whose walk began (not dropped since). */
  private stillMoving(): boolean {
    return this.segments.buffers[this.moving] !== undefined && this.segments.made[this.moving] === this.movingMade;
  }

  private buffer(n: number): Buffer {
    return this.segments.buffers[this.meta.get(n, SEGMENT) - 1] as Buffer;
  }

  private check(n: number): number {
    if (!this.has(n)) throw new RangeError(`LinkArena: no record ${n}`);
    return n;
  }
}

function checkLength(bytes: Uint8Array, head: number): void {
  if (!(head >= 0 && head <= bytes.length && Number.isInteger(head))) throw new RangeError(`LinkArena: a head of ${head} bytes in a record of ${bytes.length}`);
  if (bytes.length > MAX_RECORD_BYTES) throw new RangeError(`LinkArena: a record of ${bytes.length} bytes: at most ${MAX_RECORD_BYTES} (MAX_RECORD_BYTES)`);
}
