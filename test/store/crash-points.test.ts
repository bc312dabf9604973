// Every point where a crash can stop a reset/restore (or a compaction), reproduced exactly: the
// files are the ones the real store writes, arranged as that crash leaves them (a new base beside
// the old state's logs, a half-written temporary file, ...). Opening them must give the old state
// or the new one, never a mix, and the first write after it must clear what the crash left behind.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildSeed } from '../../fixtures/seed.js';
import type { Change } from '../../src/core/changes.js';
import type { LinkRecord, MockData, TagRecord } from '../../src/core/model.js';
import { LogFileStore } from '../../src/store/file/log-file-store.js';
import { fixtures, TEST_SEED } from '../helpers/test-app.js';
import { copyData } from '../../src/core/link-table.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const newDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'slm-crash-points-'));
  dirs.push(dir);
  return dir;
};

type Files = Record<string, Buffer>;
const BASE = 'db.json';
const LOG = 'db.json.changes';
const OLD_LOG = 'db.json.changes.old';

const storeAt = (dir: string, compactAfterBytes = 1 << 30) => new LogFileStore(join(dir, BASE), { durable: true, compactAfterBytes });
const filesOf = (dir: string): Files => Object.fromEntries(readdirSync(dir).sort().map((name) => [name, readFileSync(join(dir, name))]));
const opened = async (dir: string): Promise<MockData> => (await storeAt(dir).open()) as MockData;
function dirWith(files: Files): string {
  const dir = newDir();
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

/** Changes of the old state: a tag, a link naming it, and a deleted seeded link. */
function oldChanges(data: MockData, label: string): Change[] {
  const template = [...data.links.values()][0] as LinkRecord;
  const tag: TagRecord = { id: `tag_${label}`, accountId: template.accountId, name: label };
  const link: LinkRecord = { ...template, id: `lnk_${label}`, slug: label, tagIds: [tag.id] };
  const gone = [...data.links.keys()][1] as string;
  return [{ op: 'put-tag', tag }, { op: 'put-link', link }, { op: 'delete-link', id: gone }];
}

interface States {
  oldFiles: Files;
  oldState: MockData;
  newFiles: Files;
  newState: MockData;
}

/**
 * Opens a store on `files`, runs `act` with its live data, and returns the files as they are then,
 * the store still running: what a crash at that moment leaves (a clean close would fold the logs).
 */
async function whileRunning(files: Files, act: (store: LogFileStore, data: MockData | null) => Promise<void>): Promise<Files> {
  const dir = dirWith(files);
  const store = storeAt(dir);
  await act(store, await store.open());
  const running = filesOf(dir);
  await store.close();
  return running;
}

/** Applies `changes` to the live data as the service does, and returns them for the store. */
function applying(data: MockData | null, changes: Change[]): Change[] {
  for (const change of changes) applyTo(data as MockData, change);
  return changes;
}

/**
 * The old state on disk as a running store leaves it mid-compaction (base, `.changes.old` set
 * aside, `.changes` taking appends), then the same directory after a replace by `next`.
 */
async function states(next: MockData): Promise<States> {
  const seeded = await whileRunning({}, async (store) => {
    const data = buildSeed(TEST_SEED, fixtures);
    await store.write([{ op: 'replace', data }]);
    await store.write(applying(data, oldChanges(data, 'before-rotation')));
  });
  // What the compaction's rotation does: the log set aside.
  const rotated = { [BASE]: seeded[BASE] as Buffer, [OLD_LOG]: seeded[LOG] as Buffer };
  const oldFiles = await whileRunning(rotated, (store, data) => store.write(applying(data, oldChanges(data as MockData, 'after-rotation'))));
  expect(Object.keys(oldFiles)).toEqual([BASE, LOG, OLD_LOG]);
  const oldState = await opened(dirWith(oldFiles));
  const newFiles = await whileRunning(oldFiles, (store) => store.write([{ op: 'replace', data: copyData(next) }]));
  expect(Object.keys(newFiles)).toEqual([BASE]);
  return { oldFiles, oldState, newFiles, newState: next };
}

const half = (content: Buffer | undefined): Buffer => (content as Buffer).subarray(0, Math.floor((content as Buffer).length / 2));

/** The files each crash point of a replace leaves, and which state they hold. */
const replaceCrashPoints: [string, 'old' | 'new', (s: States) => Files][] = [
  ['while the new base is written to its temporary file', 'old', (s) => ({ ...s.oldFiles, 'db.json.replacing': half(s.newFiles[BASE]) })],
  ['after the new base is written, before its rename', 'old', (s) => ({ ...s.oldFiles, 'db.json.replacing': s.newFiles[BASE] as Buffer })],
  ['after the rename, before the old logs are removed', 'new', (s) => ({ ...s.oldFiles, [BASE]: s.newFiles[BASE] as Buffer })],
  ['after .changes is removed, before .changes.old is', 'new', (s) => ({ [BASE]: s.newFiles[BASE] as Buffer, [OLD_LOG]: s.oldFiles[OLD_LOG] as Buffer })],
  ['after both logs are removed', 'new', (s) => s.newFiles],
];

describe.each([
  ['reset', () => buildSeed(TEST_SEED, fixtures)],
  ['restore of another state', () => buildSeed(TEST_SEED + 1, fixtures)],
])('a crash during a %s', (_kind, next) => {
  it.each(replaceCrashPoints)('%s: opens as the %s state, whole', async (_point, expected, arrange) => {
    const s = await states(next());
    expect(s.oldState).not.toEqual(s.newState);
    const dir = dirWith(arrange(s));
    const state = await opened(dir);
    expect(state).toEqual(expected === 'old' ? s.oldState : s.newState);

    // The first write clears what the crash left (a temporary file, logs of the other state),
    // and goes on from the state that was opened.
    const store = storeAt(dir);
    const data = (await store.open()) as MockData;
    const after = oldChanges(data, 'after-crash');
    await store.write(applying(data, after));
    // The old state keeps its .changes.old (the compaction it was in never ran to its end).
    expect(readdirSync(dir).sort()).toEqual(expected === 'old' ? [BASE, LOG, OLD_LOG] : [BASE, LOG]);
    expect(await opened(dir)).toEqual(applied(state, after));
    // A clean close folds whatever logs there are into the base.
    await store.close();
    expect(readdirSync(dir)).toEqual([BASE]);
    expect(await opened(dir)).toEqual(applied(state, after));
  });
});

describe('a crash during a compaction', () => {
  it('after the compacted base is renamed into place, before the old log is removed: the same state', async () => {
    const s = await states(buildSeed(TEST_SEED, fixtures));
    // The compaction of the old state, run for real to its end on a copy of its files: the write
    // that passes the threshold goes into .changes, which the rotation appends to .changes.old.
    const dir = dirWith(s.oldFiles);
    const store = storeAt(dir, 1);
    const data = (await store.open()) as MockData;
    const during = oldChanges(data, 'during-compaction');
    await store.write(applying(data, during));
    await store.close();
    expect(readdirSync(dir)).toEqual([BASE]);
    // At the crash, .changes.old (both old logs and that write, merged) was still there.
    const lines = Buffer.from(during.map((change) => `${JSON.stringify(change)}\n`).join(''));
    const merged = Buffer.concat([s.oldFiles[OLD_LOG] as Buffer, withoutFirstLine(s.oldFiles[LOG] as Buffer), lines]);
    const crashed = dirWith({ ...filesOf(dir), [OLD_LOG]: merged });
    expect(await opened(crashed)).toEqual(applied(s.oldState, during));
  });

  it('while the compacted file is written: the same state, and the half-written file is removed at the first write', async () => {
    const s = await states(buildSeed(TEST_SEED, fixtures));
    const dir = dirWith({ ...s.oldFiles, 'db.json.compacting': half(s.oldFiles[BASE]) });
    expect(await opened(dir)).toEqual(s.oldState);
    const store = storeAt(dir);
    const data = (await store.open()) as MockData;
    const after = oldChanges(data, 'after-crash');
    await store.write(applying(data, after));
    await store.close();
    expect(existsSync(join(dir, 'db.json.compacting'))).toBe(false);
    expect(await opened(dir)).toEqual(applied(s.oldState, after));
  });
});

describe('a replace that cannot be written', () => {
  it('changes nothing on disk: the old state goes on taking changes in its own log, and a later replace is written whole', async () => {
    const s = await states(buildSeed(TEST_SEED, fixtures));
    const dir = dirWith(s.oldFiles);
    const store = storeAt(dir);
    const live = (await store.open()) as MockData;
    // A directory where the temporary file goes: its write fails (EISDIR), even as root.
    const blocker = join(dir, 'db.json.replacing');
    mkdirSync(blocker);
    const next = buildSeed(TEST_SEED + 1, fixtures);
    await expect(store.write([{ op: 'replace', data: next }])).rejects.toThrow();
    expect(await opened(dir)).toEqual(s.oldState);
    // The caller kept the old state (issue 23, item 2): its next change is written, to the old state's log.
    const change = oldChanges(live, 'after-failed-replace');
    for (const op of change) applyTo(live, op);
    await store.write(change);
    expect(await opened(dir)).toEqual(live);

    rmSync(blocker, { recursive: true });
    await store.write([{ op: 'replace', data: next }]);
    const later = oldChanges(next, 'once-writable');
    for (const op of later) applyTo(next, op);
    await store.write(later);
    expect(await opened(dir)).toEqual(next);
    await store.close();
    expect(await opened(dir)).toEqual(next);
  });
});

function applyTo(data: MockData, change: Change): void {
  if (change.op === 'put-tag') data.tags[change.tag.id] = change.tag;
  if (change.op === 'put-link') data.links.set(change.link.id, change.link);
  if (change.op === 'delete-link') data.links.delete(change.id);
}

function applied(state: MockData, changes: Change[]): MockData {
  const copy = copyData(state);
  for (const change of changes) applyTo(copy, change);
  return copy;
}

function withoutFirstLine(content: Buffer): Buffer {
  return content.subarray(content.indexOf(0x0a) + 1);
}
