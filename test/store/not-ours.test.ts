// A db path that holds something else than a shortlink-mock db (another tool's JSON, a text file, a
// directory) is neither read nor overwritten, not even with --reset: one message naming it, and the
// directory exactly as it was (no temporary file). An absent or empty file, or a db of ours (even
// cut short, even of format 1), is re-seeded by a reset.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildSeed } from '../../fixtures/seed.js';
import { PACKAGE_ROOT } from '../../src/contract/package-files.js';
import { requireOurs } from '../../src/store/file/db-kind.js';
import { LogFileStore } from '../../src/store/file/log-file-store.js';
import { openData } from '../../src/store/file/open-data.js';
import { fixtures, TEST_SEED } from '../helpers/test-app.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'slm-not-ours-'));
  file = join(dir, 'db.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const open = async (reset: boolean): Promise<{ seeded: boolean }> => {
  const store = new LogFileStore(file, { durable: true, compactAfterBytes: 1 << 30 });
  try {
    return await openData(store, async () => buildSeed(TEST_SEED, fixtures), reset);
  } finally {
    await store.close();
  }
};

/** Every entry of the directory, a file's bytes or '<dir>'. */
const snapshot = (): Record<string, string> =>
  Object.fromEntries(readdirSync(dir).sort().map((name) => [name, statSync(join(dir, name)).isDirectory() ? '<dir>' : readFileSync(join(dir, name), 'base64')]));

const seededDb = (): string => JSON.stringify(buildSeed(TEST_SEED, fixtures), null, 2);
/** A db as the writers lay it out: the marker first. */
const markedDb = (): string => JSON.stringify({ kind: 'shortlink-mock-db', ...buildSeed(TEST_SEED, fixtures) }, null, 2);
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

const notOurs: [string, () => void, string][] = [
  ["the project's package.json", () => writeFileSync(file, readFileSync(join(PACKAGE_ROOT, 'package.json'))), 'a JSON object without "kind": "shortlink-mock-db"'],
  ["another tool's JSON with a kind", () => writeFileSync(file, '{"kind": "other-tool", "formatVersion": 2}'), 'its "kind" is not "shortlink-mock-db"'],
  ['a JSON array', () => writeFileSync(file, '[1, 2, 3]'), 'it is JSON, but not an object'],
  ['JSON null', () => writeFileSync(file, 'null'), 'it is JSON, but not an object'],
  ['formatVersion 1 without the fields of a db', () => writeFileSync(file, '{"formatVersion": 1, "name": "x"}'), 'a JSON object without "kind"'],
  ['a text file', () => writeFileSync(file, '# notes\nnothing to do with links\n'), 'it is not JSON'],
  ['binary bytes', () => writeFileSync(file, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0xff, 0xfe, 0x0a])), 'it is not JSON'],
  ['a directory', () => mkdirSync(join(file, 'inside'), { recursive: true }), 'it is a directory'],
];

describe('a db path that is not a shortlink-mock db', () => {
  it.each(notOurs)('%s: refused with and without reset, naming it, and nothing in the directory changes', async (_what, arrange, why) => {
    arrange();
    const before = snapshot();
    for (const reset of [false, true]) {
      await expect(open(reset)).rejects.toThrow(`db ${file}: this is not a shortlink-mock db file (${why}`);
      expect(snapshot(), `after a start with reset ${reset}`).toEqual(before);
    }
  });

  it('says so in one line that does not offer --reset as the way out', async () => {
    writeFileSync(file, readFileSync(join(PACKAGE_ROOT, 'package.json')));
    const message = await open(false).then(
      () => '',
      (error: Error) => error.message,
    );
    expect(message).toMatch(new RegExp(`^db ${escape(file)}: this is not a shortlink-mock db file \\(.*\\); it is neither read nor overwritten, not even with --reset: give another db path$`));
  });
});

const reseedable: [string, () => void][] = [
  ['no file', () => undefined],
  ['an empty file', () => writeFileSync(file, '')],
  ['a file of white space', () => writeFileSync(file, '\n  \n')],
  ['a db cut short', () => writeFileSync(file, '{\n  "kind": "shortlink-mock-db",\n  "formatVersion": 2,\n  "gener')],
  ['a format-1 db cut short', () => writeFileSync(file, seededDb().replace('"formatVersion": 2', '"formatVersion": 1').slice(0, 300))],
  ['a whole format-1 db', () => writeFileSync(file, seededDb().replace('"formatVersion": 2', '"formatVersion": 1'))],
  ['a db of a newer format', () => writeFileSync(file, '{"kind": "shortlink-mock-db", "formatVersion": 99}')],
];

describe('a reset', () => {
  it.each(reseedable)('re-seeds %s', async (_what, arrange) => {
    arrange();
    await expect(open(true)).resolves.toMatchObject({ seeded: true });
    expect(readdirSync(dir)).toEqual(['db.json']);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ kind: 'shortlink-mock-db', formatVersion: 2 });
  });
});

describe('the check before a reset overwrites a file', () => {
  it('takes a file that starts with our marker as ours from its start alone: the rest is not parsed', async () => {
    writeFileSync(file, markedDb());
    const parse = vi.spyOn(JSON, 'parse');
    try {
      await requireOurs(file);
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });

  it('reads the whole file when the marker is not in its start: whitespace past the start, then our db, is ours; another tool\'s JSON is not', async () => {
    writeFileSync(file, `${' '.repeat(5000)}${markedDb()}`);
    await expect(requireOurs(file)).resolves.toBeUndefined();
    writeFileSync(file, `${' '.repeat(5000)}{"kind": "other-tool"}`);
    await expect(requireOurs(file)).rejects.toThrow('its "kind" is not "shortlink-mock-db"');
  });
});
