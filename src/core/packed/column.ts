// A number per record number, kept in typed-array chunks: a column of a million records is ~16
// chunks of 64 Ki values off the JS heap, grown a chunk at a time (never a copy of the whole), and
// no JS object per record for the collector to mark.
//
// One class per element type (`columnOf`): a get that met chunks of four types would be a
// megamorphic element load (~10x slower in V8); each class's methods see one type only.
import { MAX_RECORDS } from './bounds.js';

/** Values per chunk: 64 Ki (256 KiB of Int32/Uint32, 512 KiB of Float64). */
const CHUNK_BITS = 16;
const CHUNK = 1 << CHUNK_BITS;
const MASK = CHUNK - 1;

type Chunk = Int32Array | Uint32Array | Float64Array | Uint8Array;

/** Values by record number in [0, MAX_RECORDS); a value never set reads as the column's initial one. */
export interface Column {
  get(n: number): number;
  set(n: number, value: number): void;
  /** Bytes held off the heap (tests, benches). */
  readonly bytes: number;
}

function columnOf<C extends Chunk>(Make: new (length: number) => C): new (initial?: number) => Column {
  return class {
    private readonly chunks: C[] = [];

    constructor(private readonly initial = 0) {}

    get(n: number): number {
      const chunk = this.chunks[n >>> CHUNK_BITS];
      return chunk === undefined ? this.initial : (chunk[n & MASK] as number);
    }

    set(n: number, value: number): void {
      const chunk = this.chunks[n >>> CHUNK_BITS] ?? this.grow(n);
      chunk[n & MASK] = value;
    }

    get bytes(): number {
      return this.chunks.length * (Make as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT * CHUNK;
    }

    private grow(n: number): C {
      if (!(n >= 0 && n < MAX_RECORDS && Number.isInteger(n))) throw new RangeError(`record number ${n} outside [0, ${MAX_RECORDS})`);
      while (this.chunks.length <= n >>> CHUNK_BITS) {
        const chunk = new Make(CHUNK);
        if (this.initial !== 0) chunk.fill(this.initial);
        this.chunks.push(chunk);
      }
      return this.chunks[n >>> CHUNK_BITS] as C;
    }
  };
}

export const Int32Column = columnOf(Int32Array);
export const Uint32Column = columnOf(Uint32Array);
export const Float64Column = columnOf(Float64Array);
export const Uint8Column = columnOf(Uint8Array);
