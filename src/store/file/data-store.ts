// Where the data lives, behind one small interface: open it, make operations durable, close.
// Two kinds: memory (tests, --db :memory:) and the lowdb JSON file with its change log
// (src/store/file/log-file-store.ts). Chosen once by the CLI; tests pass the memory one.
import type { StoreOp } from '../../core/changes.js';
import type { MockData } from '../../core/model.js';
import type { MockState } from '../../core/state.js';
import type { Checked } from './checked-state.js';

export interface DataStore {
  /** Human-readable location for logs: a file path or ':memory:'. */
  readonly location: string;
  /**
   * The stored data, or null when there is none yet. The store keeps the returned object (and
   * the data of later `replace` operations) as the live data it serialises when it compacts.
   * Throws on an unreadable or corrupt file.
   */
  open(): Promise<MockData | null>;
  /** Makes the operations durable, in order; resolves when they are (in the store's mode). */
  write(ops: readonly StoreOp[]): Promise<void>;
  /**
   * Finishes background work and releases files; every write before it is durable. The file store
   * also folds its change log into the base file, so that the base alone is current after it.
   */
  close(): Promise<void>;
  /**
   * Throws NotOurFileError when the location holds something that is not a db of ours, unread: a
   * reset, which overwrites without reading, checks it before it seeds. Only the file store has one.
   */
  requireOurs?(): Promise<void>;
  /**
   * The opened data checked, and its state built, as its links were read (the file store, when it
   * read them record by record and no change of its logs was replayed on them): the checks at open
   * then make no walk of their own (issue 40). Undefined otherwise, and after the first call.
   */
  checked?(): Checked | undefined;
  /**
   * A seed's replace (src/store/file/open-data.ts), `build` told where the new base goes before it
   * builds anything, so that a worker thread can write the file while this thread builds the
   * state (issue 40: src/process/seed-base.ts); a seed that writes nothing there is written as a
   * replace is. Only the file store has one.
   */
  seed?(build: (target: BaseTarget) => Promise<BuiltSeed>): Promise<BuiltSeed>;
}

/** The temporary file a seed's replace renames over the base once written (open for writing, empty), and the generation to write in it. */
export interface BaseTarget {
  fd: number;
  generation: number;
}

/** A seed's data, with the state its draws built, if they did. */
export interface BuiltSeed {
  data: MockData;
  state?: MockState;
  /**
   * When the seed writes the base to the BaseTarget itself: settles once it is written and synced,
   * to the number of links written; nothing else writes to the file until it has settled.
   */
  written?: Promise<number>;
}

export const MEMORY_LOCATION = ':memory:';

export function memoryStore(): DataStore {
  let data: MockData | null = null;
  return {
    location: MEMORY_LOCATION,
    open: async () => data,
    write: async (ops) => {
      for (const op of ops) if (op.op === 'replace') data = op.data;
    },
    close: async () => {},
  };
}
