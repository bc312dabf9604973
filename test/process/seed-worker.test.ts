// A seed of more than SEED_IN_WORKER_LINKS links is built in a worker thread (issue 40), which only
// the built package has (dist/src/process/seed-worker.js): this runs the built seededData and
// checks that the worker's data is buildSeed's, byte for byte, and that the main thread kept
// turning while the worker built it.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FixtureSpec } from '../../fixtures/fixture-spec.js';
import { readFixtureSpec } from '../../src/contract/package-files.js';

const DIST = new URL('../../dist/', import.meta.url);

interface BuiltSeeding {
  seededData(seed: number, fixtures: FixtureSpec): Promise<unknown>;
  SEED_IN_WORKER_LINKS: number;
}

describe('a large seed built in a worker thread (built package)', () => {
  it('gives exactly buildSeed’s data, and the main thread turns while it is built', async () => {
    expect(existsSync(new URL('src/process/seed-worker.js', DIST)), 'run npm run build first').toBe(true);
    const built = (await import(new URL('src/process/seeded-data.js', DIST).href)) as BuiltSeeding;
    const { buildSeed } = (await import(new URL('fixtures/seed.js', DIST).href)) as { buildSeed: (seed: number, spec: FixtureSpec) => unknown };
    const base = readFixtureSpec();
    const links = built.SEED_IN_WORKER_LINKS + 1;
    const account = { ...base.accounts[0]!, links, linkLimit: links };
    const fixtures: FixtureSpec = { ...base, accounts: [account, ...base.accounts.slice(1)] };
    let turns = 0;
    const ticker = setInterval(() => (turns += 1), 1);
    const data = await built.seededData(41, fixtures).finally(() => clearInterval(ticker));
    expect(turns).toBeGreaterThan(10);
    expect((data as { links: { size: number } }).links.size).toBe(links + base.accounts.slice(1).reduce((sum, a) => sum + a.links, 0));
    expect(JSON.stringify(data)).toBe(JSON.stringify(buildSeed(41, fixtures)));
  }, 120_000);
});
