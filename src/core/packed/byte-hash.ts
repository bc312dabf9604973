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

/**
 * a[aStart, aEnd) against b[bStart, bEnd), UTF-8 both, in the order JavaScript compares the strings
 * (UTF-16 units): negative, 0 or positive. UTF-8's byte order is code point order, which differs
 * from UTF-16's in one case: a character past U+FFFF (lead byte F0-F4; a surrogate pair, D800-DBFF,
 * in UTF-16) sorts before one in U+E000-U+FFFF (lead byte EE-EF) in UTF-16.
 */
export function compareAsText(a: Uint8Array, aStart: number, aEnd: number, b: Uint8Array, bStart: number, bEnd: number): number {
  const common = Math.min(aEnd - aStart, bEnd - bStart);
  for (let k = 0; k < common; k += 1) {
    const x = a[aStart + k] as number;
    const y = b[bStart + k] as number;
    if (x === y) continue;
    // The bytes before are equal, so both are at a character's start: lead bytes when both ≥ EE.
    if (x >= 0xee && y >= 0xee && x >= 0xf0 !== y >= 0xf0) return x >= 0xf0 ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return aEnd - aStart - (bEnd - bStart);
}
