// Snapshot files are written record by record, as the base file is (src/store/file/chunked-json.ts):
// one JSON.stringify of the whole state held the event loop for seconds at 1,000,000 links and
// kept the whole text in memory beside the data (issue 40). No timing here: the file's layout (one
// record a line) and the number of writes are what a single stringify cannot give.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JSONFile } from 'lowdb/node';
import { buildSeed } from '../../fixtures/seed.js';
import type { LinkRecord } from '../../src/core/model.js';
import { directorySnapshots } from '../../src/store/file/snapshot-store.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'slm-snapshots-'));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const LINKS = 2_500;
const spec = { defaultDomain: 'short.test', accounts: [{ apiKey: 'k', name: 'K', linkLimit: LINKS, customDomains: [], tags: 3, links: LINKS }] };

async function handlePrototype(): Promise<FileHandle> {
  const handle = await open(join(dir, 'probe'), 'w');
  await handle.close();
  return Object.getPrototypeOf(handle) as FileHandle;
}

describe('directorySnapshots', () => {
  it('writes a snapshot one record a line, in several writes, and loads it back whole', async () => {
    const data = buildSeed(7, spec);
    const write = vi.spyOn(await handlePrototype(), 'write');
    const snapshots = directorySnapshots(join(dir, 'snapshots'));
    const info = await snapshots.save('big', data);
    expect(info).toMatchObject({ name: 'big', links: LINKS });
    // 1,000 records a write: the links alone take three.
    expect(write.mock.calls.length).toBeGreaterThan(3);
    const text = readFileSync(join(dir, 'snapshots', 'big.json'), 'utf8');
    const [id, link] = [...data.links][0] as [string, unknown];
    expect(text).toContain(`\n    ${JSON.stringify(id)}: ${JSON.stringify(link)}`);
    expect(JSON.parse(text)).toEqual({ savedAt: expect.any(String), links: LINKS, data });
    expect(await snapshots.load('big')).toEqual(data);
  });

  it('reads a link whose title holds U+2028 record by record too (a line end to a regular expression, not to JSON), not the whole file at once', async () => {
    const data = buildSeed(7, spec);
    const link = [...data.links.values()][10] as LinkRecord;
    link.title = 'one\u2028two\u2029three';
    const snapshots = directorySnapshots(join(dir, 'snapshots'));
    await snapshots.save('odd', data);
    expect(readFileSync(join(dir, 'snapshots', 'odd.json'), 'utf8')).toContain('one\u2028two');
    const whole = vi.spyOn(JSONFile.prototype, 'read');
    expect(await snapshots.load('odd')).toEqual(data);
    expect(whole).not.toHaveBeenCalled();
  });

  it('loads and lists a snapshot an older build wrote as one indented JSON text (no link count)', async () => {
    const data = buildSeed(7, spec);
    mkdirSync(join(dir, 'snapshots'));
    writeFileSync(join(dir, 'snapshots', 'old.json'), JSON.stringify({ savedAt: '2026-11-01T00:00:00.000Z', data }, null, 2));
    const snapshots = directorySnapshots(join(dir, 'snapshots'));
    expect(await snapshots.list()).toEqual([{ name: 'old', savedAt: '2026-11-01T00:00:00.000Z', links: LINKS }]);
    expect(await snapshots.load('old')).toEqual(data);
  });

  it('reads a listing from the head of each file, and loads a file cut short as unreadable, not as fewer links', async () => {
    const data = buildSeed(7, spec);
    const snapshots = directorySnapshots(join(dir, 'snapshots'));
    await snapshots.save('cut', data);
    const file = join(dir, 'snapshots', 'cut.json');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.slice(0, Math.floor(text.length / 2)));
    expect(await snapshots.list()).toEqual([{ name: 'cut', savedAt: expect.any(String), links: LINKS }]);
    await expect(snapshots.load('cut')).rejects.toThrow();
  });
});
