// The data of the mock with its indexes: every lookup a request needs (account by key, domain by
// name, link by id, link by domain+slug, tag by id and by name) is a map access, never a scan.
// Mutations go through this class so the indexes and the data never disagree.
import type { Link } from './api-types.js';
import { toLink } from './link-view.js';
import { linkBatches } from './link-batches.js';
import { LinkLoad, type LinkIndex } from './link-load.js';
import { OrderedLinks, type LinkPosition } from './link-order.js';
import type { AccountRecord, DomainRecord, LinkRecord, MockData, TagRecord } from './model.js';
import { putEntry } from './own-entry.js';
import { sortedBlocks } from './sliced-sort.js';
import { slotSlug, type SlugIndex } from './slug-table.js';
import { TurnBudget } from './turn-budget.js';

const domainKey = (name: string): string => name.trim().toLowerCase();

const isIndex = (links: Iterable<string> | LinkIndex): links is LinkIndex => !(Symbol.iterator in links);

/** The links of `data` under the keys `ids`, indexed. */
function loaded(data: MockData, ids: Iterable<string>): LinkIndex {
  const load = new LinkLoad(data);
  for (const id of ids) load.take(data.links.get(id) as LinkRecord);
  return load;
}

export class MockState {
  private readonly accountsByKey = new Map<string, AccountRecord>();
  private readonly accountsById = new Map<string, AccountRecord>();
  /** Domain name → the domain and its owner (undefined owner: the default domain). */
  private readonly domainsByName = new Map<string, { domain: DomainRecord; ownerId?: string }>();
  private readonly domainsById = new Map<string, DomainRecord>();
  /** Domain id → slug → link (slug-table.ts). */
  private readonly linksBySlug: SlugIndex;
  private readonly tagsByName = new Map<string, Map<string, TagRecord>>();
  private readonly linkCounts = new Map<string, number>();
  /** Each account's links in the order of its pages (link-order.ts). */
  private readonly linksByAccount = new Map<string, OrderedLinks>();

  /**
   * `links`: the keys of data.links when the caller has them (a DataStore keeps them: collecting
   * them again is seconds at 1,000,000 links); or every one of data.links indexed already (a LinkLoad:
   * the start, src/store/file/checked-state.ts; a replace, MockState.built), adopted as it is.
   */
  constructor(
    readonly data: MockData,
    links: Iterable<string> | LinkIndex = data.links.keys(),
  ) {
    this.indexDomain(data.defaultDomain);
    for (const account of data.accounts) this.indexAccount(account);
    for (const tag of Object.values(data.tags)) {
      tag.accountId = this.accountsById.get(tag.accountId)?.id ?? tag.accountId;
      this.indexTag(tag);
    }
    const index = isIndex(links) ? links : loaded(data, links);
    this.linksBySlug = index.linksBySlug;
    // Each account's order is sorted once, after every link is read: data seeded or edited out of
    // time order costs one sort, not an insertion each.
    this.ownAll(index.owned, index.sorted === true);
  }

  /**
   * The state of `data` with its links indexed a batch per turn of the event loop (`pause` between
   * batches, and within one once it has run TURN_MS: turn-budget.ts), for a replace (reset, restore)
   * of 1,000,000 links, which the constructor indexed in one step of seconds (issue 40). Nothing else
   * may change `data` meanwhile.
   */
  static async built(data: MockData, pause: () => Promise<void>): Promise<MockState> {
    const load = new LinkLoad(data);
    const turn = new TurnBudget(pause);
    for (const batch of linkBatches(data)) {
      for (const link of batch) {
        load.take(link);
        const paused = turn.tick();
        if (paused) await paused;
      }
      await turn.next();
    }
    // Each account's links put in page order a slice per turn too (the constructor's sort is one step).
    const state = new MockState(data, { linksBySlug: load.linksBySlug, owned: new Map() });
    for (const [accountId, links] of load.owned) {
      const blocks = await sortedBlocks(links, pause);
      state.linkCounts.set(accountId, links.length);
      state.linksByAccount.set(accountId, OrderedLinks.fromBlocks(blocks));
    }
    return state;
  }

  accountByKey(apiKey: string): AccountRecord | undefined {
    return this.accountsByKey.get(apiKey);
  }

  /** Only to check that a new account's id is free: requests find accounts by key. */
  accountById(id: string): AccountRecord | undefined {
    return this.accountsById.get(id);
  }

  accounts(): readonly AccountRecord[] {
    return this.data.accounts;
  }

  /** The domain of that name, and its owner (none: the default domain). */
  domainEntry(name: string): { domain: DomainRecord; ownerId?: string } | undefined {
    return this.domainsByName.get(domainKey(name));
  }

  domainById(id: string): DomainRecord | undefined {
    return this.domainsById.get(id);
  }

  /** The link if it exists and belongs to this account; another account's link is not there (D15). */
  linkOf(account: AccountRecord, id: string): LinkRecord | undefined {
    const link = this.data.links.get(id);
    return link && link.accountId === account.id ? link : undefined;
  }

  /** Any account's link, for the admin API and the redirect route. */
  linkById(id: string): LinkRecord | undefined {
    return this.data.links.get(id);
  }

  /** The link at https://<domain>/<slug>, for the redirect route. */
  linkAt(domainName: string, slug: string): LinkRecord | undefined {
    const entry = this.domainsByName.get(domainKey(domainName));
    return entry && this.linksBySlug.get(entry.domain.id)?.get(slug);
  }

  isDomainName(name: string): boolean {
    return this.domainsByName.has(domainKey(name));
  }

  /** The account's links, oldest first. */
  linksOf(account: Pick<AccountRecord, 'id'>): LinkRecord[] {
    return this.linksByAccount.get(account.id)?.all() ?? [];
  }

  /** Every account's links in blocks of pointers (a snapshot lists them at its moment: link-copy.ts). */
  linkBlocks(): LinkRecord[][] {
    const blocks: LinkRecord[][] = [];
    for (const links of this.linksByAccount.values()) blocks.push(...links.blockCopies());
    return blocks;
  }

  /** At most `limit` of the account's links, newest first, each older than `after` (link-order.ts). */
  linkPage(account: Pick<AccountRecord, 'id'>, after: LinkPosition | undefined, limit: number): LinkRecord[] {
    return this.linksByAccount.get(account.id)?.page(after, limit) ?? [];
  }

  linkAtDomain(domainId: string, slug: string): LinkRecord | undefined {
    return this.linksBySlug.get(domainId)?.get(slug);
  }

  isSlugTaken(domainId: string, slug: string): boolean {
    return this.linksBySlug.get(domainId)?.has(slug) ?? false;
  }

  tagById(id: string): TagRecord | undefined {
    return Object.hasOwn(this.data.tags, id) ? this.data.tags[id] : undefined;
  }

  tagByName(account: Pick<AccountRecord, 'id'>, name: string): TagRecord | undefined {
    return this.tagsByName.get(account.id)?.get(name);
  }

  /** Every account's links together, without counting them one by one. */
  totalLinks(): number {
    let total = 0;
    for (const count of this.linkCounts.values()) total += count;
    return total;
  }

  linkCount(account: Pick<AccountRecord, 'id'>): number {
    return this.linkCounts.get(account.id) ?? 0;
  }

  addAccount(account: AccountRecord): void {
    this.data.accounts.push(account);
    this.indexAccount(account);
  }

  addTag(tag: TagRecord): void {
    putEntry(this.data.tags, tag.id, tag);
    this.indexTag(tag);
  }

  /** Whether any link names the tag: a scan, only for undoing a change that could not be saved. */
  isTagNamed(tagId: string): boolean {
    for (const link of this.data.links.values()) if (link.tagIds.includes(tagId)) return true;
    return false;
  }

  /** Only for undoing a tag added with a change that could not be saved. */
  removeTag(tag: TagRecord): void {
    delete this.data.tags[tag.id];
    this.tagsByName.get(tag.accountId)?.delete(tag.name);
  }

  /** Only for undoing an account added, with its tags and links, by a change that could not be saved. */
  removeAccount(account: AccountRecord, tags: readonly TagRecord[], links: readonly LinkRecord[]): void {
    for (const link of links) this.removeLink(link);
    for (const tag of tags) this.removeTag(tag);
    const at = this.data.accounts.indexOf(account);
    if (at >= 0) this.data.accounts.splice(at, 1);
    this.accountsByKey.delete(account.apiKey);
    this.accountsById.delete(account.id);
    for (const domain of account.domains) {
      this.domainsByName.delete(domainKey(domain.name));
      this.domainsById.delete(domain.id);
    }
    this.linkCounts.delete(account.id);
    this.linksByAccount.delete(account.id);
    this.tagsByName.delete(account.id);
  }

  addLink(link: LinkRecord): void {
    this.data.links.set(link.id, link);
    this.indexLink(link);
  }

  removeLink(link: LinkRecord): void {
    this.data.links.delete(link.id);
    this.linksBySlug.get(link.domainId)?.delete(link.slug);
    this.linksByAccount.get(link.accountId)?.remove(link);
    this.linkCounts.set(link.accountId, (this.linkCounts.get(link.accountId) ?? 1) - 1);
  }

  /** The link as the API shows it. */
  toLink(link: LinkRecord): Link {
    return toLink(link, this.domainsById.get(link.domainId), link.tagIds.map((id) => this.data.tags[id]));
  }

  /** Each account's links read with the data, counted and put in page order (one sort each). */
  private ownAll(owned: Map<string, LinkRecord[]>, sorted: boolean): void {
    for (const [accountId, links] of owned) {
      this.linkCounts.set(accountId, links.length);
      this.linksByAccount.set(accountId, sorted ? OrderedLinks.ofSorted(links) : OrderedLinks.of(links));
    }
  }

  private indexAccount(account: AccountRecord): void {
    this.accountsByKey.set(account.apiKey, account);
    this.accountsById.set(account.id, account);
    for (const domain of account.domains) this.indexDomain(domain, account.id);
  }

  private indexDomain(domain: DomainRecord, ownerId?: string): void {
    this.domainsByName.set(domainKey(domain.name), ownerId === undefined ? { domain } : { domain, ownerId });
    this.domainsById.set(domain.id, domain);
  }

  private indexTag(tag: TagRecord): void {
    let byName = this.tagsByName.get(tag.accountId);
    if (!byName) this.tagsByName.set(tag.accountId, (byName = new Map()));
    byName.set(tag.name, tag);
  }

  private indexLink(link: LinkRecord): void {
    this.indexSlug(link);
    let owned = this.linksByAccount.get(link.accountId);
    if (!owned) this.linksByAccount.set(link.accountId, (owned = new OrderedLinks()));
    owned.add(link);
  }

  /** Its slug and its place in its account's count. */
  private indexSlug(link: LinkRecord): void {
    slotSlug(this.linksBySlug, link);
    this.linkCounts.set(link.accountId, (this.linkCounts.get(link.accountId) ?? 0) + 1);
  }
}
