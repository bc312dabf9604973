// startMock()'s options become the CLI's own flags, which parseConfig checks and defaults as it
// does for the CLI: a table of options → argv, and the Config they make with no environment.
import { describe, expect, it } from 'vitest';
import { configOf, inOptionTerms, toArgv } from '../../src/toolkit/start-options.js';

describe('toArgv', () => {
  it.each([
    [{}, []],
    [{ port: 0, db: ':memory:' }, ['--port=0', '--db=:memory:']],
    [{ reset: true, watch: false, quiet: true }, ['--reset', '--quiet']],
    [{ allowedHosts: ['a.test', 'b.test'] }, ['--allowed-host=a.test', '--allowed-host=b.test']],
    [{ corsOrigins: ['https://a.test', 'http://b.test:8080'] }, ['--cors-origin=https://a.test,http://b.test:8080']],
    [{ adminToken: '-starts-with-a-dash', journalSize: 5, acceptAnyKey: true }, ['--journal-size=5', '--accept-any-key', '--admin-token=-starts-with-a-dash']],
  ])('%j → %j', (options, argv) => {
    expect(toArgv(options)).toEqual(argv);
  });
});

describe('configOf', () => {
  it('defaults to a free port, memory and quiet; everything else as the CLI defaults it', () => {
    const config = configOf({});
    expect(config).toMatchObject({ port: 0, host: '127.0.0.1', db: ':memory:', quiet: true, reset: false, acceptAnyKey: false, corsOrigins: ['*'], workers: 1 });
  });

  it('takes every option given, and quiet: false turns the per-request lines back on', () => {
    const config = configOf({ port: 4999, seed: 3, durability: 'relaxed', quiet: false, allowedHosts: ['dev.test'], adminToken: 't' });
    expect(config).toMatchObject({ port: 4999, seed: 3, durability: 'relaxed', quiet: false, allowedHosts: ['dev.test'], adminToken: 't' });
  });

  it('names the option in a refusal, not the flag', () => {
    expect(() => configOf({ journalSize: -1 })).toThrow("startMock: options.journalSize must be a whole number from 0 to 1000000, got '-1'");
    expect(() => configOf({ corsOrigins: ['example.test'] })).toThrow(/^startMock: options.corsOrigins: 'example.test' has no scheme/);
  });
});

describe('inOptionTerms', () => {
  it.each([
    ['--host 0.0.0.0 is not a loopback address: set --admin-token (or MOCK_ADMIN_TOKEN) to protect the admin API', 'options.host 0.0.0.0 is not a loopback address: set options.adminToken to protect the admin API'],
    ['--ready-file: cannot write', 'options.readyFile: cannot write'],
    ['--workers 2 needs state shared by every worker', '--workers 2 needs state shared by every worker'],
  ])('%s', (message, expected) => {
    expect(inOptionTerms(message)).toBe(expected);
  });
});
