// --variety SEED and its twin MOCK_VARIETY: parsed once, listed in --help and in the options guide (docs/options.md).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { helpText, parseConfig } from '../../src/process/config.js';

describe('--variety SEED', () => {
  it.each([
    [['--variety', '7'], {}, 7],
    [[], { MOCK_VARIETY: '9007199254740991' }, Number.MAX_SAFE_INTEGER],
    [['--variety', '0'], { MOCK_VARIETY: '5' }, 0],
  ])('%j %j → %d', (argv, env, seed) => {
    expect(parseConfig(argv, env).variety).toBe(seed);
  });

  it('is off without it', () => {
    expect(parseConfig([], {})).not.toHaveProperty('variety');
  });

  it.each([['soon'], ['1.5'], ['9007199254740992']])('refuses %s, naming the flag', (value) => {
    expect(() => parseConfig(['--variety', value], {})).toThrow(/^--variety must be a whole number from 0 to 9007199254740991/);
  });

  it('is in --help and in the Options table of docs/options.md', () => {
    expect(helpText()).toMatch(/--variety SEED .*\[env MOCK_VARIETY\]/);
    expect(readFileSync('docs/options.md', 'utf8')).toContain('| `--variety SEED` | `MOCK_VARIETY` | off |');
  });
});
