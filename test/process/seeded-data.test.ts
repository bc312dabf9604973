// The fixtures' data is built once per fixtures object and seed, and every caller gets a copy of its
// own: the same data as buildSeed's, which a change to one copy does not reach. A seed past the
// size bound is built each time, never kept.
import { describe, expect, it } from 'vitest';
import { buildSeed } from '../../fixtures/seed.js';
import type { FixtureSpec } from '../../fixtures/fixture-spec.js';
import { readFixtureSpec } from '../../src/contract/package-files.js';
import { isKept, MAX_KEPT_SEED_LINKS, MAX_KEPT_SEEDS, seededData } from '../../src/process/seeded-data.js';

describe('seeded data', () => {
  it('is buildSeed’s data, kept once and handed out as independent copies', async () => {
    const fixtures = readFixtureSpec();
    expect(isKept(7, fixtures)).toBe(false);
    const first = await seededData(7, fixtures);
    expect(first).toEqual(buildSeed(7, fixtures));
    expect(isKept(7, fixtures)).toBe(true);
    const linkId = [...first.links.keys()][0] as string;
    first.links.get(linkId)!.destinationUrl = 'https://changed.example';
    first.links.delete([...first.links.keys()][1] as string);
    first.accounts.pop();
    const second = await seededData(7, fixtures);
    expect(second).toEqual(buildSeed(7, fixtures));
    expect(second).not.toBe(first);
  });

  it(`keeps at most ${MAX_KEPT_SEEDS} seeds per fixtures object, the latest`, async () => {
    const fixtures = readFixtureSpec();
    for (let seed = 1; seed <= MAX_KEPT_SEEDS + 2; seed += 1) await seededData(seed, fixtures);
    expect(isKept(1, fixtures)).toBe(false);
    expect(isKept(2, fixtures)).toBe(false);
    expect(isKept(MAX_KEPT_SEEDS + 2, fixtures)).toBe(true);
  });

  it(`does not keep a seed of more than ${MAX_KEPT_SEED_LINKS.toLocaleString('en')} links`, async () => {
    const base = readFixtureSpec();
    const account = { ...base.accounts[0]!, links: MAX_KEPT_SEED_LINKS + 1, linkLimit: MAX_KEPT_SEED_LINKS + 1 };
    const big: FixtureSpec = { ...base, accounts: [account] };
    const data = await seededData(3, big);
    expect([...data.links.keys()]).toHaveLength(MAX_KEPT_SEED_LINKS + 1);
    expect(isKept(3, big)).toBe(false);
  });
});
