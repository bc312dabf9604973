// The start walks the kept data's links once (issue 40): the integrity check and MockState's indexes
// are built in the same walk (src/store/file/checked-state.ts), and the state it builds is the one
// the store serves with, the same as the one MockState's constructor builds.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildSeed } from '../../fixtures/seed.js';
import type { LinkRecord, MockData } from '../../src/core/model.js';
import { MockState } from '../../src/core/state.js';
import { writeBase } from '../../src/store/file/base-file.js';
import { headerLine } from '../../src/store/file/change-log.js';
import { checkedState } from '../../src/store/file/checked-state.js';
import { memoryStore } from '../../src/store/file/data-store.js';
import { LogFileStore } from '../../src/store/file/log-file-store.js';
import { openData } from '../../src/store/file/open-data.js';
import { createTestApp, DEMO, fixtures, TEST_SEED } from '../helpers/test-app.js';
import { copyData } from '../../src/core/link-table.js';

const seed = (): MockData => buildSeed(TEST_SEED, fixtures);

/** `data` whose links count every read of a link by its key. */
function counted(data: MockData): { data: MockData; reads: Map<string, number> } {
  const reads = new Map<string, number>();
  const links = data.links;
  const get = links.get.bind(links);
  links.get = (id: string) => {
    const link = get(id);
    if (link !== undefined) reads.set(id, (reads.get(id) ?? 0) + 1);
    return link;
  };
  return { data, reads };
}

describe('the start on kept data', () => {
  it('reads each link from the data once: the check and the indexes are one walk', async () => {
    const { data, reads } = counted(seed());
    const store = memoryStore();
    await store.write([{ op: 'replace', data }]);
    const app = await createTestApp({ store });
    try {
      const ids = [...data.links.keys()];
      expect(ids.length).toBeGreaterThan(10);
      expect([...new Set(ids.map((id) => reads.get(id) ?? 0))]).toEqual([1]);
      // And the state served is the one built: the demo account's links are all there.
      expect(app.store.linkCount((await app.accountByKey(DEMO))?.id ?? '')).toBe(ids.filter((id) => data.links.get(id)?.accountId === (data.accounts.find((a) => a.apiKey === DEMO)?.id)).length);
    } finally {
      await app.close();
    }
  });

  it('builds the state MockState builds: the same slugs, counts and pages', () => {
    const data = seed();
    const expected = new MockState(copyData(data));
    const checked = checkedState(data, [...data.links.keys()]);
    if (!checked.state) throw new Error(`refused: ${checked.problem.text}`);
    const state = checked.state;
    expect(state.totalLinks()).toBe(expected.totalLinks());
    for (const account of data.accounts) {
      expect(state.linkCount(account)).toBe(expected.linkCount(account));
      const ids = (links: LinkRecord[]) => links.map((link) => link.id);
      expect(ids(state.linkPage(account, undefined, 1000))).toEqual(ids(expected.linkPage(account, undefined, 1000)));
    }
    for (const link of [...data.links.values()]) expect(state.linkAtDomain(link.domainId, link.slug)).toBe(link);
  });

  it('refuses a slug taken twice, naming both links, and builds no state', () => {
    const data = seed();
    const link = [...data.links.values()][0] as LinkRecord;
    data.links.set('lnk_twin', { ...link, id: 'lnk_twin' });
    const checked = checkedState(data, [...data.links.keys()]);
    expect(checked.state).toBeUndefined();
    expect(checked.problem?.text).toBe(`link 'lnk_twin' has slug '${link.slug}' of link '${link.id}' in domain '${link.domainId}'`);
  });

  // The links of the same tags share one list, checked once per account (src/store/file/integrity.ts).
  it("refuses a link naming another account's tags in a list links of that account have shared before", () => {
    const data = seed();
    const tagged = [...data.links.values()].find((link) => link.tagIds.length > 0) as LinkRecord;
    const other = data.accounts.find((account) => account.id !== tagged.accountId) as MockData['accounts'][number];
    data.links.set('lnk_same_tags', { ...tagged, id: 'lnk_same_tags', slug: 'same-tags', tagIds: [...tagged.tagIds] });
    data.links.set('lnk_stranger', { ...tagged, id: 'lnk_stranger', slug: 'stranger', accountId: other.id, domainId: data.defaultDomain.id, tagIds: [...tagged.tagIds] });
    const checked = checkedState(data, [...data.links.keys()]);
    expect(checked.problem?.text).toBe(`link 'lnk_stranger' names tag '${tagged.tagIds[0]}' of another account`);
  });
});

describe('the start on a db file read record by record', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'slm-checked-'));
    file = join(dir, 'db.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const fileStore = () => new LogFileStore(file, { durable: false, compactAfterBytes: 1 << 30 });
  /** `data` as the writer lays out a base of generation 1, small pieces so that links cross the batches. */
  const writeFile = (data: MockData) => writeBase(file, `${file}.tmp`, { data, generation: 1 }, [...data.links.keys()]);
  async function opened(): Promise<{ state?: MockState; error?: string }> {
    try {
      return { state: (await openData(fileStore(), () => Promise.reject(new Error('must not re-seed')), false)).state };
    } catch (error) {
      return { error: (error as Error).message };
    }
  }
  async function memoryError(data: MockData): Promise<string | undefined> {
    const store = memoryStore();
    await store.write([{ op: 'replace', data }]);
    return openData(store, () => Promise.reject(new Error('must not re-seed')), false).then(
      () => undefined,
      (error: unknown) => (error as Error).message.replace(':memory:', file),
    );
  }

  it('is checked and indexed as it is read: the open finds the state built', async () => {
    const data = seed();
    await writeFile(data);
    const store = fileStore();
    await store.open();
    const checked = store.checked();
    expect(checked?.state).toBeInstanceOf(MockState);
    expect(checked?.state?.totalLinks()).toBe(data.links.size);
    expect(store.checked()).toBeUndefined();
  });

  const broken: [string, (data: MockData) => void][] = [
    ['a slug taken twice', (data) => void data.links.set('lnk_twin', { ...([...data.links.values()][3] as LinkRecord), id: 'lnk_twin' })],
    ['a link naming a tag that is not there', (data) => void (([...data.links.values()][5] as LinkRecord).tagIds = ['tag_gone'])],
    ['a link that is not a link', (data) => void data.links.set('lnk_odd', { id: 'lnk_odd' } as LinkRecord)],
    ['a tag of an unknown account', (data) => void ((Object.values(data.tags)[0] as MockData['tags'][string]).accountId = 'acc_gone')],
  ];
  for (const [name, breakIt] of broken) {
    it(`refuses ${name} with the message of a check after the read`, async () => {
      const data = seed();
      breakIt(data);
      const expected = await memoryError(copyData(data));
      expect(expected).toMatch(/^db .* (fails its integrity check|is not shortlink-mock data)/);
      await writeFile(data);
      expect((await opened()).error).toBe(expected);
    });
  }

  it('opens a base whose broken link a change of its log deletes: the read check gives way to one of the data after the replay', async () => {
    const data = seed();
    const link = [...data.links.values()][5] as LinkRecord;
    link.tagIds = ['tag_gone'];
    await writeFile(data);
    writeFileSync(`${file}.changes`, `${headerLine(1)}${JSON.stringify({ op: 'delete-link', id: link.id })}\n`);
    const { state, error } = await opened();
    expect(error).toBeUndefined();
    expect(state?.linkById(link.id)).toBeUndefined();
    expect(state?.totalLinks()).toBe(data.links.size - 1);
  });
});
