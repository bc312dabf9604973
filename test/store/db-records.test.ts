// A base file read record by record (src/store/file/db-records.ts) is what JSON.parse of its whole
// text gives, keys in the same order, across every boundary of its pieces; a file laid out
// otherwise is left to that one parse (undefined here), with its errors; ids shared between links
// at load leave each link its own record and tagIds.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildSeed } from '../../fixtures/seed.js';
import type { LinkRecord, LinkTable, MockData } from '../../src/core/model.js';
import { readBase, writeBase } from '../../src/store/file/base-file.js';
import { readRecordWise } from '../../src/store/file/db-records.js';
import { fixtures, TEST_SEED } from '../helpers/test-app.js';
import { SplitLinkTable } from '../../src/core/link-table.js';
import { isInternalized } from '../helpers/v8-strings.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'slm-records-'));
  file = join(dir, 'db.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Small pieces: a 300-link file crosses many reads and batches, and a read ends inside a record. */
const SMALL = { readBytes: 997, batchChars: 1500 };

function withLinks(count: number): MockData {
  const data = buildSeed(TEST_SEED, fixtures);
  const template = [...data.links.values()].find((link) => link.tagIds.length > 1) as LinkRecord;
  for (let i = 0; i < count; i += 1) data.links.set(`lnk_r${i}`, { ...template, id: `lnk_r${i}`, slug: `r${i}`, tagIds: [...template.tagIds] });
  return data;
}

async function written(data: MockData): Promise<string> {
  await writeBase(file, `${file}.compacting`, { data, generation: 3 }, [...data.links.keys()]);
  return readFileSync(file, 'utf8');
}

/** The value and its keys' order, all the way down. */
const ordered = (value: unknown): string => JSON.stringify(value);

describe('readRecordWise', () => {
  it.each([
    ['the default pieces', undefined],
    ['pieces smaller than a record', SMALL],
  ])("gives what JSON.parse of the writer's file gives, with the links' ids (%s)", async (_what, pieces) => {
    const text = await written(withLinks(300));
    const read = await readRecordWise(file, pieces);
    expect(read).toBeDefined();
    const whole = JSON.parse(text) as MockData;
    expect(read?.value).toEqual(whole);
    expect(ordered(read?.value)).toBe(ordered(whole));
    expect([...(read?.value['links'] as LinkTable).keys()]).toEqual(Object.keys(whole.links));
  });

  // The bytes are decoded a batch at a time (db-records.ts): a read that ends inside a character
  // must not split it.
  it('reads text of every width, with reads ending inside its characters', async () => {
    const data = withLinks(60);
    for (const [i, link] of [...data.links.values()].entries()) link.title = `${'é€𝄞'.repeat(i % 7)} ${i}`;
    const text = await written(data);
    for (const readBytes of [997, 998, 999]) {
      const read = await readRecordWise(file, { readBytes, batchChars: 1500 });
      expect(ordered(read?.value)).toBe(ordered(JSON.parse(text)));
    }
  });

  // An object of ~3,000 keys is a dictionary, each key internalized: the writer's batches are parsed
  // as arrays of keys and values (src/store/file/member-pairs.ts), ~0.6 of the time.
  it("parses the writer's batches of links as arrays of keys and values, not as objects", async () => {
    const text = await written(withLinks(300));
    const parse = vi.spyOn(JSON, 'parse');
    let parsed: string[] = [];
    const read = await readRecordWise(file, SMALL).finally(() => {
      parsed = parse.mock.calls.map(([batch]) => String(batch));
      parse.mockRestore();
    });
    expect(ordered(read?.value)).toBe(ordered(JSON.parse(text)));
    const batches = parsed.filter((batch) => batch.includes('"lnk_r'));
    expect(batches.length).toBeGreaterThan(10);
    expect(batches.filter((batch) => !batch.startsWith('['))).toEqual([]);
  });

  it('reads a db without links, and says null when there is no file', async () => {
    const data = { ...buildSeed(TEST_SEED, fixtures), links: new SplitLinkTable() };
    const text = await written(data);
    expect((await readRecordWise(file, SMALL))?.value).toEqual(JSON.parse(text));
    expect(await readRecordWise(join(dir, 'none.json'))).toBeNull();
  });

  it('keeps keys JSON.parse keeps: __proto__ as an entry, escapes, a duplicate key (the later one wins, in the first place)', async () => {
    const data = withLinks(40);
    const proto = { ...(data.links.get('lnk_r0') as LinkRecord), id: '__proto__', slug: 'proto' };
    data.links.set('__proto__', proto);
    data.links.set('lnk_"quoted\\', { ...(data.links.get('lnk_r1') as LinkRecord), id: 'lnk_"quoted\\', slug: 'quoted' });
    let text = await written(data);
    // The same key twice, in two different batches of the small pieces.
    text = text.replace(/\n {4}"lnk_r39": (.*),\n/, (_all, record: string) => `\n    "lnk_r39": ${record},\n    "lnk_r2": ${record.replace('"r39"', '"again"')},\n`);
    writeFileSync(file, text);
    const read = await readRecordWise(file, SMALL);
    const whole = JSON.parse(text) as MockData;
    expect(read).toBeDefined();
    expect(ordered(read?.value)).toBe(ordered(whole));
    expect((read?.value['links'] as MockData['links']).has('__proto__')).toBe(true);
    expect(Object.getPrototypeOf(read?.value['links'])).toBe(SplitLinkTable.prototype);
    expect((read?.value['links'] as MockData['links']).get('lnk_r2')?.slug).toBe('again');
  });

  it('hands each link to the sink once, in order, as it is parsed; a key read twice leaves the sink not kept', async () => {
    const data = withLinks(40);
    let text = await written(data);
    const taken: string[] = [];
    const sinkFor = (head: Record<string, unknown>) => {
      expect(head['links']).toEqual({});
      return { take: (id: string, link: unknown) => taken.push(`${id}:${(link as LinkRecord).slug}`) > 0 };
    };
    const read = await readRecordWise(file, SMALL, sinkFor);
    expect(read?.sinkKept).toBe(true);
    expect(taken).toEqual([...data.links.values()].map((link) => `${link.id}:${link.slug}`));
    // The same key twice, in two batches: the sink took the first, which the data does not keep.
    text = text.replace(/\n {4}"lnk_r30": (.*),\n/, (_all, record: string) => `\n    "lnk_r30": ${record},\n    "lnk_r2": ${record.replace('"r30"', '"again"')},\n`);
    writeFileSync(file, text);
    const twice = await readRecordWise(file, SMALL, sinkFor);
    expect((twice?.value['links'] as MockData['links']).get('lnk_r2')?.slug).toBe('again');
    expect(twice?.sinkKept).toBe(false);
  });

  it('reads a pretty-printed file too (its links are cut between records as well)', async () => {
    const text = JSON.stringify({ kind: 'shortlink-mock-db', generation: 1, ...withLinks(20) }, null, 2);
    writeFileSync(file, text);
    expect(ordered((await readRecordWise(file, SMALL))?.value)).toBe(ordered(JSON.parse(text)));
  });

  it.each([
    ['on one line', (data: MockData) => JSON.stringify({ kind: 'shortlink-mock-db', generation: 1, ...data })],
    ['with "links" inside another field first', () => '{\n  "kind": "shortlink-mock-db",\n  "extra": {\n  "links": {\n    "x": {}\n  }\n},\n  "links": {\n    "x": {"a": 1}\n  }\n}\n'],
  ])('leaves a file laid out otherwise (%s) to one JSON.parse of its text', async (_what, text) => {
    const data = withLinks(20);
    writeFileSync(file, text(data));
    await expect(readRecordWise(file, SMALL)).resolves.toBeUndefined();
  });

  it('leaves a broken file to JSON.parse, so readBase refuses it with the same error as before', async () => {
    const text = await written(withLinks(50));
    const broken = text.replace(/(\n {4}"lnk_r20": \{.*\}),\n/, '$1,,\n');
    writeFileSync(file, broken);
    await expect(readRecordWise(file, SMALL)).resolves.toBeUndefined();
    const error = (() => {
      try {
        JSON.parse(broken);
      } catch (thrown) {
        return thrown as Error;
      }
      return undefined;
    })();
    await expect(readBase(file)).rejects.toThrow(error?.message as string);
  });
});

describe('readBase on a file read record by record', () => {
  it("gives the data and its links' ids; each link keeps its own record, links of the same tags share one frozen tagIds list", async () => {
    const data = withLinks(30);
    await written(data);
    const base = await readBase(file);
    expect(base?.data).toEqual(data);
    expect([...(base?.data.links.keys() ?? [])]).toEqual([...data.links.keys()]);
    const [first, second] = ['lnk_r0', 'lnk_r1'].map((id) => base?.data.links.get(id) as LinkRecord) as [LinkRecord, LinkRecord];
    expect(first.tagIds).toBe(second.tagIds);
    expect(() => (first.tagIds as string[]).pop()).toThrow(TypeError);
    first.tagIds = [];
    first.accountId = 'acc_changed';
    expect(second.tagIds).toEqual(data.links.get('lnk_r1')?.tagIds);
    expect(second.accountId).toBe(data.links.get('lnk_r1')?.accountId);
  });

  // JSON.parse internalizes the keys it reads (the links' ids) and values of up to 10 characters
  // (slugs): each held one is an entry of V8's string table, which every full collection walks in its
  // pause (src/core/own-text.ts; at 1,000,000 links 60-80 ms of a ~100 ms pause, issue 40).
  it("keeps no link's id or slug in V8's string table: the table's keys are the records' own ids, the slugs copies", async () => {
    const data = withLinks(30);
    await written(data);
    const base = await readBase(file);
    const state = base?.load?.result(base.data).state;
    expect(state).toBeDefined();
    const keys = [...(base?.data.links.keys() ?? [])];
    expect(keys).toEqual([...data.links.keys()]);
    for (const key of keys) {
      const link = base?.data.links.get(key) as LinkRecord;
      expect(link.id).toBe(key);
      expect([isInternalized(key), isInternalized(link.id), isInternalized(link.slug)], key).toEqual([false, false, false]);
      expect(state?.linkAtDomain(link.domainId, link.slug)).toBe(link);
    }
  });
});
