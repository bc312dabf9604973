// The links of data being loaded, indexed one at a time as they are taken, for MockState
// (src/core/state.ts) to adopt once all are: its slug table and each account's links. The start takes
// each link as the reader parses it (src/store/file/db-records.ts), while the link is young and in
// the CPU's caches: a walk of 1,000,000 links afterwards looked each up in a dictionary of a million,
// a miss in the caches each (issue 40).
import { olderFirst } from './link-order.js';
import type { LinkRecord, MockData } from './model.js';
import { slotSlug, type SlugIndex } from './slug-table.js';
import { TagLists } from './tag-lists.js';

/** A data's links indexed, for MockState to adopt (its constructor). */
export interface LinkIndex {
  /** Domain id → slug → link: MockState's table of slugs. */
  readonly linksBySlug: SlugIndex;
  /** Account id → its links, in any order (MockState puts each account's in order once: sorted ones cost a check). */
  readonly owned: Map<string, LinkRecord[]>;
  /** True when each account's links are oldest first already (a fresh seed's: fixtures/seed.ts sorted them): taken as they are, without a pass to check them. */
  readonly sorted?: boolean;
}

export class LinkLoad implements LinkIndex {
  readonly linksBySlug: SlugIndex = new Map();
  readonly owned = new Map<string, LinkRecord[]>();
  /**
   * Whether each account's links came oldest first so far: told as each is taken, by a comparison
   * with the account's last one, both still in the CPU's caches (the reader's order is the file's).
   * MockState's own check was a second pass over a million links gone cold: ~1 s of a start.
   */
  sorted = true;
  /** Each account's and domain's id → the one instance of it the data's records hold. */
  private readonly ids = new Map<string, string>();
  /** The tagIds lists the loaded links share (tag-lists.ts). */
  private readonly tagLists = new TagLists();

  /** `head`: the data's accounts, domains and tags, whose ids the links name. */
  constructor(private readonly head: Pick<MockData, 'defaultDomain' | 'accounts' | 'tags'>) {
    this.ids.set(head.defaultDomain.id, head.defaultDomain.id);
    for (const account of head.accounts) {
      this.ids.set(account.id, account.id);
      for (const domain of account.domains) this.ids.set(domain.id, domain.id);
    }
  }

  /**
   * Indexes the link stored under `id`: its ids shared, its slug slotted, and added to its
   * account's. False when a link taken before holds its slug (this one took its place).
   */
  take(link: LinkRecord): boolean {
    this.shareIds(link);
    return this.index(link);
  }

  /**
   * JSON.parse gives each loaded link its own copies of its account's, domain's and tags' ids.
   * Pointing them at the one shared string leaves about 3 strings fewer per link in the heap: less
   * for every full GC to mark. (Its own id it keeps: the table's key is that string, not the
   * internalized key it was read under: src/store/file/link-intake.ts.) Its tagIds become the list
   * shared by every link of the same tags (tag-lists.ts): ~56 bytes a link fewer. Done by `take`;
   * a start's check does it first (src/store/file/checked-state.ts), then `index`.
   */
  shareIds(link: LinkRecord): void {
    link.accountId = this.ids.get(link.accountId) ?? link.accountId;
    link.domainId = this.ids.get(link.domainId) ?? link.domainId;
    link.tagIds = this.tagLists.shared(link.tagIds, (tagId) => this.head.tags[tagId]?.id ?? tagId);
  }

  /** The link's slug slotted, and the link added to its account's; false when a link taken before holds its slug (this one took its place). */
  index(link: LinkRecord): boolean {
    const fresh = slotSlug(this.linksBySlug, link);
    const links = this.owned.get(link.accountId);
    if (!links) this.owned.set(link.accountId, [link]);
    else {
      if (this.sorted && olderFirst(links[links.length - 1] as LinkRecord, link) > 0) this.sorted = false;
      links.push(link);
    }
    return fresh;
  }
}
