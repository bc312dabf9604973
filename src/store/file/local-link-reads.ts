// The reading half of the store of one process (src/store/file/local-link-store.ts adds the writes):
// every read is answered from the data in memory through its indexes (MockState), as it is at that
// moment. Nothing here changes the data.
import type { Awaitable } from '../../core/awaitable.js';
import type { AccountRecord, DomainRecord, LinkRecord, MockData, TagRecord } from '../../core/model.js';
import { MockState } from '../../core/state.js';
import type { DomainEntry, PageRead } from '../../core/link-store.js';
import type { DataAtMoment } from '../../core/snapshots.js';
import { LinkCopy } from './link-copy.js';

export class LocalLinkReads {
  /** Replaced as a whole by a replaceAll (reset, snapshot restore). */
  protected current: MockState;
  /** The snapshots being copied. */
  private readonly copies = new Set<LinkCopy>();

  /** `index`: data's state, already built (src/store/file/checked-state.ts), or the keys of data.links. */
  constructor(data: MockData, index?: MockState | Iterable<string>) {
    this.current = index instanceof MockState ? index : new MockState(data, index);
  }

  /** The data and its indexes as they are now (tests and in-process tools read it). */
  get state(): MockState {
    return this.current;
  }

  defaultDomain(): DomainRecord {
    return this.current.data.defaultDomain;
  }

  accountByKey(apiKey: string): Awaitable<AccountRecord | undefined> {
    return this.current.accountByKey(apiKey);
  }

  async accounts(): Promise<AccountRecord[]> {
    return [...this.current.accounts()];
  }

  accountCount(): number {
    return this.current.accounts().length;
  }

  domainByName(name: string): DomainEntry | undefined {
    return this.current.domainEntry(name);
  }

  domainById(id: string): DomainRecord | undefined {
    return this.current.domainById(id);
  }

  linkById(id: string): LinkRecord | undefined {
    return this.current.linkById(id);
  }

  linkAt(domainId: string, slug: string): LinkRecord | undefined {
    return this.current.linkAtDomain(domainId, slug);
  }

  async linksOf(accountId: string): Promise<LinkRecord[]> {
    return this.current.linksOf({ id: accountId });
  }

  linkPageOf(accountId: string, { after, limit }: PageRead): LinkRecord[] {
    return this.current.linkPage({ id: accountId }, after, limit);
  }

  linkCount(accountId: string): number {
    return this.current.linkCount({ id: accountId });
  }

  async totalLinks(): Promise<number> {
    return this.current.totalLinks();
  }

  tagById(id: string): TagRecord | undefined {
    return this.current.tagById(id);
  }

  tagByName(accountId: string, name: string): TagRecord | undefined {
    return this.current.tagByName({ id: accountId }, name);
  }

  /** Which of these slugs of the domain a link holds (an account seeded now keeps clear of them). */
  async slugsTaken(domainId: string, slugs: readonly string[]): Promise<Set<string>> {
    return new Set(slugs.filter((slug) => this.current.isSlugTaken(domainId, slug)));
  }

  /** The data at this call, copied a slice per turn (link-copy.ts). */
  snapshot(): Promise<MockData> {
    return this.lendSnapshot((_data, copy) => copy.finish());
  }

  /** The data at this call, lent to `use` without a copy of its links (DataAtMoment, link-copy.ts). */
  async lendSnapshot<T>(use: (data: DataAtMoment, copy: LinkCopy) => Promise<T>): Promise<T> {
    const copy = new LinkCopy(this.current);
    this.copies.add(copy);
    try {
      return await use({ head: copy.head, links: copy.links(), linkCount: copy.linkCount }, copy);
    } finally {
      this.copies.delete(copy);
    }
  }

  /** Before a stored link is changed in place: each snapshot being copied keeps it as it is now. */
  protected beforeChange(link: LinkRecord): void {
    for (const copy of this.copies) copy.keep(link);
  }
}
