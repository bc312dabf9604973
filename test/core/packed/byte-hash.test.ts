// compareAsText (src/core/packed/byte-hash.ts): UTF-8 bytes compared in the order JavaScript compares
// the strings (UTF-16 units), which the account order relies on for ids. Seeded strings drawn from
// ASCII, two-byte, U+E000-U+FFFF and past U+FFFF characters, where byte order and UTF-16 order part.
import { faker } from '@faker-js/faker';
import { describe, expect, it } from 'vitest';
import { compareAsText } from '../../../src/core/packed/byte-hash.js';

const PIECES = ['a', 'z', 'A', '0', 'é', 'ÿ', 'Ā', '\u07ff', '\u0800', '\ud7ff', '\ue000', '\uffff', '\ufffd', '😀', '𐀀', '\u{10ffff}'];
const sign = (n: number): number => (n < 0 ? -1 : n > 0 ? 1 : 0);

describe('compareAsText', () => {
  it('orders UTF-8 bytes as JavaScript orders the strings (seeded, 20,000 pairs, common prefixes)', () => {
    faker.seed(4030);
    const text = (): string => Array.from({ length: faker.number.int({ min: 0, max: 5 }) }, () => faker.helpers.arrayElement(PIECES)).join('');
    for (let k = 0; k < 20_000; k += 1) {
      const prefix = text();
      const [a, b] = [prefix + text(), prefix + text()];
      const [x, y] = [Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')];
      expect(sign(compareAsText(x, 0, x.length, y, 0, y.length))).toBe(a < b ? -1 : a > b ? 1 : 0);
    }
  });

  it('compares the given ranges only', () => {
    const bytes = Buffer.from('xxabcxx', 'utf8');
    expect(compareAsText(bytes, 2, 5, Buffer.from('abc'), 0, 3)).toBe(0);
    expect(sign(compareAsText(bytes, 2, 5, Buffer.from('abd'), 0, 3))).toBe(-1);
    expect(sign(compareAsText(bytes, 2, 4, Buffer.from('abc'), 0, 3))).toBe(-1);
  });
});
