// The lowdb JSON file with an append-only change log beside it. A write appends one line per
// change to `<file>.changes` (and, in durable mode, waits for the disk): its cost does not grow
// with the store. When the log passes a size, it is compacted off the hot path: the log is set
// aside as `<file>.changes.old`, a new one takes the appends, the whole data is written to a
// temporary file in chunks and renamed over the lowdb file, and the old log is removed. Opening
// replays the base file, then `.changes.old`, then `.changes`: changes are whole records put or
// deleted, so a replay on top of a newer base still ends in the right state.
import { existsSync } from 'node:fs';
import { appendFile, open, readFile, rename, rm, truncate, type FileHandle } from 'node:fs/promises';
import { JSONFile } from 'lowdb/node';
import { applyChange, isChange, type Change, type StoreOp } from '../core/changes.js';
import type { MockData } from '../core/model.js';
import { writeDataChunked } from './chunked-json.js';
import type { DataStore } from './data-store.js';

export interface LogFileOptions {
  /** Wait for the disk (fdatasync) before a write resolves. */
  durable: boolean;
  /** Compact once the change log is this large. */
  compactAfterBytes: number;
  /** Told when a background compaction fails (the data is safe in the logs). */
  onError?: (error: Error) => void;
}

export const DEFAULT_COMPACT_AFTER_BYTES = 8 * 1024 * 1024;

export class LogFileStore implements DataStore {
  private readonly base: JSONFile<MockData>;
  private readonly log: string;
  private readonly oldLog: string;
  private data: MockData | null = null;
  /** The ids of data.links, kept up to date write by write, so compaction can read them lazily. */
  private linkIds = new Set<string>();
  private handle: FileHandle | undefined;
  private logBytes = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private compaction: Promise<void> | undefined;

  constructor(
    readonly location: string,
    private readonly options: LogFileOptions,
  ) {
    this.base = new JSONFile<MockData>(location);
    this.log = `${location}.changes`;
    this.oldLog = `${location}.changes.old`;
  }

  async open(): Promise<MockData | null> {
    this.data = await this.base.read();
    for (const file of [this.oldLog, this.log]) {
      const changes = await readLog(file);
      if (changes.length && !this.data) throw new Error(`${file} has changes but ${this.location} is missing`);
      for (const change of changes) applyChange(this.data as MockData, change);
    }
    this.logBytes = existsSync(this.log) ? (await readFile(this.log)).length : 0;
    this.linkIds = new Set(this.data ? Object.keys(this.data.links) : []);
    return this.data;
  }

  write(ops: readonly StoreOp[]): Promise<void> {
    const run = this.queue.then(() => this.apply(ops));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    await this.queue;
    await this.compaction;
    await this.handle?.close();
    this.handle = undefined;
  }

  private async apply(ops: readonly StoreOp[]): Promise<void> {
    const lastReplace = ops.map((op) => op.op).lastIndexOf('replace');
    const replace = ops[lastReplace];
    if (replace?.op === 'replace') await this.replaceAll(replace.data);
    const changes = ops.slice(lastReplace + 1) as Change[];
    if (changes.length) await this.append(changes);
    for (const change of changes) {
      if (change.op === 'put-link') this.linkIds.add(change.link.id);
      if (change.op === 'delete-link') this.linkIds.delete(change.id);
    }
    if (this.logBytes > this.options.compactAfterBytes && !this.compaction) this.startCompaction();
  }

  private async append(changes: Change[]): Promise<void> {
    const text = `${changes.map((change) => JSON.stringify(change)).join('\n')}\n`;
    this.handle ??= await open(this.log, 'a');
    try {
      await this.handle.appendFile(text);
      if (this.options.durable) await this.handle.datasync();
    } catch (error) {
      // A half-written batch (disk full) would sit in the middle of the log once later appends
      // succeed, and make the log unreadable: cut the file back to its last complete line.
      await this.handle.truncate(this.logBytes).catch(() => undefined);
      throw error;
    }
    this.logBytes += Buffer.byteLength(text);
  }

  /** Seed, reset, restore: the whole data in the lowdb file (atomically), the logs emptied. */
  private async replaceAll(data: MockData): Promise<void> {
    await this.compaction;
    await this.base.write(data);
    this.data = data;
    this.linkIds = new Set(Object.keys(data.links));
    await this.handle?.close();
    this.handle = undefined;
    await rm(this.log, { force: true });
    await rm(this.oldLog, { force: true });
    this.logBytes = 0;
  }

  private startCompaction(): void {
    this.compaction = this.compact()
      .catch((error: unknown) => this.options.onError?.(error as Error))
      .finally(() => {
        this.compaction = undefined;
      });
  }

  private async compact(): Promise<void> {
    // Set the log aside inside the write queue, so no append lands in between.
    const rotation = this.queue.then(() => this.rotateLog());
    this.queue = rotation.catch(() => undefined);
    await rotation;
    const temporary = `${this.location}.compacting`;
    const handle = await open(temporary, 'w');
    try {
      await writeDataChunked(handle, this.data as MockData, this.linkIds);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, this.location);
    await rm(this.oldLog, { force: true });
  }

  private async rotateLog(): Promise<void> {
    await this.handle?.close();
    this.handle = undefined;
    if (existsSync(this.oldLog)) {
      // An earlier compaction failed: keep every change, in order, in the old log.
      await appendFile(this.oldLog, await readFile(this.log));
      await rm(this.log, { force: true });
    } else if (existsSync(this.log)) {
      await rename(this.log, this.oldLog);
    }
    this.logBytes = 0;
  }
}

/** The changes of a log file; a torn last line (a crash mid-append) is cut off, never applied. */
async function readLog(file: string): Promise<Change[]> {
  if (!existsSync(file)) return [];
  const text = await readFile(file, 'utf8');
  const complete = text.lastIndexOf('\n') + 1;
  if (complete < text.length) await truncate(file, Buffer.byteLength(text.slice(0, complete)));
  return text
    .slice(0, complete)
    .split('\n')
    .filter((line) => line !== '')
    .map((line, index) => {
      let change: unknown;
      try {
        change = JSON.parse(line);
      } catch {
        change = undefined;
      }
      if (!isChange(change)) throw new Error(`${file} line ${index + 1} is not a whole change: ${line.slice(0, 80).replace(/[^\x20-\x7e]+/g, '?')}`);
      return change;
    });
}
