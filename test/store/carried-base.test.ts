// A compaction carries the old base's lines of the links not changed since (carried-base.ts): the
// file it writes is the one a full write of the data makes, byte for byte, whatever was created,
// updated, deleted and added again in between; a base it cannot read line by line is written whole.
import { faker } from '@faker-js/faker';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { buildSeed } from '../../fixtures/seed.js';
import { applyChange, type Change } from '../../src/core/changes.js';
import type { LinkRecord, MockData } from '../../src/core/model.js';
import { writeDataChunked } from '../../src/store/file/chunked-json.js';
import { LogFileStore } from '../../src/store/file/log-file-store.js';
import type { ByteSink } from '../../src/store/file/reused-buffer.js';
import { useFileDb } from '../helpers/file-db.js';
import { fixtures, TEST_SEED } from '../helpers/test-app.js';

const db = useFileDb('slm-carried-');
/** A compaction after nearly every write: many bases, each carried from the one before. */
const store = (): LogFileStore => new LogFileStore(db.file, { durable: false, compactAfterBytes: 300 });

/** The bytes writeDataChunked writes for `data` under `generation`: what a compaction that serialised every link would write. */
async function fullWrite(data: MockData, generation: number): Promise<string> {
  const parts: Buffer[] = [];
  const sink: ByteSink = {
    write: async (buffer, offset, length) => {
      parts.push(Buffer.from(buffer.subarray(offset, offset + length)));
      return { bytesWritten: length };
    },
  };
  await writeDataChunked(sink, data, data.links.keys(), generation);
  return Buffer.concat(parts).toString('utf8');
}

const generationOf = (text: string): number => (JSON.parse(text) as { generation: number }).generation;

/** A seeded db whose one link (the first) has a clickCount written `N.0`: JSON.stringify never writes that, so the line is there only if carried. */
async function seededWithMark(): Promise<{ marked: string; text: string }> {
  const seeding = store();
  await seeding.open();
  await seeding.write([{ op: 'replace', data: buildSeed(TEST_SEED, fixtures) }]);
  await seeding.close();
  const text = readFileSync(db.file, 'utf8');
  const marked = text.match(/\n {4}"(lnk_[^"]+)": \{[^\n]*"clickCount":(\d+),/);
  if (!marked) throw new Error('no link line in the seeded base');
  const line = marked[0];
  writeFileSync(db.file, text.replace(line, line.replace(/"clickCount":(\d+),$/, '"clickCount":$1.0,')));
  return { marked: marked[1] as string, text: line.replace(/"clickCount":(\d+),$/, '"clickCount":$1.0,') };
}

/** One seeded step on the data and the store: a create, an update, a click, a delete, or a deleted link added again. */
function step(data: MockData, gone: LinkRecord[], untouched: string, n: number): Change {
  const ids = [...data.links.keys()].filter((id) => id !== untouched);
  const kind = faker.number.int(9);
  const some = ids[faker.number.int(ids.length - 1)] as string;
  const stored = data.links.get(some) as LinkRecord;
  let change: Change;
  if (kind <= 2 || ids.length < 3) change = { op: 'put-link', link: { ...stored, id: `lnk_new${n}`, slug: `new${n}`, createdAt: new Date(1_700_000_000_000 + n).toISOString() } };
  else if (kind <= 4) change = { op: 'put-link', link: { ...stored, destinationUrl: `https://example.com/${n}` } };
  else if (kind === 5) change = { op: 'put-link', link: { ...stored, clickCount: stored.clickCount + 1 } };
  else if (kind <= 7 || gone.length === 0) {
    gone.push(stored);
    change = { op: 'delete-link', id: some };
  } else change = { op: 'put-link', link: gone.splice(faker.number.int(gone.length - 1), 1)[0] as LinkRecord };
  applyChange(data, change);
  return change;
}

it.each([40, 41, 42])('writes the base a full write makes, byte for byte, through creates, updates, clicks, deletes and links added again, over many compactions (seed %i)', async (seed) => {
  faker.seed(seed);
  const { marked, text: markedLine } = await seededWithMark();
  const gone: LinkRecord[] = [];
  let n = 0;
  for (let round = 0; round < 6; round += 1) {
    const s = store();
    const data = (await s.open()) as MockData;
    for (let i = 0; i < 60; i += 1) await s.write([step(data, gone, marked, (n += 1))]);
    await s.close();
    const written = readFileSync(db.file, 'utf8');
    // The marked link was never changed: its line was carried through every compaction, as it was.
    expect(written).toContain(markedLine);
    const full = await fullWrite(data, generationOf(written));
    expect(written).toBe(full.replace(markedLine.replace(/\.0,$/, ','), markedLine));
    expect(await store().open()).toEqual(data);
  }
});

it('writes a base whole when it is not in the writer\'s layout (pretty-printed by hand), and carries the next one', async () => {
  const seeding = store();
  await seeding.open();
  await seeding.write([{ op: 'replace', data: buildSeed(TEST_SEED, fixtures) }]);
  await seeding.close();
  const { links, ...head } = JSON.parse(readFileSync(db.file, 'utf8')) as Record<string, unknown>;
  writeFileSync(db.file, JSON.stringify({ ...head, links }, null, 4));
  const s = store();
  const data = (await s.open()) as MockData;
  faker.seed(41);
  for (let i = 0; i < 20; i += 1) await s.write([step(data, [], '', i)]);
  await s.close();
  const written = readFileSync(db.file, 'utf8');
  expect(written).toBe(await fullWrite(data, generationOf(written)));
  expect(await store().open()).toEqual(data);
});

it('writes a base whole when a link id in it is not plain ASCII (its key escaped), losing nothing', async () => {
  const seeding = store();
  await seeding.open();
  const data = buildSeed(TEST_SEED, fixtures);
  const first = [...data.links.values()][0] as LinkRecord;
  const odd = { ...first, id: 'lnk_"quoted"\u00e9', slug: 'odd' };
  data.links.set(odd.id, odd);
  await seeding.write([{ op: 'replace', data }]);
  await seeding.close();
  expect(readFileSync(db.file, 'utf8')).toContain('"lnk_\\"quoted\\"é"');
  const s = store();
  const opened = (await s.open()) as MockData;
  faker.seed(42);
  for (let i = 0; i < 20; i += 1) await s.write([step(opened, [], odd.id, i)]);
  await s.close();
  const written = readFileSync(db.file, 'utf8');
  expect(written).toBe(await fullWrite(opened, generationOf(written)));
  expect((await store().open())?.links.get(odd.id)).toEqual(odd);
});

it.each([
  ['undone in memory, as the caller of a durable store does: the link put back, last', true],
  ['kept in memory, as with relaxed durability', false],
])('writes every link as memory holds it after a delete whose append failed (%s), through the compactions after it', async (_, undone) => {
  const s = store();
  await s.open();
  const data = buildSeed(TEST_SEED, fixtures);
  await s.write([{ op: 'replace', data }]);
  const target = [...data.links.values()][3] as LinkRecord;
  // The delete's append fails, as on a full disk.
  const files = (s as unknown as { files: { append: (changes: readonly Change[]) => Promise<void> } }).files;
  const append = files.append.bind(files);
  files.append = () => Promise.reject(new Error('ENOSPC'));
  applyChange(data, { op: 'delete-link', id: target.id });
  await expect(s.write([{ op: 'delete-link', id: target.id }])).rejects.toThrow('ENOSPC');
  if (undone) applyChange(data, { op: 'put-link', link: target });
  files.append = append;
  faker.seed(43);
  for (let i = 0; i < 40; i += 1) await s.write([step(data, [], target.id, i)]);
  await s.close();
  const written = readFileSync(db.file, 'utf8');
  expect(written).toBe(await fullWrite(data, generationOf(written)));
  expect((await store().open())?.links.get(target.id)).toEqual(undone ? target : undefined);
});

it('writes the base whole when it was removed while the store ran (nothing to carry from): no compaction fails, nothing is lost', async () => {
  const errors: Error[] = [];
  const s = new LogFileStore(db.file, { durable: false, compactAfterBytes: 300, onError: (error) => void errors.push(error) });
  await s.open();
  const data = buildSeed(TEST_SEED, fixtures);
  await s.write([{ op: 'replace', data }]);
  rmSync(db.file);
  faker.seed(44);
  for (let i = 0; i < 20; i += 1) await s.write([step(data, [], '', i)]);
  await s.close();
  expect(errors).toEqual([]);
  const written = readFileSync(db.file, 'utf8');
  expect(written).toBe(await fullWrite(data, generationOf(written)));
  expect(await store().open()).toEqual(data);
});
