// A worker thread that builds a large seed (src/process/seeded-data.ts, issue 40): buildSeed of
// 1,000,000 links is a minute of one synchronous step, which on the main thread held every request
// of a POST /__admin/reset. It posts the data without its links, then the links in batches of
// LINK_BATCH, so that the main thread takes each in a short turn of its own.
import { parentPort, workerData } from 'node:worker_threads';
import type { FixtureSpec } from '../../fixtures/fixture-spec.js';
import { buildSeed } from '../../fixtures/seed.js';
import { LINK_BATCH } from '../core/link-batches.js';

export type SeedMessage = { head: Record<string, unknown> } | { links: unknown[] } | { done: true };

const { seed, fixtures } = workerData as { seed: number; fixtures: FixtureSpec };
const data = buildSeed(seed, fixtures);
const { links, ...head } = data;
parentPort?.postMessage({ head } satisfies SeedMessage);
let batch: unknown[] = [];
for (const id of Object.keys(links)) {
  batch.push(links[id]);
  if (batch.length < LINK_BATCH) continue;
  parentPort?.postMessage({ links: batch } satisfies SeedMessage);
  batch = [];
}
if (batch.length) parentPort?.postMessage({ links: batch } satisfies SeedMessage);
parentPort?.postMessage({ done: true } satisfies SeedMessage);
