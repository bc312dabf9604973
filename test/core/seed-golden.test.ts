// The seeded data, byte for byte, as @faker-js/faker 10.6.0 gave it through
// `new Faker({ locale: [en], seed })` from the full entry point: fixtures/seed.ts now builds its
// private Faker from the narrower '@faker-js/faker/locale/en' (a cold start loads one locale, not
// all), and a user's db seeded before must be the one seeded after. SHA-256 of JSON.stringify.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED, buildAccountForKey, buildSeed } from '../../fixtures/seed.js';
import { readFixtureSpec } from '../../src/contract/package-files.js';

const spec = readFixtureSpec();
const sha256 = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('hex');

describe('the seeded data is the data seeded before', () => {
  it.each([
    [DEFAULT_SEED, '54f22d1c0b4d63e6b44419482a3e00bb10c80c24974cfd1927a550a26649683b'],
    [0, 'f8876bbbc1f7b21c247a8a36d7a9e283dbfca5f6319e461d8c3611c86a0ca6ff'],
    [1, '32476078df6601f0f28960ecf59ae2faa449cbe0739fd44abbf8a5edefaa4d58'],
    [1234, '94c46bed27c28ae5003fb8bfef5adef4dd4ff3b0d99022165d2f01583d7cb74d'],
    [2 ** 31 - 1, 'a80dcf2cc0f5f294a99b302467934936726c7a59634841d7af6e95e7324adad5'],
  ])('buildSeed(%i)', (seed, digest) => {
    expect(sha256(buildSeed(seed, spec))).toBe(digest);
  });

  it('buildSeed for the seeds 0 to 199, in one digest', () => {
    const digests = Array.from({ length: 200 }, (_, seed) => sha256(buildSeed(seed, spec)));
    expect(sha256(digests)).toBe('9d52f70a885cfb14d14b7c764302737dae6e40ab0afbca61200ab14b0ca2c688');
  });

  it.each([
    ['ci-122789', 'cd63530decffd848b29fe2f4fdf75b14174f65773186bfb073465dd023d752e3'],
    ['ci-job-a', 'bdf8e9e9be60656465925205e1638338d2a75c6c035e5007b1e60d1e7a8349a0'],
    ['ключ-🔑', '80369b56725a495ed895d69f334abcfc5683b96fe5db0d343ca0da1c05a6daa0'],
  ])('buildAccountForKey(%s) with 50 links', (apiKey, digest) => {
    const { defaultDomain } = buildSeed(DEFAULT_SEED, spec);
    expect(sha256(buildAccountForKey(apiKey, defaultDomain, () => false, 50))).toBe(digest);
  });
});
