// The seeds of a robustness run, drawn by fast-check from one base seed: the same --seed gives the
// same runs. The first run uses the base seed itself, so that `--runs 1 --seed S` replays exactly
// the run of a failing seed S that a report names. The next runs cover: each is still a plain seed
// (no `only`, so any of them replays the same way), but chosen, from the names the mock lists, so
// that every dimension is turned on by some run; a random base seed no longer misses a variant
// (a title's four variants, each on for one seed in five, would each be missed by 20 random seeds
// about once in a hundred).
import { randomInt } from 'node:crypto';
import fc from 'fast-check';
import { turnedOn } from '../variety/plan.js';

/** Seeds stay 31-bit non-negative integers: JSON, every language's int and the mock's --variety take them. */
export const MAX_SEED = 2 ** 31 - 1;

/** Candidates weighed for a run while dimensions are uncovered: the best of the first ones that cover any. */
const WEIGH = 32;
/** Candidates looked at for one run at most (each uncovered dimension is on for about one seed in six at worst). */
const LOOK_AT = 2_000;
/**
 * The names a mock may list for the seeds to cover (openapi.yaml's: 47), and the candidates looked
 * at in all: a mock at --base-url listing many more gets plain seeds past them, in bounded time.
 */
export const MAX_COVERED = 1_000;
const LOOK_AT_TOTAL = 20_000;

export function randomBaseSeed(): number {
  return randomInt(0, MAX_SEED);
}

/** `runs` distinct seeds, the first being `base`; with `dimensions` (the mock's names), covering them. */
export function runSeeds(base: number, runs: number, dimensions: readonly string[] = []): number[] {
  const seeds = [base];
  const fresh = freshSeeds(base);
  const named = dimensions.length > MAX_COVERED ? [] : dimensions.map((name) => ({ name }));
  const uncovered = new Set(named.map(({ name }) => name));
  const budget = { left: LOOK_AT_TOTAL };
  const cover = (seed: number): void => turnedOn(named, seed).forEach(({ name }) => uncovered.delete(name));
  cover(base);
  while (seeds.length < runs) {
    const seed = (uncovered.size > 0 && budget.left > 0 ? coveringSeed(fresh, named, uncovered, budget) : undefined) ?? fresh.next().value;
    seeds.push(seed);
    if (uncovered.size > 0) cover(seed);
  }
  return seeds;
}

/** Distinct seeds other than `base`, drawn from it; endless (2^31 of them), read lazily. */
function* freshSeeds(base: number): Generator<number, never> {
  const seen = new Set([base]);
  for (let chunk = 0; ; chunk += 1) {
    // Without fast-check's bias toward small and extreme integers: seeds spread evenly.
    const drawn = fc.sample(fc.noBias(fc.integer({ min: 0, max: MAX_SEED })), { seed: (base + chunk * 0x9e3779b1) % MAX_SEED, numRuns: 256 });
    for (const seed of drawn) {
      if (seen.has(seed)) continue;
      seen.add(seed);
      yield seed;
    }
  }
}

/** The candidate that turns on the most uncovered dimensions, among the first WEIGH that turn on any. */
function coveringSeed(fresh: Iterator<number, never>, named: readonly { name: string }[], uncovered: ReadonlySet<string>, budget: { left: number }): number | undefined {
  let best: { seed: number; covers: number } | undefined;
  let weighed = 0;
  for (let looked = 0; looked < LOOK_AT && weighed < WEIGH && budget.left > 0; looked += 1) {
    budget.left -= 1;
    const next = fresh.next();
    const covers = turnedOn(named, next.value).filter(({ name }) => uncovered.has(name)).length;
    if (covers === 0) continue;
    weighed += 1;
    if (!best || covers > best.covers) best = { seed: next.value, covers };
  }
  return best?.seed;
}
