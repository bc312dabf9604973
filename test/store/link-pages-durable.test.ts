// Issue 40: the index per account of the file store is rebuilt from the data at every start, so it
// survives what the data survives: a restart (the base file with its change log replayed),
// compaction (here after every few hundred bytes of log), a snapshot taken and restored, a reset.
// Each time, every page is what a sort of the account's links shows. (A kill -9 mid-write:
// test/process/link-pages-crash.test.ts.)
import { describe, expect, it } from 'vitest';
import type { StoreOp } from '../../src/core/changes.js';
import type { LinkRecord, MockData } from '../../src/core/model.js';
import { LocalLinkStore } from '../../src/store/file/local-link-store.js';
import { LogFileStore } from '../../src/store/file/log-file-store.js';
import { allPages, newestFirst, pageLink, pageSeed, TIMES } from '../helpers/link-page-cases.js';
import { useFileDb } from '../helpers/file-db.js';

const db = useFileDb('slm-link-pages-');

/** The store as a start opens it: the file's data (seeded when empty), every change written through the log. */
async function start(compactAfterBytes: number): Promise<{ store: LocalLinkStore; files: LogFileStore }> {
  const files = new LogFileStore(db.file, { durable: true, compactAfterBytes });
  db.running.push(files);
  let data = (await files.open()) as MockData | null;
  if (!data) {
    data = pageSeed();
    await files.write([{ op: 'replace', data }]);
  }
  return { store: new LocalLinkStore(data, (ops: StoreOp[]) => files.write(ops), db.file), files };
}

const accountOf = (store: LocalLinkStore): string => store.state.accounts().find((account) => account.apiKey === 'demo-key')!.id;
const expectedPages = async (store: LocalLinkStore): Promise<string[]> => newestFirst(await store.linksOf(accountOf(store))).map((link) => link.id);

describe("the file store's page order", () => {
  it('is the same after restarts with compactions between them, creates out of time order and in one millisecond, and deletes', async () => {
    let { store, files } = await start(512);
    const data = pageSeed();
    for (let i = 0; i < 240; i += 1) {
      const link = pageLink(data, TIMES[(i * 5) % TIMES.length] as string, `lnk_d${String((i * 37) % 240).padStart(3, '0')}`);
      expect(await store.createLink({ link, linkLimit: 1_000_000, newTags: [] })).toBe('stored');
      if (i % 4 === 3) expect(await store.deleteLink(store.linkById(`lnk_d${String(((i - 2) * 37) % 240).padStart(3, '0')}`) as LinkRecord)).toBe(true);
    }
    const expected = await expectedPages(store);
    expect(expected.length).toBeGreaterThan(180);
    expect(await allPages(store, accountOf(store), 11)).toEqual(expected);
    for (let restart = 0; restart < 2; restart += 1) {
      await files.close();
      ({ store, files } = await start(512));
      expect(await allPages(store, accountOf(store), 11)).toEqual(expected);
    }
  });

  it('follows a snapshot restore and a reset, and keeps them over a restart', async () => {
    let { store, files } = await start(1 << 30);
    const data = pageSeed();
    for (let i = 0; i < 30; i += 1) await store.createLink({ link: pageLink(data, TIMES[i % 2] as string, `lnk_s${i}`), linkLimit: 1_000_000, newTags: [] });
    const saved = await store.snapshot();
    const atSnapshot = await allPages(store, accountOf(store), 4);
    for (let i = 0; i < 10; i += 1) await store.createLink({ link: pageLink(data, TIMES[3] as string, `lnk_t${i}`), linkLimit: 1_000_000, newTags: [] });
    await store.deleteLink(store.linkById('lnk_s3') as LinkRecord);
    await store.replaceAll(saved);
    expect(await allPages(store, accountOf(store), 4)).toEqual(atSnapshot);
    await store.createLink({ link: pageLink(data, TIMES[3] as string, 'lnk_after'), linkLimit: 1_000_000, newTags: [] });
    expect(await allPages(store, accountOf(store), 4)).toEqual(['lnk_after', ...atSnapshot]);

    await store.replaceAll(pageSeed());
    const seededPages = await expectedPages(store);
    expect(await allPages(store, accountOf(store), 4)).toEqual(seededPages);
    await files.close();
    ({ store, files } = await start(1 << 30));
    expect(await allPages(store, accountOf(store), 4)).toEqual(seededPages);
  });
});
