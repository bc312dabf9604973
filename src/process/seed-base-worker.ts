// A worker thread that writes a large seed's base file (src/process/seed-base.ts, issue 40): at a
// start with --reset, it draws the same links the main thread draws (the same seed, the same code:
// faker's draws are one sequence, in one thread each) and writes them, as the store writes a base
// (src/store/file/chunked-json.ts), to the temporary file the store opened; the main thread builds
// the state meanwhile. Stringifying 1,000,000 links and writing 342 MB were a third of the seed.
// It syncs the file and posts how many links it wrote; the store renames it (durable-file.ts).
import { fsyncSync, writeSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import type { FixtureSpec } from '../../fixtures/fixture-spec.js';
import { buildSeedLinks } from '../../fixtures/seed.js';
import type { LinkRecord } from '../core/model.js';
import { writeBaseEntries, type Entry } from '../store/file/chunked-json.js';
import type { BaseTarget } from '../store/file/data-store.js';

/** What the worker is given. */
export interface SeedBaseJob extends BaseTarget {
  seed: number;
  fixtures: FixtureSpec;
}

/** What it posts once the file is written and synced. */
export interface SeedBaseDone {
  written: number;
}

const { seed, fixtures, fd, generation } = workerData as SeedBaseJob;
// The links as an array in buildSeed's key order: the keyed object of a million links is not needed
// to write them.
const { data, links } = buildSeedLinks(seed, fixtures);
const { links: _none, ...head } = data;
// Synchronously: nothing else runs on this thread, and a write to the pool would only add a hop.
await writeBaseEntries({ write: async (buffer, offset, length) => ({ bytesWritten: writeSync(fd, buffer, offset, length) }) }, head, entries(links), generation);
fsyncSync(fd);
parentPort?.postMessage({ written: links.length } satisfies SeedBaseDone);

function* entries(all: readonly LinkRecord[]): Generator<Entry> {
  for (const link of all) yield [link.id, link];
}
