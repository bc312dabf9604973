// Keys (ids, slugs) → record numbers without a JS string or object per key (issue 40: a full
// collection over a Map of a million ids costs tens to hundreds of ms; typed arrays are not marked
// element by element). The index stores record numbers and hashes only; a key's bytes are where
// the records are (a KeySource, e.g. the LinkArena), compared byte for byte.
//
// Spread over SUB_TABLES sub-tables by the hash's top bits, each grown by itself: a growth
// rehashes one sub-table, a 64th of the keys. The bound of a growth step: at MAX_RECORDS keys
// (2^23) spread evenly a sub-table holds ~2^17, so one growth reads ≤ 2^18 slots and writes ≤ 2^19
// (~1-3 ms). Keys chosen to share a sub-table (the hash is not keyed unless a seed is drawn)
// would put them all in one: then a growth rehashes them all, as one Map would.
import { MAX_KEY_BYTES } from './bounds.js';
import { HASH_SEED, hashBytes } from './byte-hash.js';
import { KeyBytes } from './key-bytes.js';
import { KeySlots, type KeySource } from './key-slots.js';

export type { KeySource } from './key-slots.js';

/** Sub-tables, picked by the hash's top bits. */
export const SUB_TABLES = 64;
const SUB_SHIFT = 32 - Math.log2(SUB_TABLES);

export class ByteKeyIndex {
  private readonly tables: KeySlots[];
  private readonly keys = new KeyBytes();
  /** The key of the call: its bytes are bytes[0, length), length -1 when it has no stored form. */
  private bytes: Uint8Array = this.keys.bytes;
  private length = -1;
  private count = 0;
  /** The most slots one growth step rehashed (tests: the bound above). */
  largestGrowth = 0;

  constructor(
    source: KeySource,
    private readonly seed = HASH_SEED,
  ) {
    this.tables = Array.from({ length: SUB_TABLES }, () => new KeySlots(source));
  }

  get size(): number {
    return this.count;
  }

  /** The record under the key (UTF-8 bytes, or a string encoded so), or -1. */
  find(key: Uint8Array | string): number {
    if (!this.take(key)) return -1;
    const hash = hashBytes(this.bytes, 0, this.length, this.seed);
    return this.tableOf(hash).find(hash, this.bytes, this.length);
  }

  /** Puts a record number (≥ 0) under a key that is not there; throws if it is. */
  insert(key: Uint8Array | string, record: number): void {
    if (!(record >= 0 && Number.isInteger(record) && record <= 0x7fffffff)) throw new RangeError(`ByteKeyIndex.insert: record ${record} is not a record number`);
    if (!this.take(key)) throw new RangeError('ByteKeyIndex.insert: a key with no stored form (too long, or a lone surrogate)');
    const hash = hashBytes(this.bytes, 0, this.length, this.seed);
    const grown = this.tableOf(hash).insert(hash, this.bytes, this.length, record);
    if (grown > this.largestGrowth) this.largestGrowth = grown;
    this.count += 1;
  }

  /** Takes the key out: the record it was under, or -1 if it was not there. */
  delete(key: Uint8Array | string): number {
    if (!this.take(key)) return -1;
    const hash = hashBytes(this.bytes, 0, this.length, this.seed);
    const record = this.tableOf(hash).delete(hash, this.bytes, this.length);
    if (record >= 0) this.count -= 1;
    return record;
  }

  /** The sub-tables' live keys (tests: the spread). */
  sizes(): number[] {
    return this.tables.map((table) => table.live);
  }

  /** Slots held, all sub-tables together (tests, benches: 8 bytes each). */
  get slots(): number {
    return this.tables.reduce((sum, table) => sum + table.capacity, 0);
  }

  /** Makes `key` the call's key: false when it has no stored form. */
  private take(key: Uint8Array | string): boolean {
    if (typeof key === 'string') {
      this.length = this.keys.of(key);
      this.bytes = this.keys.bytes;
    } else {
      this.length = key.length > MAX_KEY_BYTES ? -1 : key.length;
      this.bytes = key;
    }
    return this.length >= 0;
  }

  private tableOf(hash: number): KeySlots {
    return this.tables[hash >>> SUB_SHIFT] as KeySlots;
  }
}
