// The lines of a base file's links, read back as bytes for a compaction to copy (carried-base.ts): in
// the writer's layout (chunked-json.ts) each link is one line, `\n    "<id>": <its JSON>`, the lines
// joined by ',' inside the `"links"` member, which comes last. A file in any other layout (edited by
// hand, written by another tool) is refused with NotCarried as soon as that shows, and the caller
// serialises every link instead: nothing is copied from a line this cannot read exactly.
import { open, type FileHandle } from 'node:fs/promises';
import { idBytesHash } from './id-hash.js';
import { BACKSLASH, CLOSE_BRACE, COLON, COMMA, LAST_PRINTABLE, NEWLINE, OPEN_BRACE, QUOTE, SPACE } from './json-bytes.js';

/** The base is not in a layout whose lines can be copied. */
export class NotCarried extends Error {}

/**
 * The buffer the lines are read into: a link's line longer than it (a contract FILE's fields can make
 * records of any size) refuses the copy, and the compaction serialises every link.
 */
export const LINE_BUFFER_BYTES = 1 << 20;
/** Read at a time: the snapshot reader's turn (snapshot-reader.ts). */
const READ_BYTES = 256 * 1024;

const MEMBER = Buffer.from('\n  "links": {');
const LINE_START = Buffer.from('\n    "');

/** `next` found no whole line in what is read: `fill`, then ask again. */
export const MORE = Symbol('more');

/**
 * A line: the bytes of `buffer` from `from` (its '\n') to `to` (its JSON's end, no ','), its id's
 * from `idFrom` to `idTo` (`id` makes it a string), its id's idBytesHash: valid until `next` or
 * `fill` is called again.
 */
export interface LinkLine {
  from: number;
  to: number;
  idFrom: number;
  idTo: number;
  hash: number;
}

export class BaseLinkLines {
  readonly buffer = Buffer.allocUnsafeSlow(LINE_BUFFER_BYTES);
  private start = 0;
  private end = 0;
  private position = 0;
  private ended = false;
  private done = false;
  private readonly line: LinkLine = { from: 0, to: 0, idFrom: 0, idTo: 0, hash: 0 };

  private constructor(private readonly handle: FileHandle) {}

  /** NotCarried when there is no file (removed by hand while the mock ran): the compaction writes it whole. */
  static async open(file: string): Promise<BaseLinkLines> {
    try {
      return new BaseLinkLines(await open(file, 'r'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new NotCarried(`${file} is not there`);
      throw error;
    }
  }

  close(): Promise<void> {
    return this.handle.close();
  }

  /** Reads up to the links' opening brace; NotCarried when the file has no `"links"` member of the layout. */
  async seekLinks(): Promise<void> {
    for (;;) {
      const at = this.buffer.indexOf(MEMBER, this.start);
      if (at !== -1 && at + MEMBER.length <= this.end) {
        this.start = at + MEMBER.length;
        return;
      }
      if (this.ended) throw new NotCarried('the base has no "links" member of the writer\'s layout');
      // Keep what could be the start of the member name cut by the end of the read.
      this.start = Math.max(this.start, this.end - MEMBER.length);
      await this.fill();
    }
  }

  /** The next link's line; null after the last; MORE when it is not read whole yet. */
  next(): LinkLine | null | typeof MORE {
    if (this.done) return null;
    const buffer = this.buffer;
    const at = this.start;
    if (at >= this.end) return MORE;
    // `"links": {}`: no line at all.
    if (buffer[at] === CLOSE_BRACE) return this.finish();
    if (buffer[at] !== NEWLINE) throw new NotCarried(`unexpected byte ${buffer[at]} between the links' lines`);
    const end = buffer.indexOf(NEWLINE, at + 1);
    if (end === -1 || end >= this.end) return MORE;
    // `\n  }`: the member's end.
    if (end - at === 4 && buffer[at + 3] === CLOSE_BRACE && buffer[at + 1] === SPACE && buffer[at + 2] === SPACE) return this.finish();
    return this.read(at, end);
  }

  /** The line's id (plain ASCII: `read` checked it). */
  id(line: LinkLine): string {
    return this.buffer.toString('latin1', line.idFrom, line.idTo);
  }

  /** Moves what is left to the buffer's start and reads more after it; NotCarried at the file's end or for a line longer than the buffer. */
  async fill(): Promise<void> {
    if (this.ended) throw new NotCarried('the base ends inside its links');
    const left = this.end - this.start;
    if (left === this.buffer.length) throw new NotCarried(`a link's line is longer than ${LINE_BUFFER_BYTES} bytes`);
    this.buffer.copy(this.buffer, 0, this.start, this.end);
    this.start = 0;
    this.end = left;
    const { bytesRead } = await this.handle.read(this.buffer, left, Math.min(READ_BYTES, this.buffer.length - left), this.position);
    this.position += bytesRead;
    this.end += bytesRead;
    if (bytesRead === 0) this.ended = true;
  }

  private finish(): null {
    this.done = true;
    return null;
  }

  /** The line from `at` ('\n') to `end` (the next '\n'): `\n    "<id>": {…}` with a ',' or none after. */
  private read(at: number, end: number): LinkLine {
    const buffer = this.buffer;
    if (buffer.compare(LINE_START, 0, LINE_START.length, at, at + LINE_START.length) !== 0) throw new NotCarried('a link line without the layout\'s indent');
    const idStart = at + LINE_START.length;
    let idEnd = idStart;
    // The id as the key's JSON gives it: plain ASCII only, no escape (then the line is the id's own text).
    while (idEnd < end && buffer[idEnd] !== QUOTE) {
      const byte = buffer[idEnd] as number;
      if (byte === BACKSLASH || byte < SPACE || byte > LAST_PRINTABLE) throw new NotCarried('a link id that is not plain ASCII');
      idEnd += 1;
    }
    const to = buffer[end - 1] === COMMA ? end - 1 : end;
    if (idEnd + 3 >= to || buffer[idEnd + 1] !== COLON || buffer[idEnd + 2] !== SPACE || buffer[idEnd + 3] !== OPEN_BRACE || buffer[to - 1] !== CLOSE_BRACE) {
      throw new NotCarried('a link line that is not `"<id>": {…}`');
    }
    this.start = end;
    const line = this.line;
    line.from = at;
    line.to = to;
    line.idFrom = idStart;
    line.idTo = idEnd;
    line.hash = idBytesHash(buffer, idStart, idEnd);
    return line;
  }
}
