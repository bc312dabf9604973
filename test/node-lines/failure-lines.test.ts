import { describe, expect, it } from 'vitest';
import { FAILURE_LINES_KEPT, FailureLines } from './failure-lines.js';

const vitestFailure = [
  ' \x1b[32m✓\x1b[39m  unit  test/a.test.ts (3 tests) 12ms',
  ' \x1b[31m❯\x1b[39m  unit  test/b.test.ts (2 tests | 1 failed) 40ms',
  '   \x1b[31m×\x1b[39m pages once 20ms',
  '',
  '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯',
  '',
  ' \x1b[41mFAIL\x1b[49m  unit  test/b.test.ts > paging > pages once',
  'AssertionError: expected 2 to be 1',
  ' ❯ test/b.test.ts:10:5',
  '      8|   it(\'pages once\', () => {',
  '      9|     expect(2).toBe(1);',
  '',
  ' Test Files  1 failed | 1 passed (2)',
].join('\n');

describe('FailureLines', () => {
  it('keeps the failed test, its FAIL line and the reason after it, without colours', () => {
    const lines = new FailureLines();
    lines.add(vitestFailure);
    lines.end();
    expect(lines.kept).toEqual([
      '   × pages once 20ms',
      ' FAIL  unit  test/b.test.ts > paging > pages once',
      '    AssertionError: expected 2 to be 1',
      '    ❯ test/b.test.ts:10:5',
      '    8|   it(\'pages once\', () => {',
    ]);
  });

  it('finds the same lines in output split anywhere, one character a chunk', () => {
    const whole = new FailureLines();
    whole.add(vitestFailure);
    whole.end();
    const split = new FailureLines();
    for (const char of vitestFailure) split.add(char);
    split.end();
    expect(split.kept).toEqual(whole.kept);
  });

  it('keeps nothing from a passing run', () => {
    const lines = new FailureLines();
    lines.add(' ✓  unit  test/a.test.ts (3 tests) 12ms\n Test Files  1 passed (1)\n');
    lines.end();
    expect(lines.kept).toEqual([]);
  });

  it('keeps a bounded number of lines from a run failing everywhere, and cuts long lines', () => {
    const lines = new FailureLines();
    const many = 10_000;
    for (let index = 0; index < many; index += 1) lines.add(`   × test ${index} ${'x'.repeat(1000)}\n`);
    lines.add(`${'y'.repeat(200_000)}`);
    lines.end();
    expect(lines.kept).toHaveLength(FAILURE_LINES_KEPT);
    expect(lines.dropped).toBe(many - FAILURE_LINES_KEPT);
    expect(Math.max(...lines.kept.map((line) => line.length))).toBeLessThanOrEqual(301);
  });
});
