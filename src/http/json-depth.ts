// How deeply a JSON text nests, read from its bytes without parsing it. Run before JSON.parse on
// every body a client sends, so that nothing after it (the validator, the journal's serialiser,
// a stream to the console) ever meets a body nested deeper than the limit (D28). One pass, no
// recursion: a body nested 50,000 levels costs what its bytes cost. The same pass counts the
// fields of an API request body (MAX_JSON_FIELDS).

export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Fields (object members) a request body of the API may hold in all. V8 parses distinct field
 * names slowly (each one a new hidden class): 1 MiB of them, however they are spread over objects,
 * holds the event loop for 100-600 ms in JSON.parse alone, before anything can refuse them. The
 * contract's largest valid body has ~104 (createLink: 4 fields and 50 tags of 2), and every body
 * object is closed (additionalProperties: false), so a body over this is a 400 either way.
 */
export const MAX_JSON_FIELDS = 1000;

const COLON = 0x3a;
const COMMA = 0x2c;

/**
 * Values (array elements and object members, counted by the commas between them) an upstream
 * answer may hold before the proxy judges it no further. Parsing is what costs memory: 16 MiB of
 * `[[],[],…]` is 8 million arrays, about 600 MB of heap, enough to end the process through V8's
 * heap limit in the judging thread; 200,000 empty arrays are about 15 MB. Every answer the
 * contract documents is a closed object with at most 50 tags (about 120 values), and answers far
 * past that (60,000 unknown fields, 150,000 tags) are still judged field by field.
 */
export const MAX_ANSWER_VALUES = 200_000;

/** True when the text opens more than `limit` objects or arrays inside one another (see jsonOverLimits). */
export function nestsDeeperThan(bytes: Uint8Array, limit: number): boolean {
  return jsonOverLimits(bytes, limit, Number.POSITIVE_INFINITY) === 'depth';
}

/**
 * Which limit the text breaks first: 'depth' when it opens more than `depth` objects or arrays
 * inside one another, 'fields' when it holds more than `fields` object members (a colon outside a
 * string is always one), 'values' when more than `values` commas separate its values; undefined
 * when none. Brackets and colons inside strings do not count.
 * UTF-8 is safe to read byte by byte here: every byte of a multi-byte character is 0x80 or above,
 * so it is never a quote, backslash, bracket or colon.
 */
export function jsonOverLimits(bytes: Uint8Array, depthLimit: number, fieldLimit: number, valueLimit = Number.POSITIVE_INFINITY): 'depth' | 'fields' | 'values' | undefined {
  let depth = 0;
  let fields = 0;
  let commas = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++; // the escaped character cannot end the string
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === COLON) {
      if (++fields > fieldLimit) return 'fields';
    } else if (byte === COMMA) {
      if (++commas > valueLimit) return 'values';
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > depthLimit) return 'depth';
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth--;
    }
  }
  return undefined;
}
