// The one interface between the link rules (src/core/links.ts) and where the data lives: the
// process's own memory with its file (src/store/file/local-link-store.ts) today, Redis beside it. The
// store knows facts, never rules: the core asks, decides, and writes.
//
// A create is one atomic step (D22): the core reads the facts it needs, decides in the order of
// D19, and hands the store the link with the facts it was decided on (a place under the limit,
// free tag names, a free slug); the store stores it only if they all still hold at that one
// moment, and otherwise says which did not, in that order, so the core answers or decides again.
// Nothing is claimed across awaits, so nothing is left claimed by a request that died. No
// version is compared on the account's link count: a create conflicts with another only when
// the limit is truly reached or both want the same name. What is rarely contended (one link's
// update racing its delete) is an optimistic write that answers whether the link was still there.
import type { Awaitable } from './awaitable.js';
import type { LinkPosition } from './link-order.js';
import type { AccountRecord, DomainRecord, LinkRecord, MockData, TagRecord } from './model.js';
import type { DataAtMoment, KnownLinks } from './snapshots.js';

export interface DomainEntry {
  domain: DomainRecord;
  /** The account that owns this custom domain; undefined for the default domain (D8). */
  ownerId?: string;
}

/** Whether the store can answer now (Redis reachable); a process's own store always can. */
export type StoreHealth = { ok: true } | { ok: false; reason: string };

/** What a store's failure to reach its data says first: a 500 that names it (D25), not a bug. */
export const STORE_UNAVAILABLE = 'store unavailable: ';

export function isStoreUnavailable(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith(STORE_UNAVAILABLE);
}

/**
 * A seeded account that cannot be stored as it is, and nothing of it was: one of its ids is
 * another record's ('id': records point to their account by id), or one of its slugs was taken
 * since it was seeded ('slug': seed it again, clear of the slugs taken now).
 */
export class SeededAccountClash extends Error {
  constructor(readonly clash: 'id' | 'slug') {
    super(
      clash === 'id'
        ? 'the account seeded for this key would reuse an existing id, tag name or domain; use another key'
        : 'a slug seeded for this key was taken since it was seeded',
    );
    this.name = 'SeededAccountClash';
  }
}

export interface SeededAccount {
  account: AccountRecord;
  tags: TagRecord[];
  links: LinkRecord[];
}

/** Where a page of an account's links starts, and how many links it holds at most. */
export interface PageRead {
  after?: LinkPosition;
  limit: number;
}

/** A link to create, with the facts the core decided on. */
export interface NewLink {
  link: LinkRecord;
  /** The account record the create was decided on, as the store handed it out (a store that remembers accounts checks it). */
  account?: AccountRecord;
  /** The account's limit the core checked against (D13). */
  linkLimit: number;
  /** Tags the link names that do not exist yet: each is made with the link, if its name is still free. */
  newTags: readonly TagRecord[];
}

/**
 * `stored`, or the first fact that did not hold: `reread` (the account was handed out from the
 * store's memory, and it, or the key's scenarios, changed since: the request is to be decided
 * again on a fresh read), `gone` (the account, domain or a tag is not there: the data was
 * replaced), `limit`, `tag-name` (another request named a tag first), `slug`, `id` (the link id
 * is taken).
 */
export type CreateOutcome = 'stored' | 'reread' | 'gone' | 'limit' | 'tag-name' | 'slug' | 'id';

/**
 * What an update changes: only the fields it sends, so two updates of different fields both stay.
 * `dropTitle`: the link's `title` goes (a new destination: destinationChange).
 */
export type LinkChange = Partial<Pick<LinkRecord, 'destinationUrl' | 'tagIds' | 'extra'>> & { dropTitle?: true };

/**
 * The change of a link's destination. A seeded link's `title` is the title of its destination's
 * website (the API document: "present only if available"); the mock never fetches a page, so a
 * new destination has no title available, and the old one's goes with the old destination.
 */
export function destinationChange(link: LinkRecord, destinationUrl: string): LinkChange {
  return link.title !== undefined && destinationUrl !== link.destinationUrl ? { destinationUrl, dropTitle: true } : { destinationUrl };
}

/**
 * Reads answer Awaitable: the stores of one process have the facts at once and answer them as
 * they are, so a request in memory mode pays no microtask per read (the create path reads five
 * facts); Redis answers with promises.
 */
export interface LinkStore {
  /** Human-readable location for logs: a file path, ':memory:' or a Redis URL. */
  readonly location: string;

  defaultDomain(): Awaitable<DomainRecord>;
  accountByKey(apiKey: string): Awaitable<AccountRecord | undefined>;
  /**
   * Whether what an account record handed out from the store's memory was based on still holds
   * (read again now); true at once for a record read fresh. Stores that never answer from memory
   * leave it out.
   */
  stillCurrent?(account: AccountRecord): Promise<boolean>;
  accounts(): Promise<AccountRecord[]>;
  /** How many accounts there are, without reading them (--max-any-key-accounts). */
  accountCount(): Awaitable<number>;
  /** By name, case-insensitively. */
  domainByName(name: string): Awaitable<DomainEntry | undefined>;
  domainById(id: string): Awaitable<DomainRecord | undefined>;
  linkById(id: string): Awaitable<LinkRecord | undefined>;
  linkAt(domainId: string, slug: string): Awaitable<LinkRecord | undefined>;
  /** The account's links, in no particular order: every one, so only where all are truly needed (tests, tools). */
  linksOf(accountId: string): Promise<LinkRecord[]>;
  /**
   * At most `limit` of the account's links, newest first (link-order.ts), each older than `after`
   * (from the newest when absent; `after` need not be a link that still exists). Read from the
   * store's index of the account's links: O(log n + limit), never a read of them all.
   */
  linkPageOf(accountId: string, page: PageRead): Awaitable<LinkRecord[]>;
  linkCount(accountId: string): Awaitable<number>;
  totalLinks(): Promise<number>;
  tagById(id: string): Awaitable<TagRecord | undefined>;
  tagByName(accountId: string, name: string): Awaitable<TagRecord | undefined>;

  /**
   * The account's tag of this name: the one that exists, or `tag` itself, stored now, when this
   * claim is the first. `created` says which. (Updates; a create names its new tags in createLink.)
   */
  claimTagName(tag: TagRecord): Promise<{ tag: TagRecord; created: boolean }>;

  /**
   * Stores a new link and the new tags it names, if at one moment: its account, domain and existing
   * tags are there; the account holds fewer than `linkLimit` links; each new tag's name is free in
   * the account; the slug is free in the domain; the id is new. Otherwise stores nothing and
   * answers the first fact that did not hold, in that order (the order of D19). Resolves once it is
   * as durable as the store makes it; if it cannot be, nothing of it stays, and it rejects.
   */
  createLink(create: NewLink): Promise<CreateOutcome>;
  /** The changed link, or undefined when it is gone (deleted meanwhile): an update never brings a link back. */
  updateLink(link: LinkRecord, change: LinkChange, createdTags: readonly TagRecord[]): Promise<LinkRecord | undefined>;
  /** True when this call deleted it (and freed its slug and its place), false when it was already gone. */
  deleteLink(link: LinkRecord): Promise<boolean>;
  addClicks(linkId: string, count: number): Promise<LinkRecord | undefined>;
  setLinkLimit(accountId: string, linkLimit: number): Promise<AccountRecord | undefined>;
  /** The key's account: this new one, or the one another request made first. */
  addAccount(seeded: SeededAccount): Promise<AccountRecord>;
  /**
   * An account made on purpose (POST /__admin/accounts): stored only if its key names no account
   * at that moment ('key-taken' otherwise, and nothing changes), and acknowledged once as durable
   * as any change, since a random key cannot be seeded again. Rejects when one of its ids, slugs
   * or names is taken (it was seeded to keep clear of them).
   */
  createAccount(seeded: SeededAccount): Promise<'stored' | 'key-taken'>;

  /** Replaces everything at once (reset, snapshot restore). */
  replaceAll(data: MockData): Promise<void>;
  /** A deep copy of everything, safe from later changes. */
  snapshot(): Promise<MockData>;
  /**
   * The data as it is now, lent to `use` without a copy while it runs (core/snapshots.ts,
   * DataAtMoment): how the file store saves a snapshot of 1,000,000 links without holding the event
   * loop for a copy and its garbage collection (issue 40). Stores without it are copied (snapshot).
   */
  lendSnapshot?<T>(use: (data: DataAtMoment) => Promise<T>): Promise<T>;
  /**
   * `read` (a snapshot's load, a reset's seed) given the stored records it may take for equal ones (KnownLinks), for
   * the replaceAll that follows; a record changed in place before then is taken out of what was read
   * as it was. Stores without it read every record anew.
   */
  readReusing?<T>(read: (known: KnownLinks) => Promise<T>): Promise<T>;
  /** Writes what is pending and releases what the store holds open. */
  close(): Promise<void>;
}
