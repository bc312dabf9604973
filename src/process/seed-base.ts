// The base file of a large seed at start, written by a worker thread (seed-base-worker.ts) while
// this thread draws the same links and builds the state from them (issue 40): the two halves of a
// seed of 1,000,000 links, each about as long as the other, on two cores instead of one after the
// other. The worker writes to the temporary file the store opened (DataStore.seed); the store
// renames it once the worker has synced it, so a failure leaves no partial db.
// Why both threads draw the links (measured 29 Nov, 1,000,000 links, CPU seconds): drawn only by
// the worker and posted to this thread as JSON text, each link would be stringified (4.6 s) and
// parsed (8.3 s) on top, more than this thread's own draw (12.2 s) that it saves; and this thread
// would still key the links in page order after the worker's last batch. On two cores, the total
// is what the wall time follows.
import { Worker } from 'node:worker_threads';
import type { FixtureSpec } from '../../fixtures/fixture-spec.js';
import type { BaseTarget } from '../store/file/data-store.js';
import type { SeedBaseDone, SeedBaseJob } from './seed-base-worker.js';

/** The worker's JavaScript file: only in the built package (dist/); run from the TypeScript sources (tests), the seed writes its base on this thread. */
export const SEED_BASE_WORKER = new URL('./seed-base-worker.js', import.meta.url);

/** A worker writing the base. */
export interface BaseWriting {
  /** Settles once the file is written and synced, to the number of links written; rejects with the worker's error. */
  written: Promise<number>;
  /** Stops the worker (this thread failed): resolves once it no longer runs, so the file may be closed. */
  stop(): Promise<void>;
}

/** Starts the worker that writes the seed's base to `target`; `script` only for tests. */
export function writeBaseInWorker(seed: number, fixtures: FixtureSpec, target: BaseTarget, script: URL = SEED_BASE_WORKER): BaseWriting {
  const worker = new Worker(script, { workerData: { seed, fixtures, ...target } satisfies SeedBaseJob });
  const written = new Promise<number>((resolve, reject) => {
    worker.once('message', (message: SeedBaseDone) => resolve(message.written));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the thread writing the seed exited with code ${code} before it was done`)));
  });
  // Awaited later, after this thread's own build: a failure meanwhile is not an unhandled rejection.
  written.catch(() => undefined);
  return { written, stop: async () => void (await worker.terminate()) };
}
