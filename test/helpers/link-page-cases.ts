// Issue 40: the cases every LinkStore's page read (linkPageOf) shares, run on the store of one
// process (test/store/link-pages.test.ts) and on Redis (test/store/redis-link-pages.test.ts):
// walking the pages with cursors, with creates and deletes made between pages, shows every link
// exactly once, newest first, each page exactly what a sort of the account's links would show.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { olderFirst, type LinkPosition } from '../../src/core/link-order.js';
import type { LinkStore } from '../../src/core/link-store.js';
import type { LinkRecord, MockData } from '../../src/core/model.js';
import { copyData } from '../../src/core/link-table.js';
import { buildSeed } from '../../fixtures/seed.js';
import { readFixtureSpec } from '../../src/contract/package-files.js';

const spec = readFixtureSpec();
/** The seeded data the cases start from (faker takes a while: built once). */
const seeded = buildSeed(1234, spec);
export const pageSeed = (): MockData => copyData(seeded);
export const DEMO_KEY = 'demo-key';

/** A few instants, so that many links share one (the same millisecond), some older than the seeded links. */
export const TIMES = ['2020-01-01T00:00:00.000Z', '2026-11-28T10:00:00.000Z', '2026-11-28T10:00:00.001Z', '2030-01-01T00:00:00.000Z'];

export const newestFirst = (links: Iterable<LinkRecord>): LinkRecord[] => [...links].sort((a, b) => olderFirst(b, a));

export function pageLink(data: MockData, createdAt: string, id: string): LinkRecord {
  const account = data.accounts.find((candidate) => candidate.apiKey === DEMO_KEY)!;
  return { id, accountId: account.id, domainId: data.defaultDomain.id, slug: `s-${id}`, destinationUrl: 'https://example.com/p', createdAt, clickCount: 0, tagIds: [] };
}

/** Every page of the account, `limit` at a time, read with the position of each page's last link. */
export async function allPages(store: LinkStore, accountId: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let after: LinkPosition | undefined;
  for (let page = 0; page < 10_000; page += 1) {
    const read = await store.linkPageOf(accountId, { ...(after ? { after } : {}), limit });
    ids.push(...read.map((link) => link.id));
    if (read.length < limit) return ids;
    after = read.at(-1);
  }
  throw new Error('more than 10,000 pages');
}

type Step = { kind: 'create'; at: number; id: string } | { kind: 'delete'; pick: number } | { kind: 'page'; limit: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), at: fc.nat(TIMES.length - 1), id: fc.stringMatching(/^[a-c]{1,2}$/) }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('page' as const), limit: fc.integer({ min: 1, max: 4 }) }),
);

/**
 * Registers the cases. `open` gives a store holding `data` (a fresh one each call); `close`
 * releases what the cases opened.
 */
export function linkPageCases(open: (data: MockData) => Promise<LinkStore>, runs: number): void {
  it(`walking the pages with creates and deletes between them shows every link exactly once, newest first (seeded property, ${runs} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 30 }), async (steps) => {
        const data = pageSeed();
        const store = await open(data);
        const accountId = pageLink(data, TIMES[0] as string, 'x').accountId;
        const model = new Map((await store.linksOf(accountId)).map((link) => [link.id, link]));
        let after: LinkPosition | undefined;
        let seen = new Set<string>();
        let there = new Set(model.keys());
        for (const [n, next] of steps.entries()) {
          if (next.kind === 'create') {
            const link = pageLink(data, TIMES[next.at] as string, `lnk_${next.id}${n}`);
            expect(await store.createLink({ link, linkLimit: 1_000_000, newTags: [] })).toBe('stored');
            model.set(link.id, link);
          } else if (next.kind === 'delete' && model.size > 0) {
            const link = [...model.values()][next.pick % model.size] as LinkRecord;
            expect(await store.deleteLink(link)).toBe(true);
            model.delete(link.id);
            there.delete(link.id);
          } else if (next.kind === 'page') {
            const read = (await store.linkPageOf(accountId, { ...(after ? { after } : {}), limit: next.limit })).map((link) => link.id);
            const expected = newestFirst([...model.values()].filter((link) => !after || olderFirst(link, after) < 0)).slice(0, next.limit);
            expect(read).toEqual(expected.map((link) => link.id));
            for (const id of read) {
              expect(seen.has(id)).toBe(false);
              seen.add(id);
            }
            after = expected.at(-1);
            if (read.length < next.limit) {
              // The walk ended: every link there all along was shown once.
              for (const id of there) expect(seen.has(id)).toBe(true);
              [after, seen, there] = [undefined, new Set(), new Set(model.keys())];
            }
          }
        }
      }),
      { seed: 40, numRuns: runs },
    );
  }, 120_000);

  it('300 links made in one millisecond page by id, each once, from any page size', async () => {
    const data = pageSeed();
    const store = await open(data);
    const accountId = pageLink(data, TIMES[0] as string, 'x').accountId;
    for (let i = 0; i < 300; i += 1) {
      const link = pageLink(data, TIMES[2] as string, `lnk_same${String((i * 7919) % 1000).padStart(3, '0')}`);
      expect(await store.createLink({ link, linkLimit: 1_000_000, newTags: [] })).toBe('stored');
    }
    const expected = newestFirst(await store.linksOf(accountId)).map((link) => link.id);
    expect(expected.filter((id) => id.startsWith('lnk_same'))).toHaveLength(300);
    for (const limit of [1, 7, 64, 1_001]) expect(await allPages(store, accountId, limit)).toEqual(expected);
  }, 60_000);

  it('createdAt and ids holding NUL or accents (a db edited by hand) page in the same order', async () => {
    const data = pageSeed();
    const store = await open(data);
    const accountId = pageLink(data, TIMES[0] as string, 'x').accountId;
    const odd = ['2026-11-28T10:00:00.000Z', '2026-11-28T10:00:00.000Z\0', '2026-11-28T10:00:00.000Z\0\0x', '2026-11-28T10:00:00.000Zé', '2026-11-28'];
    for (const [i, createdAt] of odd.entries()) {
      for (const id of [`lnk_${i}\0\0a`, `lnk_${i}`, `lnk_${i}é`]) expect(await store.createLink({ link: pageLink(data, createdAt, id), linkLimit: 1_000_000, newTags: [] })).toBe('stored');
    }
    const expected = newestFirst(await store.linksOf(accountId)).map((link) => link.id);
    for (const limit of [1, 4]) expect(await allPages(store, accountId, limit)).toEqual(expected);
    const gone = (await store.linkById('lnk_1\0\0a')) as LinkRecord;
    expect(await store.deleteLink(gone)).toBe(true);
    expect(await allPages(store, accountId, 3)).toEqual(expected.filter((id) => id !== gone.id));
  });
}
