// The base file of a large seed at start, written by a worker thread (seed-base-worker.ts) while
// this thread draws the links and builds the state from them (issue 40). The worker draws the same
// links again from the same seed (fixtures/seed-sequence.ts), only to write their lines, and keeps
// none: what it cannot draw by itself is whether a slug it draws is taken, since it keeps no table
// of slugs; this thread hands it each answer its own checks gave, in chunks of bytes (transferred),
// then, once the links are sorted, the order to write the lines in. The worker writes them to the
// temporary file the store opened (DataStore.seed) and syncs it; the store renames the file once it
// is synced, so a failure leaves no partial db.
// Why the worker draws again (measured 29 Nov, 1,000,000 links): this thread encoding each link's
// line as it drew it was ~15% of its time, and this thread is the start's wall time, while the
// worker only wrote; the draw without the slugs' table costs the worker less than the lines cost
// here. Why not as before i40f (each thread drawing with its own table of slugs, the worker
// stringifying): 15-23 s of CPU each; the links themselves posted: their structured clone ~3.7 s.
import { Worker } from 'node:worker_threads';
import type { FixtureSpec } from '../../fixtures/fixture-spec.js';
import type { SeedDrawing } from '../../fixtures/seed.js';
import type { BaseTarget } from '../store/file/data-store.js';
import type { SeedBaseData, SeedBaseDone, SeedBaseMessage } from './seed-base-worker.js';

/** The worker's JavaScript file: only in the built package (dist/); run from the TypeScript sources (tests), the seed writes its base on this thread. */
export const SEED_BASE_WORKER = new URL('./seed-base-worker.js', import.meta.url);

/** Answers of the slug checks per message: a few milliseconds of the draw, the most the worker waits behind it. */
export const ANSWERS_PER_MESSAGE = 1 << 14;

/** A worker writing the base: the seed's draw is watched (fixtures/seed.ts SeedDrawing) by `drawing`. */
export interface BaseWriting {
  drawing: SeedDrawing;
  /** Settles once the file is written and synced, to the number of links written; rejects with the worker's error. */
  written: Promise<number>;
  /** Stops the worker (this thread failed): resolves once it no longer runs, so the file may be closed. */
  stop(): Promise<void>;
}

/** Starts the worker that writes the seed of `seed` and `fixtures` to `target`; `script` only for tests. */
export function writeBaseInWorker(target: BaseTarget, seed: number, fixtures: FixtureSpec, script: URL = SEED_BASE_WORKER): BaseWriting {
  // Counted up after each message: the worker, drawing synchronously, sleeps on it for the next one.
  const posted = new Int32Array(new SharedArrayBuffer(4));
  const workerData: SeedBaseData = { fd: target.fd, generation: target.generation, seed, fixtures, posted };
  const worker = new Worker(script, { workerData });
  const written = new Promise<number>((resolve, reject) => {
    worker.once('message', (message: SeedBaseDone) => resolve(message.written));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the thread writing the seed exited with code ${code} before it was done`)));
  });
  // Awaited later, after this thread's own build: a failure meanwhile is not an unhandled rejection.
  written.catch(() => undefined);
  const post = (message: SeedBaseMessage, transfer: ArrayBuffer[]): void => {
    worker.postMessage(message, transfer);
    Atomics.add(posted, 0, 1);
    Atomics.notify(posted, 0);
  };
  let answers = new Uint8Array(ANSWERS_PER_MESSAGE);
  let count = 0;
  const flush = (): void => {
    if (count === 0) return;
    const taken = answers.subarray(0, count);
    post({ taken }, [taken.buffer as ArrayBuffer]);
    answers = new Uint8Array(ANSWERS_PER_MESSAGE);
    count = 0;
  };
  return {
    drawing: {
      checked(taken) {
        answers[count++] = taken ? 1 : 0;
        if (count === answers.length) flush();
      },
      ordered(head, drawOrder, lastId) {
        flush();
        post({ head, drawOrder, lastId }, [drawOrder.buffer as ArrayBuffer]);
      },
    },
    written,
    stop: async () => void (await worker.terminate()),
  };
}
