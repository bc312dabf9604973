// The seeds of a robustness run, drawn by fast-check from one base seed: the same --seed gives the
// same runs. The first run uses the base seed itself, so that `--runs 1 --seed S` replays exactly
// the run of a failing seed S that a report names.
import { randomInt } from 'node:crypto';
import fc from 'fast-check';

/** Seeds stay 31-bit non-negative integers: JSON, every language's int and the mock's --variety take them. */
export const MAX_SEED = 2 ** 31 - 1;

export function randomBaseSeed(): number {
  return randomInt(0, MAX_SEED);
}

/** `runs` distinct seeds, the first being `base`. */
export function runSeeds(base: number, runs: number): number[] {
  const seeds = [base];
  if (runs <= 1) return seeds;
  // Without fast-check's bias toward small and extreme integers: seeds spread evenly. Distinct: a
  // seed run twice would be a run wasted. Sampled with room for the rare repeat.
  const drawn = fc.sample(fc.noBias(fc.integer({ min: 0, max: MAX_SEED })), { seed: base, numRuns: runs * 2 });
  for (const seed of drawn) {
    if (seeds.length >= runs) break;
    if (!seeds.includes(seed)) seeds.push(seed);
  }
  return seeds;
}
