// The one interface between the link rules (src/core/links.ts) and where the data lives: the
// process's own memory with its file (src/store/local-link-store.ts) today, Redis beside it. The
// store knows facts, never rules: the core asks, decides, and writes.
//
// Facts that many requests race for are claimed through small atomic steps, each of which the
// store makes atomic across every instance that shares it (D22). The core takes them in the order
// of its checks (D19) and gives back what it claimed when a later check refuses:
//   reserveLinkSlot  a place under the account's link limit (a conditional increment);
//   claimSlug        a slug in a domain (set-if-absent);
//   claimTagName     a tag name in an account (set-if-absent: the first claim names the tag).
// What is rarely contended (one link's update racing its delete) is an optimistic write that
// answers whether the link was still there.
import type { AccountRecord, DomainRecord, LinkRecord, MockData, TagRecord } from '../core/model.js';

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

export interface SeededAccount {
  account: AccountRecord;
  tags: TagRecord[];
  links: LinkRecord[];
}

/** What an update changes: only the fields it sends, so two updates of different fields both stay. */
export type LinkChange = Partial<Pick<LinkRecord, 'destinationUrl' | 'tagIds'>>;

export interface LinkStore {
  /** Human-readable location for logs: a file path, ':memory:' or a Redis URL. */
  readonly location: string;

  defaultDomain(): Promise<DomainRecord>;
  accountByKey(apiKey: string): Promise<AccountRecord | undefined>;
  accounts(): Promise<AccountRecord[]>;
  /** By name, case-insensitively. */
  domainByName(name: string): Promise<DomainEntry | undefined>;
  domainById(id: string): Promise<DomainRecord | undefined>;
  linkById(id: string): Promise<LinkRecord | undefined>;
  linkAt(domainId: string, slug: string): Promise<LinkRecord | undefined>;
  /** The account's links, in no particular order. */
  linksOf(accountId: string): Promise<LinkRecord[]>;
  linkCount(accountId: string): Promise<number>;
  totalLinks(): Promise<number>;
  tagById(id: string): Promise<TagRecord | undefined>;
  tagByName(accountId: string, name: string): Promise<TagRecord | undefined>;

  /** One place under `limit` for a new link of the account; false when it is full. */
  reserveLinkSlot(accountId: string, limit: number): Promise<boolean>;
  releaseLinkSlot(accountId: string): Promise<void>;
  /** The slug in the domain for this link id; false when a link or another claim holds it. */
  claimSlug(domainId: string, slug: string, linkId: string): Promise<boolean>;
  releaseSlug(domainId: string, slug: string, linkId: string): Promise<void>;
  /**
   * The account's tag of this name: the one that exists, or `tag` itself, stored now, when this
   * claim is the first. `created` says which.
   */
  claimTagName(tag: TagRecord): Promise<{ tag: TagRecord; created: boolean }>;

  /**
   * Stores a new link that holds a reserved slot and a claimed slug, with the tags its request
   * created. Resolves when it is as durable as the store makes it; if it cannot be, nothing of it
   * (nor of those tags) stays, the claims are still held, and it rejects.
   */
  insertLink(link: LinkRecord, createdTags: readonly TagRecord[]): Promise<void>;
  /** The changed link, or undefined when it is gone (deleted meanwhile): an update never brings a link back. */
  updateLink(link: LinkRecord, change: LinkChange, createdTags: readonly TagRecord[]): Promise<LinkRecord | undefined>;
  /** True when this call deleted it (and freed its slug and its place), false when it was already gone. */
  deleteLink(link: LinkRecord): Promise<boolean>;
  addClicks(linkId: string, count: number): Promise<LinkRecord | undefined>;
  setLinkLimit(accountId: string, linkLimit: number): Promise<AccountRecord | undefined>;
  /** The key's account: this new one, or the one another request made first. */
  addAccount(seeded: SeededAccount): Promise<AccountRecord>;

  /** Replaces everything at once (reset, snapshot restore). */
  replaceAll(data: MockData): Promise<void>;
  /** A deep copy of everything, safe from later changes. */
  snapshot(): Promise<MockData>;
  /** Writes what is pending and releases what the store holds open. */
  close(): Promise<void>;
}
