// The arena's Buffers: SEGMENT_BYTES each (a record larger than that gets one of its own size),
// filled from the front, with the bytes of live records counted per segment so that one mostly
// free can be found and moved out (LinkArena.compactStep). A segment left with no live byte is
// dropped at once; its number is handed out again.
import { SEGMENT_BYTES } from './bounds.js';

export class Segments {
  readonly buffers: (Buffer | undefined)[] = [];
  /** Bytes written from the front, per segment: slots, live or not. */
  readonly used: number[] = [];
  /** Bytes of live records (their headers and bytes; not the slack a shorter replace left). */
  readonly live: number[] = [];
  /** When each segment was made (a count of segments made): a number handed out again is another segment. */
  readonly made: number[] = [];
  private makes = 0;
  /** The segment records are appended to, or -1. */
  open = -1;
  private readonly spare: number[] = [];
  /**
   * The Buffer of the last segment dropped, to fill again: a new one's pages are faulted in as they
   * are first written (~1,000 faults, ~2 ms of system CPU a segment), which a compaction step paid.
   */
  private recycled: Buffer | undefined;

  /** A segment with room for `need` bytes: the open one, or a new one (of its own when need > SEGMENT_BYTES). */
  room(need: number): number {
    if (need > SEGMENT_BYTES) return this.make(need);
    const open = this.open;
    if (open >= 0 && (this.used[open] as number) + need <= SEGMENT_BYTES) return open;
    this.open = this.make(SEGMENT_BYTES);
    if (open >= 0 && this.live[open] === 0) this.drop(open);
    return this.open;
  }

  /** Counts `bytes` (±) as live in `segment`; drops it when none is left and records are not appended to it. */
  count(segment: number, bytes: number): void {
    const live = (this.live[segment] as number) + bytes;
    this.live[segment] = live;
    if (live === 0 && segment !== this.open) this.drop(segment);
  }

  /** The segment most free among those under half live (not the open one), or -1. */
  mostFree(): number {
    let best = -1;
    let bestShare = 0.5;
    for (let segment = 0; segment < this.buffers.length; segment += 1) {
      if (segment === this.open || this.buffers[segment] === undefined) continue;
      const share = (this.live[segment] as number) / (this.used[segment] as number);
      if (share < bestShare) [best, bestShare] = [segment, share];
    }
    return best;
  }

  drop(segment: number): void {
    const buffer = this.buffers[segment];
    if (buffer === undefined) return;
    if (buffer.length === SEGMENT_BYTES) this.recycled = buffer;
    this.buffers[segment] = undefined;
    this.used[segment] = 0;
    this.live[segment] = 0;
    if (segment === this.open) this.open = -1;
    this.spare.push(segment);
  }

  /** Segments held, their bytes, the bytes written in them (used), live and free (tests, benches). */
  held(): { segments: number; bytes: number; used: number; live: number; free: number } {
    let [segments, bytes, used, live] = [0, 0, 0, 0];
    for (const [segment, buffer] of this.buffers.entries()) {
      if (buffer === undefined) continue;
      segments += 1;
      bytes += buffer.length;
      used += this.used[segment] as number;
      live += this.live[segment] as number;
    }
    return { segments, bytes, used, live, free: used - live };
  }

  private make(size: number): number {
    const segment = this.spare.pop() ?? this.buffers.length;
    // Not zeroed: only the bytes written from the front (`used`) are ever read.
    const recycled = size === SEGMENT_BYTES ? this.recycled : undefined;
    if (recycled !== undefined) this.recycled = undefined;
    this.buffers[segment] = recycled ?? Buffer.allocUnsafeSlow(size);
    this.makes += 1;
    this.made[segment] = this.makes;
    this.used[segment] = 0;
    this.live[segment] = 0;
    return segment;
  }
}
