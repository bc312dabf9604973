// A list of keys copied as bytes (PackedLinkTable.keysNow): one Buffer of their UTF-8 bytes and
// an Int32Array of where each ends, read back as strings one at a time. A list of a million ids is
// ~20 MB off the heap and two objects on it, where an array of their strings is a million objects.

/** Copies the keys of `records` (at most `count`) into one list; `length` and `copy` read a record's key. */
export function keysOf(records: Iterable<number>, count: number, length: (n: number) => number, copy: (n: number, target: Uint8Array, to: number) => number): Iterable<string> {
  const picked = new Int32Array(count);
  let keys = 0;
  let bytes = 0;
  for (const n of records) {
    if (keys === count) break;
    picked[keys] = n;
    keys += 1;
    bytes += length(n);
  }
  const text = Buffer.allocUnsafe(bytes);
  const ends = new Int32Array(keys);
  let at = 0;
  for (let k = 0; k < keys; k += 1) {
    at += copy(picked[k] as number, text, at);
    ends[k] = at;
  }
  return {
    *[Symbol.iterator](): Generator<string> {
      for (let k = 0, start = 0; k < keys; start = ends[k] as number, k += 1) yield text.toString('utf8', start, ends[k]);
    },
  };
}
