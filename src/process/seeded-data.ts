// The fixtures' data for a seed, built by faker once and handed out as copies. Building it is most
// of what a reset costs (about 5 ms of CPU for the default fixtures against 0.2 ms for a copy): the
// robustness runner resets its mock before each of its runs, test suites reset in beforeEach, and
// every mock built on the same fixtures in one process (the toolkit's, the tests') seeds the same
// data. Kept per fixtures object (a WeakMap: it goes with them) and seed; a large seed is not kept,
// so the memory of a big store is never doubled.
import type { FixtureSpec } from '../../fixtures/fixture-spec.js';
import type { MockData } from '../core/model.js';

/** Seeds of more links than this are built again each time rather than kept. */
export const MAX_KEPT_SEED_LINKS = 10_000;
/** Seeds kept per fixtures object: a process that tries many seeds keeps the latest ones. */
export const MAX_KEPT_SEEDS = 8;

const kept = new WeakMap<FixtureSpec, Map<number, MockData>>();

/** A fresh copy of the data `seed` gives the fixtures: the caller may change it. */
export async function seededData(seed: number, fixtures: FixtureSpec): Promise<MockData> {
  const bySeed = kept.get(fixtures);
  const known = bySeed?.get(seed);
  if (known) return structuredClone(known);
  const data = (await import('../../fixtures/seed.js')).buildSeed(seed, fixtures);
  // Counted from the fixtures (buildSeed makes exactly their links), not from the data: collecting
  // the keys of 1,000,000 links only to count them was seconds of the seeding (issue 40).
  const links = fixtures.accounts.reduce((sum, account) => sum + account.links, 0);
  if (links <= MAX_KEPT_SEED_LINKS) keep(fixtures, seed, structuredClone(data));
  return data;
}

function keep(fixtures: FixtureSpec, seed: number, data: MockData): void {
  let bySeed = kept.get(fixtures);
  if (!bySeed) kept.set(fixtures, (bySeed = new Map()));
  if (bySeed.size >= MAX_KEPT_SEEDS) bySeed.delete(bySeed.keys().next().value as number);
  bySeed.set(seed, data);
}

/** Whether a copy of this seed's data is kept (for tests). */
export function isKept(seed: number, fixtures: FixtureSpec): boolean {
  return kept.get(fixtures)?.has(seed) ?? false;
}
