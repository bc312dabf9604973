// Strings a stored link keeps for as long as it is stored are copies of its own, never V8's
// internalized instances. JSON.parse internalizes every object key it reads and every string value
// of at most 10 characters on Node 20 (V8 11.3; 9 on Node 22 and 24; longer ones it copies), so a
// file's link ids (the keys of its links) and its slugs (7 characters) each landed in V8's string
// table: ~2,000,000 entries at 1,000,000 links. Every full collection walks that table twice inside
// its pause, to update its pointers and to clear its dead entries: 60–80 ms of a 100 ms pause
// (bench/string-table.md). A copy is the heap's alone; the internalized one dies with the parsed batch.

/** Longer strings are never internalized by JSON.parse (on Node 20, 22 or 24): kept as they are. */
const LONGEST_INTERNALIZED_VALUE = 10;

/**
 * `text`, as a string the string table does not hold. One character is kept as it is: V8 keeps every
 * one-character string in a table of its own, internalized, whatever is done to it.
 */
export function ownText(text: string): string {
  if (text.length > LONGEST_INTERNALIZED_VALUE || text.length < 2) return text;
  // A sum under 13 characters is a flat copy, not a cons string; a part of it under 13 is copied again.
  return `${text} `.slice(0, -1);
}
