// A seeded link's line of the base file as UTF-8 bytes, written straight into a chunk: the worker
// thread that writes a large seed's base at start (src/process/seed-base.ts, issue 40) draws the
// links again and encodes each as it draws it. It used to stringify each link: JSON.stringify and
// a text per link, where these bytes cost a pass over each link's characters. A line is exactly what writeRecords
// (chunked-json.ts) writes for it: `\n    "<id>": <JSON.stringify(link)>` (the ',' between lines is the writer's).
// The characters are copied as they are only when JSON leaves them so (printable ASCII but '"' and
// '\'); any other link is stringified and encoded as JSON.stringify gives it (test/store/link-line-bytes.test.ts).
import type { LinkRecord } from '../../core/model.js';
import { BACKSLASH, LAST_PRINTABLE, QUOTE, SPACE } from './json-bytes.js';

const encoder = new TextEncoder();

/** The fixed texts of a line, in JSON.stringify's order of a seeded link's fields. */
const OPEN = '\n    "';
const AFTER_KEY = '": {"id":"';
const ACCOUNT = '","accountId":"';
const DOMAIN = '","domainId":"';
const SLUG = '","slug":"';
const DESTINATION = '","destinationUrl":"';
const TITLE = '","title":"';
const CREATED = '","createdAt":"';
const CLICKS = '","clickCount":';
const TAGS = ',"tagIds":[';

/**
 * Writes `link`'s line into `chunk` from `at`; the offset after it, or
 * -1 when it does not fit (nothing to be read from `chunk` past `at` then). For the links
 * fixtures/seed-link.ts draws: the fields of LinkRecord in the order it gives them, no `extra`.
 */
export function encodeLinkLine(chunk: Uint8Array, at: number, link: LinkRecord): number {
  const fast = plainLine(chunk, at, link);
  if (fast !== undefined) return fast;
  const text = lineText(link.id, link);
  const { read, written } = encoder.encodeInto(text, chunk.subarray(at));
  return read === text.length ? at + written : -1;
}

/** The text writeRecords (chunked-json.ts) writes for a record: the text of a line. */
export function lineText(id: string, record: unknown): string {
  return `\n    ${JSON.stringify(id)}: ${JSON.stringify(record)}`;
}

/** The line copied character by character; undefined when a field is not plain (then nothing counts of what was written). */
function plainLine(chunk: Uint8Array, at: number, link: LinkRecord): number | undefined {
  const { id, title, clickCount, tagIds } = link;
  if (link.extra !== undefined || !Number.isSafeInteger(clickCount) || clickCount < 0) return undefined;
  let p = put(chunk, at, OPEN);
  p = plain(chunk, p, id);
  p = put(chunk, p, AFTER_KEY);
  p = plain(chunk, p, id);
  p = plain(chunk, put(chunk, p, ACCOUNT), link.accountId);
  p = plain(chunk, put(chunk, p, DOMAIN), link.domainId);
  p = plain(chunk, put(chunk, p, SLUG), link.slug);
  p = plain(chunk, put(chunk, p, DESTINATION), link.destinationUrl);
  if (title !== undefined) p = plain(chunk, put(chunk, p, TITLE), title);
  p = plain(chunk, put(chunk, p, CREATED), link.createdAt);
  p = put(chunk, put(chunk, p, CLICKS), String(clickCount));
  p = put(chunk, p, TAGS);
  for (let i = 0; i < tagIds.length; i += 1) p = put(chunk, plain(chunk, put(chunk, p, i === 0 ? '"' : ',"'), tagIds[i] as string), '"');
  p = put(chunk, p, ']}');
  if (p === NOT_PLAIN) return undefined;
  return p === NO_ROOM ? -1 : p;
}

/** What put and plain give once a value was not plain, or the chunk was full: every later step passes it on. */
const NOT_PLAIN = -2;
const NO_ROOM = -1;

/** `text` (ASCII by construction) at `p`. */
function put(chunk: Uint8Array, p: number, text: string): number {
  if (p < 0) return p;
  if (p + text.length > chunk.length) return NO_ROOM;
  for (let i = 0; i < text.length; i += 1) chunk[p + i] = text.charCodeAt(i);
  return p + text.length;
}

/** A value's characters at `p`, when JSON writes each as it is; else NOT_PLAIN. */
function plain(chunk: Uint8Array, p: number, value: unknown): number {
  if (p < 0) return p;
  if (typeof value !== 'string') return NOT_PLAIN;
  if (p + value.length > chunk.length) return NO_ROOM;
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code < SPACE || code > LAST_PRINTABLE || code === QUOTE || code === BACKSLASH) return NOT_PLAIN;
    chunk[p + i] = code;
  }
  return p + value.length;
}

/** The size of a chunk of lines (a line that does not fit in an empty one gets a chunk of its own size). */
export const LINE_CHUNK_BYTES = 1 << 20;

/** Whole lines, and where each ends in `bytes`. */
export interface LineChunk {
  bytes: Uint8Array;
  ends: Uint32Array;
}

/**
 * Links' lines, in the order they are added, handed to `emit` a chunk of about `size` bytes at a
 * time (each in a buffer of its own, to be transferred). A seed adds each link as it draws it, its
 * fields still in the CPU's caches: encoded later, in page order, a million links cost 3-4 times as
 * much (each field a miss; measured 29 Nov).
 */
export class LineChunker {
  private chunk: Uint8Array;
  private at = 0;
  private ends: number[] = [];

  constructor(
    private readonly emit: (chunk: LineChunk) => void,
    private readonly size = LINE_CHUNK_BYTES,
  ) {
    this.chunk = new Uint8Array(size);
  }

  add(link: LinkRecord): void {
    for (;;) {
      const end = encodeLinkLine(this.chunk, this.at, link);
      if (end >= 0) {
        this.at = end;
        this.ends.push(end);
        return;
      }
      // Full: handed on, and the line written again into the next chunk, twice as large if it was alone in this one.
      if (this.ends.length === 0) this.chunk = new Uint8Array(this.chunk.length * 2);
      else this.flush();
    }
  }

  /** Hands on the lines not yet handed on. */
  flush(): void {
    if (this.ends.length === 0) return;
    this.emit({ bytes: this.chunk.subarray(0, this.at), ends: Uint32Array.from(this.ends) });
    this.chunk = new Uint8Array(this.size);
    this.at = 0;
    this.ends = [];
  }
}
