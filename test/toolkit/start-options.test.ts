// startMock()'s options go, typed, through the one check of each value the CLI's flags go through
// (configFrom, src/process/config.ts), with no environment: the same Config as the CLI's flags
// make, and the same refusals, naming the option instead of the flag.
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/process/config.js';
import { configOf, inOptionTerms, type StartMockOptions } from '../../src/toolkit/start-options.js';

/** What startMock() defaults differently from the CLI, as flags. */
const IN_PROCESS = ['--port=0', '--db=:memory:', '--quiet'];

describe('configOf: the Config the CLI makes of the same flags', () => {
  it.each<[StartMockOptions, string[]]>([
    [{}, []],
    [{ port: 4999, db: 'data.json' }, ['--port=4999', '--db=data.json']],
    [{ reset: true, watch: false, quiet: true }, ['--reset']],
    [{ allowedHosts: ['a.test', 'b.test'] }, ['--allowed-host=a.test', '--allowed-host=b.test']],
    [{ corsOrigins: ['https://a.test', 'http://b.test:8080'] }, ['--cors-origin=https://a.test,http://b.test:8080']],
    [{ adminToken: '-starts-with-a-dash', journalSize: 5, acceptAnyKey: true, maxAnyKeyAccounts: 3 }, ['--journal-size=5', '--accept-any-key', '--max-any-key-accounts=3', '--admin-token=-starts-with-a-dash']],
    [{ proxy: 'http://127.0.0.1:9/api', proxyStrict: true, proxyTimeoutMs: 2500 }, ['--proxy=http://127.0.0.1:9/api', '--proxy-strict', '--proxy-timeout=2500']],
    [{ variety: { seed: 7 }, seed: 3, durability: 'relaxed', redisPrefix: 'x:' }, ['--variety=7', '--seed=3', '--durability=relaxed', '--redis-prefix=x:']],
  ])('%j', (options, argv) => {
    expect(configOf(options)).toEqual(parseConfig([...IN_PROCESS, ...argv], {}));
  });
});

describe('configOf: typed values, never written out as flags and parsed back', () => {
  it("an origin holding a comma is one bad origin, not the CLI's comma-separated list of two", () => {
    expect(() => configOf({ corsOrigins: ['https://a.test,https://b.test'] })).toThrow(/^startMock: options.corsOrigins: 'https:\/\/a.test,https:\/\/b.test' can never match/);
  });
});

describe('configOf: the refusals the CLI gives, naming the option', () => {
  it.each<[StartMockOptions, string[]]>([
    [{ port: 70_000 }, ['--port=70000']],
    [{ port: 1.5 }, ['--port=1.5']],
    [{ journalSize: -1 }, ['--journal-size=-1']],
    [{ seed: Number.NaN }, ['--seed=NaN']],
    [{ durability: 'sometimes' as 'durable' }, ['--durability=sometimes']],
    [{ host: ' ' }, ['--host= ']],
    [{ corsOrigins: [] }, ['--cors-origin=']],
    [{ corsOrigins: ['example.test'] }, ['--cors-origin=example.test']],
    [{ allowedHosts: ['http://a.test'] }, ['--allowed-host=http://a.test']],
    [{ redisPrefix: 'has space' }, ['--redis-prefix=has space']],
    [{ proxy: 'ftp://x' }, ['--proxy=ftp://x']],
    [{ proxyStrict: true }, ['--proxy-strict']],
    [{ proxyTimeoutMs: 2500 }, ['--proxy-timeout=2500']],
    [{ proxy: 'http://a.test', proxyTimeoutMs: 0 }, ['--proxy=http://a.test', '--proxy-timeout=0']],
    [{ proxy: 'http://a.test', variety: { seed: 1 } }, ['--proxy=http://a.test', '--variety=1']],
    [{ variety: { seed: -1 } }, ['--variety=-1']],
    [{ noBuiltinScenarios: true }, ['--no-builtin-scenarios']],
  ])('%j', (options, argv) => {
    let cli: unknown;
    try {
      parseConfig([...IN_PROCESS, ...argv], {});
    } catch (error) {
      cli = error;
    }
    expect(cli).toBeInstanceOf(ConfigError);
    expect(() => configOf(options)).toThrow(new ConfigError(`startMock: ${inOptionTerms((cli as Error).message)}`));
  });
});

describe('configOf: what the CLI cannot be given, refused naming the option', () => {
  it.each<[string, unknown, string | RegExp]>([
    ['a misspelt name', { prot: 1 }, /^startMock: unknown option 'prot'; did you mean 'port'\? \(known options: port, host, /],
    ['a name misspelt in its case', { acceptAnykey: true }, /^startMock: unknown option 'acceptAnykey'; did you mean 'acceptAnyKey'\?/],
    ['a name far from any', { colour: 'red' }, /^startMock: unknown option 'colour'; known options: port, /],
    ['variety as a bare seed', { variety: 5 }, 'startMock: options.variety takes { seed, only?, except? }, got 5'],
    ['variety without a seed', { variety: { only: ['x'] } }, 'startMock: options.variety needs a seed: { seed: 1 }'],
    ['a misspelt field of variety', { variety: { seed: 1, onl: ['x'] } }, /^startMock: options.variety has no field 'onl'; did you mean 'only'\?/],
    ['variety.only as one name', { variety: { seed: 1, only: 'x' } }, `startMock: options.variety.only takes a list of dimension names, got "x"`],
    ['a switch where text goes', { port: true }, 'startMock: options.port takes text or a number, got true'],
    ['a list where text goes', { host: ['127.0.0.1'] }, 'startMock: options.host takes text or a number, got ["127.0.0.1"]'],
    ['a number where a switch goes', { quiet: 0 }, 'startMock: options.quiet must be true or false, got 0'],
    ['a number where a list goes', { corsOrigins: 5 }, 'startMock: options.corsOrigins takes a list of text, got 5'],
    ['a list of numbers', { allowedHosts: [5] }, 'startMock: options.allowedHosts takes a list of text, got [5]'],
  ])('%s', (_what, options, message) => {
    expect(() => configOf(options as StartMockOptions)).toThrow(ConfigError);
    expect(() => configOf(options as StartMockOptions)).toThrow(message);
  });

  it("text is read as the CLI reads it: port '1' is --port 1, quiet 'false' is --quiet false", () => {
    expect(configOf({ port: '1', quiet: 'false', journalSize: '5' } as unknown as StartMockOptions)).toMatchObject({ port: 1, quiet: false, journalSize: 5 });
    expect(() => configOf({ port: 'one' } as unknown as StartMockOptions)).toThrow("startMock: options.port must be a whole number from 0 to 65535, got 'one'");
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
