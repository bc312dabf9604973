// The name of an account made for a key: readable, never the whole key (at most half of it).
import { expect, it } from 'vitest';
import { accountNameFor, keyLabel } from '../../src/core/key-label.js';

it.each([
  ['key-0123456789abcdef', 'key-…cdef'],
  ['ci-job-4711', 'ci…11'],
  ['ci-job-a', 'ci…-a'],
  ['demo', 'd…o'],
  ['abc', '…'],
  ['', '…'],
])('keyLabel(%j) is %j', (key, label) => {
  expect(keyLabel(key)).toBe(label);
});

it('never shows more than half of a key, whatever its length', () => {
  for (let length = 0; length <= 200; length += 1) {
    const key = 'x'.repeat(length);
    expect(keyLabel(key).replace('…', '').length).toBeLessThanOrEqual(length / 2);
  }
  expect(accountNameFor('key-0123456789abcdef')).toBe('Account for key key-…cdef');
});
