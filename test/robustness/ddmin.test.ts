// The runner's shrinker against deterministic predicates: it names the cause, only the cause, and
// stays within its budget. fast-check draws the sets and the causes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ddmin } from '../../src/robustness/ddmin.js';

const dimensions = (count: number): string[] => Array.from({ length: count }, (_, i) => `op${i}.field:variant`);

describe('ddmin', () => {
  it('shrinks a failure caused by one dimension among 30 to that dimension, in a dozen reruns at most', async () => {
    const used = dimensions(30);
    const result = await ddmin(used, async (subset) => subset.includes('op17.field:variant'), 64);
    expect(result).toEqual({ minimal: ['op17.field:variant'], reruns: expect.any(Number), exhausted: false });
    expect(result.reruns).toBeLessThanOrEqual(12);
  });

  it('shrinks a failure that needs several dimensions together to exactly those (1-minimal)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 40 }).chain((count) => fc.tuple(fc.constant(dimensions(count)), fc.subarray(dimensions(count), { minLength: 1, maxLength: Math.min(3, count) }))),
        async ([used, cause]) => {
          const calls: string[][] = [];
          const result = await ddmin(used, async (subset) => (calls.push(subset), cause.every((d) => subset.includes(d))), 200);
          expect(result.minimal).toEqual(cause);
          expect(result.exhausted).toBe(false);
          // Never the empty set (the mock would vary nothing) nor the set already known to fail.
          expect(calls.some((subset) => subset.length === 0 || subset.length === used.length)).toBe(false);
        },
      ),
      { seed: 26, numRuns: 200 },
    );
  });

  it('names one of several dimensions that each fail alone', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 40 }).chain((count) => fc.tuple(fc.constant(dimensions(count)), fc.subarray(dimensions(count), { minLength: 1 }))), async ([used, causes]) => {
        const result = await ddmin(used, async (subset) => subset.some((d) => causes.includes(d)), 200);
        expect(result.minimal).toHaveLength(1);
        expect(causes).toContain(result.minimal[0]);
      }),
      { seed: 26, numRuns: 200 },
    );
  });

  it('stops at its budget with the smallest failing set so far, and says so', async () => {
    let calls = 0;
    const result = await ddmin(dimensions(30), async (subset) => (calls += 1, subset.includes('op29.field:variant')), 3);
    expect(calls).toBe(3);
    expect(result.exhausted).toBe(true);
    expect(result.minimal).toContain('op29.field:variant');
  });
});
