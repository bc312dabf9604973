// Opening the data at start-up: keep what the store holds, or seed it when it is empty or a reset
// is asked for. Never re-seed silently over data that cannot be read: that would throw a user's
// links away, so it is an error that names the location and the way out. A file that is not a db of
// ours at all (src/store/file/db-kind.ts) is neither read nor overwritten, not even with --reset.
import { forgetLinkBatches } from '../../core/link-batches.js';
import type { MockData } from '../../core/model.js';
import { MockState } from '../../core/state.js';
import { checkedState } from './checked-state.js';
import { printable, shapeProblem } from './data-shape.js';
import type { BaseTarget, BuiltSeed, DataStore } from './data-store.js';
import { NotOurFileError } from './db-kind.js';

export interface OpenedData {
  data: MockData;
  /** True when the data was just seeded, false when it was kept from an earlier run. */
  seeded: boolean;
  /** The data's state, when the check of kept data (checked-state.ts) or the seed built it: not to be built again. */
  state?: MockState;
}

/** What the store keeps, checked, with the state the check built. */
export interface KeptData {
  data: MockData;
  state: MockState;
}

/**
 * A seed's data with the state built as its links were made (fixtures/seed.ts, buildSeedState);
 * and `written` when the seed wrote the base file itself (BuiltSeed).
 */
export interface SeededData {
  data: MockData;
  state: MockState;
  written?: Promise<number>;
}

/**
 * What openData seeds with: the data, or the data with its state. `target`, when the store offers
 * one: where the seed may write the new base itself (DataStore.seed).
 */
export type Seed = (target?: BaseTarget) => Promise<MockData | SeededData>;

export class DataFileError extends Error {
  override name = 'DataFileError';
}

export async function openData(store: DataStore, seed: Seed, reset: boolean): Promise<OpenedData> {
  return dataFrom(store, await keptData(store, reset), seed);
}

/**
 * openData's first half, which refuses a db that cannot be opened: what the store keeps, checked;
 * null when it is to be seeded (none yet, or a reset). The CLI calls it before it loads the
 * server's modules (src/process/local-db.ts), so that a refusal costs none of them.
 */
export async function keptData(store: DataStore, reset: boolean): Promise<KeptData | null> {
  if (!reset) return readExisting(store);
  // A reset overwrites the file unread: one that is not ours is refused before anything is seeded.
  await store.requireOurs?.().catch((error: unknown) => {
    throw writeError(store, error);
  });
  return null;
}

/** openData's second half, from what keptData found: that data kept, or when none, seeded and written. */
export async function dataFrom(store: DataStore, kept: KeptData | null, seed: Seed): Promise<OpenedData> {
  return kept ? { ...kept, seeded: false } : { ...(await seedStore(store, seed)), seeded: true };
}

async function seedStore(store: DataStore, seed: Seed): Promise<{ data: MockData; state?: MockState }> {
  let seeded: BuiltSeed | undefined;
  try {
    // The file store opens the new base first, so that the seed may write it while it builds.
    if (store.seed) seeded = await store.seed(async (target) => (seeded = built(await seedOwn(seed, target))));
    else {
      const made = built(await seedOwn(seed));
      seeded = made;
      await store.write([{ op: 'replace', data: made.data }]);
    }
  } catch (error) {
    throw error instanceof SeedError ? error.cause : writeError(store, error);
  } finally {
    // Read by that write: kept, they would hold the links deleted from here on.
    if (seeded) forgetLinkBatches(seeded.data);
  }
  return { data: seeded.data, ...(seeded.state ? { state: seeded.state } : {}) };
}

/** The seed's data; a failure of its own is a SeedError, told apart from the db's (in the file store's seed too, which builds inside its write). */
function seedOwn(seed: Seed, target?: BaseTarget): Promise<MockData | SeededData> {
  return seed(target).catch((error: unknown) => Promise.reject(new SeedError(error)));
}

/** A seed that failed before anything was written: its own error, not one of the db. */
class SeedError extends Error {
  constructor(override readonly cause: unknown) {
    super('the seed failed');
  }
}

function built(made: MockData | SeededData): BuiltSeed {
  return 'state' in made && made.state instanceof MockState ? made : { data: made as MockData };
}

function writeError(store: DataStore, error: unknown): DataFileError {
  if (error instanceof NotOurFileError) return notOurs(store.location, error);
  return new DataFileError(`cannot write db ${store.location}: ${printable((error as Error).message)}`);
}

async function readExisting(store: DataStore): Promise<KeptData | null> {
  let data: unknown;
  try {
    data = await store.open();
  } catch (error) {
    if (error instanceof NotOurFileError) throw notOurs(store.location, error);
    throw new DataFileError(`cannot read db ${store.location}: ${printable((error as Error).message)}; fix the file or start with --reset to re-seed it`);
  }
  if (data === null) return null;
  const problem = shapeProblem(data);
  if (problem) throw notData(store.location, problem);
  // One walk of the links, over the ids the store keeps anyway when it does: each link's shape and
  // references are checked, and the link indexed, in the same step; or none, when the store made
  // that walk as it read the links.
  const checked = store.checked?.() ?? checkedState(data as MockData, (data as MockData).links.keys());
  if (!checked.state) {
    const broken = checked.problem;
    if (broken.notALink) throw notData(store.location, printable(broken.text));
    throw new DataFileError(`db ${store.location} fails its integrity check (${printable(broken.text)}); fix the file or start with --reset to re-seed it`);
  }
  return { data: data as MockData, state: checked.state };
}

function notData(location: string, problem: string): DataFileError {
  return new DataFileError(`db ${location} is not shortlink-mock data (${problem}); start with --reset to re-seed it`);
}

function notOurs(location: string, error: NotOurFileError): DataFileError {
  return new DataFileError(`db ${location}: this is not a shortlink-mock db file (${printable(error.message)}); it is neither read nor overwritten, not even with --reset: give another db path`);
}
