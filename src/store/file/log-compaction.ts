// When a LogFileStore (log-file-store.ts) compacts its change log, and what it knows for it. When the
// log passes a size, it is compacted off the hot path: the log is set aside as `<file>.changes.old`
// inside the store's write queue (write-queue.ts), a new one takes the appends, the whole data is
// written to a temporary file in chunks and renamed over the base, and the old log is removed
// (base-with-logs.ts does the steps on disk). The links changed since the base on disk was written
// are noted (link-changes.ts), so that a compaction copies the others' lines (carried-base.ts).
//
// A clean close folds the logs into the base (bounded in time), so that the base alone is current;
// a base of an older format is rewritten in the current one before the first write lands.
import type { Change } from '../../core/changes.js';
import type { MockData } from '../../core/model.js';
import type { BaseWithLogs } from './base-with-logs.js';
import { LinkChanges } from './link-changes.js';
import type { WriteQueue } from './write-queue.js';

export interface CompactionOptions {
  /** Compact once the change log is this large. */
  compactAfterBytes: number;
  /**
   * And once it is this share of the base file's size, when that is larger (0, the default: never):
   * a compaction rewrites the whole base, so a fixed threshold costs each change O(store size).
   */
  compactLogShare?: number;
  /** Told when a background compaction, or the one at close, fails (the data is safe in the logs). */
  onError?: (error: Error) => void;
}

export class LogCompaction {
  private compaction: Promise<void> | undefined;
  /** The compaction in flight has not set the log aside yet: its turn in the write queue is still to come. */
  private waitingForTurn = false;
  /** A replace took its turn first: the compaction then sets nothing aside (the replace dropped the logs). */
  private dropped = false;
  /** The links changed since the base on disk was written: a compaction copies the others' lines (carried-base.ts). */
  private changes = new LinkChanges();
  /** Aborted when close's time for compacting is up: stops the compaction's write between batches. */
  private readonly closing = new AbortController();

  constructor(
    private readonly files: BaseWithLogs,
    /** The store's write queue: the log is set aside in it. */
    private readonly writes: WriteQueue,
    /** The store's data as it is now (null: none): what a compaction writes. */
    private readonly data: () => MockData | null,
    private readonly options: CompactionOptions,
  ) {}

  /**
   * Called by a replace in its turn of the write queue: the compaction it must wait for, if one is
   * writing a base. One still waiting for its own turn (queued behind this replace) is dropped
   * instead: waiting for it there would wait for the replace itself, for ever, and the replace's
   * new base, with no logs beside it, leaves it nothing to do.
   */
  beforeReplace(): Promise<void> | undefined {
    if (!this.waitingForTurn) return this.compaction;
    this.dropped = true;
    return undefined;
  }

  /**
   * The changes since the base on disk start over, in the tracker returned: at open (`known` false for
   * a base of an older format, which is written whole: upgradeBase), and after a replace, whose new
   * base holds every link as it is.
   */
  restart(known: boolean): LinkChanges {
    this.changes = new LinkChanges(known);
    return this.changes;
  }

  /** After the changes are in the log: they are noted, and a compaction is started when due. */
  appended(changes: readonly Change[]): void {
    for (const change of changes) this.changes.note(change);
    if (this.files.logBytes > this.compactionThreshold() && !this.compaction) this.startCompaction();
  }

  /**
   * An append that failed: whether memory took the change back (durable: the caller undoes it) or kept
   * it (relaxed), it is not in the log; the next compaction writes every link from memory.
   */
  appendFailed(error: unknown): never {
    this.changes = new LinkChanges(false);
    throw error;
  }

  /** Inside the write queue, before the first append to a base of an older format. */
  async upgradeBase(): Promise<void> {
    await this.writeCompacted(await this.rotateLog());
  }

  /**
   * Close's time for compacting: past `ms` the compaction in flight, or the fold, is given up (told
   * to onError) and the logs keep every change, as they did before it started. The timer to clear.
   */
  giveUpAfter(ms: number): ReturnType<typeof setTimeout> | undefined {
    const giveUp = (): void => this.closing.abort(new Error(`the compaction at close did not finish within ${ms} ms`));
    // 0: no time at all, so no compaction is even started.
    const limit = ms > 0 ? setTimeout(giveUp, ms) : undefined;
    if (!limit) giveUp();
    return limit;
  }

  /** At close, once the writes are done: waits for the compaction in flight, then folds the logs into the base. */
  async finish(): Promise<void> {
    await this.compaction;
    if (this.foldIsDue()) await this.foldAtClose();
  }

  /**
   * When the logs of the current state hold anything. Not on a base of an older format this store
   * never wrote to (a look at the data must not make the file unreadable to the build that wrote
   * it).
   */
  private foldIsDue(): boolean {
    if (!this.data() || !this.files.baseIsCurrent) return false;
    return this.files.holdChanges();
  }

  private async foldAtClose(): Promise<void> {
    try {
      this.closing.signal.throwIfAborted();
      // A stale log must not take the current changes: the rotation appends to an existing old log.
      await this.files.removeLeftovers();
      await this.writeCompacted(await this.rotateLog());
    } catch (error) {
      this.options.onError?.(error as Error);
    }
  }

  /** The log's size past which it is compacted: compactAfterBytes, or its share of the base when larger. */
  private compactionThreshold(): number {
    return Math.max(this.options.compactAfterBytes, (this.options.compactLogShare ?? 0) * this.files.baseBytes);
  }

  private startCompaction(): void {
    this.waitingForTurn = true;
    this.dropped = false;
    this.compaction = this.compact()
      // Given up at close: told once, by close.
      .catch((error: unknown) => (error === this.closing.signal.reason ? undefined : this.options.onError?.(error as Error)))
      .finally(() => {
        this.compaction = undefined;
      });
  }

  private async compact(): Promise<void> {
    // Set the log aside inside the write queue, so no append lands in between.
    const rotation = this.writes.run(() => this.rotateUnlessDropped());
    const changes = await rotation;
    if (changes) await this.writeCompacted(changes);
  }

  private async rotateUnlessDropped(): Promise<LinkChanges | undefined> {
    this.waitingForTurn = false;
    return this.dropped ? undefined : this.rotateLog();
  }

  /**
   * Sets the log aside (in the write queue); the changes it holds since the base, while the changes
   * from here on are noted for the base the compaction writes.
   */
  private async rotateLog(): Promise<LinkChanges> {
    await this.files.rotateLog();
    const changes = this.changes;
    this.changes = new LinkChanges();
    return changes;
  }

  /**
   * The logs set aside go into a new base: the data as it is now, its links in the table's own
   * order, read lazily (the ids put meanwhile are in the new log, whose replay fixes the rest up).
   */
  private async writeCompacted(changes: LinkChanges): Promise<void> {
    try {
      await this.files.writeCompacted(this.data() as MockData, this.closing.signal, changes);
    } catch (error) {
      // The base stays with the logs set aside: the changes since it are in two logs, noted apart.
      this.changes = new LinkChanges(false);
      throw error;
    }
  }
}
