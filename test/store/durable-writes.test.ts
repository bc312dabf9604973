// What the store fsyncs, and when: every fsync of a file or directory is recorded (the path of its
// descriptor, read from /proc, and the directory as it was at that moment) while it calls the real
// one. A reset/restore's new base is synced before its rename and the directory after it; a
// compaction's too; a new change log's directory entry before the write is acknowledged; a
// snapshot's file before its rename, and its directory after it.
import fs, { readdirSync, readFileSync, readlinkSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildSeed } from '../../fixtures/seed.js';
import type { LinkRecord } from '../../src/core/model.js';
import { LogFileStore } from '../../src/store/file/log-file-store.js';
import { directorySnapshots } from '../../src/store/file/snapshot-store.js';
import { fixtures, TEST_SEED } from '../helpers/test-app.js';

interface Sync {
  path: string;
  /** The directory's entries, and db.json's inode and first lines, when the fsync was called. */
  entries: string[];
  baseInode: number | undefined;
  baseHead: string | undefined;
}

let dir: string;
let file: string;
let syncs: Sync[];

async function fileHandlePrototype(): Promise<FileHandle> {
  const handle = await open(join(dir, 'probe'), 'w');
  await handle.close();
  rmSync(join(dir, 'probe'));
  return Object.getPrototypeOf(handle) as FileHandle;
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slm-fsync-'));
  file = join(dir, 'db.json');
  syncs = [];
  const prototype = await fileHandlePrototype();
  for (const method of ['sync', 'datasync'] as const) {
    const real = prototype[method];
    vi.spyOn(prototype, method).mockImplementation(function (this: FileHandle) {
      recordSync(this.fd);
      return real.call(this);
    });
  }
  // The change log's appends sync its descriptor through fs (src/store/file/fd-append.ts).
  const fdatasync = fs.fdatasync;
  vi.spyOn(fs, 'fdatasync').mockImplementation(((fd: number, done: (error: NodeJS.ErrnoException | null) => void) => {
    recordSync(fd);
    fdatasync(fd, done);
  }) as typeof fs.fdatasync);
});

function recordSync(fd: number): void {
  const path = readlinkSync(`/proc/self/fd/${fd}`);
  const base = statSync(file, { throwIfNoEntry: false });
  syncs.push({ path, entries: readdirSync(dir).sort(), baseInode: base?.ino, baseHead: base && readFileSync(file, 'utf8').slice(0, 100) });
}
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const store = (compactAfterBytes = 1 << 30) => new LogFileStore(file, { durable: true, compactAfterBytes });
const generationLine = (generation: number): string => `"generation": ${generation},`;

describe.skipIf(process.platform !== 'linux')('the fsyncs of the file store (Linux: descriptors read from /proc)', () => {
  it('a reset/restore syncs the new base before its rename, then the directory after it', async () => {
    const s = store();
    await s.open();
    await s.write([{ op: 'replace', data: buildSeed(TEST_SEED, fixtures) }]);
    const first = statSync(file).ino;
    syncs = [];
    await s.write([{ op: 'replace', data: buildSeed(TEST_SEED + 1, fixtures) }]);
    await s.close();
    const replaced = statSync(file).ino;
    const temporary = syncs.findIndex((sync) => sync.path.startsWith(`${file}.`) && sync.path !== `${file}.changes`);
    expect(temporary, `a sync of the new base's temporary file among ${JSON.stringify(syncs.map((sync) => sync.path))}`).toBeGreaterThanOrEqual(0);
    expect(syncs[temporary]?.baseInode, 'db.json not yet replaced when its successor was synced').toBe(first);
    const directory = syncs.findIndex((sync, index) => index > temporary && sync.path === dir);
    expect(directory, 'a sync of the directory after the rename').toBeGreaterThan(temporary);
    expect(syncs[directory]?.baseInode).toBe(replaced);
    expect(syncs[directory]?.baseHead).toContain(generationLine(2));
  });

  it('a compaction syncs the compacted file before its rename, then the directory after it', async () => {
    const s = store(2_000);
    await s.open();
    const data = buildSeed(TEST_SEED, fixtures);
    await s.write([{ op: 'replace', data }]);
    const seeded = statSync(file).ino;
    syncs = [];
    // One write past the threshold, then none: exactly one compaction, with no append beside it.
    const template = [...data.links.values()][0] as LinkRecord;
    const links = Array.from({ length: 30 }, (_, i): LinkRecord => ({ ...template, id: `lnk_c${i}`, slug: `c${i}` }));
    await s.write(links.map((link) => ({ op: 'put-link', link })));
    await s.close();
    const compacted = statSync(file).ino;
    expect(compacted, 'a compaction ran').not.toBe(seeded);
    const written = syncs.findIndex((sync) => sync.path === `${file}.compacting`);
    expect(written, `a sync of ${file}.compacting among ${JSON.stringify(syncs.map((sync) => sync.path))}`).toBeGreaterThanOrEqual(0);
    expect(syncs[written]?.baseInode).toBe(seeded);
    expect(syncs.slice(written + 1).map((sync) => sync.path), 'after the compacted file: the directory, once').toEqual([dir]);
    expect(syncs[written + 1]?.baseInode).toBe(compacted);
  });

  it('a new change log: its first write is synced, and its directory entry, before the write resolves', async () => {
    const s = store();
    await s.open();
    const data = buildSeed(TEST_SEED, fixtures);
    await s.write([{ op: 'replace', data }]);
    syncs = [];
    const template = [...data.links.values()][0] as LinkRecord;
    await s.write([{ op: 'put-link', link: { ...template, id: 'lnk_first', slug: 'first' } }]);
    expect(syncs.map((sync) => sync.path)).toEqual([`${file}.changes`, dir]);
    expect(syncs[1]?.entries).toContain('db.json.changes');
    syncs = [];
    await s.write([{ op: 'put-link', link: { ...template, id: 'lnk_second', slug: 'second' } }]);
    expect(syncs.map((sync) => sync.path), 'later appends sync the log only').toEqual([`${file}.changes`]);
    await s.close();
  });

  it('a snapshot save syncs its temporary file, then its directory after the rename (and a new directory\'s parent)', async () => {
    const snapshots = join(dir, 'snapshots');
    const store = directorySnapshots(snapshots);
    await store.save('first', buildSeed(TEST_SEED, fixtures));
    expect(syncs.map((sync) => sync.path)).toEqual([dir, join(snapshots, 'first.json.saving'), snapshots]);
    syncs = [];
    const next = buildSeed(TEST_SEED + 1, fixtures);
    await store.save('first', next);
    expect(syncs.map((sync) => sync.path)).toEqual([join(snapshots, 'first.json.saving'), snapshots]);
    expect(readdirSync(snapshots)).toEqual(['first.json']);
    expect(await store.load('first')).toEqual(next);
  });
});
