// The fixtures' data for a seed, built by faker once and handed out as copies. Building it is most
// of what a reset costs (about 5 ms of CPU for the default fixtures against 0.2 ms for a copy): the
// robustness runner resets its mock before each of its runs, test suites reset in beforeEach, and
// every mock built on the same fixtures in one process (the toolkit's, the tests') seeds the same
// data. Kept per fixtures object (a WeakMap: it goes with them) and seed; a large seed is not kept,
// so the memory of a big store is never doubled.
import type { FixtureSpec } from '../../fixtures/fixture-spec.js';
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { keepLinkBatches } from '../core/link-batches.js';
import type { LinkRecord, LinkTable, MockData } from '../core/model.js';
import type { KnownLinks } from '../core/snapshots.js';
import { copyData, SplitLinkTable } from '../core/link-table.js';
import type { BaseTarget } from '../store/file/data-store.js';
import type { SeededData } from '../store/file/open-data.js';
import { SEED_BASE_WORKER, writeBaseInWorker } from './seed-base.js';
import type { SeedMessage } from './seed-worker.js';

/** Seeds of more links than this are built again each time rather than kept. */
export const MAX_KEPT_SEED_LINKS = 10_000;
/** Seeds kept per fixtures object: a process that tries many seeds keeps the latest ones. */
export const MAX_KEPT_SEEDS = 8;
/**
 * Seeds of more links than this are built in a worker thread (seed-worker.ts), so a reset holds no
 * request: the bench:scale run of 29 Nov saw a reset of 100,000 links, built on this thread, stall
 * the loop 1.17 s. At this size (the largest seed kept, built once) it is ~0.1 s, once.
 */
export const SEED_IN_WORKER_LINKS = MAX_KEPT_SEED_LINKS;

/** The worker's JavaScript file: present in the built package (dist/), absent when run from the TypeScript sources (tests), which build on this thread instead. */
const SEED_WORKER = new URL('./seed-worker.js', import.meta.url);

const kept = new WeakMap<FixtureSpec, Map<number, MockData>>();

/**
 * Where a large seed is built: 'worker' while the mock serves (a reset must not hold requests);
 * 'here' before it serves (a start), where a worker would only add a copy of every link.
 */
export type SeedThread = 'worker' | 'here';

/**
 * A fresh copy of the data `seed` gives the fixtures: the caller may change it. With `known` (a
 * reset: LinkStore.readReusing), each link equal to a stored record is that record, which the caller
 * may then only put in place of the data: at 1,000,000 links a reset after a few changes otherwise
 * keeps a million new records alive beside the state it replaces (two states, ~1.4 GB of heap),
 * whose marking held the event loop for hundreds of ms (issue 40, bench/replace-stalls.md).
 */
export async function seededData(seed: number, fixtures: FixtureSpec, thread: SeedThread = 'worker', known?: KnownLinks): Promise<MockData> {
  const cached = kept.get(fixtures)?.get(seed);
  if (cached) return takeKnown(copyData(cached), known);
  // Counted from the fixtures (buildSeed makes exactly their links), not from the data: collecting
  // the keys of 1,000,000 links only to count them was seconds of the seeding (issue 40).
  const links = linksOf(fixtures);
  if (thread === 'worker' && links > SEED_IN_WORKER_LINKS && existsSync(SEED_WORKER)) return seededInWorker(seed, fixtures, known);
  const data = (await import('../../fixtures/seed.js')).buildSeed(seed, fixtures);
  if (links <= MAX_KEPT_SEED_LINKS) keep(fixtures, seed, copyData(data));
  return takeKnown(data, known);
}

/** `data` with each link `known` has an equal record of as that record (a seed built on this thread). */
function takeKnown(data: MockData, known: KnownLinks | undefined): MockData {
  if (!known) return data;
  known.into(data.links);
  for (const [id, link] of data.links) {
    const taken = known.take(id, link);
    if (taken !== link) data.links.set(id, taken);
  }
  return data;
}

/**
 * The seed of a start (nothing served yet): a large one with its state, built on this thread from the
 * tables its draws made (fixtures/seed.ts, buildSeedState), so that no link is walked again to index
 * it (issue 40), and its base file written to `target` (when the store gives one) by a worker thread
 * meanwhile, which draws the links again, told only what this thread's slug checks answered (seed-base.ts); a small one as seededData gives it (a copy of the kept data), its state
 * built later.
 */
export async function seededAtStart(seed: number, fixtures: FixtureSpec, target?: BaseTarget): Promise<MockData | SeededData> {
  if (linksOf(fixtures) <= MAX_KEPT_SEED_LINKS) return seededData(seed, fixtures, 'here');
  const writing = target && existsSync(SEED_BASE_WORKER) ? writeBaseInWorker(target, seed, fixtures) : undefined;
  try {
    const { buildSeedState } = await import('../../fixtures/seed.js');
    // The links drawn here, and by the worker again, which is handed the answers of the slug checks as they are given.
    return { ...buildSeedState(seed, fixtures, writing?.drawing), ...(writing ? { written: writing.written } : {}) };
  } catch (error) {
    // The store closes the file once this fails: not while the worker still writes to it.
    await writing?.stop();
    throw error;
  }
}

/** The links the fixtures ask for: buildSeed makes exactly these. */
function linksOf(fixtures: FixtureSpec): number {
  return fixtures.accounts.reduce((sum, account) => sum + account.links, 0);
}

function keep(fixtures: FixtureSpec, seed: number, data: MockData): void {
  let bySeed = kept.get(fixtures);
  if (!bySeed) kept.set(fixtures, (bySeed = new Map()));
  if (bySeed.size >= MAX_KEPT_SEEDS) bySeed.delete(bySeed.keys().next().value as number);
  bySeed.set(seed, data);
}

/** Whether a copy of this seed's data is kept (for tests). */
export function isKept(seed: number, fixtures: FixtureSpec): boolean {
  return kept.get(fixtures)?.has(seed) ?? false;
}

/**
 * The seed built by a worker thread and taken a batch of links per turn (seed-worker.ts): the same
 * data as buildSeed's, its links also kept in those batches (core/link-batches.ts) for the replace.
 * Only from the built package (dist/): the worker is its JavaScript file.
 */
function seededInWorker(seed: number, fixtures: FixtureSpec, known: KnownLinks | undefined): Promise<MockData> {
  const worker = new Worker(SEED_WORKER, { workerData: { seed, fixtures } });
  let data: MockData | undefined;
  const batches: LinkRecord[][] = [];
  return new Promise<MockData>((resolve, reject) => {
    worker.on('message', (message: SeedMessage) => {
      if ('head' in message) {
        data = { ...(message.head as Omit<MockData, 'links'>), links: new SplitLinkTable() };
        known?.into(data.links);
      } else if ('links' in message) batches.push(takeBatch((data as MockData).links, message.links as LinkRecord[], known));
      // The next batch, asked for in a turn of its own.
      if (!('done' in message)) setImmediate(() => worker.postMessage('next'));
      else {
        keepLinkBatches(data as MockData, batches);
        resolve(data as MockData);
      }
    });
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`the seed's worker thread exited with code ${code} before it was done`)));
  });
}

/**
 * A batch of the worker's links put in `table`, each as the stored record `known` gives for it when
 * equal (the batch then holds that record too, for the replace's build): the one the worker sent,
 * and its id, die young. Keyed by the taken record's id, so the table holds no new string either.
 */
function takeBatch(table: LinkTable, links: LinkRecord[], known: KnownLinks | undefined): LinkRecord[] {
  for (let i = 0; i < links.length; i += 1) {
    let link = links[i] as LinkRecord;
    if (known) links[i] = link = known.take(link.id, link);
    table.set(link.id, link);
  }
  return links;
}
