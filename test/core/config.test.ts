// parseConfig(argv, env): defaults, flags, environment twins, precedence and refusals, as tables.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED } from '../../fixtures/seed.js';
import { ConfigError, helpText, parseConfig, type Config } from '../../src/config.js';
import { DEFAULT_FIXTURES_FILE, DEFAULT_SCENARIOS_DIR } from '../../src/package-files.js';

type Env = Record<string, string | undefined>;

const DEFAULTS: Config = {
  port: 4010,
  host: '127.0.0.1',
  db: '.data/db.json',
  seed: DEFAULT_SEED,
  reset: false,
  fixtures: DEFAULT_FIXTURES_FILE,
  scenarios: DEFAULT_SCENARIOS_DIR,
  watch: false,
  durability: 'durable',
  journalSize: 1000,
  acceptAnyKey: false,
  allowedHosts: [],
  corsOrigins: ['*'],
  quiet: false,
  help: false,
  version: false,
};

describe('parseConfig: accepted input', () => {
  const rows: Array<[name: string, argv: string[], env: Env, expected: Partial<Config>]> = [
    ['defaults', [], {}, {}],
    ['unrelated env is ignored', [], { SEED: '5', MOCK_PORT: '1', DB: 'x' }, {}],
    // flags
    ['--port N', ['--port', '5000'], {}, { port: 5000 }],
    ['--port=N', ['--port=5001'], {}, { port: 5001 }],
    ['--port 0 (a free port)', ['--port', '0'], {}, { port: 0 }],
    ['--scenarios DIR', ['--scenarios', 'my-scenarios'], {}, { scenarios: 'my-scenarios' }],
    ['MOCK_SCENARIOS', [], { MOCK_SCENARIOS: 'env-scenarios' }, { scenarios: 'env-scenarios' }],
    ['--scenario NAME', ['--scenario', 'slow'], {}, { scenario: 'slow' }],
    ['MOCK_SCENARIO', [], { MOCK_SCENARIO: 'not-found' }, { scenario: 'not-found' }],
    ['--scenario wins over MOCK_SCENARIO', ['--scenario', 'slow'], { MOCK_SCENARIO: 'not-found' }, { scenario: 'slow' }],
    ['--watch', ['--watch'], {}, { watch: true }],
    ['--durability relaxed', ['--durability', 'relaxed'], {}, { durability: 'relaxed' }],
    ['MOCK_DURABILITY', [], { MOCK_DURABILITY: 'relaxed' }, { durability: 'relaxed' }],
    ['--journal-size', ['--journal-size', '50'], {}, { journalSize: 50 }],
    ['MOCK_ACCEPT_ANY_KEY', [], { MOCK_ACCEPT_ANY_KEY: 'true' }, { acceptAnyKey: true }],
    ['--admin-token', ['--admin-token', 't0k'], {}, { adminToken: 't0k' }],
    ['--allowed-host, repeated', ['--allowed-host', 'Dev.Example.test', '--allowed-host', 'box'], {}, { allowedHosts: ['dev.example.test', 'box'] }],
    ['MOCK_ALLOWED_HOSTS, comma-separated', [], { MOCK_ALLOWED_HOSTS: 'a.test, b.test' }, { allowedHosts: ['a.test', 'b.test'] }],
    ['--allowed-host wins over MOCK_ALLOWED_HOSTS', ['--allowed-host', 'a.test'], { MOCK_ALLOWED_HOSTS: 'b.test' }, { allowedHosts: ['a.test'] }],
    ['MOCK_ADMIN_TOKEN', [], { MOCK_ADMIN_TOKEN: 'env-t0k' }, { adminToken: 'env-t0k' }],
    ['MOCK_WATCH=1', [], { MOCK_WATCH: '1' }, { watch: true }],
    ['--port 65535', ['--port', '65535'], {}, { port: 65535 }],
    ['--host', ['--host', '0.0.0.0'], {}, { host: '0.0.0.0' }],
    ['--db FILE', ['--db', 'tmp/db.json'], {}, { db: 'tmp/db.json' }],
    ['--db :memory:', ['--db', ':memory:'], {}, { db: ':memory:' }],
    ['--seed', ['--seed', '42'], {}, { seed: 42 }],
    ['--seed 0', ['--seed', '0'], {}, { seed: 0 }],
    ['--reset', ['--reset'], {}, { reset: true }],
    ['--fixtures', ['--fixtures', 'my-accounts.json'], {}, { fixtures: 'my-accounts.json' }],
    ['--cors-origin list', ['--cors-origin', 'http://a.test, http://b.test'], {}, { corsOrigins: ['http://a.test', 'http://b.test'] }],
    ['--quiet', ['--quiet'], {}, { quiet: true }],
    ['--help', ['--help'], {}, { help: true }],
    ['--version', ['--version'], {}, { version: true }],
    ['several flags', ['--port', '0', '--db', ':memory:', '--quiet', '--seed=9'], {}, { port: 0, db: ':memory:', quiet: true, seed: 9 }],
    // environment twins
    ['PORT', [], { PORT: '5002' }, { port: 5002 }],
    ['PORT=0', [], { PORT: '0' }, { port: 0 }],
    ['HOST', [], { HOST: '::1' }, { host: '::1' }],
    ['MOCK_DB', [], { MOCK_DB: ':memory:' }, { db: ':memory:' }],
    ['MOCK_SEED', [], { MOCK_SEED: '7' }, { seed: 7 }],
    ['MOCK_RESET=1', [], { MOCK_RESET: '1' }, { reset: true }],
    ['MOCK_RESET=TRUE', [], { MOCK_RESET: 'TRUE' }, { reset: true }],
    ['MOCK_RESET=false', [], { MOCK_RESET: 'false' }, { reset: false }],
    ['MOCK_RESET=0', [], { MOCK_RESET: '0' }, { reset: false }],
    ['MOCK_RESET empty', [], { MOCK_RESET: '' }, { reset: false }],
    ['MOCK_FIXTURES', [], { MOCK_FIXTURES: 'f.json' }, { fixtures: 'f.json' }],
    ['MOCK_CORS_ORIGIN', [], { MOCK_CORS_ORIGIN: 'http://a.test,http://b.test' }, { corsOrigins: ['http://a.test', 'http://b.test'] }],
    ['MOCK_QUIET=true', [], { MOCK_QUIET: 'true' }, { quiet: true }],
    // flags win over env
    ['--port over PORT', ['--port', '5000'], { PORT: '6000' }, { port: 5000 }],
    ['--port 0 over PORT', ['--port', '0'], { PORT: '6000' }, { port: 0 }],
    ['--port over a bad PORT', ['--port', '5000'], { PORT: 'abc' }, { port: 5000 }],
    ['--host over HOST', ['--host', 'localhost'], { HOST: '0.0.0.0' }, { host: 'localhost' }],
    ['--db over MOCK_DB', ['--db', 'a.json'], { MOCK_DB: 'b.json' }, { db: 'a.json' }],
    ['--seed over MOCK_SEED', ['--seed', '1'], { MOCK_SEED: '2' }, { seed: 1 }],
    ['--reset over MOCK_RESET=0', ['--reset'], { MOCK_RESET: '0' }, { reset: true }],
    ['--fixtures over MOCK_FIXTURES', ['--fixtures', 'a.json'], { MOCK_FIXTURES: 'b.json' }, { fixtures: 'a.json' }],
    ['--cors-origin over MOCK_CORS_ORIGIN', ['--cors-origin', 'http://a.test'], { MOCK_CORS_ORIGIN: 'http://b.test' }, { corsOrigins: ['http://a.test'] }],
    ['--quiet over MOCK_QUIET=false', ['--quiet'], { MOCK_QUIET: 'false' }, { quiet: true }],
  ];
  it.each(rows)('%s', (_name, argv, env, expected) => {
    expect(parseConfig(argv, env)).toEqual({ ...DEFAULTS, ...expected });
  });

  it('returns a frozen object', () => {
    const config = parseConfig(['--port', '5000'], {});
    expect(Object.isFrozen(config)).toBe(true);
    expect(() => { (config as Config).port = 1; }).toThrow(TypeError);
    expect(config.port).toBe(5000);
  });

  it('does not modify argv or env', () => {
    const argv = ['--port', '5000'];
    const env: Env = { PORT: '1' };
    parseConfig(argv, env);
    expect({ argv, env }).toEqual({ argv: ['--port', '5000'], env: { PORT: '1' } });
  });
});

describe('parseConfig: refused input is a one-line ConfigError naming the flag', () => {
  const rows: Array<[name: string, argv: string[], env: Env, mentions: RegExp]> = [
    ["--port 'abc'", ['--port', 'abc'], {}, /--port/],
    ['--port 70000', ['--port', '70000'], {}, /--port.*70000/],
    ['--port 65536', ['--port', '65536'], {}, /--port/],
    ['--port 80.5', ['--port', '80.5'], {}, /--port/],
    ['--port 1e3', ['--port', '1e3'], {}, /--port/],
    ['--port empty', ['--port', ''], {}, /--port/],
    ['--port without a value', ['--port'], {}, /--port/],
    ['--port -1', ['--port', '-1'], {}, /--port/],
    ['PORT=abc', [], { PORT: 'abc' }, /--port/],
    ['PORT=70000', [], { PORT: '70000' }, /--port/],
    ['--seed -1', ['--seed', '-1'], {}, /--seed/],
    ['--seed=-1', ['--seed=-1'], {}, /--seed/],
    ['MOCK_SEED=-1', [], { MOCK_SEED: '-1' }, /--seed/],
    ['--seed x', ['--seed', 'x'], {}, /--seed/],
    ['--seed too big', ['--seed', '99999999999999999999'], {}, /--seed/],
    ['unknown flag', ['--bogus'], {}, /--bogus/],
    ['--durability fast', ['--durability', 'fast'], {}, /--durability/],
    ['--journal-size -3', ['--journal-size', '-3'], {}, /--journal-size/],
    ['--admin-token empty', ['--admin-token', ''], {}, /--admin-token/],
    ['--allowed-host with a scheme', ['--allowed-host', 'http://dev.test'], {}, /--allowed-host takes a host name/],
    ['--allowed-host with a port', ['--allowed-host', 'dev.test:4010'], {}, /--allowed-host takes a host name/],
    ['unknown short flag', ['-p', '1'], {}, /-p/],
    ['positional argument', ['serve'], {}, /serve/],
    ['--reset with a value', ['--reset=yes'], {}, /--reset/],
    ['MOCK_RESET=maybe', [], { MOCK_RESET: 'maybe' }, /--reset.*maybe/],
    ['MOCK_QUIET=yes', [], { MOCK_QUIET: 'yes' }, /--quiet/],
    ['--host empty', ['--host', ''], {}, /--host/],
    ['MOCK_DB blank', [], { MOCK_DB: '  ' }, /--db/],
    ['--fixtures empty', ['--fixtures', ''], {}, /--fixtures/],
  ];
  it.each(rows)('%s', (_name, argv, env, mentions) => {
    let error: unknown;
    try {
      parseConfig(argv, env);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toMatch(mentions);
    expect(message).not.toContain('\n');
    expect((error as ConfigError).name).toBe('ConfigError');
  });
});

describe('helpText', () => {
  const text = helpText();
  const flags = ['--port', '--host', '--db', '--seed', '--reset', '--fixtures', '--cors-origin', '--quiet', '--help', '--version'];
  const envs = ['PORT', 'HOST', 'MOCK_DB', 'MOCK_SEED', 'MOCK_RESET', 'MOCK_FIXTURES', 'MOCK_CORS_ORIGIN', 'MOCK_QUIET'];
  it.each(flags)('mentions the flag %s', (flag) => {
    expect(text).toMatch(new RegExp(`(^|\\s)${flag}(\\s|$)`, 'm'));
  });
  it.each(envs)('mentions the environment variable %s', (name) => {
    expect(text).toMatch(new RegExp(`\\b${name}\\b`));
  });
  it('says that flags win over the environment', () => {
    expect(text).toMatch(/flags win over environment/i);
  });
});
