// One sub-table of a ByteKeyIndex: open addressing with linear probing over an Int32Array of
// record numbers, beside an Int32Array of their keys' hashes (a probe compares the hash before it
// asks for the key's bytes, and a growth rehashes without reading a key).
/** A slot never used: a probe stops there. */
export const EMPTY = -1;
/** A slot whose record was deleted: a probe goes past it, an insert may reuse it. */
export const DELETED = -2;
const MIN_SLOTS = 16;

/** Where the keys' bytes are: the index stores no key, only record numbers. */
export interface KeySource {
  /** Whether record `record`'s key is exactly these bytes. */
  sameKey(record: number, key: Uint8Array): boolean;
}

export class KeySlots {
  private slots = new Int32Array(MIN_SLOTS).fill(EMPTY);
  private hashes = new Int32Array(MIN_SLOTS);
  /** Records in the slots. */
  live = 0;
  /** Slots not EMPTY (live or DELETED): at most 3/4 of them, so every probe ends at an EMPTY one. */
  private used = 0;

  constructor(private readonly source: KeySource) {}

  get capacity(): number {
    return this.slots.length;
  }

  /** The record under the key, or -1. */
  find(hash: number, key: Uint8Array): number {
    const at = this.slotOf(hash, key);
    return at < 0 ? -1 : (this.slots[at] as number);
  }

  /**
   * Puts `record` under a key not there (throws if it is). Returns the slots this call rehashed:
   * 0, or the old capacity when it grew the table first.
   */
  insert(hash: number, key: Uint8Array, record: number): number {
    if (this.slotOf(hash, key) >= 0) throw new Error('ByteKeyIndex.insert: the key is there already');
    const grown = 4 * (this.used + 1) > 3 * this.slots.length ? this.rehash() : 0;
    const mask = this.slots.length - 1;
    let at = hash & mask;
    while ((this.slots[at] as number) >= 0) at = (at + 1) & mask;
    if (this.slots[at] === EMPTY) this.used += 1;
    this.slots[at] = record;
    this.hashes[at] = hash;
    this.live += 1;
    return grown;
  }

  /** Takes the key out: its record, or -1 if it was not there. */
  delete(hash: number, key: Uint8Array): number {
    const at = this.slotOf(hash, key);
    if (at < 0) return -1;
    const record = this.slots[at] as number;
    this.slots[at] = DELETED;
    this.live -= 1;
    return record;
  }

  private slotOf(hash: number, key: Uint8Array): number {
    const mask = this.slots.length - 1;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const record = this.slots[at] as number;
      if (record === EMPTY) return -1;
      if (record >= 0 && this.hashes[at] === hash && this.source.sameKey(record, key)) return at;
    }
  }

  /** Into twice the slots its live records need (at least as many as now when few were deleted). */
  private rehash(): number {
    const { slots, hashes } = this;
    let size = MIN_SLOTS;
    while (size < 2 * (this.live + 1)) size *= 2;
    if (this.live >= slots.length / 4) size = Math.max(size, 2 * slots.length);
    this.slots = new Int32Array(size).fill(EMPTY);
    this.hashes = new Int32Array(size);
    const mask = size - 1;
    for (let from = 0; from < slots.length; from += 1) {
      const record = slots[from] as number;
      if (record < 0) continue;
      const hash = hashes[from] as number;
      let at = hash & mask;
      while (this.slots[at] !== EMPTY) at = (at + 1) & mask;
      this.slots[at] = record;
      this.hashes[at] = hash;
    }
    this.used = this.live;
    return slots.length;
  }
}
