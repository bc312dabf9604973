// The data of the mock with its indexes: every lookup a request needs (account by key, domain by
// name, link by id, link by domain+slug, tag by id and by name) is a map access, never a scan.
// Mutations go through this class so the indexes and the data never disagree.
import type { Link } from './api-types.js';
import { toLink } from './link-view.js';
import { LinkIndexes, loadInTurns } from './link-indexes.js';
import type { LinkIndex } from './link-load.js';
import type { LinkPosition } from './link-order.js';
import type { AccountRecord, DomainRecord, LinkRecord, MockData, TagRecord } from './model.js';
import { putEntry } from './own-entry.js';

const domainKey = (name: string): string => name.trim().toLowerCase();

export class MockState {
  private readonly accountsByKey = new Map<string, AccountRecord>();
  private readonly accountsById = new Map<string, AccountRecord>();
  /** Domain name → the domain and its owner (undefined owner: the default domain). */
  private readonly domainsByName = new Map<string, { domain: DomainRecord; ownerId?: string }>();
  private readonly domainsById = new Map<string, DomainRecord>();
  private readonly tagsByName = new Map<string, Map<string, TagRecord>>();
  /** Each domain's slugs, each account's count and its links in page order (link-indexes.ts). */
  private readonly linkIndexes: LinkIndexes;

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
    this.linkIndexes = new LinkIndexes(data, links);
  }

  /**
   * The state of `data` with its links indexed and put in page order a batch per turn of the event
   * loop (link-indexes.ts), for a replace (reset, restore) of 1,000,000 links, which the constructor
   * indexed in one step of seconds (issue 40). Nothing else may change `data` meanwhile.
   */
  static async built(data: MockData, pause: () => Promise<void>): Promise<MockState> {
    const load = await loadInTurns(data, pause);
    const state = new MockState(data, { linksBySlug: load.linksBySlug, owned: new Map() });
    await state.linkIndexes.ownAllInTurns(load.owned, pause);
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
    return entry && this.linkIndexes.at(entry.domain.id, slug);
  }

  isDomainName(name: string): boolean {
    return this.domainsByName.has(domainKey(name));
  }

  /** The account's links, oldest first. */
  linksOf(account: Pick<AccountRecord, 'id'>): LinkRecord[] {
    return this.linkIndexes.all(account.id);
  }

  /** Every account's links in blocks of pointers (a snapshot lists them at its moment: link-copy.ts). */
  linkBlocks(): LinkRecord[][] {
    return this.linkIndexes.blocks();
  }

  /** At most `limit` of the account's links, newest first, each older than `after` (link-order.ts). */
  linkPage(account: Pick<AccountRecord, 'id'>, after: LinkPosition | undefined, limit: number): LinkRecord[] {
    return this.linkIndexes.page(account.id, after, limit);
  }

  linkAtDomain(domainId: string, slug: string): LinkRecord | undefined {
    return this.linkIndexes.at(domainId, slug);
  }

  isSlugTaken(domainId: string, slug: string): boolean {
    return this.linkIndexes.isSlugTaken(domainId, slug);
  }

  tagById(id: string): TagRecord | undefined {
    return Object.hasOwn(this.data.tags, id) ? this.data.tags[id] : undefined;
  }

  tagByName(account: Pick<AccountRecord, 'id'>, name: string): TagRecord | undefined {
    return this.tagsByName.get(account.id)?.get(name);
  }

  /** Every account's links together, without counting them one by one. */
  totalLinks(): number {
    return this.linkIndexes.total();
  }

  linkCount(account: Pick<AccountRecord, 'id'>): number {
    return this.linkIndexes.count(account.id);
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
    this.linkIndexes.forgetAccount(account.id);
    this.tagsByName.delete(account.id);
  }

  addLink(link: LinkRecord): void {
    this.data.links.set(link.id, link);
    this.linkIndexes.add(link);
  }

  removeLink(link: LinkRecord): void {
    this.data.links.delete(link.id);
    this.linkIndexes.remove(link);
  }

  /** The link as the API shows it. */
  toLink(link: LinkRecord): Link {
    return toLink(link, this.domainsById.get(link.domainId), link.tagIds.map((id) => this.data.tags[id]));
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
}
