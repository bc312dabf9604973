// A worker thread that writes a large seed's base file (src/process/seed-base.ts, issue 40): at a
// start with --reset, the main thread draws the links and posts the data's head, then the links'
// lines as bytes in chunks (src/store/file/link-line-bytes.ts), then the end; this thread writes
// them, as the store writes a base (src/store/file/chunked-json.ts), to the temporary file the
// store opened, while the main thread builds the state. Writing 342 MB and syncing it were seconds.
// It syncs the file and posts how many links it wrote; the store renames it (durable-file.ts).
import { on } from 'node:events';
import { fsyncSync, writeSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import type { MockData } from '../core/model.js';
import { writeBaseLines } from '../store/file/chunked-json.js';
import type { BaseTarget } from '../store/file/data-store.js';

/** What the main thread posts, in this order: the head once, chunks of lines, the end once. */
export type SeedBaseMessage = { head: Omit<MockData, 'links'> } | { lines: Uint8Array; count: number } | { end: true };

/** What it posts once the file is written and synced. */
export interface SeedBaseDone {
  written: number;
}

const { fd, generation } = workerData as BaseTarget;
if (!parentPort) throw new Error('the seed base writer runs as a worker thread');
const port = parentPort;
// Kept from the start: messages posted before they are asked for wait in the iterator.
const messages = on(port, 'message') as AsyncIterableIterator<[SeedBaseMessage]>;
const first = await messages.next();
if (first.done || !('head' in first.value[0])) throw new Error('the seed base writer was sent no head first');
let written = 0;
await writeBaseLines({ write: async (text) => writeAll(Buffer.from(text)) }, first.value[0].head, generation, async () => {
  for await (const [message] of messages) {
    if ('end' in message) break;
    if ('lines' in message) {
      writeAll(message.lines);
      written += message.count;
    }
  }
  return written;
});
fsyncSync(fd);
port.postMessage({ written } satisfies SeedBaseDone);

/** Synchronously: nothing else runs on this thread, and a write to the pool would only add a hop. */
function writeAll(bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length; ) {
    const wrote = writeSync(fd, bytes, at);
    // A write that takes nothing would take nothing again.
    if (wrote === 0) throw new Error('the db file took no bytes of a write');
    at += wrote;
  }
}
