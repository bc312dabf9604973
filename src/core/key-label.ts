// The name of an account made for an API key (--accept-any-key, POST /__admin/accounts without a
// `name`): readable in the console's list, yet never the whole key. Random keys all start `key-`,
// so the journal's mask (the first characters) would name them all alike: the last characters are
// shown too, at most four at each end and, like the journal's mask, never more than half the key.

const MARK = '…';

/** `key-0123456789abcdef` → `key-…cdef`; `ci-job-a` → `ci…-a`; a key under 4 characters shows none. */
export function keyLabel(apiKey: string): string {
  const shown = Math.min(4, Math.floor(apiKey.length / 4));
  return shown === 0 ? MARK : `${apiKey.slice(0, shown)}${MARK}${apiKey.slice(-shown)}`;
}

/** The name of an account made for this key when nobody named it. */
export function accountNameFor(apiKey: string): string {
  return `Account for key ${keyLabel(apiKey)}`;
}
