// A batch of the links' members (db-records.ts), `\n    "id": {...},\n    "id": {...}`, parsed as an
// array of its keys and values in turn, not as an object: each member's colon is made a comma, the
// batch's braces brackets. JSON.parse of an object of ~3,000 members makes a dictionary of them and
// internalizes every key, an entry of V8's string table each (bench/string-table.md); the same bytes
// as an array parse in ~0.6 of the time (the 1,000,000 links of bench:scale's db: 2.1 s against
// 3.3–3.5 s of JSON.parse, bench/string-table.md).
//
// Why the array is the object's members: only a colon right after a key that starts a line of the
// writer's layout (`,\n    "` or the batch's first `\n    "`) is changed. Changing any other colon
// (one inside a member's value) leaves an object `{"a", 1}`, and missing a member's leaves `"id": `
// inside an array: neither parses. So when the array parses, it holds every member, key then value,
// in order. When it does not, or the bytes are laid out otherwise, the colons are put back and the
// batch is left to the object's parse, with its errors.

import { BACKSLASH, CLOSE_BRACKET, COLON, COMMA, NEWLINE, OPEN_BRACKET, QUOTE, SPACE } from './json-bytes.js';

/** A member's line: its newline, then this many spaces, then its key's quote. */
const INDENT = 4;

/** Where the colons changed in a batch were: reused from batch to batch, grown as a batch needs. */
export class ColonSpots {
  spots = new Int32Array(4096);
  count = 0;

  add(at: number): void {
    if (this.count === this.spots.length) {
      const larger = new Int32Array(2 * this.spots.length);
      larger.set(this.spots);
      this.spots = larger;
    }
    this.spots[this.count] = at;
    this.count += 1;
  }
}

/**
 * The members between `open` (the byte before the first member's newline) and `close` (the byte after
 * the last member) as [key, value, key, value, ...]; undefined when they are not in the writer's
 * layout or the array does not parse, with the bytes as they were but for the two ends, which the
 * caller sets again. `parse` decodes and parses bytes open..close.
 */
export function memberPairs(bytes: Buffer, open: number, close: number, spots: ColonSpots, parse: (from: number, to: number) => unknown): unknown[] | undefined {
  spots.count = 0;
  if (!markColons(bytes, open + 1, close, spots)) return restored(bytes, spots);
  bytes[open] = OPEN_BRACKET;
  bytes[close] = CLOSE_BRACKET;
  let pairs: unknown;
  try {
    pairs = parse(open, close + 1);
  } catch (error) {
    if (error instanceof SyntaxError) return restored(bytes, spots);
    throw error;
  }
  return Array.isArray(pairs) && pairs.length === 2 * spots.count ? pairs : restored(bytes, spots);
}

/** Makes each member's colon a comma (noting where); false at the first line not in the layout. */
function markColons(bytes: Buffer, first: number, close: number, spots: ColonSpots): boolean {
  let line = first;
  while (line < close) {
    if (!startsMember(bytes, line, close)) return false;
    const colon = afterKey(bytes, line + 1 + INDENT, close);
    if (colon === -1 || bytes[colon] !== COLON) return false;
    bytes[colon] = COMMA;
    spots.add(colon);
    line = nextMemberLine(bytes, colon + 1, close);
  }
  return true;
}

/** Whether a member's line starts at `at`: a newline, INDENT spaces, a quote. */
function startsMember(bytes: Buffer, at: number, close: number): boolean {
  if (at + 1 + INDENT >= close || bytes[at] !== NEWLINE || bytes[at + 1 + INDENT] !== QUOTE) return false;
  for (let i = at + 1; i <= at + INDENT; i += 1) if (bytes[i] !== SPACE) return false;
  return true;
}

/** The byte after the key whose opening quote is at `quote` (its escapes skipped); -1 when it does not end before `close`. */
function afterKey(bytes: Buffer, quote: number, close: number): number {
  for (let i = quote + 1; i < close; i += 1) {
    const byte = bytes[i];
    if (byte === QUOTE) return i + 1;
    if (byte === BACKSLASH) i += 1;
  }
  return -1;
}

/** The next line after `from` that follows a comma (the next member's, in the writer's layout); `close` when none does. */
function nextMemberLine(bytes: Buffer, from: number, close: number): number {
  for (let at = bytes.indexOf(NEWLINE, from); at !== -1 && at < close; at = bytes.indexOf(NEWLINE, at + 1)) {
    if (bytes[at - 1] === COMMA && startsMember(bytes, at, close)) return at;
  }
  return close;
}

function restored(bytes: Buffer, spots: ColonSpots): undefined {
  for (let i = 0; i < spots.count; i += 1) bytes[spots.spots[i] as number] = COLON;
  spots.count = 0;
  return undefined;
}
