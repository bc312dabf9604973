// A snapshot restore and a reset with requests in flight (issue 40): the file store now builds the
// new data a slice per turn while it keeps serving, and swaps it in whole. Every answer given
// meanwhile is of the state before or after, never a mix, and the pages after list every link of
// the account once, newest first. On every store (D27). Correctness only, no timing.
import { describe, expect, it } from 'vitest';
import { createTestApp, OTHER, type TestApp } from '../helpers/test-app.js';

const CREATED = 30;
const IN_FLIGHT = 20;

async function totalLinks(t: TestApp): Promise<number> {
  return ((await t.request.get('/__admin/health').expect(200)).body as { links: number }).links;
}

async function create(t: TestApp, n: number): Promise<void> {
  for (let i = 0; i < n; i += 1) await t.request.post('/links').set('x-api-key', OTHER).send({ destinationUrl: `https://example.com/c${i}`, domain: 'short.test', tags: [] }).expect(201);
}

/** The replace sent with IN_FLIGHT health checks beside it: the link totals they answered. */
async function withChecks(t: TestApp, path: string): Promise<{ replaced: number; seen: number[] }> {
  const [replaced, ...checks] = await Promise.all([t.request.post(path).expect(200), ...Array.from({ length: IN_FLIGHT }, () => t.request.get('/__admin/health').expect(200))]);
  return { replaced: (replaced.body as { links: number }).links, seen: checks.map((check) => (check.body as { links: number }).links) };
}

/** other-key's links page by page (7 a page): every id, in page order, with its createdAt. */
async function pages(t: TestApp): Promise<{ id: string; createdAt: string }[]> {
  const links: { id: string; createdAt: string }[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 1000; page += 1) {
    const query = `/__admin/links?account=${OTHER}&limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const body = (await t.request.get(query).expect(200)).body as { links: { id: string; createdAt: string }[]; nextCursor?: string | null };
    links.push(...body.links);
    if (!body.nextCursor) break;
    cursor = body.nextCursor;
  }
  return links;
}

async function expectPagesWhole(t: TestApp): Promise<void> {
  const links = await pages(t);
  const account = await t.accountByKey(OTHER);
  expect(links).toHaveLength((await t.linksOf(OTHER)).length);
  expect(new Set(links.map((link) => link.id)).size).toBe(links.length);
  const times = links.map((link) => link.createdAt);
  expect(times).toEqual([...times].sort().reverse());
  expect(account).toBeDefined();
}

describe('a restore and a reset with requests in flight', () => {
  it('answers each request from the state before or after the restore, and pages it whole after', async () => {
    const t = await createTestApp();
    await t.request.post('/__admin/snapshots/before').expect(201);
    const before = await totalLinks(t);
    await create(t, CREATED);
    const { replaced, seen } = await withChecks(t, '/__admin/snapshots/before/restore');
    expect(replaced).toBe(before);
    expect(seen.filter((links) => links !== before && links !== before + CREATED)).toEqual([]);
    expect(await totalLinks(t)).toBe(before);
    await expectPagesWhole(t);
  });

  it('answers each request from the state before or after the reset, and pages it whole after', async () => {
    const t = await createTestApp();
    const seeded = await totalLinks(t);
    await create(t, CREATED);
    const { replaced, seen } = await withChecks(t, '/__admin/reset');
    expect(replaced).toBe(seeded);
    expect(seen.filter((links) => links !== seeded && links !== seeded + CREATED)).toEqual([]);
    await expectPagesWhole(t);
  });
});
