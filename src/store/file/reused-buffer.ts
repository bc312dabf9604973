// The bytes of a large JSON file written through one buffer, reused write after write (chunked-json.ts:
// a base, a compaction, a snapshot). Each batch of records used to be joined into one text of
// ~340 KB and handed to FileHandle.write: a new large string every batch, alive until the write came
// back from the thread pool. A scavenge in that time (a create load runs beside a compaction)
// promoted it to the old space: ~0.33 MB of old garbage per scavenge, 25 MB a compaction at
// 1,000,000 links, which brings the next full collection of a ~500 MB heap nearer (issue 40). Here
// each record's text is copied into the buffer as soon as it is made, and dies young.

/** Where the bytes go: a FileHandle, or a worker thread's synchronous writer of a descriptor. */
export interface ByteSink {
  write(buffer: Uint8Array, offset: number, length: number): Promise<{ bytesWritten: number }>;
}

/** The buffer's size: a batch of RECORDS_PER_WRITE links of ~340 bytes fills a third of it. */
export const WRITE_BUFFER_BYTES = 1 << 20;
/** The most bytes UTF-8 takes for one UTF-16 code unit (a surrogate pair: 4 bytes for 2 units). */
const MAX_BYTES_PER_UNIT = 3;

export class ReusedBuffer {
  private readonly buffer: Buffer;
  private used = 0;

  constructor(
    private readonly sink: ByteSink,
    size = WRITE_BUFFER_BYTES,
  ) {
    this.buffer = Buffer.allocUnsafeSlow(size);
  }

  /** Copies `text` after what is buffered, when it surely fits: whether it did (else nothing was copied: `put`). */
  add(text: string): boolean {
    if (this.used + text.length * MAX_BYTES_PER_UNIT > this.buffer.length) return false;
    this.used += this.buffer.write(text, this.used);
    return true;
  }

  /** `text` after what is buffered, writing that out first when needed; a text larger than the whole buffer is written on its own. */
  async put(text: string): Promise<void> {
    if (this.add(text)) return;
    await this.flush();
    if (!this.add(text)) await this.writeAll(Buffer.from(text));
  }

  /** Copies `source`'s bytes from `from` to `to` after what is buffered, when they fit: whether they did. */
  addBytes(source: Buffer, from: number, to: number): boolean {
    if (this.used + (to - from) > this.buffer.length) return false;
    this.used += source.copy(this.buffer, this.used, from, to);
    return true;
  }

  /** As `put`, for bytes (carried-base.ts: a line copied from the old base). */
  async putBytes(source: Buffer, from: number, to: number): Promise<void> {
    if (this.addBytes(source, from, to)) return;
    await this.flush();
    if (!this.addBytes(source, from, to)) await this.writeAll(source.subarray(from, to));
  }

  /** Writes out what is buffered (all of it: a short write is continued). */
  async flush(): Promise<void> {
    const used = this.used;
    this.used = 0;
    await this.writeAll(this.buffer.subarray(0, used));
  }

  private async writeAll(bytes: Uint8Array): Promise<void> {
    for (let at = 0; at < bytes.length; ) {
      const { bytesWritten } = await this.sink.write(bytes, at, bytes.length - at);
      // A write that takes nothing would take nothing again.
      if (bytesWritten === 0) throw new Error('the file took no bytes of a write');
      at += bytesWritten;
    }
  }
}
