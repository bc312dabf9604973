// Where the links' object stands in a file of the layout src/store/file/chunked-json.ts writes, for
// its one reader (db-records.ts): at the top level of a base file, or in a snapshot's `data`
// (snapshot-reader.ts).
import { isObject, notOursBecause } from './db-kind.js';
import { SplitLinkTable } from '../../core/link-table.js';
import type { LinkTable } from '../../core/model.js';

/** Where the links' object of chunked-json.ts stands in a file: the base's top level, or a snapshot's `data`. */
export interface Layout {
  /** What closes the file after the links' object, without its blanks: `}` for a base. */
  after: string;
  /** The links' table of the head (the file parsed with no links), put in place of its empty object, when the head is laid out as it must be. */
  linksOf(head: unknown): LinkTable | undefined;
}

/** A base file: the links last in the top-level object, which is marked as ours (db-kind.ts). */
export const BASE_LAYOUT: Layout = {
  after: '}',
  linksOf: (head) => (isObject(head) && Object.keys(head).at(-1) === 'links' && notOursBecause(head) === undefined ? linksIn(head) : undefined),
};

/** A table put in place of `record.links` when that is an object without members (the links are read into it). */
export function linksIn(record: Record<string, unknown>): LinkTable | undefined {
  const links = record['links'];
  if (!isObject(links) || Object.keys(links).length !== 0) return undefined;
  const table = new SplitLinkTable();
  record['links'] = table;
  return table;
}
