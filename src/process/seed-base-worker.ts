// A worker thread that writes a large seed's base file (src/process/seed-base.ts, issue 40): at a
// start with --reset, the main thread encodes each link's line as it draws it and posts them in
// chunks of bytes (src/store/file/link-line-bytes.ts), then the data's head with the order the
// file lists the links in; this thread writes them in that order, as the store writes a base
// (src/store/file/chunked-json.ts; its text around the lines: base-frame.ts), to the temporary file
// the store opened, while the main thread keys the links and builds the state. It syncs the file
// and posts how many links it wrote; the store renames it (durable-file.ts).
import { on } from 'node:events';
import { fsyncSync, writeSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import type { MockData } from '../core/model.js';
import { baseFrame } from '../store/file/base-frame.js';
import type { BaseTarget } from '../store/file/data-store.js';

/** What the main thread posts: chunks of lines in the order drawn (`ends`: where each line ends), then once the head and, for each link in file order, the place it was drawn in. */
export type SeedBaseMessage = { lines: Uint8Array; ends: Uint32Array } | { head: Omit<MockData, 'links'>; drawOrder: Uint32Array };

/** What it posts once the file is written and synced. */
export interface SeedBaseDone {
  written: number;
}

const COMMA = 0x2c;
/** The bytes gathered for one write. */
const WRITE_BYTES = 1 << 20;

const { fd, generation } = workerData as BaseTarget;
if (!parentPort) throw new Error('the seed base writer runs as a worker thread');
const port = parentPort;
const chunks: Buffer[] = [];
const ends: Uint32Array[] = [];
let order: { head: Omit<MockData, 'links'>; drawOrder: Uint32Array } | undefined;
for await (const [message] of on(port, 'message') as AsyncIterableIterator<[SeedBaseMessage]>) {
  if ('head' in message) {
    order = message;
    break;
  }
  chunks.push(Buffer.from(message.lines.buffer, message.lines.byteOffset, message.lines.byteLength));
  ends.push(message.ends);
}
if (!order) throw new Error('the seed base writer was sent no order');
const { head, drawOrder } = order;
const frame = await baseFrame(head, generation);
writeAll(Buffer.from(frame.before));
writeInOrder(drawOrder);
writeAll(Buffer.from(frame.after(drawOrder.length > 0)));
fsyncSync(fd);
port.postMessage({ written: drawOrder.length } satisfies SeedBaseDone);

/** The lines in `drawOrder`, joined by ',' (as writeRecords joins them), gathered WRITE_BYTES at a time. */
function writeInOrder(drawOrder: Uint32Array): void {
  const chunkOf = new Uint32Array(drawOrder.length);
  const startOf = new Uint32Array(drawOrder.length);
  const endOf = new Uint32Array(drawOrder.length);
  let line = 0;
  ends.forEach((chunkEnds, chunk) => {
    for (let i = 0; i < chunkEnds.length; i += 1, line += 1) {
      chunkOf[line] = chunk;
      startOf[line] = i === 0 ? 0 : (chunkEnds[i - 1] as number);
      endOf[line] = chunkEnds[i] as number;
    }
  });
  if (line !== drawOrder.length) throw new Error(`the seed base writer was sent ${line} lines for ${drawOrder.length} links`);
  const out = Buffer.allocUnsafe(WRITE_BYTES);
  let at = 0;
  for (let k = 0; k < drawOrder.length; k += 1) {
    const drawn = drawOrder[k] as number;
    const bytes = chunks[chunkOf[drawn] as number] as Buffer;
    const start = startOf[drawn] as number;
    const end = endOf[drawn] as number;
    if (at + 1 + end - start > out.length) {
      writeAll(out.subarray(0, at));
      at = 0;
    }
    if (k > 0) out[at++] = COMMA;
    if (at + end - start <= out.length) at += bytes.copy(out, at, start, end);
    else {
      // A line longer than the gathering: written by itself, after what is gathered.
      writeAll(out.subarray(0, at));
      at = 0;
      writeAll(bytes.subarray(start, end));
    }
  }
  writeAll(out.subarray(0, at));
}

/** Synchronously: nothing else runs on this thread, and a write to the pool would only add a hop. */
function writeAll(bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length; ) {
    const wrote = writeSync(fd, bytes, at);
    // A write that takes nothing would take nothing again.
    if (wrote === 0) throw new Error('the db file took no bytes of a write');
    at += wrote;
  }
}
