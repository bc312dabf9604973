// One account's links newest first, as OrderedLinks (link-order.ts) keeps them, held as record
// numbers of a LinkArena in Int32Array blocks (issue 40: no array of a million link references for
// the collector to mark). The same algorithm: sorted blocks of at most 2 × BLOCK (none empty), a
// create that is the newest pushed onto the last block, any other add or remove found by binary
// search (looked for near the end first) and moving at most one block. Records are compared by
// (createdAt ms, id bytes) read from the arena (order-key.ts), which orders as olderFirst does.
//
// A record's position is read from the arena each time it is compared: the caller takes a record
// out of the order (remove) before its createdAt or id changes in the arena, and before the arena
// removes it.
import { BLOCK, type LinkPosition } from '../link-order.js';
import type { OrderKey } from './order-key.js';

/** A block's first capacity (grown by doubling to 2 × BLOCK + 1): an account of a few links holds a few. */
const FIRST_ROOM = 8;
/** How far from a block's end a place is looked for by steps (as OrderedLinks). */
const NEAR_END = 8;

export class PackedAccountOrder {
  /** Oldest first; block b's records are blocks[b][0, lengths[b]). */
  private readonly blocks: Int32Array[] = [];
  private readonly lengths: number[] = [];
  private count = 0;

  /** `key`: the store's (one for all its accounts: a 4 KiB scratch), over the arena the records are in. */
  constructor(private readonly key: OrderKey) {}

  get size(): number {
    return this.count;
  }

  /** Adds live record n; a record at the same position (the same createdAt and id) is replaced by it, never held twice. */
  add(n: number): void {
    const key = this.key.ofRecord(n);
    const last = this.blocks.length - 1;
    if (last < 0 || key.compare(this.at(last, this.lengths[last] as number - 1)) < 0) {
      if (last >= 0 && (this.lengths[last] as number) < BLOCK) this.insert(last, this.lengths[last] as number, n);
      else this.pushBlock(this.blocks.length, Int32Array.of(n), 1);
      this.count += 1;
      return;
    }
    const nearEnd = this.placeNearEnd(last);
    const b = nearEnd < 0 ? this.blockFor() : last;
    const at = nearEnd < 0 ? this.lowerBound(b) : nearEnd;
    if (at < (this.lengths[b] as number) && key.compare(this.at(b, at)) === 0) {
      (this.blocks[b] as Int32Array)[at] = n;
      return;
    }
    this.insert(b, at, n);
    this.count += 1;
    if ((this.lengths[b] as number) > 2 * BLOCK) this.split(b);
  }

  /** Removes live record n at its position (whichever record is there); false when none is there. */
  remove(n: number): boolean {
    if (this.blocks.length === 0) return false;
    this.key.ofRecord(n);
    const b = this.blockFor();
    const at = this.lowerBound(b);
    const length = this.lengths[b] as number;
    if (at >= length || this.key.compare(this.at(b, at)) !== 0) return false;
    const block = this.blocks[b] as Int32Array;
    block.copyWithin(at, at + 1, length);
    this.count -= 1;
    if (length === 1) {
      this.blocks.splice(b, 1);
      this.lengths.splice(b, 1);
    } else this.lengths[b] = length - 1;
    return true;
  }

  /** At most `limit` record numbers, newest first, each older than `after` (from the newest when absent). */
  page(after: LinkPosition | undefined, limit: number): number[] {
    let b = this.blocks.length - 1;
    let i = (this.lengths[b] ?? 0) - 1;
    if (after && b >= 0) {
      this.key.ofPosition(after);
      b = this.blockFor();
      i = this.lowerBound(b) - 1;
    }
    const shown: number[] = [];
    while (b >= 0 && shown.length < limit) {
      const block = this.blocks[b] as Int32Array;
      for (; i >= 0 && shown.length < limit; i -= 1) shown.push(block[i] as number);
      b -= 1;
      i = (this.lengths[b] ?? 0) - 1;
    }
    return shown;
  }

  /** Every record number, oldest first. */
  all(): number[] {
    const records: number[] = [];
    for (const [b, block] of this.blocks.entries()) for (let i = 0; i < (this.lengths[b] as number); i += 1) records.push(block[i] as number);
    return records;
  }

  /** Blocks and their lengths (tests: none empty, none past 2 × BLOCK). */
  blockLengths(): number[] {
    return this.lengths.slice();
  }

  private at(b: number, i: number): number {
    return (this.blocks[b] as Int32Array)[i] as number;
  }

  /** The last block whose first record is not newer than the key (the first block when none is). */
  private blockFor(): number {
    let low = 0;
    let high = this.blocks.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (this.key.compare(this.at(mid, 0)) <= 0) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  /** The index of the first record in block b not older than the key. */
  private lowerBound(b: number): number {
    let low = 0;
    let high = this.lengths[b] as number;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.key.compare(this.at(b, mid)) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /**
   * lowerBound(last) found by steps from the end, when the key's place is at most NEAR_END from the
   * end and after the block's first record; -1 otherwise (link-order.ts's placeNearEnd).
   */
  private placeNearEnd(last: number): number {
    const length = this.lengths[last] as number;
    const stop = length - NEAR_END;
    if (stop > 0 && this.key.compare(this.at(last, stop)) > 0) return -1;
    let at = length;
    while (at > 0 && at > stop && this.key.compare(this.at(last, at - 1)) >= 0) at -= 1;
    return at > 0 ? at : -1;
  }

  /** Puts n at block b's index `at`, the block grown (doubling, to 2 × BLOCK + 1) when full. */
  private insert(b: number, at: number, n: number): void {
    let block = this.blocks[b] as Int32Array;
    const length = this.lengths[b] as number;
    if (length === block.length) {
      const grown = new Int32Array(Math.min(Math.max(2 * block.length, FIRST_ROOM), 2 * BLOCK + 1));
      grown.set(block);
      this.blocks[b] = block = grown;
    }
    block.copyWithin(at + 1, at, length);
    block[at] = n;
    this.lengths[b] = length + 1;
  }

  /** Block b's records from BLOCK on become a block of their own after it. */
  private split(b: number): void {
    const block = this.blocks[b] as Int32Array;
    const length = this.lengths[b] as number;
    let room = FIRST_ROOM;
    while (room < length - BLOCK) room *= 2;
    const moved = new Int32Array(Math.min(room, 2 * BLOCK + 1));
    moved.set(block.subarray(BLOCK, length));
    this.lengths[b] = BLOCK;
    this.pushBlock(b + 1, moved, length - BLOCK);
  }

  private pushBlock(b: number, block: Int32Array, length: number): void {
    this.blocks.splice(b, 0, block);
    this.lengths.splice(b, 0, length);
  }
}
