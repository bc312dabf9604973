// A file in the layout src/store/file/chunked-json.ts writes (a base file, or a snapshot's:
// snapshot-reader.ts; the links last, one a line), read in chunks and parsed a batch of link records
// at a time, instead of one JSON.parse of the whole text (issue 40). At 1,000,000 links (342 MB) that one parse left:
// - the file's text (and the Buffer it was decoded from) alive until a full GC, 326 MiB each;
// - every link's own copies of its account's, domain's and tags' ids and of its id (the key holds
//   one): ~170 MiB. Shared after the parse, they were garbage spread over every page of the old
//   space, which V8 does not give back without a compaction (RSS stayed at 2x the file).
// Here each batch's records share the ids as soon as it is parsed, so their copies die young, and
// no text is kept but the batch being parsed. The result is what JSON.parse of the whole text gives,
// or undefined when the file is laid out otherwise (edited by hand, reformatted): the caller then
// parses the whole text as before, with the same errors.
//
// Why a batch parse is the whole parse: the links object's text is cut only before a `,\n    "`,
// and each piece is parsed as `{piece}` (or as the array of its keys and values, member-pairs.ts,
// which holds the same members in the same order). A cut inside a nested value leaves a bracket open
// in the piece, which then does not parse; so when every piece parses (and none is empty), the pieces
// are the links' members, in order, and assigning them in order gives JSON.parse's object (a later
// duplicate key wins, in the first one's place).
//
// The file is read as bytes, and each batch decoded on its own, straight from the bytes read (its
// text and its braces in one string): no text of a read's size is made, kept across batches, or
// copied to be joined with the next (at 1,000,000 links those strings outlived their batches, and
// were hundreds of MiB of garbage in the old space at the end of the read). The cuts are ASCII, so
// a batch never starts or ends inside a character.
import { isObject, openRegular } from './db-kind.js';
import { LinkIntake, type SinkFor } from './link-intake.js';
import { ColonSpots, memberPairs } from './member-pairs.js';
import { BASE_LAYOUT, type Layout } from './record-layout.js';

/** How much of the file is read at once. */
const READ_BYTES = 8 * 1024 * 1024;
const LINKS_KEY = '\n  "links": {';
const CUT = ',\n    "';
const LINKS_END = '\n  }';
/** Text of link records parsed at once: ~3,000 links of our writer's (see parseBatch), small enough that their garbage dies young. */
const BATCH_CHARS = 1024 * 1024;
const OPEN = '{'.charCodeAt(0);
const CLOSE = '}'.charCodeAt(0);

/** The sizes of the pieces (bytes of a read; bytes of a batch, at least); smaller ones only in tests, to cross every boundary with a small file. */
export interface Pieces {
  readBytes: number;
  batchChars: number;
}

export const BASE_PIECES: Pieces = { readBytes: READ_BYTES, batchChars: BATCH_CHARS };

export interface RecordWise {
  value: Record<string, unknown>;
  /** Whether the sink took every link of value.links, each once, in order (a key read twice: not). */
  sinkKept: boolean;
}

/**
 * The parsed file, when it is ours and laid out as the writer lays it out; null when there is no
 * file; undefined otherwise. Throws NotOurFileError for what openRegular refuses.
 */
export async function readRecordWise(file: string, pieces: Pieces = BASE_PIECES, sinkFor?: SinkFor, layout: Layout = BASE_LAYOUT): Promise<RecordWise | null | undefined> {
  const handle = await openRegular(file, 'it');
  if (!handle) return null;
  try {
    const reader = new RecordReader(pieces, sinkFor, layout);
    for (;;) {
      const room = reader.room();
      const { bytesRead } = await handle.read(room, 0, room.length, null);
      if (bytesRead === 0) return reader.end();
      reader.take(bytesRead);
    }
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  } finally {
    await handle.close();
  }
}

/**
 * The bytes from..to of `bytes` as text, in the V8 heap. Not as latin1 (db-kind.ts reads a whole
 * file so): Node keeps a latin1 text of over 1 MB outside the heap, and V8 counts such memory
 * towards a full collection: a batch's text each, 326 MiB of them at 1,000,000 links, made 7 full
 * collections of the read against 4 (and ~45% more CPU for the read and parse alone).
 */
function textOf(bytes: Buffer, from: number, to: number): string {
  return bytes.toString('utf8', from, to);
}

/** Takes the file's bytes read by read; throws a SyntaxError as soon as they are not in the writer's layout. */
class RecordReader {
  private bytes: Buffer;
  /** The first byte not parsed yet; once the head is read, the byte before it is free (a comma, or the links' brace). */
  private from = 0;
  /** The end of the bytes read. */
  private to = 0;
  /** Where the search for the links' key goes on: the bytes before it were searched. */
  private searched = 0;
  private value: Record<string, unknown> | undefined;
  /** Where the links go, once the head is read. */
  private intake: LinkIntake | undefined;
  private readonly batchBytes: number;
  /** The colons a batch's parse as pairs changed (member-pairs.ts). */
  private readonly colons = new ColonSpots();
  private readonly parseBytes = (from: number, to: number): unknown => JSON.parse(textOf(this.bytes, from, to));

  constructor(
    pieces: Pieces,
    private readonly sinkFor: SinkFor | undefined,
    private readonly layout: Layout,
  ) {
    this.bytes = Buffer.allocUnsafe(pieces.readBytes);
    this.batchBytes = pieces.batchChars;
  }

  /** Where the next read goes: the bytes not parsed yet are moved to the front (with the free byte before them), the buffer grown when they fill it. */
  room(): Buffer {
    const keep = this.value ? this.from - 1 : 0;
    if (keep > 0) {
      this.bytes.copyWithin(0, keep, this.to);
      this.from -= keep;
      this.to -= keep;
      this.searched = Math.max(0, this.searched - keep);
    }
    if (this.to === this.bytes.length) {
      const larger = Buffer.allocUnsafe(2 * this.bytes.length);
      this.bytes.copy(larger, 0, 0, this.to);
      this.bytes = larger;
    }
    return this.bytes.subarray(this.to);
  }

  /** `count` more bytes were read into room(): the batches they complete are parsed. */
  take(count: number): void {
    this.to += count;
    if (!this.value && !this.readHead()) return;
    const read = this.bytes.subarray(0, this.to);
    // A batch ends at a cut at least batchBytes on; the bytes after the last such cut wait for more.
    for (let cut = read.indexOf(CUT, this.from + this.batchBytes); cut !== -1; cut = read.indexOf(CUT, this.from + this.batchBytes)) this.parseBatch(cut);
  }

  end(): RecordWise | undefined {
    if (!this.value) return undefined;
    const rest = this.bytes.subarray(0, this.to);
    // `"links": {}`, the writer's way of no links at all.
    if (this.intake?.links.size === 0 && this.to - this.from < 100 && textOf(rest, this.from, this.to).replace(/\s/g, '') === `}${this.layout.after}`) return this.result();
    const close = rest.lastIndexOf(LINKS_END);
    if (close < this.from || textOf(rest, close + LINKS_END.length, this.to).replace(/\s/g, '') !== this.layout.after) return undefined;
    // None at all: `{` and blanks; otherwise the last line, which has no comma after it.
    if (this.intake?.links.size === 0 && textOf(rest, this.from, close).trim() === '') return this.result();
    const members = rest.subarray(0, close);
    for (let cut = members.indexOf(CUT, this.from + this.batchBytes); cut !== -1; cut = members.indexOf(CUT, this.from + this.batchBytes)) this.parseBatch(cut);
    this.parseBatch(close);
    // The links are in the head's own links object (readHead): the value is whole.
    return this.result();
  }

  private result(): RecordWise {
    return { value: this.value as Record<string, unknown>, sinkKept: this.intake?.sinkKept === true };
  }

  /** Whether the head (all but the links' members) is read; parses it once it is. */
  private readHead(): boolean {
    const at = this.bytes.subarray(0, this.to).indexOf(LINKS_KEY, this.searched);
    if (at === -1) {
      this.searched = Math.max(0, this.to - LINKS_KEY.length);
      return false;
    }
    // The placeholder is followed by what closes the file: it can only be the links of the layout's object.
    const head: unknown = JSON.parse(`${textOf(this.bytes, 0, at)}${LINKS_KEY}}${this.layout.after}`);
    const links = this.layout.linksOf(head);
    if (!links || !isObject(head)) throw new SyntaxError('not the layout of our writer');
    this.value = head;
    this.intake = new LinkIntake(head, links, this.sinkFor);
    // Past the links' brace, which stays the byte before the first member.
    this.from = at + LINKS_KEY.length;
    return true;
  }

  /**
   * The link records from `from` to `end` (a cut's comma, or the links' end), `\n    "id": {...}`
   * with a comma between them, parsed as an array of their keys and values (member-pairs.ts), or,
   * laid out otherwise, as one object: the byte before them (a comma, or the links' brace) and the
   * one at `end` become its braces, and the bytes are decoded as its text. At least BATCH_CHARS of
   * them: over 1,020 members, so that V8 makes such an object a dictionary (an object of fewer
   * members gets a hidden class per key, a million classes for a million links).
   */
  private parseBatch(end: number): void {
    const pairs = this.intake && memberPairs(this.bytes, this.from - 1, end, this.colons, this.parseBytes);
    if (pairs) this.intake?.addPairs(pairs);
    else {
      this.bytes[this.from - 1] = OPEN;
      this.bytes[end] = CLOSE;
      this.intake?.add(JSON.parse(textOf(this.bytes, this.from - 1, end + 1)) as Record<string, unknown>);
    }
    // Past the comma: the next batch starts with the newline before its first key, like the first.
    this.from = end + 1;
  }
}
