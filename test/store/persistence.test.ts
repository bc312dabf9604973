// The JSON file store under the whole mock: kept across restarts, re-seeded only on --reset,
// refused when corrupt, atomic, and no acknowledged change lost under concurrency.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import supertest from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LinkRecord, MockData } from '../../src/core/model.js';
import { createMock } from '../../src/process/mock.js';
import { LogFileStore } from '../../src/store/file/log-file-store.js';
import { contract, DEMO, fixtures, TEST_SEED } from '../helpers/test-app.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'slm-store-'));
  file = join(dir, 'db.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const fileStore = (compactAfterBytes = 1 << 30) => new LogFileStore(file, { durable: true, compactAfterBytes });
const running: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((mock) => mock.close()));
});
const start = async (reset = false, compactAfterBytes?: number) => {
  const mock = await createMock({ store: fileStore(compactAfterBytes), contract, fixtures, seed: TEST_SEED, reset, version: 'test' });
  running.push(mock);
  return { ...mock, request: supertest(mock.app) };
};
/** What a fresh start would load: the lowdb file with the change logs replayed. */
const onDisk = async (): Promise<MockData> => (await fileStore().open()) as MockData;
const body = (slug?: string) => ({ destinationUrl: 'https://example.com/a', domain: 'short.test', tags: [{ name: 'kept' }], ...(slug ? { slug } : {}) });

describe('a JSON file store', () => {
  it('is seeded on first start and kept, with every acknowledged change, on the next', async () => {
    const first = await start();
    expect(first.seeded).toBe(true);
    const created = await first.request.post('/links').set('x-api-key', DEMO).send(body('persisted'));
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    // The 201 was sent after the write: the link is on disk before any flush.
    expect((await onDisk()).links.get(id)?.slug).toBe('persisted');

    const second = await start();
    expect(second.seeded).toBe(false);
    const updated = await second.request.put(`/links/${id}`).set('x-api-key', DEMO).send({ destinationUrl: 'https://example.com/b' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ slug: 'persisted', tags: [{ name: 'kept' }] });
    expect((await second.request.delete(`/links/${id}`).set('x-api-key', DEMO)).status).toBe(204);
    expect((await onDisk()).links.get(id)).toBeUndefined();
  });

  it('is re-seeded by reset, dropping what was created', async () => {
    const first = await start();
    const seeded = JSON.stringify(await onDisk());
    await first.request.post('/links').set('x-api-key', DEMO).send(body());
    expect(JSON.stringify(await onDisk())).not.toBe(seeded);
    await first.close();
    const again = await start(true);
    expect(again.seeded).toBe(true);
    expect(JSON.stringify(await onDisk())).toBe(seeded);
    expect(readdirSync(dir)).toEqual(['db.json']);
  });

  it.each([
    ['truncated JSON', '{\n  "kind": "shortlink-mock-db",\n  "formatVersion": 2,\n  "accou'],
    ['truncated format-1 JSON', '{"formatVersion": 1, "accou'],
    ['newer format', '{"kind": "shortlink-mock-db", "formatVersion": 99}'],
  ])('refuses a %s file, names it and the way out, and leaves it untouched', async (_name, content) => {
    writeFileSync(file, content);
    await expect(start()).rejects.toThrow(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}.*--reset`));
    expect(readFileSync(file, 'utf8')).toBe(content);
  });

  it('appends changes beside a base file that always parses, and a clean close folds them into it, leaving no other file', async () => {
    const mock = await start();
    const before = (await onDisk()).links.size;
    const created = await Promise.all(Array.from({ length: 30 }, () => mock.request.post('/links').set('x-api-key', DEMO).send(body())));
    expect(created.map((res) => res.status)).toEqual(Array(30).fill(201));
    expect(readdirSync(dir).sort()).toEqual(['db.json', 'db.json.changes']);
    expect(() => JSON.parse(readFileSync(file, 'utf8'))).not.toThrow();
    await mock.close();
    // db.json alone, read as a user would, holds every link: no log is left to replay.
    expect(readdirSync(dir)).toEqual(['db.json']);
    const links = (JSON.parse(readFileSync(file, 'utf8')) as { links: Record<string, LinkRecord> }).links;
    expect(Object.keys(links)).toHaveLength(before + 30);
    for (const res of created) expect(links[(res.body as { id: string }).id]?.destinationUrl).toBe('https://example.com/a');
  });

  it('loses no update among concurrent creates, and lets exactly one of two same-slug creates win', async () => {
    const mock = await start();
    const before = (await onDisk()).links.size;
    const distinct = await Promise.all(Array.from({ length: 60 }, () => mock.request.post('/links').set('x-api-key', DEMO).send(body())));
    expect(distinct.map((res) => res.status)).toEqual(Array(60).fill(201));
    const same = await Promise.all(Array.from({ length: 20 }, () => mock.request.post('/links').set('x-api-key', DEMO).send(body('race'))));
    expect(same.filter((res) => res.status === 201)).toHaveLength(1);
    expect(same.filter((res) => res.status === 400)).toHaveLength(19);
    const links = [...(await onDisk()).links.values()];
    expect(links).toHaveLength(before + 61);
    expect(links.filter((link) => link.slug === 'race')).toHaveLength(1);
  });
});
