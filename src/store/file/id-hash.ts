// One hash of a link id, from its text (a change noted: link-changes.ts) or from its bytes in a base
// file (a line read: base-link-lines.ts), equal for the plain ASCII ids a base's lines are copied for:
// a compaction tells most unchanged lines by it, without making each line's id a string to look up.

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** Its last step: FNV-1a's low bits alone are weak on ids that differ in their last characters. */
const mixed = (hash: number): number => Math.imul(hash ^ (hash >>> 16), 0x45d9f3b) ^ (hash >>> 13);

export function idHash(id: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < id.length; i += 1) hash = Math.imul(hash ^ id.charCodeAt(i), FNV_PRIME);
  return mixed(hash);
}

/** idHash of the ASCII text of `bytes` from `from` to `to`. */
export function idBytesHash(bytes: Uint8Array, from: number, to: number): number {
  let hash = FNV_OFFSET;
  for (let i = from; i < to; i += 1) hash = Math.imul(hash ^ (bytes[i] as number), FNV_PRIME);
  return mixed(hash);
}
