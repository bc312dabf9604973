// An account's links put in page order a slice at a time, for a replace's build (MockState.built),
// which runs while requests are served. OrderedLinks.of does it in one step: at 1,000,000 seeded
// links (not in time order) its sort was the longest stall of a reset (issue 40: ~0.3 s idle, 0.9 s
// of CPU on a busy machine), and even links already in order cost one pass of ~0.1 s to see it.
// Here the check, the sort and the cut into blocks each stop for `pause` every SLICE_STEPS steps (or
// TURN_MS of the wall clock, turn-budget.ts):
// runs of RUN links are sorted by sortLinks (link-sort.ts), then merged pairwise, a slice per turn.
// The merge takes the earlier run's link first among equals, so the order is sortLinks's.
import { BLOCK, olderFirst } from './link-order.js';
import { sortLinks } from './link-sort.js';
import type { LinkRecord } from './model.js';
import { TurnBudget } from './turn-budget.js';

/** Comparisons or moves between two pauses: a few milliseconds on an idle machine. */
export const SLICE_STEPS = 50_000;
/** Links sorted at once by sortLinks before the merges. */
const RUN = 4_096;

/** Counts steps and pauses once SLICE_STEPS are done, or the slice has run TURN_MS (turn-budget.ts). */
class Slices {
  private done = 0;
  private readonly turn: TurnBudget;

  constructor(pause: () => Promise<void>) {
    this.turn = new TurnBudget(pause);
  }

  async spend(steps: number): Promise<void> {
    this.done += steps;
    if (this.done < SLICE_STEPS && !this.turn.spent()) return;
    this.done = 0;
    await this.turn.next();
  }
}

/** `links` in page order (oldest first), cut into blocks of BLOCK for OrderedLinks.fromBlocks. */
export async function sortedBlocks(links: LinkRecord[], pause: () => Promise<void>): Promise<LinkRecord[][]> {
  const slices = new Slices(pause);
  const sorted = (await inOrder(links, slices)) ? links : await mergeSorted(links, slices);
  const blocks: LinkRecord[][] = [];
  for (let start = 0; start < sorted.length; start += BLOCK) {
    blocks.push(sorted.slice(start, start + BLOCK));
    await slices.spend(BLOCK);
  }
  return blocks;
}

async function inOrder(links: readonly LinkRecord[], slices: Slices): Promise<boolean> {
  for (let i = 1; i < links.length; i += 1) {
    if (olderFirst(links[i - 1] as LinkRecord, links[i] as LinkRecord) > 0) return false;
    if (i % 1_000 === 0) await slices.spend(1_000);
  }
  return true;
}

/** A copy of `links` sorted: runs sorted at once, then merged pairwise into ever longer runs. */
async function mergeSorted(links: readonly LinkRecord[], slices: Slices): Promise<LinkRecord[]> {
  let from: LinkRecord[] = new Array<LinkRecord>(links.length);
  for (let start = 0; start < links.length; start += RUN) {
    const run = links.slice(start, start + RUN);
    sortLinks(run, olderFirst);
    for (let i = 0; i < run.length; i += 1) from[start + i] = run[i] as LinkRecord;
    await slices.spend(run.length * 4);
  }
  let to: LinkRecord[] = new Array<LinkRecord>(links.length);
  for (let width = RUN; width < links.length; width *= 2) {
    for (let low = 0; low < links.length; low += 2 * width) await merge(from, to, low, width, slices);
    [from, to] = [to, from];
  }
  return from;
}

/** from[low, low + width) and from[low + width, low + 2 × width), each in order, merged into `to`. */
async function merge(from: readonly LinkRecord[], to: LinkRecord[], low: number, width: number, slices: Slices): Promise<void> {
  const middle = Math.min(low + width, from.length);
  const high = Math.min(low + 2 * width, from.length);
  let left = low;
  let right = middle;
  for (let at = low; at < high; ) {
    const end = Math.min(high, at + 1_000);
    for (; at < end; at += 1) {
      const takeLeft = right >= high || (left < middle && olderFirst(from[left] as LinkRecord, from[right] as LinkRecord) <= 0);
      to[at] = (takeLeft ? from[left++] : from[right++]) as LinkRecord;
    }
    await slices.spend(1_000);
  }
}
