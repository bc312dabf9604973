// The base file of a large seed at start, written by a worker thread (seed-base-worker.ts) while
// this thread builds the state from the links it drew (issue 40). This thread draws the links once
// and encodes each link's line of the file as it draws it (src/store/file/link-line-bytes.ts),
// handing the worker the bytes in transferred chunks (no copy), then, once the links are sorted,
// the order to write the lines in; the worker writes them to the temporary file the store opened
// (DataStore.seed) and syncs it while this thread keys the links and builds the state. The store
// renames the file once it is synced, so a failure leaves no partial db.
// Why not as before, both threads drawing the links (measured 29 Nov, 1,000,000 links, loaded
// machine): each thread took 15-23 s of CPU, the worker's draw only to stringify the links; the
// lines cost this thread a fraction of that. Why not the links themselves posted: their structured
// clone cost this thread ~3.7 s (flat strings ~3.1 s) per 1,000,000; the lines encoded after the
// sort, in page order, ~5 s (each field a miss in the caches).
import { Worker } from 'node:worker_threads';
import type { SeedDrawing } from '../../fixtures/seed.js';
import type { BaseTarget } from '../store/file/data-store.js';
import { LineChunker } from '../store/file/link-line-bytes.js';
import type { SeedBaseDone, SeedBaseMessage } from './seed-base-worker.js';

/** The worker's JavaScript file: only in the built package (dist/); run from the TypeScript sources (tests), the seed writes its base on this thread. */
export const SEED_BASE_WORKER = new URL('./seed-base-worker.js', import.meta.url);

/** A worker writing the base: the seed's draw is watched (fixtures/seed.ts SeedDrawing) by `drawing`. */
export interface BaseWriting {
  drawing: SeedDrawing;
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
  const post = (message: SeedBaseMessage, transfer: ArrayBuffer[]): void => worker.postMessage(message, transfer);
  const lines = new LineChunker(({ bytes, ends }) => post({ lines: bytes, ends }, [bytes.buffer as ArrayBuffer, ends.buffer as ArrayBuffer]));
  return {
    drawing: {
      drawn: (link) => lines.add(link),
      ordered(head, drawOrder) {
        lines.flush();
        post({ head, drawOrder }, [drawOrder.buffer as ArrayBuffer]);
      },
    },
    written,
    stop: async () => void (await worker.terminate()),
  };
}
