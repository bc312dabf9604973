// A snapshot of the data in memory taken without holding the event loop (issue 40): at 1,000,000
// links one structuredClone of the whole data held it for seconds. What it copies is the data as it
// was when the copy started (the snapshot's moment): accounts and tags, few, are cloned then, and
// every link is listed then (each account's blocks of pointers, link-order.ts); the links are
// cloned a slice at a time, other turns running between slices. A create after the moment is not
// listed, a delete leaves its record listed; a change in place (an update, a click: the only ones
// made to a stored link, local-link-store.ts) first gives each running copy the link as it was
// (`keep`), which the copy takes instead of the link as it is when it gets there.
// A snapshot written to a file needs no clone at all (`links`): each link is serialised in the
// turn it is read, from the stored record unless it was kept; at 1,000,000 links the clones, all
// alive until the file was written, cost an 805 ms garbage collection.
import type { LinkRecord, MockData } from '../../core/model.js';
import { SplitLinkTable } from '../../core/link-table.js';
import type { MockState } from '../../core/state.js';
import { nextTurn } from './next-turn.js';

/** Links cloned between two turns of the event loop: ~1 ms of spreads on an idle machine. */
export const SNAPSHOT_SLICE_LINKS = 2_000;

/** A link's own copy: its arrays and extra fields are not shared with the stored one. */
export function cloneLink(link: LinkRecord): LinkRecord {
  const copy = { ...link, tagIds: [...link.tagIds] };
  if (link.extra !== undefined) copy.extra = structuredClone(link.extra);
  return copy;
}

export class LinkCopy {
  /** The links changed in place since the moment, as they were at it. */
  private readonly kept = new Map<LinkRecord, LinkRecord>();
  private readonly blocks: LinkRecord[][];
  private readonly data: MockData;

  constructor(state: MockState) {
    const { formatVersion, seed, defaultDomain, accounts, tags } = state.data;
    this.data = { ...structuredClone({ formatVersion, seed, defaultDomain, accounts, tags }), links: new SplitLinkTable() };
    this.blocks = state.linkBlocks();
  }

  /** Called before `link` is changed in place: the copy keeps it as it is now, if it has not yet. */
  keep(link: LinkRecord): void {
    if (!this.kept.has(link)) this.kept.set(link, cloneLink(link));
  }

  /** Everything but the links, a copy of its own. */
  get head(): Omit<MockData, 'links'> {
    const { links: _links, ...head } = this.data;
    return head;
  }

  get linkCount(): number {
    let count = 0;
    for (const block of this.blocks) count += block.length;
    return count;
  }

  /** Every listed link as it was at the moment, read lazily: each only in the turn it is read (DataAtMoment). */
  *links(): Generator<LinkRecord> {
    for (const block of this.blocks) for (const link of block) yield this.kept.get(link) ?? link;
  }

  /** Every listed link cloned into the data, SNAPSHOT_SLICE_LINKS per turn. */
  async finish(): Promise<MockData> {
    const links = this.data.links;
    let inSlice = 0;
    for (const block of this.blocks) {
      for (const link of block) {
        links.set(link.id, this.kept.get(link) ?? cloneLink(link));
        if ((inSlice += 1) < SNAPSHOT_SLICE_LINKS) continue;
        inSlice = 0;
        await nextTurn();
      }
    }
    return this.data;
  }
}
