// The seeds of a robustness run cover every dimension: within the default 20 runs, each dimension
// the mock lists is turned on by at least one run's seed, whatever the base seed. Each run is
// still a plain seed (no `only`), so `--runs 1 --seed S` replays the run of seed S.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_SEED, runSeeds } from '../../src/robustness/seeds.js';
import { turnedOn } from '../../src/variety/plan.js';
import { cpuMsOf } from '../helpers/own-time.js';
import { contract } from '../helpers/test-app.js';
import { buildDimensions } from '../../src/variety/dimensions.js';

const names = buildDimensions(contract.document).map(({ name }) => name);
const onUnder = (seeds: readonly number[]): Set<string> => new Set(seeds.flatMap((seed) => turnedOn(names.map((name) => ({ name })), seed).map(({ name }) => name)));

describe('the seeds of a robustness run', () => {
  it('turn every dimension on within 20 runs, for any base seed; the first is the base itself, all distinct', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_SEED }), (base) => {
        const seeds = runSeeds(base, 20, names);
        expect(seeds).toHaveLength(20);
        expect(seeds[0]).toBe(base);
        expect(new Set(seeds).size).toBe(20);
        const on = onUnder(seeds);
        expect(names.filter((name) => !on.has(name))).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('are the same for the same base seed, and plain random seeds once every dimension is covered', () => {
    expect(runSeeds(2026, 20, names)).toEqual(runSeeds(2026, 20, names));
    expect(runSeeds(2026, 1, names)).toEqual([2026]);
    const many = runSeeds(7, 200, names);
    expect(new Set(many).size).toBe(200);
    for (const seed of many) expect(seed).toBeLessThanOrEqual(MAX_SEED);
  });
});

describe('the seeds of a robustness run, against a mock listing hostile dimension names', () => {
  // Quick means CPU, not wall time: a wall clock counts the time a loaded machine gave the test none.
  it('stay quick with 100,000 names (past the bound, plain seeds) and with 1,000 one-variant groups', async () => {
    const many = Array.from({ length: 100_000 }, (_, i) => `op${i}.f:v`);
    const past = await cpuMsOf(() => runSeeds(3, 20, many));
    // Past MAX_COVERED nothing is weighed: the very seeds of a run that lists no name.
    expect(past.value).toEqual(runSeeds(3, 20, []));
    expect(past.cpuMs).toBeLessThan(2_000);
    const groups = Array.from({ length: 1_000 }, (_, i) => `op${i}.f:v`);
    const covered = await cpuMsOf(() => runSeeds(3, 1_000, groups));
    expect(new Set(covered.value).size).toBe(1_000);
    expect(covered.cpuMs).toBeLessThan(5_000);
  });
});
