// The statistics behind `npm run bench:compare`: rows of round pairs and the verdict they must give.
import { describe, expect, test } from 'vitest';
import { median, ratioInterval, t95, verdict } from '../../bench/lib/compare-stats.mjs';

const pairs = (ratios: number[]) => ratios.map((ratio, i) => ({ ref: 5000 + i * 37, candidate: (5000 + i * 37) * ratio }));

describe('verdict of alternating round pairs', () => {
  test.each([
    { name: 'identical builds, round noise of ±2%', ratios: [1.01, 0.99, 1.02, 0.98, 1.0, 1.01], word: 'no difference found', failsGate: false },
    { name: 'a planted 20% slowdown', ratios: [0.8, 0.79, 0.82, 0.81, 0.8, 0.78], word: 'slower', failsGate: true },
    { name: 'a 20% speed-up', ratios: [1.2, 1.22, 1.19, 1.21], word: 'faster', failsGate: false },
    { name: 'a tight 3% slowdown: slower, but within the 5% threshold', ratios: [0.97, 0.968, 0.972, 0.97, 0.971, 0.969], word: 'slower', failsGate: false },
    { name: 'a 10% slowdown hidden in noise: not found', ratios: [0.7, 1.1, 0.95, 1.05, 0.75, 0.9], word: 'no difference found', failsGate: false },
    { name: 'a tight 0.5% slowdown: below the smallest effect called', ratios: [0.995, 0.994, 0.996, 0.995], word: 'no difference found', failsGate: false },
  ])('$name → $word', ({ ratios, word, failsGate }) => {
    const result = verdict(ratioInterval(pairs(ratios)));
    expect(result).toEqual({ word, failsGate });
  });

  test('the threshold is a parameter: a tight 3% slowdown fails a 2% gate', () => {
    expect(verdict(ratioInterval(pairs([0.97, 0.968, 0.972, 0.97])), { threshold: 0.02 }).failsGate).toBe(true);
  });
});

describe('ratioInterval', () => {
  test('the interval holds the geometric mean and the median ratio', () => {
    const interval = ratioInterval(pairs([0.9, 1.0, 1.1]));
    expect(interval.median).toBeCloseTo(1.0, 10);
    expect(interval.geometricMean).toBeCloseTo(Math.cbrt(0.9 * 1.1), 10);
    expect(interval.low).toBeLessThan(interval.geometricMean);
    expect(interval.high).toBeGreaterThan(interval.geometricMean);
  });

  test('refuses fewer than two pairs and a throughput of zero', () => {
    expect(() => ratioInterval(pairs([1]))).toThrow(/at least 2 round pairs/);
    expect(() => ratioInterval([{ ref: 0, candidate: 1 }, { ref: 1, candidate: 1 }])).toThrow(/positive/);
  });
});

test.each([
  [1, 12.706],
  [5, 2.571],
  [30, 2.042],
  [200, 1.96],
])('t95(%i) = %f', (df, quantile) => expect(t95(df)).toBe(quantile));

test('median of odd and even counts', () => {
  expect(median([3, 1, 2])).toBe(2);
  expect(median([4, 1, 3, 2])).toBe(2.5);
  expect(median([])).toBeNaN();
});
