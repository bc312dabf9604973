// How deeply a JSON text nests, read from its bytes without parsing it. Run before JSON.parse on
// every body a client sends, so that nothing after it (the validator, the journal's serialiser,
// a stream to the console) ever meets a body nested deeper than the limit (D28). One pass, no
// recursion: a body nested 50,000 levels costs what its bytes cost.

export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * True when the text opens more than `limit` objects or arrays inside one another. Brackets
 * inside strings do not count. UTF-8 is safe to read byte by byte here: every byte of a
 * multi-byte character is 0x80 or above, so it is never a quote, backslash or bracket.
 */
export function nestsDeeperThan(bytes: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++; // the escaped character cannot end the string
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}
