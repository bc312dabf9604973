// Named snapshots of the whole state: in memory, or as JSON files in a directory beside the db
// file (written atomically by lowdb's adapter: a temporary file renamed over the old one).
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { JSONFile } from 'lowdb/node';
import type { MockData } from '../core/model.js';

export interface SnapshotInfo {
  name: string;
  savedAt: string;
  links: number;
}

export interface SnapshotStore {
  save(name: string, data: MockData): Promise<SnapshotInfo>;
  load(name: string): Promise<MockData | undefined>;
  list(): Promise<SnapshotInfo[]>;
  /** False when there was no such snapshot. */
  delete(name: string): Promise<boolean>;
}

interface Stored {
  savedAt: string;
  data: MockData;
}

const infoOf = (name: string, stored: Stored): SnapshotInfo => ({ name, savedAt: stored.savedAt, links: Object.keys(stored.data.links).length });

export function memorySnapshots(): SnapshotStore {
  const snapshots = new Map<string, Stored>();
  return {
    save: async (name, data) => {
      const stored = { savedAt: new Date().toISOString(), data };
      snapshots.set(name, stored);
      return infoOf(name, stored);
    },
    load: async (name) => snapshots.get(name)?.data,
    list: async () => [...snapshots].map(([name, stored]) => infoOf(name, stored)),
    delete: async (name) => snapshots.delete(name),
  };
}

/** Snapshot names are checked by the admin API's contract (letters, digits, - and _), so they are safe file names. */
export function directorySnapshots(dir: string): SnapshotStore {
  const file = (name: string): string => join(dir, `${name}.json`);
  const read = (name: string): Promise<Stored | null> => new JSONFile<Stored>(file(name)).read();
  return {
    save: async (name, data) => {
      mkdirSync(dir, { recursive: true });
      const stored = { savedAt: new Date().toISOString(), data };
      await new JSONFile<Stored>(file(name)).write(stored);
      return infoOf(name, stored);
    },
    load: async (name) => (await read(name))?.data,
    list: async () => {
      const names = safeList(dir).filter((entry) => entry.endsWith('.json')).map((entry) => entry.slice(0, -'.json'.length));
      const infos = await Promise.all(names.map(async (name) => ({ name, stored: await read(name) })));
      return infos.flatMap(({ name, stored }) => (stored ? [infoOf(name, stored)] : []));
    },
    delete: async (name) => {
      const existed = safeList(dir).includes(`${name}.json`);
      rmSync(file(name), { force: true });
      return existed;
    },
  };
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
