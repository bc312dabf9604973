// The pause between the slices of a long task of the file store (a base's write, a compaction, a
// snapshot's copy, a replace's indexing): the rest of this turn of the event loop runs first, the
// requests waiting in it among them. One helper, not a copy in each of those files.

/** Resolves in this turn's check phase (setImmediate): after the I/O callbacks waiting now. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
