// A file db of its own for each test (a fresh directory, removed after it, with the mocks the test
// started closed first), and that db with a fault: a DataStore whose writes fail while `failing`
// says so, as a full disk or a process out of file descriptors fails them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { StoreOp } from '../../src/core/changes.js';
import type { DataStore } from '../../src/store/file/data-store.js';
import { LogFileStore } from '../../src/store/file/log-file-store.js';

export interface FileDb {
  /** db.json in this test's directory. */
  readonly file: string;
  /** Closed after the test, before its directory is removed. */
  readonly running: { close: () => Promise<void> }[];
  /** A store on the file (a second one on the same files is a restart after a crash). */
  logStore(): LogFileStore;
  /** A store on the file whose writes fail with `failing(ops)`'s error while it returns one. */
  faultyStore(failing: (ops: readonly StoreOp[]) => Error | undefined): DataStore;
}

/** Registers the hooks; call at the top of a test file. */
export function useFileDb(prefix: string): FileDb {
  let dir = '';
  const running: FileDb['running'] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((app) => app.close()));
    rmSync(dir, { recursive: true, force: true });
  });
  const db: FileDb = {
    get file() {
      return join(dir, 'db.json');
    },
    running,
    logStore: () => new LogFileStore(db.file, { durable: true, compactAfterBytes: 1 << 30 }),
    faultyStore: (failing) => {
      const real = db.logStore();
      return {
        location: real.location,
        open: () => real.open(),
        close: () => real.close(),
        write: (ops) => {
          const error = failing(ops);
          return error ? Promise.reject(error) : real.write(ops);
        },
      };
    },
  };
  return db;
}

/** The error of a write on a full disk. */
export const enospc = (): Error => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
