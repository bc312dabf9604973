// cryptoRandomInt draws small ranges from a pool of random bytes: every value of the range must be
// reachable and equally likely (a plain `byte % max` would favour the low values of 62: 256 is not
// a multiple of it), and everything else is crypto.randomInt's.
import { describe, expect, test } from 'vitest';
import { cryptoRandomInt, newId } from '../../src/core/random.js';

function counts(max: number, draws: number): number[] {
  const seen = new Array<number>(max).fill(0);
  let outside = 0;
  for (let i = 0; i < draws; i += 1) {
    const value = cryptoRandomInt(max);
    if (Number.isInteger(value) && value >= 0 && value < max) seen[value]! += 1;
    else outside += 1;
  }
  expect(outside).toBe(0);
  return seen;
}

/** Pearson's chi-square statistic against the uniform distribution. */
function chiSquare(seen: number[], draws: number): number {
  const expected = draws / seen.length;
  return seen.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
}

describe('cryptoRandomInt', () => {
  test('every value of a range up to 256 is drawn, uniformly (the id alphabet of 62 included)', () => {
    for (const max of [1, 2, 62, 200, 256]) {
      const draws = max * 2_000;
      const seen = counts(max, draws);
      expect(seen.every((count) => count > 0)).toBe(true);
      // Degrees of freedom max - 1; a bound this far out is passed by a uniform source with a
      // probability above 1 - 1e-9, while `byte % 62` gives a statistic near 1,000 here.
      expect(chiSquare(seen, draws)).toBeLessThan(max - 1 + 12 * Math.sqrt(2 * Math.max(1, max - 1)) + 40);
    }
  });

  test('larger ranges and invalid ones behave as crypto.randomInt', () => {
    for (let i = 0; i < 1_000; i += 1) expect(cryptoRandomInt(100_000)).toBeLessThan(100_000);
    expect(() => cryptoRandomInt(0)).toThrow(/greater than/);
    expect(() => cryptoRandomInt(1.5)).toThrow(/safe integer/);
  });

  test('ids keep their shape', () => {
    for (let i = 0; i < 1_000; i += 1) expect(newId(cryptoRandomInt, 'lnk')).toMatch(/^lnk_[A-Za-z0-9]{16}$/);
  });
});
