// An append that writes part of its batch and then fails (a disk that fills up mid-write): the
// half-written lines must not stay in the middle of the change log, where the next append that
// succeeds would glue its first line to them and make the log unreadable at the next open. The
// fault is real bytes on disk: the first part of the batch is written through the same handle,
// then the write fails with ENOSPC, as a full disk fails it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildSeed } from '../../fixtures/seed.js';
import type { Change } from '../../src/core/changes.js';
import type { LinkRecord, MockData } from '../../src/core/model.js';
import { LogFileStore } from '../../src/store/file/log-file-store.js';
import { fixtures, TEST_SEED } from '../helpers/test-app.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'slm-torn-'));
  file = join(dir, 'db.json');
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const store = () => new LogFileStore(file, { durable: true, compactAfterBytes: 1 << 30 });
const aLink = (data: MockData, id: string): LinkRecord => ({ ...(Object.values(data.links)[0] as LinkRecord), id, slug: id });

async function fileHandlePrototype(): Promise<FileHandle> {
  const handle = await open(join(dir, 'probe'), 'w');
  await handle.close();
  rmSync(join(dir, 'probe'));
  return Object.getPrototypeOf(handle) as FileHandle;
}

/** The next write of the change log writes the first half of its bytes, then fails as a full disk does; later ones are real. */
async function failNextAppendHalfway(): Promise<void> {
  const prototype = await fileHandlePrototype();
  const write = prototype.write as (this: FileHandle, buffer: Uint8Array) => Promise<{ bytesWritten: number }>;
  vi.spyOn(prototype, 'write').mockImplementationOnce(async function (this: FileHandle, buffer: unknown) {
    const bytes = buffer as Uint8Array;
    await write.call(this, bytes.subarray(0, Math.floor(bytes.length / 2)));
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  });
}

describe('an append that writes part of its batch, then fails (ENOSPC)', () => {
  it('is cut back: the next append succeeds, and a reopen finds every acknowledged change and no torn line', async () => {
    const s = store();
    await s.open();
    const data = buildSeed(TEST_SEED, fixtures);
    await s.write([{ op: 'replace', data }]);
    const acknowledged = aLink(data, 'lnk_before');
    await s.write([{ op: 'put-link', link: acknowledged }]);

    await failNextAppendHalfway();
    const refused: Change[] = [1, 2, 3].map((n) => ({ op: 'put-link', link: aLink(data, `lnk_refused_${n}`) }));
    await expect(s.write(refused)).rejects.toThrow(/ENOSPC/);
    const after = aLink(data, 'lnk_after');
    await s.write([{ op: 'put-link', link: after }]);

    // Every line of the log is whole (the generation line, then one change a line).
    const lines = readFileSync(`${file}.changes`, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    for (const line of lines) expect(() => JSON.parse(line), line.slice(0, 80)).not.toThrow();

    const reopened = (await store().open()) as MockData;
    expect(reopened.links['lnk_before']).toEqual(acknowledged);
    expect(reopened.links['lnk_after']).toEqual(after);
    expect(Object.keys(reopened.links).filter((id) => id.startsWith('lnk_refused_'))).toEqual([]);
    await s.close();
  });
});
