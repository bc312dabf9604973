// The order an account's links are shown in (the admin API's pages, a contract FILE's list), newest
// first: by createdAt, then by id, a total order, so that a position (the last link shown) names
// exactly where the next page starts, whether that link is still there or not. And the index of one
// process's store that keeps each account's links in that order (issue 40: a page read from it
// costs O(log n + page), where a sort per request cost 8 s at 1,000,000 links).
import type { LinkRecord } from './model.js';
import { sortLinks } from './link-sort.js';

/** Where a link stands in the order: what a cursor names. */
export type LinkPosition = Pick<LinkRecord, 'createdAt' | 'id'>;

/** Negative when `a` is older (shown after `b`). createdAt is ISO 8601 UTC: string order is time order. */
export function olderFirst(a: LinkPosition, b: LinkPosition): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Links per block. A change out of order (a delete, a create not the newest) moves at most a block's
 * entries, never the account's: a delete at 1,000,000 links costs what it costs at 1,000.
 */
export const BLOCK = 512;

/**
 * One account's links, oldest first, in sorted blocks of at most 2 × BLOCK (none empty). A create is
 * almost always the newest (its createdAt is now): it is pushed onto the last block, O(1); any
 * other add or remove finds its place by binary search, O(log n), and moves at most one block.
 */
export class OrderedLinks {
  private readonly blocks: LinkRecord[][] = [];
  private count = 0;

  /** From links in any order (`links` is sorted in place): O(n) for links in time order, or whose createdAt are all the mock's own form (link-sort.ts). */
  static of(links: LinkRecord[]): OrderedLinks {
    sortLinks(links, olderFirst);
    return OrderedLinks.ofSorted(links);
  }

  /** From links already oldest first (a fresh seed's: fixtures/seed.ts sorted them): not even checked, a pass of comparisons fewer. */
  static ofSorted(links: readonly LinkRecord[]): OrderedLinks {
    const ordered = new OrderedLinks();
    for (let start = 0; start < links.length; start += BLOCK) ordered.blocks.push(links.slice(start, start + BLOCK));
    ordered.count = links.length;
    return ordered;
  }

  /** From blocks already in order, each of 1 to 2 × BLOCK links (sliced-sort.ts cuts them: a replace's build). */
  static fromBlocks(blocks: LinkRecord[][]): OrderedLinks {
    const ordered = new OrderedLinks();
    for (const block of blocks) {
      ordered.blocks.push(block);
      ordered.count += block.length;
    }
    return ordered;
  }

  get size(): number {
    return this.count;
  }

  /** Adds the link; a link of the same position (the same id) is replaced, never held twice. */
  add(link: LinkRecord): void {
    const last = this.blocks.at(-1);
    if (!last || olderFirst(last[last.length - 1] as LinkRecord, link) < 0) {
      if (last && last.length < BLOCK) last.push(link);
      else this.blocks.push([link]);
      this.count += 1;
      return;
    }
    // Not the newest: most often a create in the same millisecond as the last ones whose random id
    // sorts lower, whose place is a few links from the end; looked for there first, without the
    // binary searches over the blocks and the block (bench/create-cost.md: "link rules").
    const nearEnd = placeNearEnd(last, link);
    const b = nearEnd === undefined ? this.blockFor(link) : this.blocks.length - 1;
    const block = this.blocks[b] as LinkRecord[];
    const at = nearEnd ?? lowerBound(block, link);
    if (block[at] !== undefined && olderFirst(block[at], link) === 0) {
      block[at] = link;
      return;
    }
    block.splice(at, 0, link);
    this.count += 1;
    if (block.length > 2 * BLOCK) this.blocks.splice(b + 1, 0, block.splice(BLOCK));
  }

  /** Removes the link at its position; false when none is there. */
  remove(link: LinkPosition): boolean {
    if (this.blocks.length === 0) return false;
    const b = this.blockFor(link);
    const block = this.blocks[b] as LinkRecord[];
    const at = lowerBound(block, link);
    if (block[at] === undefined || olderFirst(block[at], link) !== 0) return false;
    block.splice(at, 1);
    if (block.length === 0) this.blocks.splice(b, 1);
    this.count -= 1;
    return true;
  }

  /** At most `limit` links, newest first, each older than `after` (from the newest when absent). */
  page(after: LinkPosition | undefined, limit: number): LinkRecord[] {
    let b = this.blocks.length - 1;
    let i = (this.blocks[b]?.length ?? 0) - 1;
    if (after && b >= 0) {
      b = this.blockFor(after);
      i = lowerBound(this.blocks[b] as LinkRecord[], after) - 1;
    }
    const shown: LinkRecord[] = [];
    while (b >= 0 && shown.length < limit) {
      const block = this.blocks[b] as LinkRecord[];
      for (; i >= 0 && shown.length < limit; i -= 1) shown.push(block[i] as LinkRecord);
      b -= 1;
      i = (this.blocks[b]?.length ?? 0) - 1;
    }
    return shown;
  }

  /** Every link, oldest first, in blocks of the order's own (copies: later changes leave them). */
  blockCopies(): LinkRecord[][] {
    return this.blocks.map((block) => block.slice());
  }

  /** Every link, oldest first. */
  all(): LinkRecord[] {
    return this.blocks.flat();
  }

  /** The last block whose first link is not newer than `position` (the first block when none is). */
  private blockFor(position: LinkPosition): number {
    let low = 0;
    let high = this.blocks.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (olderFirst((this.blocks[mid] as LinkRecord[])[0] as LinkRecord, position) <= 0) low = mid;
      else high = mid - 1;
    }
    return low;
  }
}

/** How far from a block's end a link's place is looked for by steps (beyond it, by binary search). */
const NEAR_END = 8;

/**
 * lowerBound(block, link) for the last block, found by steps from its end, when the link's place is
 * at most NEAR_END from the end and after the block's first link (so the place is in this block);
 * undefined otherwise.
 */
function placeNearEnd(block: readonly LinkRecord[], link: LinkPosition): number | undefined {
  const stop = block.length - NEAR_END;
  if (stop > 0 && olderFirst(block[stop] as LinkRecord, link) > 0) return undefined;
  let at = block.length;
  while (at > 0 && at > stop && olderFirst(block[at - 1] as LinkRecord, link) >= 0) at -= 1;
  // block[at - 1] is older than the link (or, at `stop`, block[stop] holds its position): `at` is its place.
  return at > 0 ? at : undefined;
}

/** The index of the first link in `block` not older than `position`. */
function lowerBound(block: readonly LinkRecord[], position: LinkPosition): number {
  let low = 0;
  let high = block.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (olderFirst(block[mid] as LinkRecord, position) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}
