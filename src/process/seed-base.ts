// The base file of a large seed at start, written by a worker thread (seed-base-worker.ts) while
// this thread builds the state from the links it drew (issue 40). This thread draws the links once
// and hands the worker each link's line of the file as bytes (src/store/file/link-line-bytes.ts,
// in transferred chunks: no copy); the worker writes them to the temporary file the store opened
// (DataStore.seed) and syncs it, meanwhile this thread keys the links and builds the state; the
// store renames the file once it is synced, so a failure leaves no partial db.
// Why not as before, both threads drawing the links (measured 29 Nov, 1,000,000 links): the two
// threads then each took ~18 s of CPU on a 2-core machine, the worker's draw (~11 s) only to
// stringify them; the bytes cost this thread about a second. Why not the links themselves posted:
// their structured clone cost this thread ~3.7 s (flat strings ~3.1 s) per 1,000,000.
import { Worker } from 'node:worker_threads';
import type { LinkRecord, MockData } from '../core/model.js';
import type { BaseTarget } from '../store/file/data-store.js';
import { lineChunks } from '../store/file/link-line-bytes.js';
import type { SeedBaseDone, SeedBaseMessage } from './seed-base-worker.js';

/** The worker's JavaScript file: only in the built package (dist/); run from the TypeScript sources (tests), the seed writes its base on this thread. */
export const SEED_BASE_WORKER = new URL('./seed-base-worker.js', import.meta.url);

/** A worker writing the base. */
export interface BaseWriting {
  /** Hands the worker the data's head and its links, in the order the file lists them (once). */
  send(head: Omit<MockData, 'links'>, links: readonly LinkRecord[]): void;
  /** Settles once the file is written and synced, to the number of links written; rejects with the worker's error. */
  written: Promise<number>;
  /** Stops the worker (this thread failed): resolves once it no longer runs, so the file may be closed. */
  stop(): Promise<void>;
}

/** Starts the worker that writes the seed's base to `target`; `script` only for tests. */
export function writeBaseInWorker(target: BaseTarget, script: URL = SEED_BASE_WORKER): BaseWriting {
  const worker = new Worker(script, { workerData: { fd: target.fd, generation: target.generation } satisfies BaseTarget });
  const written = new Promise<number>((resolve, reject) => {
    worker.once('message', (message: SeedBaseDone) => resolve(message.written));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the thread writing the seed exited with code ${code} before it was done`)));
  });
  // Awaited later, after this thread's own build: a failure meanwhile is not an unhandled rejection.
  written.catch(() => undefined);
  const post = (message: SeedBaseMessage, transfer: ArrayBuffer[] = []): void => worker.postMessage(message, transfer);
  return {
    send(head, links) {
      post({ head });
      for (const { bytes, count } of lineChunks(links)) post({ lines: bytes, count }, [bytes.buffer as ArrayBuffer]);
      post({ end: true });
    },
    written,
    stop: async () => void (await worker.terminate()),
  };
}
