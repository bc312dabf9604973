// The base file on its own: a write given up half way (the time for compacting at close is up)
// leaves the old base whole and no temporary file; what readBase refuses in a file of ours.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildSeed } from '../../fixtures/seed.js';
import type { LinkRecord, MockData } from '../../src/core/model.js';
import { readBase, writeBase } from '../../src/store/file/base-file.js';
import { fixtures, TEST_SEED } from '../helpers/test-app.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'slm-base-'));
  file = join(dir, 'db.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The seed with `count` links more, enough for several batches of the chunked writer. */
function withLinks(count: number): MockData {
  const data = buildSeed(TEST_SEED, fixtures);
  const template = [...data.links.values()][0] as LinkRecord;
  for (let i = 0; i < count; i += 1) data.links.set(`lnk_b${i}`, { ...template, id: `lnk_b${i}`, slug: `b${i}` });
  return data;
}

describe('writeBase', () => {
  it('stops between batches once its signal is aborted: the old base stays whole, and no temporary file is left', async () => {
    await writeBase(file, `${file}.compacting`, { data: buildSeed(TEST_SEED, fixtures), generation: 1 }, [...buildSeed(TEST_SEED, fixtures).links.keys()]);
    const before = readFileSync(file);
    const data = withLinks(5_000);
    const controller = new AbortController();
    // The deadline passes while the writer is in its second batch of links.
    function* idsThenAbort(): Generator<string> {
      let taken = 0;
      for (const id of [...data.links.keys()]) {
        if ((taken += 1) === 1_500) controller.abort(new Error('time is up'));
        yield id;
      }
    }
    await expect(writeBase(file, `${file}.compacting`, { data, generation: 1 }, idsThenAbort(), controller.signal)).rejects.toThrow('time is up');
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(readdirSync(dir)).toEqual(['db.json']);
  });
});

describe('readBase', () => {
  it.each([
    ['of a newer format', '{"kind": "shortlink-mock-db", "formatVersion": 3, "tags": {}, "links": {}}', 'its formatVersion is 3; this shortlink-mock reads 1 and 2'],
    ['without links', '{"kind": "shortlink-mock-db", "formatVersion": 2, "tags": {}}', 'its tags or links are missing'],
    ['with a generation that is not a whole number', '{"kind": "shortlink-mock-db", "formatVersion": 2, "generation": -1}', 'its generation is -1'],
  ])('refuses a file of ours %s, saying why', async (_what, text, message) => {
    writeFileSync(file, text);
    await expect(readBase(file)).rejects.toThrow(message);
  });

  it('reads back text of ASCII only and text that is not (a title in UTF-8), character for character', async () => {
    const data = withLinks(1_500);
    const link = [...data.links.values()][1] as LinkRecord;
    await writeBase(file, `${file}.replacing`, { data, generation: 1 }, [...data.links.keys()]);
    expect((await readBase(file))?.data).toEqual(data);
    link.title = 'Café 🚀 — naïve';
    await writeBase(file, `${file}.replacing`, { data, generation: 1 }, [...data.links.keys()]);
    expect((await readBase(file))?.data.links.get(link.id)?.title).toBe('Café 🚀 — naïve');
    expect((await readBase(file))?.data).toEqual(data);
  });

  it('reads a format-1 file as the current format, and says which format the file is in', async () => {
    const { formatVersion: _current, ...records } = buildSeed(TEST_SEED, fixtures);
    writeFileSync(file, JSON.stringify({ formatVersion: 1, ...records }));
    const base = await readBase(file);
    expect(base).toMatchObject({ format: 1, generation: 0, data: { formatVersion: 2 } });
  });
});
