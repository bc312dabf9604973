// A file in the layout src/store/file/chunked-json.ts writes (a base file, or a snapshot's:
// snapshot-reader.ts; the links last, one a line), read in chunks and parsed a batch of link records
// at a time, instead of one JSON.parse of the whole text (issue 40). At 1,000,000 links (342 MB) that one parse left:
// - the file's text (and the Buffer it was decoded from) alive until a full GC, 326 MiB each;
// - every link's own copies of its account's, domain's and tags' ids and of its id (the key holds
//   one): ~170 MiB. Shared after the parse, they were garbage spread over every page of the old
//   space, which V8 does not give back without a compaction (RSS stayed at 2x the file).
// Here each batch's records share the ids as soon as it is parsed, so their copies die young, and
// no text is kept but the chunk being read. The result is what JSON.parse of the whole text gives,
// or undefined when the file is laid out otherwise (edited by hand, reformatted): the caller then
// parses the whole text as before, with the same errors.
//
// Why a batch parse is the whole parse: the links object's text is cut only before a `,\n    "`,
// and each piece is parsed as `{piece}`. A cut inside a nested value leaves a bracket open in the
// piece, which then does not parse; so when every piece parses (and none is empty), the pieces are
// the links' members, in order, and assigning them in order gives JSON.parse's object (a later
// duplicate key wins, in the first one's place).
import { StringDecoder } from 'node:string_decoder';
import { putEntry } from '../../core/own-entry.js';
import { TagLists } from '../../core/tag-lists.js';
import { isObject, openRegular } from './db-kind.js';
import { BASE_LAYOUT, type Layout } from './record-layout.js';

/** How much of the file is read at once. */
const READ_BYTES = 8 * 1024 * 1024;
const LINKS_KEY = '\n  "links": {';
const CUT = ',\n    "';
const LINKS_END = '\n  }';
/** Text of link records parsed at once: ~3,000 links of our writer's (see parseMembers), small enough that their garbage dies young. */
const BATCH_CHARS = 1024 * 1024;

/** The sizes of the pieces; smaller ones only in tests, to cross every boundary with a small file. */
export interface Pieces {
  readBytes: number;
  batchChars: number;
}

export const BASE_PIECES: Pieces = { readBytes: READ_BYTES, batchChars: BATCH_CHARS };

export interface RecordWise {
  value: Record<string, unknown>;
  /** The keys of value.links, as read (the store keeps them: src/store/file/log-file-store.ts). */
  linkIds: Set<string>;
  /** Whether the sink took every link of value.links, each once, in order (a key read twice: not). */
  sinkKept: boolean;
}

/**
 * Takes each link as it is parsed, while it is young and in the CPU's caches: the start checks and
 * indexes it then (src/store/file/checked-state.ts) instead of in a walk of a million links after
 * the read. False: it takes no more (something is wrong; the read goes on).
 */
export interface LinkSink {
  take(id: string, link: unknown): boolean;
}

/** The sink for the links of a file whose head (its links empty, but the same object they are put in) is `head`; none: no sink. */
export type SinkFor = (head: Record<string, unknown>) => LinkSink | undefined;

/**
 * The parsed file, when it is ours and laid out as the writer lays it out; null when there is no
 * file; undefined otherwise. Throws NotOurFileError for what openRegular refuses.
 */
export async function readRecordWise(file: string, pieces: Pieces = BASE_PIECES, sinkFor?: SinkFor, layout: Layout = BASE_LAYOUT): Promise<RecordWise | null | undefined> {
  const handle = await openRegular(file, 'it');
  if (!handle) return null;
  try {
    const reader = new RecordReader(pieces.batchChars, sinkFor, layout);
    const buffer = Buffer.allocUnsafe(pieces.readBytes);
    const decoder = new StringDecoder('utf8');
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, pieces.readBytes, null);
      if (bytesRead === 0) return reader.end(decoder.end());
      if (!reader.take(decoder.write(buffer.subarray(0, bytesRead)))) return undefined;
    }
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  } finally {
    await handle.close();
  }
}

/** Takes the file's text piece by piece; false (or a SyntaxError) as soon as it is not in the writer's layout. */
class RecordReader {
  /** Text read but not parsed yet. */
  private rest = '';
  /** Where the search for the links' key goes on: the text before it was searched. */
  private searched = 0;
  private value: Record<string, unknown> | undefined;
  private links: Record<string, unknown> = {};
  private readonly linkIds = new Set<string>();
  /** An id → the one instance of it the head's records hold. */
  private readonly shared = new Map<string, string>();
  private sink: LinkSink | undefined;
  /** False once the sink takes no more. */
  private sinking = false;
  private readonly tagLists = new TagLists();

  constructor(
    private readonly batchChars: number,
    private readonly sinkFor: SinkFor | undefined,
    private readonly layout: Layout,
  ) {}

  take(text: string): boolean {
    this.rest += text;
    if (!this.value && !this.readHead()) return true;
    const cut = this.rest.lastIndexOf(CUT);
    if (cut === -1) return true;
    this.parseMembers(this.rest.slice(0, cut));
    // Past the comma: the next piece starts with the newline before its first key, like the first.
    this.rest = this.rest.slice(cut + 1);
    return true;
  }

  end(text: string): RecordWise | undefined {
    this.rest += text;
    // `"links": {}`, the writer's way of no links at all.
    if (this.value && this.linkIds.size === 0 && this.rest.length < 100 && this.rest.replace(/\s/g, '') === `}${this.layout.after}`) return { value: this.value, linkIds: this.linkIds, sinkKept: this.sink !== undefined };
    const close = this.rest.lastIndexOf(LINKS_END);
    if (!this.value || close === -1 || this.rest.slice(close + LINKS_END.length).replace(/\s/g, '') !== this.layout.after) return undefined;
    const members = this.rest.slice(0, close);
    // None at all: `{` and blanks; otherwise the last line, which has no comma after it.
    if (members.trim() !== '' || this.linkIds.size > 0) this.parseMembers(members);
    // The links are in the head's own links object (readHead): the value is whole.
    return { value: this.value, linkIds: this.linkIds, sinkKept: this.sink !== undefined };
  }

  /** Whether the head (all but the links' members) is read; parses it once it is. */
  private readHead(): boolean {
    const at = this.rest.indexOf(LINKS_KEY, this.searched);
    if (at === -1) {
      this.searched = Math.max(0, this.rest.length - LINKS_KEY.length);
      return false;
    }
    // The placeholder is followed by what closes the file: it can only be the links of the layout's object.
    const head: unknown = JSON.parse(`${this.rest.slice(0, at)}${LINKS_KEY}}${this.layout.after}`);
    const links = this.layout.linksOf(head);
    if (!links || !isObject(head)) throw new SyntaxError('not the layout of our writer');
    this.links = links;
    this.value = head;
    this.shareHeadIds(head);
    this.sink = this.sinkFor?.(head);
    this.sinking = this.sink !== undefined;
    this.rest = this.rest.slice(at + LINKS_KEY.length);
    return true;
  }

  /**
   * Link records between cuts, `\n    "id": {...}` with a comma between them, parsed as objects of
   * at least BATCH_CHARS of text: over 1,020 members, so that V8 makes each a dictionary (an object
   * of fewer members gets a hidden class per key, a million classes for a million links).
   */
  private parseMembers(members: string): void {
    for (let start = 0; start < members.length; ) {
      let end = members.indexOf(CUT, start + this.batchChars);
      if (end === -1) end = members.length;
      this.addBatch(JSON.parse(`{${members.slice(start, end)}}`) as Record<string, unknown>);
      start = end + 1;
    }
  }

  private addBatch(batch: Record<string, unknown>): void {
    let count = 0;
    for (const id in batch) {
      const link = batch[id];
      putEntry(this.links, id, link);
      const size = this.linkIds.size;
      this.linkIds.add(id);
      // A key read before: its first link, which the sink took, is not the one kept (a later duplicate wins).
      if (this.linkIds.size === size) this.sink = undefined;
      if (this.sink && this.sinking) this.sinking = this.sink.take(id, link);
      else if (isObject(link)) this.shareIds(link, id);
      count += 1;
    }
    // `{}`: blanks between two commas, which the whole text would not parse with.
    if (count === 0) throw new SyntaxError('an empty member');
  }

  /** The ids a link names, pointed at the head's instances, and its tags' list shared (MockState, src/core/state.ts, would do it later, in the old space). */
  private shareIds(link: Record<string, unknown>, key: string): void {
    if (link['id'] === key) link['id'] = key;
    link['accountId'] = this.shared.get(link['accountId'] as string) ?? link['accountId'];
    link['domainId'] = this.shared.get(link['domainId'] as string) ?? link['domainId'];
    // The list every link of the same tags shares (src/core/tag-lists.ts): the parsed arrays die young.
    if (Array.isArray(link['tagIds'])) link['tagIds'] = this.tagLists.shared(link['tagIds'], (id) => this.shared.get(id) ?? id);
  }

  private shareHeadIds(head: Record<string, unknown>): void {
    const share = (record: unknown): void => {
      if (isObject(record) && typeof record['id'] === 'string') this.shared.set(record['id'], record['id']);
    };
    share(head['defaultDomain']);
    for (const account of Array.isArray(head['accounts']) ? head['accounts'] : []) {
      share(account);
      if (isObject(account) && Array.isArray(account['domains'])) account['domains'].forEach(share);
    }
    const tags = isObject(head['tags']) ? head['tags'] : {};
    for (const id in tags) share(tags[id]);
  }
}
