import { describe, expect, test } from 'vitest';
import { nestsDeeperThan } from '../../src/http/json-depth.js';

const bytes = (text: string): Uint8Array => Buffer.from(text);

describe('nestsDeeperThan', () => {
  test.each([
    ['{}', 1, false],
    ['{}', 0, true],
    ['[[1]]', 2, false],
    ['[[1]]', 1, true],
    ['[[],[],[]]', 2, false],
    ['{"a":{"b":[1]}}', 2, true],
    ['"[[[[["', 0, false],
    ['["\\"[[["]', 1, false],
    ['["\\\\",[[]]]', 2, true],
    ['["é[", {"ü": [[]]}]', 3, true],
    ['["é[", {"ü": [[]]}]', 4, false],
    ['', 0, false],
  ])('%s with limit %i: %s', (text, limit, expected) => {
    expect(nestsDeeperThan(bytes(text), limit)).toBe(expected);
  });
});
