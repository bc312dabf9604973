// A number per record number, kept in typed-array chunks: a column of a million records is ~16
// chunks of 64 Ki values off the JS heap, grown a chunk at a time (never a copy of the whole), and
// no JS object per record for the collector to mark.
import { MAX_RECORDS } from './bounds.js';

/** Values per chunk: 64 Ki (256 KiB of Int32/Uint32, 512 KiB of Float64). */
const CHUNK_BITS = 16;
const CHUNK = 1 << CHUNK_BITS;
const MASK = CHUNK - 1;

type Chunk = Int32Array | Uint32Array | Float64Array | Uint8Array;
type ChunkOf = new (length: number) => Chunk;

/** Values by record number in [0, MAX_RECORDS); a value never set reads as `initial`. */
export class Column {
  private readonly chunks: Chunk[] = [];

  constructor(
    private readonly Make: ChunkOf,
    private readonly initial = 0,
  ) {}

  get(n: number): number {
    const chunk = this.chunks[n >>> CHUNK_BITS];
    return chunk === undefined ? this.initial : (chunk[n & MASK] as number);
  }

  set(n: number, value: number): void {
    let chunk = this.chunks[n >>> CHUNK_BITS];
    if (chunk === undefined) chunk = this.grow(n);
    chunk[n & MASK] = value;
  }

  /** Bytes held off the heap (tests, benches). */
  get bytes(): number {
    return this.chunks.reduce((sum, chunk) => sum + (chunk?.byteLength ?? 0), 0);
  }

  private grow(n: number): Chunk {
    if (!(n >= 0 && n < MAX_RECORDS && Number.isInteger(n))) throw new RangeError(`record number ${n} outside [0, ${MAX_RECORDS})`);
    while (this.chunks.length <= n >>> CHUNK_BITS) {
      const chunk = new this.Make(CHUNK);
      if (this.initial !== 0) chunk.fill(this.initial);
      this.chunks.push(chunk);
    }
    return this.chunks[n >>> CHUNK_BITS] as Chunk;
  }
}
