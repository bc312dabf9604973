// Where the data lives: lowdb's JSON file (atomic writes via steno: temp file + rename) or lowdb's
// memory adapter. Read and write, nothing more; chosen once by the CLI, passed in by tests.
import { JSONFile } from 'lowdb/node';
import { Memory } from 'lowdb';
import type { MockData } from '../core/model.js';

export interface DataStore {
  /** Human-readable location for logs: a file path or ':memory:'. */
  readonly location: string;
  /** The stored data, or null when there is none yet. Throws on an unreadable or corrupt file. */
  read(): Promise<MockData | null>;
  write(data: MockData): Promise<void>;
}

export const MEMORY_LOCATION = ':memory:';

export function memoryStore(): DataStore {
  const adapter = new Memory<MockData>();
  return { location: MEMORY_LOCATION, read: () => adapter.read(), write: (data) => adapter.write(data) };
}

export function jsonFileStore(file: string): DataStore {
  const adapter = new JSONFile<MockData>(file);
  return { location: file, read: () => adapter.read(), write: (data) => adapter.write(data) };
}
