// MockData keeps links and tags in plain objects keyed by id (model.ts), and an id is any string
// the API or a provider state accepts: `__proto__` matches the id pattern. Assigning that key
// sets the object's prototype instead of adding an entry, so the link was missing from the data,
// from snapshots and, after the log was replayed, from the mock. Other names (`constructor`,
// `toString`) are plain entries by assignment already; reading and deleting any of them is too.

/** record[key] = value, as an entry of its own whatever the key. */
export function putEntry<T>(record: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
  else record[key] = value;
}
