// nearest(word, candidates): the flag or command a typo most likely meant, or none; and the
// messages of parseFlags for each way argv can be wrong.
import { describe, expect, it } from 'vitest';
import { nearest } from '../../src/core/nearest.js';
import { FlagError, parseFlags } from '../../src/core/parse-flags.js';

describe('nearest', () => {
  const flags = ['port', 'host', 'db', 'seed', 'scenario', 'scenarios', 'journal-size', 'cors-origin', 'allowed-host'];
  const rows: Array<[word: string, expected: string | undefined]> = [
    ['prot', 'port'],
    ['PORT', 'port'],
    ['hots', 'host'],
    ['sed', 'seed'],
    ['scenaro', 'scenario'],
    ['scenarioss', 'scenarios'],
    ['journalsize', 'journal-size'],
    ['cors-origins', 'cors-origin'],
    ['allowed-hosts', 'allowed-host'],
    ['bogus', undefined],
    ['verbose', undefined],
    ['x', undefined],
  ];
  it.each(rows)('%s → %s', (word, expected) => {
    expect(nearest(word, flags)).toBe(expected);
  });
});

describe('parseFlags', () => {
  const flags = { port: { type: 'string' }, quiet: { type: 'boolean' } } as const;
  it('returns the values of valid flags', () => {
    expect(parseFlags(['--port', '1', '--quiet'], flags)).toEqual({ port: '1', quiet: true });
  });

  const refused: Array<[name: string, argv: string[], message: string]> = [
    ['unknown flag, near one', ['--prot', '1'], "unknown option '--prot'; did you mean --port? (see --help)"],
    ['unknown flag, near none', ['--bogus'], "unknown option '--bogus' (see --help)"],
    ['unknown short flag', ['-p', '1'], "unknown option '-p' (see --help)"],
    ['positional, near a command', ['covrage'], "unexpected argument 'covrage'; did you mean the command 'coverage'? (see --help)"],
    ['positional', ['serve'], "unexpected argument 'serve': this command takes options only (see --help)"],
    ['positional after a valid flag and its value', ['--port', '1', 'extra'], "unexpected argument 'extra': this command takes options only (see --help)"],
    ['missing value', ['--port'], '--port needs a value (see --help)'],
    ['value that is a flag', ['--port', '--quiet'], "--port needs a value, got the option '--quiet' (write --port=VALUE if the value starts with '-')"],
    ['value on a boolean', ['--quiet=yes'], "--quiet takes no value, got '--quiet=yes' (see --help)"],
  ];
  it.each(refused)('%s', (_name, argv, message) => {
    expect(() => parseFlags(argv, flags, ['contract', 'coverage'])).toThrow(new FlagError(message));
  });

  // A command that adds its own pointer to every refusal (`see shortlink-mock contract --help`).
  it.each(refused)('%s, without the pointer to --help', (_name, argv, message) => {
    expect(() => parseFlags(argv, flags, ['contract', 'coverage'], '')).toThrow(new FlagError(message.replace(' (see --help)', '')));
  });

  it('refuses a negative number given as a separate word as a missing value, naming the flag', () => {
    expect(() => parseFlags(['--port', '-5'], flags, [], '')).toThrow(new FlagError("--port needs a value, got the option '-5' (write --port=VALUE if the value starts with '-')"));
  });
});
