// One sub-table of a ByteKeyIndex: open addressing with linear probing over one Int32Array of
// pairs, a record number and its key's hash side by side (one cache line a probe; a probe compares
// the hash before it asks for the key's bytes, and a growth rehashes without reading a key).
/** A slot never used: a probe stops there. */
export const EMPTY = -1;
/** A slot whose record was deleted: a probe goes past it, an insert may reuse it. */
export const DELETED = -2;
const MIN_SLOTS = 16;

/** Where the keys' bytes are: the index stores no key, only record numbers. */
export interface KeySource {
  /** Whether record `record`'s key is exactly key[0, length). */
  sameKey(record: number, key: Uint8Array, length: number): boolean;
}

const emptySlots = (slots: number): Int32Array => new Int32Array(2 * slots).fill(EMPTY);

export class KeySlots {
  /** [2i]: slot i's record (or EMPTY, DELETED); [2i + 1]: its key's hash. */
  private pairs = emptySlots(MIN_SLOTS);
  /** Records in the slots. */
  live = 0;
  /** Slots not EMPTY (live or DELETED): at most 3/4 of them, so every probe ends at an EMPTY one. */
  private used = 0;

  constructor(private readonly source: KeySource) {}

  get capacity(): number {
    return this.pairs.length >>> 1;
  }

  /** The record under the key, or -1. */
  find(hash: number, key: Uint8Array, length: number): number {
    const at = this.slotOf(hash, key, length);
    return at < 0 ? -1 : (this.pairs[2 * at] as number);
  }

  /**
   * Puts `record` under a key not there (throws if it is). Returns the slots this call rehashed:
   * 0, or the old capacity when it grew the table first.
   */
  insert(hash: number, key: Uint8Array, length: number, record: number): number {
    if (this.slotOf(hash, key, length) >= 0) throw new Error('ByteKeyIndex.insert: the key is there already');
    const grown = 4 * (this.used + 1) > 3 * this.capacity ? this.rehash() : 0;
    const mask = this.capacity - 1;
    let at = hash & mask;
    while ((this.pairs[2 * at] as number) >= 0) at = (at + 1) & mask;
    if (this.pairs[2 * at] === EMPTY) this.used += 1;
    this.pairs[2 * at] = record;
    this.pairs[2 * at + 1] = hash;
    this.live += 1;
    return grown;
  }

  /** Takes the key out: its record, or -1 if it was not there. */
  delete(hash: number, key: Uint8Array, length: number): number {
    const at = this.slotOf(hash, key, length);
    if (at < 0) return -1;
    const record = this.pairs[2 * at] as number;
    this.pairs[2 * at] = DELETED;
    this.live -= 1;
    return record;
  }

  private slotOf(hash: number, key: Uint8Array, length: number): number {
    const pairs = this.pairs;
    const mask = (pairs.length >>> 1) - 1;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const record = pairs[2 * at] as number;
      if (record === EMPTY) return -1;
      if (record >= 0 && pairs[2 * at + 1] === hash && this.source.sameKey(record, key, length)) return at;
    }
  }

  /** Into twice the slots its live records need (at least as many as now when few were deleted). */
  private rehash(): number {
    const old = this.pairs;
    const capacity = this.capacity;
    let size = MIN_SLOTS;
    while (size < 2 * (this.live + 1)) size *= 2;
    if (this.live >= capacity / 4) size = Math.max(size, 2 * capacity);
    const pairs = emptySlots(size);
    const mask = size - 1;
    for (let from = 0; from < old.length; from += 2) {
      const record = old[from] as number;
      if (record < 0) continue;
      const hash = old[from + 1] as number;
      let at = hash & mask;
      while (pairs[2 * at] !== EMPTY) at = (at + 1) & mask;
      pairs[2 * at] = record;
      pairs[2 * at + 1] = hash;
    }
    this.pairs = pairs;
    this.used = this.live;
    return capacity;
  }
}
