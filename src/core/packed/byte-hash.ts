// A fast non-cryptographic hash of bytes for the packed indexes: FNV-1a over the bytes, then
// murmur3's 32-bit finaliser so that the high bits (which pick the sub-table) and the low bits
// (which pick the slot) both depend on every byte. Not resistant to chosen keys: `seed` lets a
// caller draw one per process.

/** FNV-1a's 32-bit offset basis. */
export const HASH_SEED = 0x811c9dc5;

/** The hash of bytes[start, end), as a signed 32-bit integer. */
export function hashBytes(bytes: Uint8Array, start: number, end: number, seed = HASH_SEED): number {
  let h = seed | 0;
  for (let at = start; at < end; at += 1) h = Math.imul(h ^ (bytes[at] as number), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** Whether a[aStart, aEnd) and b[bStart, bEnd) hold the same bytes. */
export function sameBytes(a: Uint8Array, aStart: number, aEnd: number, b: Uint8Array, bStart: number, bEnd: number): boolean {
  if (aEnd - aStart !== bEnd - bStart) return false;
  for (let at = aStart, bt = bStart; at < aEnd; at += 1, bt += 1) if (a[at] !== b[bt]) return false;
  return true;
}
