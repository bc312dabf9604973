// The seeded data, byte for byte, as @faker-js/faker 10.6.0 gave it through
// `new Faker({ locale: [en], seed })` from the full entry point: fixtures/seed.ts now builds its
// private Faker from the narrower '@faker-js/faker/locale/en' (a cold start loads one locale, not
// all), and a user's db seeded before must be the one seeded after. SHA-256 of JSON.stringify.
// buildSeed's digests are of its links in id order (`asSet`): since issue 40 it writes each
// account's links oldest first (a start's sort is one pass), the same links in another order. These
// digests were computed on the code before that change and hold after it unchanged.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED, buildAccountForKey, buildSeed } from '../../fixtures/seed.js';
import type { MockData } from '../../src/core/model.js';
import { readFixtureSpec } from '../../src/contract/package-files.js';
import { SplitLinkTable } from '../../src/core/link-table.js';

const spec = readFixtureSpec();
const sha256 = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('hex');
const byKey = ([a]: [string, unknown], [b]: [string, unknown]): number => (a < b ? -1 : a > b ? 1 : 0);
const asSet = (data: MockData): MockData => ({ ...data, links: SplitLinkTable.of(Object.fromEntries([...data.links].sort(byKey))) });

describe('the seeded data is the data seeded before', () => {
  it.each([
    [DEFAULT_SEED, '5eebb92ec666b24df4721e549b81990e3587df7aa0c1315420516ac394bb52f0'],
    [0, '5adec138c48dca7ff77cab8d9884a5fd8e844348f5631ce1ade6af95d4de1049'],
    [1, '17513b569d70ff49bdc7b1b09a918b16ef94b6c230fcf67f2e772cc4fa44c7bc'],
    [1234, 'f763dc8687e1dc0a843e1e96f412c5db6800a4b6817670bec9d22e1517a945f6'],
    [2 ** 31 - 1, '5f6b4d22a7cfb59c28661d8f2a4c24e0b1b8dedf7b45058e0c27f1d5e83a5c59'],
  ])('buildSeed(%i)', (seed, digest) => {
    expect(sha256(asSet(buildSeed(seed, spec)))).toBe(digest);
  });

  it('buildSeed for the seeds 0 to 199, in one digest', () => {
    const digests = Array.from({ length: 200 }, (_, seed) => sha256(asSet(buildSeed(seed, spec))));
    expect(sha256(digests)).toBe('1d9476f9deab8997130416927517baa787c99d2a96ae7f60577465c246be13bb');
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
