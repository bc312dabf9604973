// The lowdb JSON file (the base) with an append-only change log beside it, as a DataStore: this
// file decides the order of the steps (one write queue, write-queue.ts), log-compaction.ts when
// the log is compacted and how long close may spend folding it, and src/store/file/base-with-logs.ts
// does them on disk (and says how a replay and a change of generation survive a crash). A write
// appends one line per change to `<file>.changes` (and, in durable mode, waits for the disk): its
// cost does not grow with the store. When the log passes a size, it is compacted off the hot path.
//
// A clean close folds the logs into the base (bounded in time), so that the base alone is current;
// a base of an older format is rewritten in the current one before the first write lands.
import type { Change, StoreOp } from '../../core/changes.js';
import type { MockData } from '../../core/model.js';
import { BaseWithLogs } from './base-with-logs.js';
import { writeBuilt } from './built-base.js';
import type { CheckedLoad, Checked } from './checked-state.js';
import type { BaseTarget, BuiltSeed, DataStore } from './data-store.js';
import { LogCompaction, type CompactionOptions } from './log-compaction.js';
import { WriteQueue } from './write-queue.js';

export interface LogFileOptions extends CompactionOptions {
  /** Wait for the disk (fdatasync) before a write resolves. */
  durable: boolean;
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
  private readonly writes = new WriteQueue();
  private readonly compaction: LogCompaction;

  constructor(
    readonly location: string,
    private readonly options: LogFileOptions,
  ) {
    this.files = new BaseWithLogs(location, options.durable);
    this.compaction = new LogCompaction(this.files, this.writes, () => this.data, options);
  }

  /** Reads without writing (but for cutting off a torn last line): a refused db stays as it was. */
  async open(): Promise<MockData | null> {
    const base = await this.files.readBase();
    this.data = base?.data ?? null;
    // A base of an older format is written whole before the first change lands (upgradeBase).
    const changes = this.compaction.restart(this.files.baseIsCurrent);
    const replayed = await this.files.replayLogs(this.data, (change) => changes.note(change));
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
    return this.writes.run(() => this.apply(ops));
  }

  /**
   * Waits for the writes and the compaction in flight, then folds the logs into the base, so that
   * the base alone holds the data; past `closeCompactionMs` the compaction is given up (told to
   * onError) and the logs keep every change, as they did before it started.
   */
  async close(): Promise<void> {
    const limit = this.compaction.giveUpAfter(this.options.closeCompactionMs ?? CLOSE_COMPACTION_MS);
    try {
      await this.writes.settled;
      await this.compaction.finish();
    } finally {
      clearTimeout(limit);
      await this.files.closeLog();
    }
  }

  /**
   * The usual write (changes only, onto a base of the current format, no leftovers to remove) is
   * not an async function: the append's promise with one reaction, the same steps in the same order.
   */
  private apply(ops: readonly StoreOp[]): Promise<void> {
    if (this.files.hasLeftovers || !this.files.baseIsCurrent || ops.length === 0 || hasReplace(ops)) return this.applyAll(ops);
    return this.files.append(ops as readonly Change[]).then(
      () => this.compaction.appended(ops as readonly Change[]),
      (error: unknown) => this.compaction.appendFailed(error),
    );
  }

  private async applyAll(ops: readonly StoreOp[]): Promise<void> {
    if (this.files.hasLeftovers) await this.files.removeLeftovers();
    const lastReplace = ops.findLastIndex((op) => op.op === 'replace');
    const replace = ops[lastReplace];
    if (replace?.op === 'replace') await this.replaceAll(replace.data);
    // Rewritten before the first change lands: an older build then refuses the file instead of
    // appending to it logs of its own that this one would drop as stale.
    else if (!this.files.baseIsCurrent) await this.compaction.upgradeBase();
    const changes = ops.slice(lastReplace + 1) as Change[];
    if (changes.length) await this.files.append(changes).catch((error: unknown) => this.compaction.appendFailed(error));
    this.compaction.appended(changes);
  }

  /**
   * A seed's replace: as replaceAll, but the data is built once the new base's temporary file is
   * open, and may be written there by the seed itself (a worker thread, while this one builds the
   * state: issue 40). Its links must be the data's, each once: a count that differs is refused.
   */
  seed(build: (target: BaseTarget) => Promise<BuiltSeed>): Promise<BuiltSeed> {
    return this.writes.run(async () => {
      // As before any write (apply): what an earlier run left is gone first.
      if (this.files.hasLeftovers) await this.files.removeLeftovers();
      return this.replaceBuilt(build);
    });
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
    await this.compaction.beforeReplace();
    const generation = await this.files.newGeneration();
    let built: BuiltSeed | undefined;
    await this.files.writeNewBase(async (handle) => {
      built = await writeBuilt(handle, generation, build);
    }, generation);
    this.data = (built as BuiltSeed).data;
    // The new base holds every link as it is: no change since it yet.
    this.compaction.restart(true);
    // What it cannot remove now is removed before the next append, or that append fails.
    await this.files.dropOldLogs().catch(() => undefined);
    return built as BuiltSeed;
  }
}
