// The bytes of JSON's characters that the readers and writers of the writer's layout look for
// (chunked-json.ts): a batch's members (member-pairs.ts), a base's lines (base-link-lines.ts), a
// link's line encoded as bytes (link-line-bytes.ts), the change log's lines (change-log.ts).

export const NEWLINE = 0x0a;
export const SPACE = 0x20;
export const QUOTE = 0x22;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_BRACKET = 0x5b;
export const BACKSLASH = 0x5c;
export const CLOSE_BRACKET = 0x5d;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
/** The last printable ASCII character (`~`); SPACE is the first. */
export const LAST_PRINTABLE = 0x7e;
