// The files of a LogFileStore (src/store/file/log-file-store.ts) on disk, and what it knows of them: the
// base (src/store/file/base-file.ts), the change log `<file>.changes` that takes the appends, and
// `<file>.changes.old`, a log set aside for a compaction. Opening replays the base, then
// `.changes.old`, then `.changes`: changes are whole records put or deleted, so a replay on top of
// a newer base of the same state still ends in the right state.
//
// Seed, reset and restore replace the state: the base is rewritten with a new generation, which
// every log names on its first line (src/store/file/change-log.ts). Whatever point a crash hits, the
// next start finds the old base with its logs, or the new base with logs of another generation,
// which it ignores and removes: the old state or the new one, never a mix.
//
// It does each step when told (the appends: log-appender.ts): their order (one write queue) is
// log-file-store.ts's, their timing (when to compact, how long close may take) log-compaction.ts's.
import { existsSync } from 'node:fs';
import { rm, stat, type FileHandle } from 'node:fs/promises';
import { applyChange, type Change } from '../../core/changes.js';
import { DATA_FORMAT_VERSION, type MockData } from '../../core/model.js';
import { readBase, writeBase, type Base } from './base-file.js';
import { replaceCarried } from './carried-base.js';
import { generationOfLog, readLog, setLogAside } from './change-log.js';
import { requireOurs } from './db-kind.js';
import { replaceFile } from './durable-file.js';
import type { LinkChanges } from './link-changes.js';
import { LogAppender } from './log-appender.js';

export class BaseWithLogs {
  private readonly log: string;
  private readonly oldLog: string;
  private readonly compacting: string;
  private readonly replacing: string;
  private generation = 0;
  /** The formatVersion of the base on disk: an older one is rewritten before the first append. */
  private baseFormat = DATA_FORMAT_VERSION;
  /** True once the base is known to be ours or absent: only then may a replace overwrite it. */
  private recognised = false;
  private readonly appender: LogAppender;
  /** The size of the base on disk when it was last read or written (0: none). */
  private baseSize = 0;
  /** Files found at open that hold nothing of the current state: removed before the first write. */
  private leftovers: string[] = [];

  constructor(
    private readonly location: string,
    /** Wait for the disk (fdatasync) before an append resolves. */
    durable: boolean,
  ) {
    this.log = `${location}.changes`;
    this.appender = new LogAppender(this.log, durable);
    this.oldLog = `${location}.changes.old`;
    this.compacting = `${location}.compacting`;
    this.replacing = `${location}.replacing`;
  }

  /** The size of the change log that takes the appends. */
  get logBytes(): number {
    return this.appender.bytes;
  }

  /** The size of the base file as last read or written: log-compaction.ts compacts in proportion to it. */
  get baseBytes(): number {
    return this.baseSize;
  }

  /** False for a base of an older format: it is rewritten in the current one before the first append. */
  get baseIsCurrent(): boolean {
    return this.baseFormat === DATA_FORMAT_VERSION;
  }

  /**
   * The base's data, or null when there is none; `replayLogs` brings it up to date. With the keys
   * of its links when the base was read record by record (base-file.ts).
   */
  async readBase(): Promise<Base | null> {
    const base = await readBase(this.location);
    this.generation = base?.generation ?? 0;
    this.baseFormat = base?.format ?? DATA_FORMAT_VERSION;
    this.recognised = true;
    this.leftovers = [this.compacting, this.replacing].filter((file) => existsSync(file));
    this.appender.setSize(0);
    await this.measureBase();
    return base;
  }

  /**
   * Applies to `data` (the base's) the changes of the logs of its generation, each told to
   * `replayed`; the others are leftovers. Resolves to how many there were.
   */
  async replayLogs(data: MockData | null, replayed?: (change: Change) => void): Promise<number> {
    let count = 0;
    for (const file of [this.oldLog, this.log]) {
      const contents = await readLog(file, this.generation);
      if (!contents) continue;
      // Whatever its generation: the user's changes must not be dropped for a re-seed.
      if (contents.bytes > 0 && !data) throw new Error(`${file} has changes but ${this.location} is missing`);
      if (contents.generation !== this.generation) {
        this.leftovers.push(file);
        continue;
      }
      count += contents.changes.length;
      for (const change of contents.changes) {
        applyChange(data as MockData, change);
        replayed?.(change);
      }
      if (file === this.log) this.appender.setSize(contents.bytes);
    }
    return count;
  }

  /** Whether the logs of the current state hold anything. */
  holdChanges(): boolean {
    return this.appender.bytes > 0 || (existsSync(this.oldLog) && !this.leftovers.includes(this.oldLog));
  }

  /** Whether removeLeftovers has anything to do: checked before each write, which then need not wait for it. */
  get hasLeftovers(): boolean {
    return this.leftovers.length > 0;
  }

  async removeLeftovers(): Promise<void> {
    while (this.leftovers.length) {
      await rm(this.leftovers[0] as string, { force: true });
      this.leftovers.shift();
    }
  }

  /** Appends the changes to the log of the base's generation (log-appender.ts: not an async function). */
  append(changes: readonly Change[]): Promise<void> {
    return this.appender.append(changes, this.generation);
  }

  /** Not opened (--reset): whatever is there is overwritten unread, so it must be ours. Checked once. */
  async requireOurs(): Promise<void> {
    if (!this.recognised) await requireOurs(this.location);
    this.recognised = true;
  }

  /**
   * For a replace (seed, reset, restore): a generation no log on disk names, so that none of them
   * can pass for the new state's, whether or not this store read them (`--reset` does not).
   */
  async newGeneration(): Promise<number> {
    await this.requireOurs();
    const logGenerations = await Promise.all([this.log, this.oldLog].map((file) => generationOfLog(file)));
    return Math.max(this.generation, ...logGenerations.map((found) => found ?? 0)) + 1;
  }

  /**
   * The whole data in the base (atomically, durably) under `generation`, as `write` writes it to the
   * temporary file that then replaces the base; then `dropOldLogs`.
   */
  async writeNewBase(write: (handle: FileHandle) => Promise<void>, generation: number): Promise<void> {
    await replaceFile(this.location, this.replacing, write);
    this.baseFormat = DATA_FORMAT_VERSION;
    this.generation = generation;
    await this.measureBase();
  }

  /**
   * Removes the logs of the generation before `writeNewBase`'s. The replace is done whether or not
   * this succeeds: the logs are leftovers first, and a removal that fails is retried before the
   * next append, which must not land in a log of the old generation.
   */
  async dropOldLogs(): Promise<void> {
    this.appender.setSize(0);
    this.leftovers.push(this.log, this.oldLog);
    await this.closeLog();
    await this.removeLeftovers();
  }

  /** Sets the log aside as `.changes.old` (see setLogAside): the next append starts a new log. */
  async rotateLog(): Promise<void> {
    await this.closeLog();
    await setLogAside(this.log, this.oldLog);
    this.appender.setSize(0);
  }

  /**
   * The logs set aside (`rotateLog`) go into a new base: the data as it is now, in the current format.
   * With `changes`, every change since the base (link-changes.ts), the lines of the links it does not
   * name are copied from the base (carried-base.ts); a base not in the writer's layout is written whole.
   */
  async writeCompacted(data: MockData, signal: AbortSignal, changes?: LinkChanges): Promise<void> {
    // The same state, so the same generation: the logs beside it stay valid.
    const generation = this.generation;
    if (!changes?.complete || !(await replaceCarried(this.location, this.compacting, data, generation, changes, signal))) {
      await writeBase(this.location, this.compacting, { data, generation }, data.links.keys(), signal);
    }
    this.baseFormat = DATA_FORMAT_VERSION;
    await rm(this.oldLog, { force: true });
    await this.measureBase();
  }

  private async measureBase(): Promise<void> {
    this.baseSize = (await stat(this.location).catch(() => undefined))?.size ?? 0;
  }

  closeLog(): Promise<void> {
    return this.appender.close();
  }
}
