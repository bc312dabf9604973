// A worker thread that writes a large seed's base file (src/process/seed-base.ts, issue 40): at a
// start with --reset, it draws the seed's links again from the same seed (fixtures/seed-sequence.ts)
// while the main thread draws them, and writes each link's line (src/store/file/link-line-bytes.ts)
// into chunks of bytes as it draws it, keeping no link. It keeps no table of slugs either: whether a
// slug it draws is taken is the main thread's answer, posted in order (a chunk at a time: it waits
// for the next when it runs out). Then, sent the data's head with the order the file lists the
// links in, it writes the lines in that order, as the store writes a base
// (src/store/file/chunked-json.ts; its text around the lines: base-frame.ts), to the temporary file
// the store opened, syncs it and posts how many links it wrote; the store renames it (durable-file.ts).
// All of it synchronously: the draw is one synchronous loop, so messages are taken with
// receiveMessageOnPort, and Atomics.wait sleeps until the main thread has posted another.
import { fsyncSync, writeSync } from 'node:fs';
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import type { FixtureSpec } from '../../fixtures/fixture-spec.js';
import { drawSeed } from '../../fixtures/seed-sequence.js';
import type { DomainSlugs } from '../../fixtures/seed-slugs.js';
import type { MockData } from '../core/model.js';
import { baseFrame } from '../store/file/base-frame.js';
import type { BaseTarget } from '../store/file/data-store.js';
import { LineChunker } from '../store/file/link-line-bytes.js';

/** What the worker is started with: where to write, the seed to draw, and the count of messages posted (shared). */
export interface SeedBaseData extends BaseTarget {
  seed: number;
  fixtures: FixtureSpec;
  posted: Int32Array;
}

/**
 * What the main thread posts: the answers of its slug checks in order (1: taken), then once the
 * head, for each link in file order the place it was drawn in, and the id of the link it drew last.
 */
export type SeedBaseMessage = { taken: Uint8Array } | { head: Omit<MockData, 'links'>; drawOrder: Uint32Array; lastId: string | undefined };

/** What it posts once the file is written and synced. */
export interface SeedBaseDone {
  written: number;
}

const COMMA = 0x2c;
/** The bytes gathered for one write. */
const WRITE_BYTES = 1 << 20;
/** A sleep on the count of messages, between looks for one: a stop (Worker#terminate) is taken at the next look. */
const WAIT_MS = 100;
/** How long without a message before the worker gives up: the main thread posts every few milliseconds of its draw. */
const QUIET_LIMIT_MS = 10 * 60_000;

const { fd, generation, seed, fixtures, posted } = workerData as SeedBaseData;
if (!parentPort) throw new Error('the seed base writer runs as a worker thread');
const port = parentPort;

/** The next message from the main thread, waited for. */
function nextMessage(): SeedBaseMessage {
  for (let waited = 0; waited < QUIET_LIMIT_MS; waited += WAIT_MS) {
    const seen = Atomics.load(posted, 0);
    const received = receiveMessageOnPort(port);
    if (received) return received.message as SeedBaseMessage;
    Atomics.wait(posted, 0, seen, WAIT_MS);
  }
  throw new Error(`the seed base writer was sent nothing for ${QUIET_LIMIT_MS / 1000} s`);
}

let answers: Uint8Array = new Uint8Array(0);
let next = 0;
/** The slugs as the main thread found them: each check is its next answer. */
const replayed: DomainSlugs = {
  has() {
    while (next === answers.length) {
      const message = nextMessage();
      if (!('taken' in message)) throw new Error('the seed base writer was sent the order before every answer of the slug checks');
      [answers, next] = [message.taken, 0];
    }
    return answers[next++] === 1;
  },
  put: () => undefined,
};

const chunks: Buffer[] = [];
const ends: Uint32Array[] = [];
const lines = new LineChunker(({ bytes, ends: chunkEnds }) => {
  chunks.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  ends.push(chunkEnds);
});
let lastId: string | undefined;
drawSeed(seed, fixtures, { of: () => replayed }, (link) => {
  lines.add(link);
  lastId = link.id;
});
lines.flush();
const order = nextMessage();
if (!('head' in order) || next !== answers.length) throw new Error('the seed base writer was sent more answers of the slug checks than its draw asked for');
// Each link's id is drawn from the sequence late in the link: a draw that went another way ends on another id.
if (order.lastId !== lastId) throw new Error(`the seed base writer drew other links than the seed (last id ${lastId}, not ${order.lastId})`);
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
  if (line !== drawOrder.length) throw new Error(`the seed base writer drew ${line} lines for ${drawOrder.length} links`);
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
