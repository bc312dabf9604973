// Named snapshots of the whole state: in memory, or as JSON files in a directory beside the db
// file, each written atomically and durably (src/store/file/durable-file.ts): a snapshot that was
// answered 201 is there, whole, after a crash or a power cut.
import { mkdirSync, readdirSync } from 'node:fs';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { JSONFile } from 'lowdb/node';
import { dirname, join } from 'node:path';
import type { LinkRecord } from '../../core/model.js';
import { copyData, SplitLinkTable } from '../../core/link-table.js';
import type { DataAtMoment, KnownLinks, SnapshotInfo, SnapshotStore } from '../../core/snapshots.js';
import { writeObjectChunked, type Entry } from './chunked-json.js';
import { OtherLayout, readSnapshotLines, type StoredSnapshot } from './snapshot-reader.js';
import { replaceFile, syncDirectory } from './durable-file.js';

type Stored = StoredSnapshot;

const infoOf = (name: string, stored: Stored): SnapshotInfo => ({ name, savedAt: stored.savedAt, links: stored.links ?? stored.data.links.size });

export function memorySnapshots(): SnapshotStore {
  const snapshots = new Map<string, Stored>();
  return {
    save: async (name, data) => {
      const stored = { savedAt: new Date().toISOString(), data };
      snapshots.set(name, stored);
      return infoOf(name, stored);
    },
    // A copy: the caller may change it (a restore makes it the data in use).
    load: async (name) => {
      const stored = snapshots.get(name);
      return stored && copyData(stored.data);
    },
    list: async () => [...snapshots].map(([name, stored]) => infoOf(name, stored)),
    delete: async (name) => snapshots.delete(name),
  };
}

/** Snapshot names are checked by the admin API's contract (letters, digits, - and _), so they are safe file names. */
export function directorySnapshots(dir: string): SnapshotStore {
  const file = (name: string): string => join(dir, `${name}.json`);
  // Saves one at a time: two saves of one name would share its temporary file.
  let saving: Promise<unknown> = Promise.resolve();
  const write = async (name: string, data: DataAtMoment): Promise<void> => {
    // A new directory's entry must be durable too, or a power cut could lose it with the file.
    if (mkdirSync(dir, { recursive: true }) !== undefined) await syncDirectory(dirname(dir));
    // `.saving` does not end in `.json`: list() never takes a temporary file a crash left for a snapshot.
    await replaceFile(file(name), join(dir, `${name}.json.saving`), (handle) => writeStored(handle, savedAt, data));
  };
  let savedAt = '';
  const saveFrom = async (name: string, data: DataAtMoment): Promise<SnapshotInfo> => {
    const run = saving.then(() => {
      savedAt = new Date().toISOString();
      return write(name, data).then(() => ({ name, savedAt, links: data.linkCount }));
    });
    saving = run.catch(() => undefined);
    return run;
  };
  return {
    save: (name, data) => saveFrom(name, { head: data, links: data.links.values(), linkCount: data.links.size }),
    saveFrom,
    load: async (name, known) => (await read(file(name), known))?.data,
    list: async () => {
      const names = safeList(dir).filter((entry) => entry.endsWith('.json')).map((entry) => entry.slice(0, -'.json'.length));
      const infos = await Promise.all(names.map(async (name) => ({ name, stored: await readInfo(file(name)) })));
      return infos.flatMap(({ name, stored }) => (stored ? [{ name, ...stored }] : []));
    },
    delete: async (name) => {
      const existed = safeList(dir).includes(`${name}.json`);
      // Not rmSync: the kernel frees a file's blocks in the unlink, ~25 ms for a snapshot of 1,000,000
      // links (342 MB, ext4) held on the event loop; in the thread pool, requests go on meanwhile.
      await rm(file(name), { force: true });
      return existed;
    },
  };
}

/**
 * `{"savedAt", "links", "data"}` written record by record, as the base file is (src/store/file/chunked-json.ts):
 * one JSON.stringify of a 1,000,000-link state held the event loop for seconds and the whole text in
 * memory beside the data (issue 40). The link count comes first, so a listing reads only the head.
 */
async function writeStored(handle: FileHandle, savedAt: string, data: DataAtMoment): Promise<void> {
  await handle.write(`{\n  "savedAt": ${JSON.stringify(savedAt)},\n  "links": ${data.linkCount},\n  "data": `);
  await writeObjectChunked(handle, {}, data.head, entries(data.links));
  await handle.write('\n}\n');
}

function* entries(links: Iterable<LinkRecord>): Generator<Entry> {
  for (const link of links) yield [link.id, link];
}

/**
 * A snapshot (null when there is none), read a chunk per turn (snapshot-reader.ts), taking the
 * stored records `known` gives for equal ones; one in an older layout whole, by lowdb's JSON adapter. It is written durably, not by lowdb.
 */
async function read(file: string, known?: KnownLinks): Promise<Stored | null> {
  try {
    return await readSnapshotLines(file, undefined, known);
  } catch (error) {
    if (!(error instanceof OtherLayout)) throw error;
  }
  const stored = await new JSONFile<Stored>(file).read();
  // Read whole, its links are a plain object: the data's are a table.
  if (stored) stored.data.links = SplitLinkTable.of(stored.data.links);
  return stored;
}

const HEAD = /^\{\n {2}"savedAt": ("(?:[^"\\]|\\.)*"),\n {2}"links": (\d+),\n/;
/** Enough of a file for its savedAt and link count. */
const HEAD_BYTES = 256;

/** A snapshot's savedAt and link count from the head of its file; one written without its count is read whole. */
async function readInfo(file: string): Promise<Omit<SnapshotInfo, 'name'> | null> {
  let head: RegExpExecArray | null;
  try {
    const handle = await open(file, 'r');
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(HEAD_BYTES), 0, HEAD_BYTES, 0);
      head = HEAD.exec(buffer.subarray(0, bytesRead).toString('utf8'));
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (head) return { savedAt: JSON.parse(head[1] as string) as string, links: Number(head[2]) };
  const stored = await new JSONFile<Stored>(file).read();
  return stored && { savedAt: stored.savedAt, links: Object.keys(stored.data.links as unknown as object).length };
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
