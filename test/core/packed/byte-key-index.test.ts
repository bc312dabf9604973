// ByteKeyIndex (src/core/packed/byte-key-index.ts): keys → record numbers with the keys' bytes kept
// elsewhere. Checked against a Map through seeded inserts, finds and deletes; its bounds (a key of
// 0 bytes, a key past MAX_KEY_BYTES, a lone surrogate, 5,000,000 keys = MAX_SEEDED_LINKS) and the
// growth step's bound (one sub-table rehashed at a time) counted in slots, not timed.
import { faker } from '@faker-js/faker';
import { describe, expect, it } from 'vitest';
import { MAX_SEEDED_LINKS } from '../../../fixtures/fixture-spec.js';
import { MAX_KEY_BYTES, MAX_RECORDS } from '../../../src/core/packed/bounds.js';
import { ByteKeyIndex, SUB_TABLES, type KeySource } from '../../../src/core/packed/byte-key-index.js';

/** Keys as strings by record number, compared as their UTF-8 bytes. */
class StringKeys implements KeySource {
  readonly keys: string[] = [];
  sameKey(record: number, key: Uint8Array, length: number): boolean {
    return Buffer.from(this.keys[record] as string, 'utf8').equals(key.subarray(0, length));
  }
}

describe('ByteKeyIndex', () => {
  it('finds, inserts and deletes as a Map does (seeded, 40,000 steps over 3,000 keys, deleted records not reused)', () => {
    faker.seed(4001);
    const source = new StringKeys();
    const index = new ByteKeyIndex(source);
    const model = new Map<string, number>();
    // Non-ASCII keys (encoded natively), ASCII ones (copied a character at a time) and both at the scratch's first size.
    const universe = ['', 'é', '日本', '😀', 'lnk_é', 'a'.repeat(256), 'a'.repeat(257), `${'a'.repeat(255)}é`, ...Array.from({ length: 2992 }, () => `lnk_${faker.string.alphanumeric(faker.number.int({ min: 1, max: 20 }))}`)];
    for (let step = 0; step < 40_000; step += 1) {
      const key = faker.helpers.arrayElement(universe);
      const action = faker.number.int({ min: 0, max: 2 });
      if (action === 0 && !model.has(key)) {
        source.keys.push(key);
        index.insert(key, source.keys.length - 1);
        model.set(key, source.keys.length - 1);
      } else if (action === 1) {
        expect(index.delete(key)).toBe(model.get(key) ?? -1);
        model.delete(key);
      } else {
        expect(index.find(key)).toBe(model.get(key) ?? -1);
        expect(index.find(Buffer.from(key, 'utf8'))).toBe(model.get(key) ?? -1);
      }
      expect(index.size).toBe(model.size);
    }
    for (const key of universe) expect(index.find(key)).toBe(model.get(key) ?? -1);
  });

  it('refuses a key already there, a record number that is not one, and keys with no stored form; a key of 0 bytes is a key', () => {
    const source = new StringKeys();
    const index = new ByteKeyIndex(source);
    source.keys.push('');
    index.insert('', 0);
    expect(index.find('')).toBe(0);
    expect(() => index.insert(new Uint8Array(0), 1)).toThrow(/already/);
    expect(() => index.insert('a', -1)).toThrow(/not a record number/);
    expect(() => index.insert('a', 1.5)).toThrow(/not a record number/);
    const long = 'x'.repeat(MAX_KEY_BYTES + 1);
    expect(() => index.insert(long, 1)).toThrow(/no stored form/);
    expect(() => index.insert(Buffer.from(long), 1)).toThrow(/no stored form/);
    // 1,366 × 3 bytes: short in UTF-16, past the bound in UTF-8.
    expect(() => index.insert('€'.repeat(1366), 1)).toThrow(/no stored form/);
    expect(() => index.insert('\ud800', 1)).toThrow(/no stored form/);
    expect(index.find(long)).toBe(-1);
    expect(index.find('\ud800')).toBe(-1);
    expect(index.delete('\udfff')).toBe(-1);
    source.keys.push('x'.repeat(MAX_KEY_BYTES));
    index.insert('x'.repeat(MAX_KEY_BYTES), 1);
    expect(index.find('x'.repeat(MAX_KEY_BYTES))).toBe(1);
    expect(index.size).toBe(2);
  });

  it('holds 5,000,000 keys (MAX_SEEDED_LINKS), spread over its sub-tables, each growth step rehashing one of them', () => {
    expect(MAX_RECORDS).toBeGreaterThanOrEqual(MAX_SEEDED_LINKS);
    const width = 8;
    const keys = Buffer.alloc(MAX_SEEDED_LINKS * width);
    for (let n = 0; n < MAX_SEEDED_LINKS; n += 1) keys.write(n.toString(36).padStart(width, '0'), n * width, 'latin1');
    const index = new ByteKeyIndex({ sameKey: (record, key, length) => keys.compare(key, 0, length, record * width, record * width + width) === 0 });
    for (let n = 0; n < MAX_SEEDED_LINKS; n += 1) index.insert(keys.subarray(n * width, n * width + width), n);
    expect(index.size).toBe(MAX_SEEDED_LINKS);
    const share = MAX_SEEDED_LINKS / SUB_TABLES;
    for (const size of index.sizes()) expect(Math.abs(size - share)).toBeLessThan(share * 0.05);
    // One growth step read one sub-table's slots: ≤ 2^18 at this size (the bound in the comment).
    expect(index.largestGrowth).toBeLessThanOrEqual(1 << 18);
    expect(index.slots).toBeLessThanOrEqual(4 * MAX_SEEDED_LINKS);
    for (let n = 0; n < MAX_SEEDED_LINKS; n += 99_991) expect(index.find(n.toString(36).padStart(width, '0'))).toBe(n);
    expect(index.find('zzzzzzzz')).toBe(-1);
  }, 60_000);

  it('stays within its slots through churn: 300,000 keys put and deleted, 3 at a time, leave no growth behind (the deleted slots reclaimed)', () => {
    const source = new StringKeys();
    const index = new ByteKeyIndex(source);
    const wrong: number[] = [];
    for (let n = 0; n < 300_000; n += 1) {
      source.keys[n % 4] = `k${n}`;
      index.insert(`k${n}`, n % 4);
      if (n >= 3 && index.delete(`k${n - 3}`) !== (n - 3) % 4) wrong.push(n);
    }
    expect(wrong).toEqual([]);
    expect(index.size).toBe(3);
    expect(index.slots).toBeLessThanOrEqual(SUB_TABLES * 16);
  });
});
