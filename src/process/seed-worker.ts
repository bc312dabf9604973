// A worker thread that builds a large seed (src/process/seeded-data.ts, issue 40): buildSeed of
// 1,000,000 links is a minute of one synchronous step, which on the main thread held every request
// of a POST /__admin/reset. It posts the data without its links, then the links in batches of
// LINK_BATCH, one each time the main thread asks, so that it takes each in a short turn of its own.
import { parentPort, workerData } from 'node:worker_threads';
import type { FixtureSpec } from '../../fixtures/fixture-spec.js';
import { buildSeedLinks } from '../../fixtures/seed.js';
import { LINK_BATCH } from '../core/link-batches.js';

export type SeedMessage = { head: Record<string, unknown> } | { links: unknown[] } | { done: true };

const { seed, fixtures } = workerData as { seed: number; fixtures: FixtureSpec };
// The links as an array in buildSeed's key order: no keyed object of a million links built here only
// to be read back (a quarter of buildSeed's time), nor its keys.
const { data, links } = buildSeedLinks(seed, fixtures);
const { links: _none, ...head } = data;
let at = 0;
// A batch each time the main thread asks for one ('next'): posted all at once, they were all taken
// in one turn of the main thread's loop (Node drains a port's queue in one go), a long stall.
parentPort?.on('message', () => {
  if (at >= links.length) {
    parentPort?.postMessage({ done: true } satisfies SeedMessage);
    parentPort?.close();
    return;
  }
  parentPort?.postMessage({ links: links.slice(at, at + LINK_BATCH) } satisfies SeedMessage);
  at += LINK_BATCH;
});
parentPort?.postMessage({ head } satisfies SeedMessage);
