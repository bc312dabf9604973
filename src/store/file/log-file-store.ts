// The lowdb JSON file (the base) with an append-only change log beside it, as a DataStore: this
// file decides the order and the timing of the steps, src/store/file/base-with-logs.ts does them on
// disk (and says how a replay and a change of generation survive a crash). A write appends one
// line per change to `<file>.changes` (and, in durable mode, waits for the disk): its cost does not
// grow with the store. When the log passes a size, it is compacted off the hot path: the log is set
// aside as `<file>.changes.old`, a new one takes the appends, the whole data is written to a
// temporary file in chunks and renamed over the base, and the old log is removed.
//
// A clean close folds the logs into the base (bounded in time), so that the base alone is current;
// a base of an older format is rewritten in the current one before the first write lands.
import type { Change, StoreOp } from '../../core/changes.js';
import type { MockData } from '../../core/model.js';
import { BaseWithLogs } from './base-with-logs.js';
import { writeBuilt } from './built-base.js';
import type { CheckedLoad, Checked } from './checked-state.js';
import { LinkChanges } from './link-changes.js';
import type { BaseTarget, BuiltSeed, DataStore } from './data-store.js';

export interface LogFileOptions {
  /** Wait for the disk (fdatasync) before a write resolves. */
  durable: boolean;
  /** Compact once the change log is this large. */
  compactAfterBytes: number;
  /**
   * And once it is this share of the base file's size, when that is larger (0, the default: never):
   * a compaction rewrites the whole base, so a fixed threshold costs each change O(store size).
   */
  compactLogShare?: number;
  /** Told when a background compaction, or the one at close, fails (the data is safe in the logs). */
  onError?: (error: Error) => void;
  /** How long close may spend compacting (default CLOSE_COMPACTION_MS); past it, the logs stay. */
  closeCompactionMs?: number;
}

export const DEFAULT_COMPACT_AFTER_BYTES = 8 * 1024 * 1024;
/**
 * The mock's compactLogShare: at 1,000,000 links (a 326 MiB base) a compaction every 8 MiB of log
 * rewrote 40 bytes of base per byte appended, and took as much of the main thread as the creates
 * did (issue 40: creates at 0.65x those at 1,000 links). A quarter: 4 bytes per byte appended at
 * most, and a start replays a log of at most a quarter of the base (besides any set aside).
 */
export const COMPACT_LOG_SHARE = 0.25;
/** With the 4 s a stop gives requests in flight, a stop takes at most about 7 s. */
export const CLOSE_COMPACTION_MS = 3000;

function hasReplace(ops: readonly StoreOp[]): boolean {
  for (const op of ops) if (op.op === 'replace') return true;
  return false;
}

export class LogFileStore implements DataStore {
  private readonly files: BaseWithLogs;
  private data: MockData | null = null;
  /** The links as the base's read checked and indexed them, while no change was replayed on them. */
  private load: CheckedLoad | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private compaction: Promise<void> | undefined;
  /** The links changed since the base on disk was written: a compaction copies the others' lines (carried-base.ts). */
  private changes = new LinkChanges();
  /** Aborted when close's time for compacting is up: stops the compaction's write between batches. */
  private readonly closing = new AbortController();

  constructor(
    readonly location: string,
    private readonly options: LogFileOptions,
  ) {
    this.files = new BaseWithLogs(location, options.durable);
  }

  /** Reads without writing (but for cutting off a torn last line): a refused db stays as it was. */
  async open(): Promise<MockData | null> {
    const base = await this.files.readBase();
    this.data = base?.data ?? null;
    // A base of an older format is written whole before the first change lands (upgradeBase).
    this.changes = new LinkChanges(this.files.baseIsCurrent);
    const replayed = await this.files.replayLogs(this.data, (change) => this.changes.note(change));
    // A replayed change may undo or add to what the read checked: then the check walks the data.
    this.load = replayed === 0 ? base?.load : undefined;
    return this.data;
  }

  checked(): Checked | undefined {
    const load = this.load;
    this.load = undefined;
    return this.data ? load?.result(this.data) : undefined;
  }

  /**
   * Throws NotOurFileError when the file, unread, is not a db of ours: checked before a reset seeds
   * (src/store/file/open-data.ts), and not again by the replace that follows.
   */
  requireOurs(): Promise<void> {
    return this.files.requireOurs();
  }

  write(ops: readonly StoreOp[]): Promise<void> {
    const run = this.queue.then(() => this.apply(ops));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Waits for the writes and the compaction in flight, then folds the logs into the base, so that
   * the base alone holds the data; past `closeCompactionMs` the compaction is given up (told to
   * onError) and the logs keep every change, as they did before it started.
   */
  async close(): Promise<void> {
    const ms = this.options.closeCompactionMs ?? CLOSE_COMPACTION_MS;
    const giveUp = (): void => this.closing.abort(new Error(`the compaction at close did not finish within ${ms} ms`));
    // 0: no time at all, so no compaction is even started.
    const limit = ms > 0 ? setTimeout(giveUp, ms) : undefined;
    if (!limit) giveUp();
    try {
      await this.queue;
      await this.compaction;
      if (this.foldIsDue()) await this.foldAtClose();
    } finally {
      clearTimeout(limit);
      await this.files.closeLog();
    }
  }

  /**
   * When the logs of the current state hold anything. Not on a base of an older format this store
   * never wrote to (a look at the data must not make the file unreadable to the build that wrote
   * it).
   */
  private foldIsDue(): boolean {
    if (!this.data || !this.files.baseIsCurrent) return false;
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

  /**
   * The usual write (changes only, onto a base of the current format, no leftovers to remove) is
   * not an async function: the append's promise with one reaction, the same steps in the same order.
   */
  private apply(ops: readonly StoreOp[]): Promise<void> {
    if (this.files.hasLeftovers || !this.files.baseIsCurrent || ops.length === 0 || hasReplace(ops)) return this.applyAll(ops);
    return this.files.append(ops as readonly Change[]).then(
      () => this.applied(ops as readonly Change[]),
      (error: unknown) => this.failed(error),
    );
  }

  private async applyAll(ops: readonly StoreOp[]): Promise<void> {
    if (this.files.hasLeftovers) await this.files.removeLeftovers();
    const lastReplace = ops.findLastIndex((op) => op.op === 'replace');
    const replace = ops[lastReplace];
    if (replace?.op === 'replace') await this.replaceAll(replace.data);
    // Rewritten before the first change lands: an older build then refuses the file instead of
    // appending to it logs of its own that this one would drop as stale.
    else if (!this.files.baseIsCurrent) await this.upgradeBase();
    const changes = ops.slice(lastReplace + 1) as Change[];
    if (changes.length) await this.files.append(changes).catch((error: unknown) => this.failed(error));
    this.applied(changes);
  }

  /** After the changes are in the log: they are noted, and a compaction is started when due. */
  private applied(changes: readonly Change[]): void {
    for (const change of changes) this.changes.note(change);
    if (this.files.logBytes > this.compactionThreshold() && !this.compaction) this.startCompaction();
  }

  /**
   * A seed's replace: as replaceAll, but the data is built once the new base's temporary file is
   * open, and may be written there by the seed itself (a worker thread, while this one builds the
   * state: issue 40). Its links must be the data's, each once: a count that differs is refused.
   */
  seed(build: (target: BaseTarget) => Promise<BuiltSeed>): Promise<BuiltSeed> {
    const run = this.queue.then(async () => {
      // As before any write (apply): what an earlier run left is gone first.
      if (this.files.hasLeftovers) await this.files.removeLeftovers();
      return this.replaceBuilt(build);
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Seed, reset, restore: the whole data in the base (atomically, durably) under a new generation,
   * then the logs of the old one removed. One that fails before the base is replaced changes
   * nothing: the old state stays, whole, and goes on taking changes (the caller keeps it in
   * memory too); once the base is replaced, the replace is done.
   */
  private async replaceAll(data: MockData): Promise<void> {
    await this.replaceBuilt(async () => ({ data }));
  }

  private async replaceBuilt(build: (target: BaseTarget) => Promise<BuiltSeed>): Promise<BuiltSeed> {
    await this.compaction;
    const generation = await this.files.newGeneration();
    let built: BuiltSeed | undefined;
    await this.files.writeNewBase(async (handle) => {
      built = await writeBuilt(handle, generation, build);
    }, generation);
    this.data = (built as BuiltSeed).data;
    // The new base holds every link as it is: no change since it yet.
    this.changes = new LinkChanges();
    // What it cannot remove now is removed before the next append, or that append fails.
    await this.files.dropOldLogs().catch(() => undefined);
    return built as BuiltSeed;
  }

  /**
   * An append that failed: whether memory took the change back (durable: the caller undoes it) or kept
   * it (relaxed), it is not in the log; the next compaction writes every link from memory.
   */
  private failed(error: unknown): never {
    this.changes = new LinkChanges(false);
    throw error;
  }

  /** The log's size past which it is compacted: compactAfterBytes, or its share of the base when larger. */
  private compactionThreshold(): number {
    return Math.max(this.options.compactAfterBytes, (this.options.compactLogShare ?? 0) * this.files.baseBytes);
  }

  private startCompaction(): void {
    this.compaction = this.compact()
      // Given up at close: told once, by close.
      .catch((error: unknown) => (error === this.closing.signal.reason ? undefined : this.options.onError?.(error as Error)))
      .finally(() => {
        this.compaction = undefined;
      });
  }

  private async compact(): Promise<void> {
    // Set the log aside inside the write queue, so no append lands in between.
    const rotation = this.queue.then(() => this.rotateLog());
    this.queue = rotation.catch(() => undefined);
    await this.writeCompacted(await rotation);
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
      await this.files.writeCompacted(this.data as MockData, this.closing.signal, changes);
    } catch (error) {
      // The base stays with the logs set aside: the changes since it are in two logs, noted apart.
      this.changes = new LinkChanges(false);
      throw error;
    }
  }

  /** Inside the write queue, before the first append to a base of an older format. */
  private async upgradeBase(): Promise<void> {
    await this.writeCompacted(await this.rotateLog());
  }
}
