// A seed of more than SEED_IN_WORKER_LINKS links is built in a worker thread (issue 40), which only
// the built package has (dist/src/process/seed-worker.js): this runs the built seededData and
// checks that the worker's data is buildSeed's, byte for byte, and that the main thread kept
// turning while the worker built it; and that a reset's seed takes the stored records it draws equal.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FixtureSpec } from '../../fixtures/fixture-spec.js';
import { readFixtureSpec } from '../../src/contract/package-files.js';
import type { LinkRecord } from '../../src/core/model.js';

const DIST = new URL('../../dist/', import.meta.url);

interface BuiltSeeding {
  seededData(seed: number, fixtures: FixtureSpec, thread?: string, known?: unknown): Promise<unknown>;
  SEED_IN_WORKER_LINKS: number;
}

/** The little of the built LocalLinkStore this test uses. */
interface BuiltStore {
  state: { data: { links: Map<string, LinkRecord> }; linkById(id: string): LinkRecord | undefined; linkAtDomain(domainId: string, slug: string): LinkRecord | undefined };
  readReusing<T>(read: (known: unknown) => Promise<T>): Promise<T>;
  replaceAll(data: unknown): Promise<void>;
  updateLink(link: LinkRecord, change: { destinationUrl: string }, created: []): Promise<unknown>;
}

/** Fixtures whose first account has one link more than SEED_IN_WORKER_LINKS: seeded in the worker. */
function workerFixtures(built: BuiltSeeding): { fixtures: FixtureSpec; links: number } {
  const base = readFixtureSpec();
  const links = built.SEED_IN_WORKER_LINKS + 1;
  const account = { ...base.accounts[0]!, links, linkLimit: links };
  return { fixtures: { ...base, accounts: [account, ...base.accounts.slice(1)] }, links };
}

describe('a large seed built in a worker thread (built package)', () => {
  it('gives exactly buildSeed’s data, and the main thread turns while it is built', async () => {
    expect(existsSync(new URL('src/process/seed-worker.js', DIST)), 'run npm run build first').toBe(true);
    const built = (await import(new URL('src/process/seeded-data.js', DIST).href)) as BuiltSeeding;
    const { buildSeed } = (await import(new URL('fixtures/seed.js', DIST).href)) as { buildSeed: (seed: number, spec: FixtureSpec) => unknown };
    const base = readFixtureSpec();
    const { fixtures, links } = workerFixtures(built);
    let turns = 0;
    const ticker = setInterval(() => (turns += 1), 1);
    const data = await built.seededData(41, fixtures).finally(() => clearInterval(ticker));
    expect(turns).toBeGreaterThan(10);
    expect((data as { links: { size: number } }).links.size).toBe(links + base.accounts.slice(1).reduce((sum, a) => sum + a.links, 0));
    expect(JSON.stringify(data)).toBe(JSON.stringify(buildSeed(41, fixtures)));
  }, 120_000);

  it('takes, for a reset, the stored record of each link it draws equal, and still gives buildSeed’s data', async () => {
    const built = (await import(new URL('src/process/seeded-data.js', DIST).href)) as BuiltSeeding;
    const { buildSeed } = (await import(new URL('fixtures/seed.js', DIST).href)) as { buildSeed: (seed: number, spec: FixtureSpec) => { links: Map<string, LinkRecord> } };
    const { LocalLinkStore } = (await import(new URL('src/store/file/local-link-store.js', DIST).href)) as { LocalLinkStore: new (data: unknown, persist: () => Promise<void>, location: string) => BuiltStore };
    const { fixtures } = workerFixtures(built);
    const store = new LocalLinkStore(await built.seededData(43, fixtures), () => Promise.resolve(), ':memory:');
    const [kept, updated] = [...store.state.data.links.values()] as [LinkRecord, LinkRecord];
    await store.updateLink(updated, { destinationUrl: 'https://example.com/updated' }, []);
    const before = new Map(store.state.data.links);
    await store.replaceAll(await store.readReusing((known) => built.seededData(43, fixtures, 'worker', known)));
    const fresh = buildSeed(43, fixtures);
    expect(JSON.stringify(store.state.data)).toBe(JSON.stringify(fresh));
    expect(store.state.linkById(kept.id)).toBe(kept);
    expect(store.state.linkAtDomain(kept.domainId, kept.slug)).toBe(kept);
    expect(store.state.linkById(updated.id)).not.toBe(updated);
    expect(store.state.linkAtDomain(updated.domainId, updated.slug)).toBe(store.state.linkById(updated.id));
    let taken = 0;
    for (const [id, link] of store.state.data.links) if (before.get(id) === link) taken += 1;
    expect(taken).toBe(fresh.links.size - 1);
  }, 120_000);
});
