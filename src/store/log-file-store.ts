// The lowdb JSON file (the base) with an append-only change log beside it. A write appends one
// line per change to `<file>.changes` (and, in durable mode, waits for the disk): its cost does not
// grow with the store. When the log passes a size, it is compacted off the hot path: the log is set
// aside as `<file>.changes.old`, a new one takes the appends, the whole data is written to a
// temporary file in chunks and renamed over the base, and the old log is removed. Opening replays
// the base, then `.changes.old`, then `.changes`: changes are whole records put or deleted, so a
// replay on top of a newer base of the same state still ends in the right state.
//
// Seed, reset and restore replace the state: the base is rewritten with a new generation, which
// every log names on its first line (src/store/change-log.ts). Whatever point a crash hits, the
// next start finds the old base with its logs, or the new base with logs of another generation,
// which it ignores and removes: the old state or the new one, never a mix.
//
// A clean close folds the logs into the base (bounded in time), so that the base alone is current;
// a base of an older format is rewritten in the current one before the first write lands.
import { existsSync } from 'node:fs';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { applyChange, type Change, type StoreOp } from '../core/changes.js';
import { DATA_FORMAT_VERSION, type MockData } from '../core/model.js';
import { readBase, writeBase } from './base-file.js';
import { generationOfLog, headerLine, readLog, setLogAside } from './change-log.js';
import type { DataStore } from './data-store.js';
import { requireOurs } from './db-kind.js';
import { syncDirectory } from './durable-file.js';

export interface LogFileOptions {
  /** Wait for the disk (fdatasync) before a write resolves. */
  durable: boolean;
  /** Compact once the change log is this large. */
  compactAfterBytes: number;
  /** Told when a background compaction, or the one at close, fails (the data is safe in the logs). */
  onError?: (error: Error) => void;
  /** How long close may spend compacting (default CLOSE_COMPACTION_MS); past it, the logs stay. */
  closeCompactionMs?: number;
}

export const DEFAULT_COMPACT_AFTER_BYTES = 8 * 1024 * 1024;
/** With the 4 s a stop gives requests in flight, a stop takes at most about 7 s. */
export const CLOSE_COMPACTION_MS = 3000;

export class LogFileStore implements DataStore {
  private readonly log: string;
  private readonly oldLog: string;
  private readonly compacting: string;
  private readonly replacing: string;
  private data: MockData | null = null;
  private generation = 0;
  /** The formatVersion of the base on disk: an older one is rewritten before the first append. */
  private baseFormat = DATA_FORMAT_VERSION;
  /** True once the base is known to be ours or absent: only then may a replace overwrite it. */
  private recognised = false;
  /** The ids of data.links, kept up to date write by write, so compaction can read them lazily. */
  private linkIds = new Set<string>();
  private handle: FileHandle | undefined;
  private logBytes = 0;
  /** Files found at open that hold nothing of the current state: removed before the first write. */
  private leftovers: string[] = [];
  /** A replace whose write failed: the live data is already the new state, so it is retried first. */
  private unsavedReplace: MockData | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private compaction: Promise<void> | undefined;
  /** Aborted when close's time for compacting is up: stops the compaction's write between batches. */
  private readonly closing = new AbortController();

  constructor(
    readonly location: string,
    private readonly options: LogFileOptions,
  ) {
    this.log = `${location}.changes`;
    this.oldLog = `${location}.changes.old`;
    this.compacting = `${location}.compacting`;
    this.replacing = `${location}.replacing`;
  }

  /** Reads without writing (but for cutting off a torn last line): a refused db stays as it was. */
  async open(): Promise<MockData | null> {
    const base = await readBase(this.location);
    this.data = base?.data ?? null;
    this.generation = base?.generation ?? 0;
    this.baseFormat = base?.format ?? DATA_FORMAT_VERSION;
    this.recognised = true;
    this.leftovers = [this.compacting, this.replacing].filter((file) => existsSync(file));
    this.logBytes = 0;
    for (const file of [this.oldLog, this.log]) {
      const contents = await readLog(file, this.generation);
      if (!contents) continue;
      // Whatever its generation: the user's changes must not be dropped for a re-seed.
      if (contents.bytes > 0 && !this.data) throw new Error(`${file} has changes but ${this.location} is missing`);
      if (contents.generation !== this.generation) {
        this.leftovers.push(file);
        continue;
      }
      for (const change of contents.changes) applyChange(this.data as MockData, change);
      if (file === this.log) this.logBytes = contents.bytes;
    }
    this.linkIds = new Set(this.data ? Object.keys(this.data.links) : []);
    return this.data;
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
      await this.handle?.close();
      this.handle = undefined;
    }
  }

  /**
   * When the logs of the current state hold anything. Not on a base of an older format this store
   * never wrote to (a look at the data must not make the file unreadable to the build that wrote
   * it), nor when a replace is unsaved (the base is the old state, the data the new one).
   */
  private foldIsDue(): boolean {
    if (!this.data || this.unsavedReplace || this.baseFormat !== DATA_FORMAT_VERSION) return false;
    return this.logBytes > 0 || (existsSync(this.oldLog) && !this.leftovers.includes(this.oldLog));
  }

  private async foldAtClose(): Promise<void> {
    try {
      this.closing.signal.throwIfAborted();
      // A stale log must not take the current changes: the rotation appends to an existing old log.
      await this.removeLeftovers();
      await this.rotateLog();
      await this.writeCompacted();
    } catch (error) {
      this.options.onError?.(error as Error);
    }
  }

  private async apply(ops: readonly StoreOp[]): Promise<void> {
    await this.removeLeftovers();
    const lastReplace = ops.map((op) => op.op).lastIndexOf('replace');
    const replace = ops[lastReplace];
    const replaced = replace?.op === 'replace' ? replace.data : this.unsavedReplace;
    if (replaced) await this.replaceAll(replaced);
    // Rewritten before the first change lands: an older build then refuses the file instead of
    // appending to it logs of its own that this one would drop as stale.
    else if (this.baseFormat !== DATA_FORMAT_VERSION) await this.upgradeBase();
    const changes = ops.slice(lastReplace + 1) as Change[];
    if (changes.length) await this.append(changes);
    for (const change of changes) {
      if (change.op === 'put-link') this.linkIds.add(change.link.id);
      if (change.op === 'delete-link') this.linkIds.delete(change.id);
    }
    if (this.logBytes > this.options.compactAfterBytes && !this.compaction) this.startCompaction();
  }

  private async removeLeftovers(): Promise<void> {
    while (this.leftovers.length) {
      await rm(this.leftovers[0] as string, { force: true });
      this.leftovers.shift();
    }
  }

  private async append(changes: Change[]): Promise<void> {
    // A new log starts with the generation it belongs to, in the same write as its first changes.
    const header = this.logBytes === 0 ? headerLine(this.generation) : '';
    const text = `${header}${changes.map((change) => JSON.stringify(change)).join('\n')}\n`;
    this.handle ??= await open(this.log, 'a');
    try {
      await this.handle.appendFile(text);
      if (this.options.durable) await this.handle.datasync();
      // The new log's directory entry: without it, a power cut could lose the file it synced.
      if (header) await syncDirectory(dirname(this.log));
    } catch (error) {
      // A half-written batch (disk full) would sit in the middle of the log once later appends
      // succeed, and make the log unreadable: cut the file back to its last complete line.
      await this.handle.truncate(this.logBytes).catch(() => undefined);
      throw error;
    }
    this.logBytes += Buffer.byteLength(text);
  }

  /**
   * Seed, reset, restore: the whole data in the base (atomically, durably) under a new generation,
   * then the logs of the old one removed. A generation no log on disk names, so that none of them
   * can pass for the new state's, whether or not this store read them (`--reset` does not).
   */
  private async replaceAll(data: MockData): Promise<void> {
    await this.compaction;
    // Not opened (--reset): whatever is there is overwritten unread, so it must be ours.
    if (!this.recognised) await requireOurs(this.location);
    this.recognised = true;
    const logGenerations = await Promise.all([this.log, this.oldLog].map((file) => generationOfLog(file)));
    const generation = Math.max(this.generation, ...logGenerations.map((found) => found ?? 0)) + 1;
    const linkIds = new Set(Object.keys(data.links));
    try {
      await writeBase(this.location, this.replacing, { data, generation }, linkIds);
    } catch (error) {
      // The old state stays on disk, whole: no change of the new one may go into its log.
      this.unsavedReplace = data;
      throw error;
    }
    this.unsavedReplace = undefined;
    this.baseFormat = DATA_FORMAT_VERSION;
    this.generation = generation;
    this.data = data;
    this.linkIds = linkIds;
    await this.handle?.close();
    this.handle = undefined;
    this.logBytes = 0;
    // As leftovers: a removal that fails is retried before the next append, which must not land
    // in a log of the old generation.
    this.leftovers.push(this.log, this.oldLog);
    await this.removeLeftovers();
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
    await rotation;
    await this.writeCompacted();
  }

  /** The logs set aside (`rotateLog`) go into a new base: the data as it is now, in the current format. */
  private async writeCompacted(): Promise<void> {
    // The same state, so the same generation: the logs beside it stay valid.
    await writeBase(this.location, this.compacting, { data: this.data as MockData, generation: this.generation }, this.linkIds, this.closing.signal);
    this.baseFormat = DATA_FORMAT_VERSION;
    await rm(this.oldLog, { force: true });
  }

  /** Inside the write queue, before the first append to a base of an older format. */
  private async upgradeBase(): Promise<void> {
    await this.rotateLog();
    await this.writeCompacted();
  }

  private async rotateLog(): Promise<void> {
    await this.handle?.close();
    this.handle = undefined;
    await setLogAside(this.log, this.oldLog);
    this.logBytes = 0;
  }
}
