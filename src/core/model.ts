// The persisted data: what the lowdb JSON file holds. Plain, readable JSON; records point to each
// other by id so that a user can open the file and follow it.

// 2: every db file carries the marker `"kind": "shortlink-mock-db"` and its logs a generation line;
// a build that reads only 1 refuses it instead of appending logs the newer build would ignore.
export const DATA_FORMAT_VERSION = 2;

export interface DomainRecord {
  id: string;
  name: string;
}

export interface AccountRecord {
  id: string;
  name: string;
  apiKey: string;
  linkLimit: number;
  /** Custom domains, usable by this account only (D8). */
  domains: DomainRecord[];
}

export interface TagRecord {
  id: string;
  accountId: string;
  name: string;
}

export interface LinkRecord {
  id: string;
  accountId: string;
  domainId: string;
  slug: string;
  destinationUrl: string;
  title?: string;
  createdAt: string;
  clickCount: number;
  /** Frozen and shared by the links of the same tags once loaded (src/core/tag-lists.ts): replaced, never changed in place. */
  tagIds: readonly string[];
  /**
   * With a contract FILE (--contract): the values of the Link fields FILE adds, by name, stored once
   * when the link is made (src/core/link-shape.ts). Absent with the shipped contract.
   */
  extra?: Record<string, unknown>;
}

export interface MockData {
  formatVersion: number;
  seed: number;
  /** The service's default domain, usable by every account (D8). */
  defaultDomain: DomainRecord;
  accounts: AccountRecord[];
  /** Keyed by id: O(1) lookup and delete, insertion order kept. */
  tags: Record<string, TagRecord>;
  /** Keyed by id, in insertion order, spread over tables that each grow by themselves (link-table.ts). */
  links: LinkTable;
}

/**
 * The data's links by id, in the order a plain object keeps (insertion; a key put again keeps its
 * place; one deleted and put again goes last). Implemented by SplitLinkTable (link-table.ts); in a
 * db or snapshot file it is the plain object `"links": {...}` (toJSON).
 */
export interface LinkTable extends Iterable<[string, LinkRecord]> {
  readonly size: number;
  get(id: string): LinkRecord | undefined;
  has(id: string): boolean;
  set(id: string, link: LinkRecord): this;
  delete(id: string): boolean;
  /** Lazily, in order: the links there when the listing began and still there when it gets to them, each once (one put meanwhile is not seen). */
  keys(): IterableIterator<string>;
  values(): IterableIterator<LinkRecord>;
  toJSON(): Record<string, LinkRecord>;
}
