// The indexes MockState (state.ts) keeps over the data's links: each domain's slugs (slug-table.ts),
// each account's count, and each account's links in the order of its pages (link-order.ts). Built
// from the data at once (MockState's constructor) or a batch per turn (a replace: MockState.built),
// then kept with every link added or removed.
import { linkBatches } from './link-batches.js';
import { LinkLoad, type LinkIndex } from './link-load.js';
import { OrderedLinks, type LinkPosition } from './link-order.js';
import type { LinkRecord, MockData } from './model.js';
import { sortedBlocks } from './sliced-sort.js';
import { slotSlug, type SlugIndex } from './slug-table.js';
import { TurnBudget } from './turn-budget.js';

const isIndex = (links: Iterable<string> | LinkIndex): links is LinkIndex => !(Symbol.iterator in links);

/** The links of `data` under the keys `ids`, indexed. */
function loaded(data: MockData, ids: Iterable<string>): LinkIndex {
  const load = new LinkLoad(data);
  for (const id of ids) load.take(data.links.get(id) as LinkRecord);
  return load;
}

/**
 * The links of `data` indexed a batch per turn of the event loop (`pause` between batches, and
 * within one once it has run TURN_MS: turn-budget.ts), for MockState.built.
 */
export async function loadInTurns(data: MockData, pause: () => Promise<void>): Promise<LinkLoad> {
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
  return load;
}

export class LinkIndexes {
  /** Domain id → slug → link (slug-table.ts). */
  private readonly linksBySlug: SlugIndex;
  private readonly linkCounts = new Map<string, number>();
  /** Each account's links in the order of its pages (link-order.ts). */
  private readonly linksByAccount = new Map<string, OrderedLinks>();

  /** `links`: the keys of data.links, or every one of data.links indexed already (a LinkLoad), adopted as it is. */
  constructor(data: MockData, links: Iterable<string> | LinkIndex) {
    const index = isIndex(links) ? links : loaded(data, links);
    this.linksBySlug = index.linksBySlug;
    // Each account's order is sorted once, after every link is read: data seeded or edited out of
    // time order costs one sort, not an insertion each.
    this.ownAll(index.owned, index.sorted === true);
  }

  /** Each account's links put in page order a slice per turn (the constructor's sort is one step): MockState.built. */
  async ownAllInTurns(owned: Map<string, LinkRecord[]>, pause: () => Promise<void>): Promise<void> {
    for (const [accountId, links] of owned) {
      const blocks = await sortedBlocks(links, pause);
      this.linkCounts.set(accountId, links.length);
      this.linksByAccount.set(accountId, OrderedLinks.fromBlocks(blocks));
    }
  }

  /** The account's links, oldest first. */
  all(accountId: string): LinkRecord[] {
    return this.linksByAccount.get(accountId)?.all() ?? [];
  }

  /** Every account's links in blocks of pointers (a snapshot lists them at its moment: link-copy.ts). */
  blocks(): LinkRecord[][] {
    const blocks: LinkRecord[][] = [];
    for (const links of this.linksByAccount.values()) blocks.push(...links.blockCopies());
    return blocks;
  }

  /** At most `limit` of the account's links, newest first, each older than `after` (link-order.ts). */
  page(accountId: string, after: LinkPosition | undefined, limit: number): LinkRecord[] {
    return this.linksByAccount.get(accountId)?.page(after, limit) ?? [];
  }

  at(domainId: string, slug: string): LinkRecord | undefined {
    return this.linksBySlug.get(domainId)?.get(slug);
  }

  isSlugTaken(domainId: string, slug: string): boolean {
    return this.linksBySlug.get(domainId)?.has(slug) ?? false;
  }

  /** Every account's links together, without counting them one by one. */
  total(): number {
    let total = 0;
    for (const count of this.linkCounts.values()) total += count;
    return total;
  }

  count(accountId: string): number {
    return this.linkCounts.get(accountId) ?? 0;
  }

  add(link: LinkRecord): void {
    this.indexSlug(link);
    let owned = this.linksByAccount.get(link.accountId);
    if (!owned) this.linksByAccount.set(link.accountId, (owned = new OrderedLinks()));
    owned.add(link);
  }

  remove(link: LinkRecord): void {
    this.linksBySlug.get(link.domainId)?.delete(link.slug);
    this.linksByAccount.get(link.accountId)?.remove(link);
    this.linkCounts.set(link.accountId, (this.linkCounts.get(link.accountId) ?? 1) - 1);
  }

  /** The account's count and order dropped (its links removed first): MockState.removeAccount. */
  forgetAccount(accountId: string): void {
    this.linkCounts.delete(accountId);
    this.linksByAccount.delete(accountId);
  }

  /** Each account's links read with the data, counted and put in page order (one sort each). */
  private ownAll(owned: Map<string, LinkRecord[]>, sorted: boolean): void {
    for (const [accountId, links] of owned) {
      this.linkCounts.set(accountId, links.length);
      this.linksByAccount.set(accountId, sorted ? OrderedLinks.ofSorted(links) : OrderedLinks.of(links));
    }
  }

  /** Its slug and its place in its account's count. */
  private indexSlug(link: LinkRecord): void {
    slotSlug(this.linksBySlug, link);
    this.linkCounts.set(link.accountId, (this.linkCounts.get(link.accountId) ?? 0) + 1);
  }
}
