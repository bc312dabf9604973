// The buffers large upstream answers are read into (over LARGE_ANSWER_BYTES): shared memory, so the
// judging thread reads an answer where it lies (answer-judge.ts), and reused from one answer to the
// next. Reused because V8 does not count shared memory towards the pressure that makes it collect:
// with a new buffer per answer, 240 answers of 16 MiB left 3.9 GB resident waiting for a
// collection; and a new ordinary buffer per answer (counted) made a full collection of the event
// loop's heap every few answers instead. A buffer goes back when its exchange has finished with it
// (release); the free ones kept are bounded (MAX_FREE_BYTES), those past it are left to the collector.

/** Free buffers kept for reuse, in all: 8 answers of 16 MiB (the default --proxy-concurrency). */
export const MAX_FREE_BYTES = 128 * 1024 * 1024;
const SMALLEST = 128 * 1024;

export class AnswerBuffers {
  /** By capacity (a power of two from SMALLEST up). */
  private readonly free = new Map<number, SharedArrayBuffer[]>();
  private freeBytes = 0;
  private readonly ours = new WeakSet<SharedArrayBuffer>();

  constructor(private readonly maxFreeBytes = MAX_FREE_BYTES) {}

  /** A buffer of `size` bytes, in shared memory of at least that capacity. */
  take(size: number): Buffer {
    const capacity = capacityFor(size);
    const reused = this.free.get(capacity)?.pop();
    if (reused) this.freeBytes -= capacity;
    const memory = reused ?? new SharedArrayBuffer(capacity);
    this.ours.add(memory);
    return Buffer.from(memory, 0, size);
  }

  /** The buffer's memory back for the next answer: nothing may read or write it after this. */
  give(buffer: Buffer): void {
    const memory = buffer.buffer;
    if (!(memory instanceof SharedArrayBuffer) || !this.ours.has(memory)) return;
    this.ours.delete(memory);
    if (this.freeBytes + memory.byteLength > this.maxFreeBytes) return;
    const list = this.free.get(memory.byteLength) ?? [];
    list.push(memory);
    this.free.set(memory.byteLength, list);
    this.freeBytes += memory.byteLength;
  }

  /** Bytes held in free buffers now. */
  get held(): number {
    return this.freeBytes;
  }
}

function capacityFor(size: number): number {
  let capacity = SMALLEST;
  while (capacity < size) capacity *= 2;
  return capacity;
}
