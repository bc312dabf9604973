// This process's own db (`--db FILE` or `--db :memory:`), opened and checked by the start-up before
// it loads the server's modules: a db the CLI refuses is refused with only the light file-store
// modules loaded. A refusal used to pay the whole module load (Express, express-openapi-validator,
// the app: ~0.42 s of CPU per refused start, ~0.21 s now), and test/process/corrupt-db.test.ts
// alone starts the CLI on a refused db 14 times. The data read here is handed on to createMock,
// which does not read the file again.
import { dirname, join, resolve } from 'node:path';
import type { MockData } from '../core/model.js';
import type { SnapshotStore } from '../core/snapshots.js';
import { memoryStore, MEMORY_LOCATION, type DataStore } from '../store/file/data-store.js';
import { COMPACT_LOG_SHARE, DEFAULT_COMPACT_AFTER_BYTES, LogFileStore } from '../store/file/log-file-store.js';
import { keptData, type KeptData } from '../store/file/open-data.js';
import { directorySnapshots, memorySnapshots } from '../store/file/snapshot-store.js';
import { StartupError } from './startup-error.js';
import { makeDirectories } from '../contract/make-directories.js';

export interface LocalDb {
  store: DataStore;
  /** What the db keeps, checked (src/store/file/open-data.ts); null when it is to be seeded. */
  storeData: KeptData | null;
  snapshots: SnapshotStore;
}

/** Opens the db and reads what it keeps (or, for a reset, makes sure it may overwrite it); throws DataFileError when it may not. */
export async function openLocalDb(db: string, durable: boolean, reset: boolean, log: (line: string) => void): Promise<LocalDb> {
  const store = openStore(db, durable, log);
  const snapshots = openSnapshots(db);
  return { store, storeData: await keptData(store, reset), snapshots };
}

export function openStore(db: string, durable: boolean, log: (line: string) => void): DataStore {
  if (db === MEMORY_LOCATION) return memoryStore();
  const file = resolve(db);
  try {
    makeDirectories(dirname(file));
  } catch (error) {
    throw new StartupError(`cannot create the directory of db ${file}: ${(error as Error).message}`);
  }
  return new LogFileStore(file, {
    durable,
    compactAfterBytes: DEFAULT_COMPACT_AFTER_BYTES,
    compactLogShare: COMPACT_LOG_SHARE,
    onError: (error) => log(`INTERNAL ERROR compacting ${file} (the change log keeps every change): ${error.message}`),
  });
}

/** Snapshots live in `snapshots/` beside the db file, or in memory with `--db :memory:`. */
export function openSnapshots(db: string): SnapshotStore {
  return db === MEMORY_LOCATION ? memorySnapshots() : directorySnapshots(join(dirname(resolve(db)), 'snapshots'));
}
