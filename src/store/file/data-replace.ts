// A replace (reset, restore) of the data of the store of one process (local-link-store.ts): written
// and indexed first, a slice per turn, and only then put in the place of the data in memory, in one
// step; reads meanwhile see the data it replaces; changes wait while it is written (`writing`), so
// that none is made on the state it replaces and written after it (none is lost to it), and one that
// fails leaves the data as it was, taking changes as before. With it, the restores' reads that took
// stored records (reused-links.ts), watched until their replace.
import { forgetLinkBatches } from '../../core/link-batches.js';
import type { LinkRecord, MockData } from '../../core/model.js';
import type { KnownLinks } from '../../core/snapshots.js';
import { MockState } from '../../core/state.js';
import type { Persist } from './change-writes.js';
import { ReusingReads } from './reused-links.js';
import { nextTurn } from './next-turn.js';

export class DataReplace {
  private replacing: Promise<void> | undefined;
  /** Restores' reads that took stored records (readReusing), watched until their replace. */
  private readonly reusing = new ReusingReads();

  /** `swap`: puts the new state in the place of the store's, in the turn the replace ends written. */
  constructor(
    private readonly persist: Persist,
    private readonly swap: (state: MockState) => void,
  ) {}

  /**
   * The replace being written, settled either way. Changes wait for it with
   * `while (this.replace.writing) await this.replace.writing;` as their first line: the check that
   * lets them on runs in the same turn as their change to memory, so no replace can start in between.
   * Each turn waits for one replace, which ends (written or failed).
   */
  get writing(): Promise<void> | undefined {
    return this.replacing;
  }

  /** `read` given the stored records of `state` it may take for the equal ones it reads, watched until their replace. */
  readReusing<T>(state: MockState, read: (known: KnownLinks) => Promise<T>): Promise<T> {
    return this.reusing.read(state, read);
  }

  /** Before a stored link is changed in place: the restores' reads that took it keep it as it is now. */
  beforeChange(link: LinkRecord): void {
    this.reusing.beforeChange(link);
  }

  async replaceAll(data: MockData): Promise<void> {
    while (this.replacing) await this.replacing;
    const done = this.replace(data);
    const replacing = done.then(
      () => undefined,
      () => undefined,
    );
    this.replacing = replacing;
    try {
      await done;
    } finally {
      if (this.replacing === replacing) this.replacing = undefined;
    }
  }

  /**
   * The new data written and its indexes built side by side, each a slice per turn (reads meanwhile
   * see the data it replaces, whole), then swapped in in one step: a request sees the old data or the
   * new, never a mix nor a half-built index (issue 40: at 1,000,000 links one step of seconds).
   */
  private async replace(data: MockData): Promise<void> {
    // Changes wait from here on: a record taken is the new state's. Changed since, the kept batches hold it, the data its copy.
    if (this.reusing.end(data.links)?.changed) forgetLinkBatches(data);
    const [state] = await Promise.all([MockState.built(data, nextTurn), this.persist([{ op: 'replace', data }])]);
    // Both have read the links' batches (a snapshot's reader or the seed's worker kept them): kept
    // longer, they would hold every link deleted from here on, as open-data.ts's seedStore says.
    forgetLinkBatches(data);
    this.swap(state);
  }
}
