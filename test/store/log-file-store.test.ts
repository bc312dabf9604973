// The lowdb file with its change log: replay, torn lines, corruption, compaction off the hot path
// (also with writes arriving while it runs), and recovery from a compaction cut short.
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildSeed } from '../../fixtures/seed.js';
import type { Change } from '../../src/core/changes.js';
import type { LinkRecord, MockData } from '../../src/core/model.js';
import { LogFileStore } from '../../src/store/log-file-store.js';
import { fixtures, TEST_SEED } from '../helpers/test-app.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'slm-log-'));
  file = join(dir, 'db.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const store = (compactAfterBytes = 1 << 30) => new LogFileStore(file, { durable: true, compactAfterBytes });
const seed = (): MockData => buildSeed(TEST_SEED, fixtures);
const aLink = (data: MockData, id: string): LinkRecord => ({ ...(Object.values(data.links)[0] as LinkRecord), id, slug: id });
const reopen = async (): Promise<MockData> => (await store().open()) as MockData;

async function seeded(compactAfterBytes?: number): Promise<{ s: LogFileStore; data: MockData }> {
  const s = store(compactAfterBytes);
  expect(await s.open()).toBeNull();
  const data = seed();
  await s.write([{ op: 'replace', data }]);
  return { s, data };
}

describe('LogFileStore', () => {
  it('appends changes and replays them on open, in order', async () => {
    const { s, data } = await seeded();
    const link = aLink(data, 'lnk_new');
    data.links[link.id] = link;
    await s.write([{ op: 'put-link', link }]);
    const first = Object.keys(data.links)[0] as string;
    delete data.links[first];
    await s.write([{ op: 'delete-link', id: first }]);
    await s.close();
    // The generation line of the seeded base, then one line per change.
    expect(readFileSync(`${file}.changes`, 'utf8').trim().split('\n')).toEqual([`{"generation":1}`, expect.stringContaining('put-link'), expect.stringContaining('delete-link')]);
    expect(await reopen()).toEqual(data);
  });

  it('cuts off a torn last line (a crash mid-append) instead of applying or refusing it', async () => {
    const { s, data } = await seeded();
    const link = aLink(data, 'lnk_kept');
    await s.write([{ op: 'put-link', link }]);
    await s.close();
    appendFileSync(`${file}.changes`, '{"op":"put-link","link":{"id":"lnk_torn"');
    const reopened = await reopen();
    expect(reopened.links['lnk_kept']).toBeDefined();
    expect(reopened.links['lnk_torn']).toBeUndefined();
    expect(readFileSync(`${file}.changes`, 'utf8').endsWith('\n')).toBe(true);
  });

  it('refuses a corrupt line in the middle, naming the file and the line', async () => {
    const { s } = await seeded();
    await s.close();
    writeFileSync(`${file}.changes`, '{"generation":1}\n{"op":"delete-link","id":"x"}\nnot json\n{"op":"delete-link","id":"y"}\n');
    await expect(reopen()).rejects.toThrow(/db\.json\.changes line 3/);
  });

  it('compacts past its threshold: the lowdb file holds everything and the old log is gone', async () => {
    const { s, data } = await seeded(2_000);
    const changes: Change[] = [];
    for (let i = 0; i < 40; i += 1) {
      const link = aLink(data, `lnk_c${i}`);
      data.links[link.id] = link;
      changes.push({ op: 'put-link', link });
      await s.write([changes[i] as Change]);
    }
    await s.close();
    expect(existsSync(`${file}.changes.old`)).toBe(false);
    // The lowdb file was rewritten: readable JSON holding the compacted links; the rest is in the log.
    const base = JSON.parse(readFileSync(file, 'utf8')) as MockData;
    expect(Object.keys(base.links).filter((id) => id.startsWith('lnk_c')).length).toBeGreaterThan(0);
    expect(readFileSync(`${file}.changes`, 'utf8').length).toBeLessThan(2_000 + 1_000);
    expect(await reopen()).toEqual(data);
  });

  it('keeps writes that arrive while a compaction runs', async () => {
    const { s, data } = await seeded(1);
    const writes = Array.from({ length: 200 }, (_, i) => {
      const link = aLink(data, `lnk_w${i}`);
      data.links[link.id] = link;
      return s.write([{ op: 'put-link', link }]);
    });
    await Promise.all(writes);
    await s.close();
    expect(await reopen()).toEqual(data);
  });

  it('compacts a store of several batches while links are created and deleted between its batches', async () => {
    const { s, data } = await seeded(1);
    const bulk = Array.from({ length: 2_500 }, (_, i) => aLink(data, `lnk_b${i}`));
    for (const link of bulk) data.links[link.id] = link;
    await s.write(bulk.map((link): Change => ({ op: 'put-link', link }))); // starts a compaction
    const during: Promise<void>[] = [];
    for (let i = 0; i < 2_500; i += 50) {
      const gone = `lnk_b${i}`;
      delete data.links[gone];
      const link = aLink(data, `lnk_d${i}`);
      data.links[link.id] = link;
      during.push(s.write([{ op: 'delete-link', id: gone }]), s.write([{ op: 'put-link', link }]));
    }
    await Promise.all(during);
    await s.close();
    const base = JSON.parse(readFileSync(file, 'utf8')) as MockData;
    expect(Object.keys(base.links).length).toBeGreaterThan(2_000);
    expect(await reopen()).toEqual(data);
  });

  it('recovers from a compaction cut short: base, then the old log, then the new one', async () => {
    const { s, data } = await seeded();
    await s.close();
    const link = aLink(data, 'lnk_recovered');
    writeFileSync(`${file}.changes.old`, `{"generation":1}\n${JSON.stringify({ op: 'put-link', link })}\n`);
    writeFileSync(`${file}.changes`, `{"generation":1}\n${JSON.stringify({ op: 'put-link', link: { ...link, clickCount: 99 } })}\n`);
    expect((await reopen()).links['lnk_recovered']?.clickCount).toBe(99);
  });

  it('a replace (seed, reset, restore) rewrites the lowdb file and empties the logs', async () => {
    const { s, data } = await seeded();
    await s.write([{ op: 'put-link', link: aLink(data, 'lnk_gone') }]);
    const fresh = seed();
    await s.write([{ op: 'replace', data: fresh }]);
    await s.close();
    expect(existsSync(`${file}.changes`)).toBe(false);
    expect(await reopen()).toEqual(fresh);
  });

  it('opens a db written before generations (no field in the base, no first line in the log), goes on appending, and leaves it at the next replace', async () => {
    const data = seed();
    const link = aLink(data, 'lnk_legacy');
    writeFileSync(file, JSON.stringify(data, null, 2));
    writeFileSync(`${file}.changes`, `${JSON.stringify({ op: 'put-link', link })}\n`);
    data.links[link.id] = link;
    const s = store();
    expect(await s.open()).toEqual(data);
    const later = aLink(data, 'lnk_later');
    data.links[later.id] = later;
    await s.write([{ op: 'put-link', link: later }]);
    expect(await reopen()).toEqual(data);
    // A replace gives the base a generation; the old log, if a crash left it, would not be replayed.
    const legacyLog = readFileSync(`${file}.changes`);
    const fresh = seed();
    await s.write([{ op: 'replace', data: fresh }]);
    await s.close();
    expect((JSON.parse(readFileSync(file, 'utf8')) as { generation: number }).generation).toBe(1);
    writeFileSync(`${file}.changes`, legacyLog);
    expect(await reopen()).toEqual(fresh);
  });
});
