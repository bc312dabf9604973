// An append that writes part of its batch and then fails (a disk that fills up mid-write): the
// half-written lines must not stay in the middle of the change log, where the next append that
// succeeds would glue its first line to them and make the log unreadable at the next open. The
// fault is real bytes on disk: the first part of the batch is written through the same descriptor,
// then the write fails with ENOSPC, as a full disk fails it.
import fs, { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
const aLink = (data: MockData, id: string): LinkRecord => ({ ...([...data.links.values()][0] as LinkRecord), id, slug: id });

/**
 * The next write of the change log writes the first half of its bytes, then fails as a full disk
 * does; later ones are real. The log is written through `fs.write` on its descriptor (src/store/file/fd-append.ts).
 */
function failNextAppendHalfway(): void {
  const write = fs.write;
  type Written = (error: NodeJS.ErrnoException | null, written: number, buffer: Uint8Array) => void;
  vi.spyOn(fs, 'write').mockImplementationOnce(((fd: number, bytes: Uint8Array, offset: number, length: number, position: number | null, done: Written) => {
    write(fd, bytes, offset, Math.floor(length / 2), position, (error) => {
      done(error ?? Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }), 0, bytes);
    });
  }) as unknown as typeof fs.write);
}

describe('an append that writes part of its batch, then fails (ENOSPC)', () => {
  it('is cut back: the next append succeeds, and a reopen finds every acknowledged change and no torn line', async () => {
    const s = store();
    await s.open();
    const data = buildSeed(TEST_SEED, fixtures);
    await s.write([{ op: 'replace', data }]);
    const acknowledged = aLink(data, 'lnk_before');
    await s.write([{ op: 'put-link', link: acknowledged }]);

    failNextAppendHalfway();
    const refused: Change[] = [1, 2, 3].map((n) => ({ op: 'put-link', link: aLink(data, `lnk_refused_${n}`) }));
    await expect(s.write(refused)).rejects.toThrow(/ENOSPC/);
    const after = aLink(data, 'lnk_after');
    await s.write([{ op: 'put-link', link: after }]);

    // Every line of the log is whole (the generation line, then one change a line).
    const lines = readFileSync(`${file}.changes`, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    for (const line of lines) expect(() => JSON.parse(line), line.slice(0, 80)).not.toThrow();

    const reopened = (await store().open()) as MockData;
    expect(reopened.links.get('lnk_before')).toEqual(acknowledged);
    expect(reopened.links.get('lnk_after')).toEqual(after);
    expect([...reopened.links.keys()].filter((id) => id.startsWith('lnk_refused_'))).toEqual([]);
    await s.close();
  });
});
