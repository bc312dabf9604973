// The appends to the change log `<file>.changes` (base-with-logs.ts keeps the log's place among
// the files): its descriptor, open from its first append until it is closed or set aside, and its
// size. A log's first append writes the line naming its generation (change-log.ts) before the
// changes; each change is its JSON and a newline; an append that fails is cut back off the log.
import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Change } from '../../core/changes.js';
import { headerLine } from './change-log.js';
import { syncDirectory } from './durable-file.js';
import { appendToFd } from './fd-append.js';

export class LogAppender {
  private handle: FileHandle | undefined;
  private size = 0;

  constructor(
    private readonly log: string,
    /** Wait for the disk (fdatasync) before an append resolves. */
    private readonly durable: boolean,
  ) {}

  /** The log's size: 0 when there is none to append to (the next append starts one). */
  get bytes(): number {
    return this.size;
  }

  /** The log's size as found when it was replayed, or 0 once it is gone or set aside: the next append then writes a header first. */
  setSize(bytes: number): void {
    this.size = bytes;
  }

  /**
   * An append to the open log (every change but a log's first) is not an async function: its
   * promise is the write's own, with one reaction, and the bytes are the same lines (each change's
   * JSON and a newline). A log's first append, which opens the file and writes the header of
   * `generation`, and an empty one go the general way below.
   */
  append(changes: readonly Change[], generation: number): Promise<void> {
    const handle = this.handle;
    if (this.size === 0 || handle === undefined || changes.length === 0) return this.appendOpening(changes, generation);
    let text = '';
    for (const change of changes) text += `${JSON.stringify(change)}\n`;
    const bytes = Buffer.from(text);
    return appendToFd(handle.fd, bytes, this.durable, this.log).then(
      () => {
        this.size += bytes.length;
      },
      (error: unknown) => this.cutBack(error),
    );
  }

  async close(): Promise<void> {
    // Forgotten first: a close that fails must not leave the next append writing to this log.
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
  }

  /** After a failed append: cut the log back to its last complete line, then fail as the write did. */
  private async cutBack(error: unknown): Promise<never> {
    await (this.handle as FileHandle).truncate(this.size).catch(() => undefined);
    throw error;
  }

  private async appendOpening(changes: readonly Change[], generation: number): Promise<void> {
    // A new log starts with the generation it belongs to, in the same write as its first changes.
    const header = this.size === 0 ? headerLine(generation) : '';
    const text = `${header}${changes.map((change) => JSON.stringify(change)).join('\n')}\n`;
    const bytes = Buffer.from(text);
    this.handle ??= await open(this.log, 'a');
    try {
      // Written straight to the descriptor opened for appending, and synced, in one promise
      // (fd-append.ts says why): FileHandle.appendFile goes through writeFile's general path (its
      // options, an abort check, a chunk loop of async writes), FileHandle.write and datasync
      // through a promise each.
      await appendToFd(this.handle.fd, bytes, this.durable, this.log);
      // The new log's directory entry: without it, a power cut could lose the file it synced.
      if (header) await syncDirectory(dirname(this.log));
    } catch (error) {
      // A half-written batch (disk full) would sit in the middle of the log once later appends
      // succeed, and make the log unreadable: cut the file back to its last complete line.
      await this.handle.truncate(this.size).catch(() => undefined);
      throw error;
    }
    this.size += bytes.length;
  }
}
