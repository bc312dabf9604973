// One full garbage collection at the end of a start that loaded a large store, before the server
// listens (issue 40). Reading 1,000,000 links (a 326 MiB db file) leaves ~100 MiB of garbage in V8's
// large-object space, mostly the hash tables outgrown while indexing (the links' dictionary, the
// slugs' Map, an account's array of links), promoted before they died. V8 would free it only at its
// next full collection, which an idle mock does not reach for a long time: without this one the
// process stood at 616-676 MiB at listening (1.9-2.1x the file; 29 Nov, i40c-start); with it,
// 530-534 MiB. It holds the event loop while it marks the live data (under a second at 1,000,000
// links without compaction: collectGarbage), which is why it runs only before listening, when no
// request can wait on it. The pages it frees are unmapped by V8 on a background thread, a moment
// later: RSS read right after it can still count them (a process that read the db: ~605 MiB right
// after, ~510 MiB 3 s later).
//
// It is skipped when V8's own full collection, late in the load, did its work already: at 1,000,000
// links V8 runs one when the heap reaches ~510-530 MB, which falls in the last seconds of the read
// in some starts and just after it in others. Where it fell in, the one here freed 11-16 MB and cost
// 0.6-1.0 s of CPU, ~5% of the start (29 Nov 11:30, loaded machine); where it did not, it freed
// ~137 MB. Which of the two is told by the heap's growth since V8's last full collection of the load
// (the most it can have left to free): watchedLoad.
import { GCProfiler, getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Links loaded from which a start collects its garbage before listening; below it the garbage is small and a test process that starts many mocks would pay the collection each time. */
export const COLLECT_BEFORE_LISTENING_LINKS = 100_000;

/**
 * The heap's growth since V8's last full collection of the load, as a share of what that collection
 * left live, below which no collection is run before listening: the garbage left is at most that
 * (~40 MB on the ~390 MB live at 1,000,000 links; RSS stays under 2x the file).
 */
export const GROWTH_LEFT_UNCOLLECTED = 0.1;

/** What V8's own full collections during a load left: the heap's used bytes after the last one; none ran: undefined. */
export interface FullCollections {
  liveAfterLast?: number;
}

/** `load` run while V8's full collections are watched (v8.GCProfiler: the heap's size after each); what they left goes to `collections`. */
export async function watchedLoad<T>(load: () => Promise<T>, collections: FullCollections): Promise<T> {
  const profiler = new GCProfiler();
  profiler.start();
  let stopped = false;
  try {
    const value = await load();
    stopped = true;
    const full = (profiler.stop()?.statistics ?? []).filter((gc) => gc.gcType === 'MarkSweepCompact').at(-1);
    if (full) collections.liveAfterLast = full.afterGC.heapStatistics.usedHeapSize;
    return value;
  } finally {
    // A load that throws: the profiler is stopped all the same (it keeps each collection's statistics while it runs).
    if (!stopped) profiler.stop();
  }
}

/**
 * Collects (`collect`) when the start loaded at least COLLECT_BEFORE_LISTENING_LINKS, unless V8's
 * own full collection during the load (`collections`) left the heap within GROWTH_LEFT_UNCOLLECTED
 * of what it is now (`usedNow`); whether it did.
 */
export function collectAfterLoad(links: number, collect: () => void = collectGarbage, collections: FullCollections = {}, usedNow: () => number = usedHeap): boolean {
  if (links < COLLECT_BEFORE_LISTENING_LINKS) return false;
  const live = collections.liveAfterLast;
  if (live !== undefined && usedNow() - live < live * GROWTH_LEFT_UNCOLLECTED) return false;
  collect();
  return true;
}

function usedHeap(): number {
  return getHeapStatistics().used_heap_size;
}

/**
 * A full, synchronous collection. Node has no API for it without the `--expose-gc` flag, which only
 * the process's own command line could give (the CLI is started as `shortlink-mock …`): the flag is
 * set for a moment so that a new context gets V8's `gc`, then unset, so no context made later has it.
 */
export function collectGarbage(): void {
  // Without compaction: what this collection is for is the large objects (text, outgrown tables),
  // freed whole, which no compaction moves. The compaction V8 may choose here moved live links
  // between pages of the old space: at 1,000,000 links ~3.3 s of CPU against ~0.6-0.8 s for the same
  // collection without it, and the same RSS 3 s later (~510 MiB in a process that read the db).
  setFlagsFromString('--no-compact');
  try {
    const given = (globalThis as { gc?: () => void }).gc;
    if (given) return given();
    setFlagsFromString('--expose-gc');
    try {
      (runInNewContext('gc') as () => void)();
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  } finally {
    setFlagsFromString('--compact');
  }
}
