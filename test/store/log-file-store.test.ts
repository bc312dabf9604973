// The lowdb file with its change log: replay, torn lines, corruption, compaction off the hot path
// (also with writes arriving while it runs), and recovery from a compaction cut short.
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildSeed } from '../../fixtures/seed.js';
import { applyChange, type Change } from '../../src/core/changes.js';
import type { LinkRecord, MockData } from '../../src/core/model.js';
import { LogFileStore } from '../../src/store/file/log-file-store.js';
import { fixtures, TEST_SEED } from '../helpers/test-app.js';
import { promisesMadeBy } from '../helpers/promises-made-by.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'slm-log-'));
  file = join(dir, 'db.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const store = (compactAfterBytes = 1 << 30) => new LogFileStore(file, { durable: true, compactAfterBytes });
const seed = (): MockData => buildSeed(TEST_SEED, fixtures);
const aLink = (data: MockData, id: string): LinkRecord => ({ ...([...data.links.values()][0] as LinkRecord), id, slug: id });
const reopen = async (): Promise<MockData> => (await store().open()) as MockData;
/** Another db in the same directory: the base file and its log as they are now. */
function copyOfDb(): string {
  const other = join(dir, 'other.json');
  writeFileSync(other, readFileSync(file));
  writeFileSync(`${other}.changes`, readFileSync(`${file}.changes`));
  return other;
}
/** The base file read on its own, as a user opening it would, without the store's fields. */
function baseAlone(): MockData {
  const { kind, generation, ...data } = JSON.parse(readFileSync(file, 'utf8')) as MockData & { kind: string; generation: number };
  expect({ kind, generation: typeof generation }).toEqual({ kind: 'shortlink-mock-db', generation: 'number' });
  return data;
}

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
    data.links.set(link.id, link);
    await s.write([{ op: 'put-link', link }]);
    const first = [...data.links.keys()][0] as string;
    data.links.delete(first);
    await s.write([{ op: 'delete-link', id: first }]);
    // The generation line of the seeded base, then one line per change.
    expect(readFileSync(`${file}.changes`, 'utf8').trim().split('\n')).toEqual([`{"generation":1}`, expect.stringContaining('put-link'), expect.stringContaining('delete-link')]);
    expect(await reopen()).toEqual(data);
    await s.close();
  });

  it('cuts off a torn last line (a crash mid-append) instead of applying or refusing it', async () => {
    const { s, data } = await seeded();
    const link = aLink(data, 'lnk_kept');
    await s.write([{ op: 'put-link', link }]);
    // Read as a crash leaves it: the store still running, its log not folded into the base.
    appendFileSync(`${file}.changes`, '{"op":"put-link","link":{"id":"lnk_torn"');
    const reopened = await reopen();
    expect(reopened.links.get('lnk_kept')).toBeDefined();
    expect(reopened.links.get('lnk_torn')).toBeUndefined();
    expect(readFileSync(`${file}.changes`, 'utf8').endsWith('\n')).toBe(true);
    data.links.set(link.id, link);
    await s.close();
  });

  it('refuses a corrupt line in the middle, naming the file and the line', async () => {
    const { s } = await seeded();
    await s.close();
    writeFileSync(`${file}.changes`, '{"generation":1}\n{"op":"delete-link","id":"x"}\nnot json\n{"op":"delete-link","id":"y"}\n');
    await expect(reopen()).rejects.toThrow(/db\.json\.changes line 3/);
  });

  it('compacts past its threshold, and close folds what came after: the base file alone holds everything, no log is left', async () => {
    const { s, data } = await seeded(2_000);
    const changes: Change[] = [];
    for (let i = 0; i < 40; i += 1) {
      const link = aLink(data, `lnk_c${i}`);
      data.links.set(link.id, link);
      changes.push({ op: 'put-link', link });
      await s.write([changes[i] as Change]);
    }
    await s.close();
    expect(readdirSync(dir)).toEqual(['db.json']);
    expect(baseAlone()).toEqual(data);
    expect(await reopen()).toEqual(data);
  });

  it('with a log share, compacts only once the log passes that share of the base (a compaction rewrites the whole base)', async () => {
    const s = new LogFileStore(file, { durable: true, compactAfterBytes: 1, compactLogShare: 0.5 });
    expect(await s.open()).toBeNull();
    const data = seed();
    await s.write([{ op: 'replace', data }]);
    const half = statSync(file).size / 2;
    const logLines = (): number => readFileSync(`${file}.changes`, 'utf8').trim().split('\n').length;
    // A compaction sets the log aside in the write queue, ahead of the next write: a log holding
    // every line written (the generation's, then one per change) was never set aside.
    let written = 0;
    const put = async (): Promise<void> => {
      const link = aLink(data, `lnk_s${written}`);
      data.links.set(link.id, link);
      await s.write([{ op: 'put-link', link }]);
      written += 1;
    };
    const logBytes = (): number => statSync(`${file}.changes`).size;
    await put();
    // Short of half the base by more than a line: no compaction yet (a threshold of 1 byte alone compacts at once).
    for (let i = 0; i < 10_000 && logBytes() < half - 2_000; i += 1) await put();
    expect({ written, lines: logLines() }).toEqual({ written, lines: written + 1 });
    for (let i = 0; i < 10_000 && logBytes() <= half; i += 1) await put();
    await put(); // past the share: the compaction it started set the log aside before this write
    expect(logLines()).toBeLessThan(written + 1);
    await s.close();
    expect(await reopen()).toEqual(data);
  });

  it('keeps writes that arrive while a compaction runs', async () => {
    const { s, data } = await seeded(1);
    const writes = Array.from({ length: 200 }, (_, i) => {
      const link = aLink(data, `lnk_w${i}`);
      data.links.set(link.id, link);
      return s.write([{ op: 'put-link', link }]);
    });
    await Promise.all(writes);
    await s.close();
    expect(await reopen()).toEqual(data);
  });

  it('a replace queued behind the write that makes a compaction due: both finish, and the compaction is dropped for the new base', async () => {
    const { s, data } = await seeded(1);
    const link = aLink(data, 'lnk_due');
    data.links.set(link.id, link);
    // Queued together: the put's append makes the compaction due while the replace waits its turn.
    const put = s.write([{ op: 'put-link', link }]);
    const fresh = seed();
    const replace = s.write([{ op: 'replace', data: fresh }]);
    await Promise.all([put, replace]);
    const after = aLink(fresh, 'lnk_after');
    fresh.links.set(after.id, after);
    await s.write([{ op: 'put-link', link: after }]);
    await s.close();
    expect(await reopen()).toEqual(fresh);
  });

  it('compacts a store of several batches while links are created and deleted between its batches', async () => {
    const { s, data } = await seeded(1);
    const bulk = Array.from({ length: 2_500 }, (_, i) => aLink(data, `lnk_b${i}`));
    for (const link of bulk) data.links.set(link.id, link);
    await s.write(bulk.map((link): Change => ({ op: 'put-link', link }))); // starts a compaction
    const during: Promise<void>[] = [];
    for (let i = 0; i < 2_500; i += 50) {
      const gone = `lnk_b${i}`;
      data.links.delete(gone);
      const link = aLink(data, `lnk_d${i}`);
      data.links.set(link.id, link);
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
    expect((await reopen()).links.get('lnk_recovered')?.clickCount).toBe(99);
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
    const legacyLog = `${JSON.stringify({ op: 'put-link', link })}\n`;
    writeFileSync(file, JSON.stringify({ ...data, formatVersion: 1 }, null, 2));
    writeFileSync(`${file}.changes`, legacyLog);
    data.links.set(link.id, link);
    const s = store();
    expect(await s.open()).toEqual(data);
    const later = aLink(data, 'lnk_later');
    data.links.set(later.id, later);
    await s.write([{ op: 'put-link', link: later }]);
    expect(await reopen()).toEqual(data);
    // A replace gives the base a generation; the old log, if a crash left it, would not be replayed.
    const fresh = seed();
    await s.write([{ op: 'replace', data: fresh }]);
    await s.close();
    expect((JSON.parse(readFileSync(file, 'utf8')) as { generation: number }).generation).toBe(1);
    writeFileSync(`${file}.changes`, legacyLog);
    expect(await reopen()).toEqual(fresh);
  });

  it('folds the logs into the base at close: the base file alone holds every change, no log is left', async () => {
    const { s, data } = await seeded();
    for (let i = 0; i < 5; i += 1) {
      const link = aLink(data, `lnk_f${i}`);
      data.links.set(link.id, link);
      await s.write([{ op: 'put-link', link }]);
    }
    expect(readdirSync(dir).sort()).toEqual(['db.json', 'db.json.changes']);
    expect(baseAlone()).not.toEqual(data);
    await s.close();
    expect(readdirSync(dir)).toEqual(['db.json']);
    expect(baseAlone()).toEqual(data);
  });

  it('also folds a log set aside by a compaction that failed, even with no write since the open', async () => {
    const { s, data } = await seeded();
    await s.close();
    const link = aLink(data, 'lnk_set_aside');
    writeFileSync(`${file}.changes.old`, `{"generation":1}\n${JSON.stringify({ op: 'put-link', link })}\n`);
    data.links.set(link.id, link);
    const again = store();
    expect(await again.open()).toEqual(data);
    await again.close();
    expect(readdirSync(dir)).toEqual(['db.json']);
    expect(baseAlone()).toEqual(data);
  });

  it('at close, never sets the current log aside into a stale one (of another generation): a fold that fails keeps its changes', async () => {
    const { s, data } = await seeded();
    const link = aLink(data, 'lnk_current');
    data.links.set(link.id, link);
    await s.write([{ op: 'put-link', link }]);
    // The files of a crash: the base and its log, and beside them a set-aside log of an older generation.
    const unfolded = copyOfDb();
    await s.close();
    writeFileSync(`${unfolded}.changes.old`, `{"generation":0}\n${JSON.stringify({ op: 'delete-link', id: link.id })}\n`);
    const errors: Error[] = [];
    const again = new LogFileStore(unfolded, { durable: true, compactAfterBytes: 1 << 30, onError: (error) => errors.push(error) });
    await again.open();
    // The fold's write fails once the log is set aside: a directory where its temporary file goes.
    mkdirSync(join(`${unfolded}.compacting`, 'blocker'), { recursive: true });
    await again.close();
    expect(errors.map((error) => (error as NodeJS.ErrnoException).code)).toEqual(['EISDIR']);
    expect((await new LogFileStore(unfolded, { durable: true, compactAfterBytes: 1 << 30 }).open())?.links.get(link.id)).toEqual(link);
  });

  it('with no time to compact at close: says so once, and the logs keep every change', async () => {
    const errors: Error[] = [];
    const s = new LogFileStore(file, { durable: true, compactAfterBytes: 1 << 30, closeCompactionMs: 0, onError: (error) => errors.push(error) });
    await s.open();
    const data = seed();
    await s.write([{ op: 'replace', data }]);
    const base = readFileSync(file);
    const link = aLink(data, 'lnk_unfolded');
    data.links.set(link.id, link);
    await s.write([{ op: 'put-link', link }]);
    await s.close();
    expect(errors.map((error) => error.message)).toEqual(['the compaction at close did not finish within 0 ms']);
    expect(readFileSync(file).equals(base), 'the base as it was').toBe(true);
    expect(await reopen()).toEqual(data);
  });

  // The links compacted are the table's, read lazily: the base's read record by record (db-records.ts), then the logs' replay.
  it('compacts exactly the links of the base read and of the replayed logs', async () => {
    // No time to fold at close: the base stays the seed's, and the next open replays the log.
    const s = new LogFileStore(file, { durable: true, compactAfterBytes: 1 << 30, closeCompactionMs: 0 });
    await s.open();
    const data = seed();
    await s.write([{ op: 'replace', data }]);
    const gone = [...data.links.keys()][0] as string;
    // As the store in memory does (local-link-store.ts): the live data changes, the log records it.
    const changes: Change[] = [{ op: 'delete-link', id: gone }, { op: 'put-link', link: aLink(data, 'lnk_added') }];
    for (const change of changes) applyChange(data, change);
    await s.write(changes);
    await s.close();
    const again = store();
    const opened = (await again.open()) as MockData;
    const expected = [...opened.links.keys()];
    expect(expected).toContain('lnk_added');
    expect(expected).not.toContain(gone);
    const later: Change = { op: 'put-link', link: aLink(data, 'lnk_later') };
    applyChange(opened, later);
    await again.write([later]);
    await again.close();
    expect(Object.keys(baseAlone().links)).toEqual([...expected, 'lnk_later']);
  });
  // The compacted base lists the links in the table's own order, which a restart reads back: an
  // updated link keeps its place, in memory and in the file, as in a JSON object (model.ts LinkTable).
  it('compacts the links in the order the data holds them: an updated link keeps its place across a restart', async () => {
    const s = new LogFileStore(file, { durable: true, compactAfterBytes: 1 << 30, closeCompactionMs: 60_000 });
    await s.open();
    const data = seed();
    await s.write([{ op: 'replace', data }]);
    const [first, second] = [...data.links.values()] as [LinkRecord, LinkRecord];
    const changes: Change[] = [{ op: 'put-link', link: { ...first, destinationUrl: 'https://example.com/updated' } }, { op: 'delete-link', id: second.id }];
    for (const change of changes) applyChange(data, change);
    await s.write(changes);
    await s.close();
    const order = [...data.links.keys()];
    expect(order[0]).toBe(first.id);
    expect(Object.keys(baseAlone().links)).toEqual(order);
    const again = store();
    expect([...((await again.open()) as MockData).links.keys()]).toEqual(order);
    await again.close();
  });
});

describe('a db of format 1 (before the marker)', () => {
  /** A format-1 db as the last build of that format left it: a generation in the base and the log. */
  function format1Db(): { data: MockData; files: Record<string, Buffer> } {
    const data = seed();
    const link = aLink(data, 'lnk_format1');
    const { formatVersion: _current, ...records } = data;
    writeFileSync(file, JSON.stringify({ formatVersion: 1, generation: 3, ...records }, null, 2));
    writeFileSync(`${file}.changes`, `{"generation":3}\n${JSON.stringify({ op: 'put-link', link })}\n`);
    data.links.set(link.id, link);
    return { data, files: { base: readFileSync(file), log: readFileSync(`${file}.changes`) } };
  }

  it('opens as the current format, and a session that writes nothing leaves its files byte-identical', async () => {
    const { data, files } = format1Db();
    const s = store();
    expect(await s.open()).toEqual(data);
    await s.close();
    expect(readFileSync(file).equals(files['base'] as Buffer)).toBe(true);
    expect(readFileSync(`${file}.changes`).equals(files['log'] as Buffer)).toBe(true);
  });

  it('is rewritten in the current format before the first change lands, so that a format-1 build refuses it', async () => {
    const written = format1Db().data;
    const s = store();
    // The store's live data (what it compacts) is the object open returns.
    const data = (await s.open()) as MockData;
    expect(data).toEqual(written);
    const later = aLink(data, 'lnk_after_upgrade');
    data.links.set(later.id, later);
    await s.write([{ op: 'put-link', link: later }]);
    // What a format-1 build checks first: the formatVersion.
    const head = JSON.parse(readFileSync(file, 'utf8')) as { kind: string; formatVersion: number; generation: number };
    expect([head.kind, head.formatVersion, head.generation]).toEqual(['shortlink-mock-db', 2, 3]);
    expect(readFileSync(`${file}.changes`, 'utf8').split('\n')[0]).toBe('{"generation":3}');
    expect(await reopen()).toEqual(data);
    await s.close();
    expect(baseAlone()).toEqual(data);
  });
});

describe('LogFileStore, a write to the open log', () => {
  // The usual write (bench/create-cost.md, eighth pass): apply and the append are not async
  // functions, so their promises are the queue's two, the fd write's and one reaction each (9
  // here, with two async functions' promises and resumptions, before); the lines are the same.
  it('makes seven promises, this test\'s await among them, and appends the same line', async () => {
    const { s, data } = await seeded();
    await s.write([{ op: 'put-link', link: aLink(data, 'lnk_first') }]);
    const link = aLink(data, 'lnk_counted');
    const { promises } = await promisesMadeBy(() => s.write([{ op: 'put-link', link }]));
    expect(promises).toBe(7);
    expect(readFileSync(`${file}.changes`, 'utf8').endsWith(`\n${JSON.stringify({ op: 'put-link', link })}\n`)).toBe(true);
    expect((await reopen()).links.get('lnk_counted')).toEqual(link);
  });
});
