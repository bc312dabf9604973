// Named snapshots of the whole state: in memory, or as JSON files in a directory beside the db
// file, each written atomically and durably (src/store/file/durable-file.ts): a snapshot that was
// answered 201 is there, whole, after a crash or a power cut.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { JSONFile } from 'lowdb/node';
import { dirname, join } from 'node:path';
import type { MockData } from '../../core/model.js';
import type { SnapshotInfo, SnapshotStore } from '../../core/snapshots.js';
import { writeObjectChunked } from './chunked-json.js';
import { replaceFile, syncDirectory } from './durable-file.js';

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
  // Saves one at a time: two saves of one name would share its temporary file.
  let saving: Promise<unknown> = Promise.resolve();
  const write = async (name: string, stored: Stored): Promise<void> => {
    // A new directory's entry must be durable too, or a power cut could lose it with the file.
    if (mkdirSync(dir, { recursive: true }) !== undefined) await syncDirectory(dirname(dir));
    // `.saving` does not end in `.json`: list() never takes a temporary file a crash left for a snapshot.
    await replaceFile(file(name), join(dir, `${name}.json.saving`), (handle) => writeStored(handle, stored));
  };
  return {
    save: async (name, data) => {
      const stored = { savedAt: new Date().toISOString(), data };
      const run = saving.then(() => write(name, stored));
      saving = run.catch(() => undefined);
      await run;
      return infoOf(name, stored);
    },
    load: async (name) => (await read(file(name)))?.data,
    list: async () => {
      const names = safeList(dir).filter((entry) => entry.endsWith('.json')).map((entry) => entry.slice(0, -'.json'.length));
      const infos = await Promise.all(names.map(async (name) => ({ name, stored: await read(file(name)) })));
      return infos.flatMap(({ name, stored }) => (stored ? [infoOf(name, stored)] : []));
    },
    delete: async (name) => {
      const existed = safeList(dir).includes(`${name}.json`);
      rmSync(file(name), { force: true });
      return existed;
    },
  };
}

/**
 * `{"savedAt", "data"}` written record by record, as the base file is (src/store/file/chunked-json.ts):
 * one JSON.stringify of a 1,000,000-link state held the event loop for seconds and the whole text in
 * memory beside the data (issue 40).
 */
async function writeStored(handle: FileHandle, stored: Stored): Promise<void> {
  await handle.write(`{\n  "savedAt": ${JSON.stringify(stored.savedAt)},\n  "data": `);
  await writeObjectChunked(handle, {}, stored.data, Object.keys(stored.data.links));
  await handle.write('\n}\n');
}

/** lowdb's JSON adapter reads a snapshot (null when there is none); it is written durably, not by lowdb. */
function read(file: string): Promise<Stored | null> {
  return new JSONFile<Stored>(file).read();
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
