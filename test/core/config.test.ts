// parseConfig(argv, env): defaults, flags, environment twins, precedence, where each value came
// from, and refusals that name what the user set, as tables.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED } from '../../fixtures/seed.js';
import { asGiven, COMMANDS, ConfigError, helpText, parseConfig, sourceOf, type Config } from '../../src/process/config.js';
import { DEFAULT_FIXTURES_FILE, DEFAULT_SCENARIOS_DIR } from '../../src/contract/package-files.js';

type Env = Record<string, string | undefined>;
type Values = Omit<Config, 'sources'>;

/** The parsed values without their sources (a table of their own below). */
function values(argv: string[], env: Env): Values {
  const { sources: _sources, ...rest } = parseConfig(argv, env);
  return rest;
}

const DEFAULTS: Values = {
  port: 4010,
  host: '127.0.0.1',
  db: '.data/db.json',
  seed: DEFAULT_SEED,
  reset: false,
  fixtures: DEFAULT_FIXTURES_FILE,
  scenarios: DEFAULT_SCENARIOS_DIR,
  builtinScenarios: true,
  watch: false,
  durability: 'durable',
  journalSize: 1000,
  acceptAnyKey: false,
  maxAnyKeyAccounts: 10_000,
  redisPrefix: 'shortlink-mock:',
  workers: 1,
  allowedHosts: [],
  corsOrigins: ['*'],
  proxyStrict: false,
  proxyTimeoutMs: 10_000,
  proxyConcurrency: 8,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  quiet: false,
  help: false,
  version: false,
};

describe('parseConfig: accepted input', () => {
  const rows: Array<[name: string, argv: string[], env: Env, expected: Partial<Values>]> = [
    ['defaults', [], {}, {}],
    ['unrelated env is ignored', [], { SEED: '5', MOCK_PORTS: '1', DB: 'x' }, {}],
    // Shells and CI images set these for other programs (HOST is often the machine's name).
    ['PORT and HOST are not the mock\'s', [], { PORT: '5002', HOST: 'build-box-7' }, {}],
    // flags
    ['--port N', ['--port', '5000'], {}, { port: 5000 }],
    ['--db redis://', ['--db', 'redis://127.0.0.1:6379/2'], {}, { db: 'redis://127.0.0.1:6379/2' }],
    ['--db unix:///', ['--db', 'unix:///run/redis.sock?db=2'], {}, { db: 'unix:///run/redis.sock?db=2' }],
    // Only a value that starts with a Redis scheme is taken for a Redis URL.
    ['--db a file named after Redis', ['--db', 'redis-state.json'], {}, { db: 'redis-state.json' }],
    ['--db a path with redis: inside', ['--db', 'state/redis:1.json'], {}, { db: 'state/redis:1.json' }],
    ['--redis-prefix', ['--redis-prefix', 'team-a:'], {}, { redisPrefix: 'team-a:' }],
    ['MOCK_REDIS_PREFIX', [], { MOCK_REDIS_PREFIX: 'ci-42:' }, { redisPrefix: 'ci-42:' }],
    ['--workers 3 with Redis', ['--workers', '3', '--db', 'redis://localhost:6379'], {}, { workers: 3, db: 'redis://localhost:6379' }],
    ['MOCK_WORKERS=auto with rediss://', [], { MOCK_WORKERS: 'auto', MOCK_DB: 'rediss://cache.test:6380' }, { workers: 'auto', db: 'rediss://cache.test:6380' }],
    ['--workers 1 with a file', ['--workers', '1'], {}, { workers: 1 }],
    ['--port=N', ['--port=5001'], {}, { port: 5001 }],
    ['--port 0 (a free port)', ['--port', '0'], {}, { port: 0 }],
    ['--scenarios DIR', ['--scenarios', 'my-scenarios'], {}, { scenarios: 'my-scenarios' }],
    ['MOCK_SCENARIOS', [], { MOCK_SCENARIOS: 'env-scenarios' }, { scenarios: 'env-scenarios' }],
    ['--no-builtin-scenarios with --scenarios', ['--scenarios', 'mine', '--no-builtin-scenarios'], {}, { scenarios: 'mine', builtinScenarios: false }],
    ['MOCK_NO_BUILTIN_SCENARIOS with MOCK_SCENARIOS', [], { MOCK_SCENARIOS: 'mine', MOCK_NO_BUILTIN_SCENARIOS: '1' }, { scenarios: 'mine', builtinScenarios: false }],
    ['--scenario NAME', ['--scenario', 'slow'], {}, { scenario: 'slow' }],
    ['MOCK_SCENARIO', [], { MOCK_SCENARIO: 'not-found' }, { scenario: 'not-found' }],
    ['--scenario wins over MOCK_SCENARIO', ['--scenario', 'slow'], { MOCK_SCENARIO: 'not-found' }, { scenario: 'slow' }],
    ['--watch', ['--watch'], {}, { watch: true }],
    ['--durability relaxed', ['--durability', 'relaxed'], {}, { durability: 'relaxed' }],
    ['MOCK_DURABILITY', [], { MOCK_DURABILITY: 'relaxed' }, { durability: 'relaxed' }],
    ['--journal-size', ['--journal-size', '50'], {}, { journalSize: 50 }],
    ['--max-any-key-accounts', ['--max-any-key-accounts', '50'], {}, { maxAnyKeyAccounts: 50 }],
    ['MOCK_MAX_ANY_KEY_ACCOUNTS', [], { MOCK_MAX_ANY_KEY_ACCOUNTS: '7' }, { maxAnyKeyAccounts: 7 }],
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
    ['--cors-origin with a port', ['--cors-origin', 'http://localhost:3000'], {}, { corsOrigins: ['http://localhost:3000'] }],
    ['--cors-origin of a browser extension', ['--cors-origin', 'chrome-extension://abcdefgh'], {}, { corsOrigins: ['chrome-extension://abcdefgh'] }],
    ['--cors-origin *', ['--cors-origin', '*'], {}, { corsOrigins: ['*'] }],
    ['--ready-file', ['--ready-file', 'out/url'], {}, { readyFile: 'out/url' }],
    ['MOCK_READY_FILE', [], { MOCK_READY_FILE: 'env-url' }, { readyFile: 'env-url' }],
    ['--quiet', ['--quiet'], {}, { quiet: true }],
    ['--proxy', ['--proxy', 'https://staging.example.test'], {}, { proxy: new URL('https://staging.example.test') }],
    ['MOCK_PROXY with a base path', [], { MOCK_PROXY: 'http://127.0.0.1:8080/api/' }, { proxy: new URL('http://127.0.0.1:8080/api/') }],
    ['--proxy-strict', ['--proxy', 'http://up.test', '--proxy-strict'], {}, { proxy: new URL('http://up.test'), proxyStrict: true }],
    ['--proxy-timeout 2s', ['--proxy', 'http://up.test', '--proxy-timeout', '2s'], {}, { proxy: new URL('http://up.test'), proxyTimeoutMs: 2000 }],
    ['--proxy-timeout 250ms', ['--proxy', 'http://up.test', '--proxy-timeout', '250ms'], {}, { proxy: new URL('http://up.test'), proxyTimeoutMs: 250 }],
    ['MOCK_PROXY_TIMEOUT in milliseconds', [], { MOCK_PROXY: 'http://up.test', MOCK_PROXY_TIMEOUT: '1500' }, { proxy: new URL('http://up.test'), proxyTimeoutMs: 1500 }],
    ['--proxy-concurrency 4', ['--proxy', 'http://up.test', '--proxy-concurrency', '4'], {}, { proxy: new URL('http://up.test'), proxyConcurrency: 4 }],
    ['MOCK_PROXY_CONCURRENCY', [], { MOCK_PROXY: 'http://up.test', MOCK_PROXY_CONCURRENCY: '64' }, { proxy: new URL('http://up.test'), proxyConcurrency: 64 }],
    // The server's timeouts: a bare number is seconds; a longer head timeout carries the request's along.
    ['--headers-timeout 2 (seconds)', ['--headers-timeout', '2'], {}, { headersTimeoutMs: 2000 }],
    ['MOCK_HEADERS_TIMEOUT 500ms', [], { MOCK_HEADERS_TIMEOUT: '500ms' }, { headersTimeoutMs: 500 }],
    ['--headers-timeout 60 raises the request timeout', ['--headers-timeout', '60'], {}, { headersTimeoutMs: 60_000, requestTimeoutMs: 60_000 }],
    ['--request-timeout 5s', ['--headers-timeout', '1', '--request-timeout', '5s'], {}, { headersTimeoutMs: 1000, requestTimeoutMs: 5000 }],
    ['MOCK_REQUEST_TIMEOUT', [], { MOCK_REQUEST_TIMEOUT: '120' }, { requestTimeoutMs: 120_000 }],
    ['--help', ['--help'], {}, { help: true }],
    ['--version', ['--version'], {}, { version: true }],
    ['several flags', ['--port', '0', '--db', ':memory:', '--quiet', '--seed=9'], {}, { port: 0, db: ':memory:', quiet: true, seed: 9 }],
    // environment twins
    ['MOCK_PORT', [], { MOCK_PORT: '5002' }, { port: 5002 }],
    ['MOCK_PORT=0', [], { MOCK_PORT: '0' }, { port: 0 }],
    ['MOCK_HOST', [], { MOCK_HOST: '::1' }, { host: '::1' }],
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
    ['--port over MOCK_PORT', ['--port', '5000'], { MOCK_PORT: '6000' }, { port: 5000 }],
    ['--port 0 over MOCK_PORT', ['--port', '0'], { MOCK_PORT: '6000' }, { port: 0 }],
    ['--port over a bad MOCK_PORT', ['--port', '5000'], { MOCK_PORT: 'abc' }, { port: 5000 }],
    ['--host over MOCK_HOST', ['--host', 'localhost'], { MOCK_HOST: '0.0.0.0' }, { host: 'localhost' }],
    ['--db over MOCK_DB', ['--db', 'a.json'], { MOCK_DB: 'b.json' }, { db: 'a.json' }],
    ['--seed over MOCK_SEED', ['--seed', '1'], { MOCK_SEED: '2' }, { seed: 1 }],
    ['--reset over MOCK_RESET=0', ['--reset'], { MOCK_RESET: '0' }, { reset: true }],
    ['--fixtures over MOCK_FIXTURES', ['--fixtures', 'a.json'], { MOCK_FIXTURES: 'b.json' }, { fixtures: 'a.json' }],
    ['--cors-origin over MOCK_CORS_ORIGIN', ['--cors-origin', 'http://a.test'], { MOCK_CORS_ORIGIN: 'http://b.test' }, { corsOrigins: ['http://a.test'] }],
    ['--quiet over MOCK_QUIET=false', ['--quiet'], { MOCK_QUIET: 'false' }, { quiet: true }],
  ];
  it.each(rows)('%s', (_name, argv, env, expected) => {
    expect(values(argv, env)).toEqual({ ...DEFAULTS, ...expected });
  });

  it('returns a frozen object', () => {
    const config = parseConfig(['--port', '5000'], {});
    expect(Object.isFrozen(config)).toBe(true);
    expect(() => { (config as Config).port = 1; }).toThrow(TypeError);
    expect(config.port).toBe(5000);
  });

  it('does not modify argv or env', () => {
    const argv = ['--port', '5000'];
    const env: Env = { MOCK_PORT: '1' };
    parseConfig(argv, env);
    expect({ argv, env }).toEqual({ argv: ['--port', '5000'], env: { MOCK_PORT: '1' } });
  });
});

describe('parseConfig: where each value came from', () => {
  const rows: Array<[name: string, argv: string[], env: Env, sources: Record<string, string>]> = [
    ['defaults come from nowhere', [], {}, {}],
    ['a flag', ['--scenario', 'slow'], {}, { scenario: '--scenario' }],
    ['its environment twin', [], { MOCK_SCENARIO: 'slow' }, { scenario: 'MOCK_SCENARIO' }],
    ['the flag, when both are set', ['--port', '1'], { MOCK_PORT: '2', MOCK_HOST: '::1' }, { port: '--port', host: 'MOCK_HOST' }],
    ['a boolean twin', [], { MOCK_RESET: '1' }, { reset: 'MOCK_RESET' }],
  ];
  it.each(rows)('%s', (_name, argv, env, sources) => {
    expect(parseConfig(argv, env).sources).toEqual(sources);
  });

  it('says how the user set a value, flag or variable', () => {
    const fromEnv = parseConfig([], { MOCK_HOST: '0.0.0.0' });
    const fromFlag = parseConfig(['--host', '0.0.0.0'], {});
    expect([sourceOf(fromEnv, 'host'), asGiven(fromEnv, 'host', fromEnv.host)]).toEqual(['MOCK_HOST', 'MOCK_HOST=0.0.0.0']);
    expect([sourceOf(fromFlag, 'host'), asGiven(fromFlag, 'host', fromFlag.host)]).toEqual(['--host', '--host 0.0.0.0']);
    expect(sourceOf(parseConfig([], {}), 'scenario')).toBe('--scenario');
  });
});

describe('parseConfig: refused input is a one-line, lower-case ConfigError naming the flag or variable that was set', () => {
  const rows: Array<[name: string, argv: string[], env: Env, mentions: RegExp]> = [
    ["--port 'abc'", ['--port', 'abc'], {}, /--port/],
    ['--port 70000', ['--port', '70000'], {}, /--port.*70000/],
    ['--port 65536', ['--port', '65536'], {}, /--port/],
    ['--port 80.5', ['--port', '80.5'], {}, /--port/],
    ['--port 1e3', ['--port', '1e3'], {}, /--port/],
    ['--port empty', ['--port', ''], {}, /--port/],
    ['--port without a value', ['--port'], {}, /--port/],
    ['--port -1', ['--port', '-1'], {}, /--port/],
    ['MOCK_PORT=abc', [], { MOCK_PORT: 'abc' }, /^MOCK_PORT must be a whole number from 0 to 65535, got 'abc'$/],
    ['MOCK_PORT=70000', [], { MOCK_PORT: '70000' }, /^MOCK_PORT .*70000/],
    ['MOCK_HOST empty', [], { MOCK_HOST: '' }, /^MOCK_HOST must not be empty$/],
    ['--seed -1', ['--seed', '-1'], {}, /--seed/],
    ['--seed=-1', ['--seed=-1'], {}, /--seed/],
    ['MOCK_SEED=-1', [], { MOCK_SEED: '-1' }, /^MOCK_SEED .*-1/],
    ['--seed x', ['--seed', 'x'], {}, /--seed/],
    ['--seed too big', ['--seed', '99999999999999999999'], {}, /--seed/],
    ['unknown flag', ['--bogus'], {}, /^unknown option '--bogus' \(see --help\)$/],
    // Without a directory of one's own there would be no scenario at all: surely not what was meant.
    ['--no-builtin-scenarios without --scenarios', ['--no-builtin-scenarios'], {}, /^--no-builtin-scenarios needs --scenarios DIR: .*no scenario/],
    ['MOCK_NO_BUILTIN_SCENARIOS without a directory', [], { MOCK_NO_BUILTIN_SCENARIOS: 'true' }, /^MOCK_NO_BUILTIN_SCENARIOS needs MOCK_SCENARIOS=DIR: /],
    ['a typo of --port', ['--prot', '5000'], {}, /^unknown option '--prot'; did you mean --port\?/],
    ['a typo of --journal-size', ['--journalsize', '5'], {}, /did you mean --journal-size\?/],
    ['--cors-origins', ['--cors-origins', 'http://a.test'], {}, /did you mean --cors-origin\?/],
    ['--allowed-hosts', ['--allowed-hosts', 'a.test'], {}, /did you mean --allowed-host\?/],
    ['--Port', ['--Port', '1'], {}, /did you mean --port\?/],
    ['--scenaro', ['--scenaro', 'slow'], {}, /did you mean --scenario\?/],
    ['a typo of a command', ['covrage'], {}, /^unexpected argument 'covrage'; did you mean the command 'coverage'\?/],
    ['--durability fast', ['--durability', 'fast'], {}, /--durability/],
    ['MOCK_DURABILITY=fast', [], { MOCK_DURABILITY: 'fast' }, /^MOCK_DURABILITY must be 'durable' or 'relaxed', got 'fast'$/],
    ['MOCK_JOURNAL_SIZE=x', [], { MOCK_JOURNAL_SIZE: 'x' }, /^MOCK_JOURNAL_SIZE /],
    ['--workers 2 with a file store', ['--workers', '2'], {}, /^--workers 2 needs state shared by every worker: start with --db redis:\/\/host:port/],
    ['MOCK_WORKERS=auto with :memory:', ['--db', ':memory:'], { MOCK_WORKERS: 'auto' }, /^MOCK_WORKERS auto needs state shared by every worker/],
    ['--workers 0', ['--workers', '0', '--db', 'redis://x:1'], {}, /^--workers must be a whole number from 1 to 64/],
    // A value that starts with a Redis scheme was taken for a file path when it was not a URL.
    ['--db redis: (nothing after the scheme)', ['--db', 'redis:'], {}, /^--db: 'redis:' is not a Redis URL; a Redis URL is redis:\/\/\[user:pass@\]host:port\[\/n\] \(rediss:\/\/ for TLS, unix:\/\/\/path\/redis\.sock\[\?db=n\] for a Unix socket\), and a db file's path does not start with 'redis:'$/],
    ['MOCK_DB=redis:/host (one slash)', [], { MOCK_DB: 'redis:/cache.test:6379' }, /^MOCK_DB: 'redis:\/cache\.test:6379' is not a Redis URL; /],
    ['--db rediss:host', ['--db', 'rediss:cache.test'], {}, /^--db: 'rediss:cache\.test' is not a Redis URL; .*does not start with 'rediss:'$/],
    ['--db REDIS:// in another case, one slash', ['--db', 'REDIS:/x'], {}, /^--db: 'REDIS:\/x' is not a Redis URL; /],
    ['--db unix:redis.sock', ['--db', 'unix:redis.sock'], {}, /^--db: 'unix:redis\.sock' is not a Redis URL; /],
    ['MOCK_WORKERS=2 with a mistyped Redis URL: the URL is what is wrong', [], { MOCK_WORKERS: '2', MOCK_DB: 'redis:' }, /^MOCK_DB: 'redis:' is not a Redis URL; /],
    ['--redis-prefix with a space', ['--redis-prefix', 'a b'], {}, /^--redis-prefix takes up to 100 printable characters/],
    // Issue 23 (10e): the keys of another prefix's generation: a reset through that prefix would delete this one's keys.
    ['--redis-prefix naming a generation of another', ['--redis-prefix', 'shortlink-mock:0123456789abcdef:'], {}, /^--redis-prefix 'shortlink-mock:0123456789abcdef:' holds 16 hex digits and ':' after its first character/],
    ['MOCK_ALLOWED_HOSTS with a scheme', [], { MOCK_ALLOWED_HOSTS: 'a.test,http://b.test' }, /^MOCK_ALLOWED_HOSTS takes a host name/],
    ['--port followed by another flag', ['--port', '--quiet'], {}, /^--port needs a value, got the option '--quiet'/],
    ['--journal-size -3', ['--journal-size', '-3'], {}, /--journal-size/],
    ['--max-any-key-accounts 0', ['--max-any-key-accounts', '0'], {}, /--max-any-key-accounts/],
    ['--admin-token empty', ['--admin-token', ''], {}, /--admin-token/],
    ['--allowed-host with a scheme', ['--allowed-host', 'http://dev.test'], {}, /--allowed-host takes a host name/],
    ['--allowed-host with a port', ['--allowed-host', 'dev.test:4010'], {}, /--allowed-host takes a host name/],
    ['unknown short flag', ['-p', '1'], {}, /-p/],
    ['positional argument', ['serve'], {}, /serve/],
    ['--reset with a value', ['--reset=yes'], {}, /--reset/],
    ['MOCK_RESET=maybe', [], { MOCK_RESET: 'maybe' }, /^MOCK_RESET: expected true\/false or 1\/0, got 'maybe'$/],
    ['MOCK_QUIET=yes', [], { MOCK_QUIET: 'yes' }, /^MOCK_QUIET: /],
    ['--host empty', ['--host', ''], {}, /--host/],
    ['MOCK_DB blank', [], { MOCK_DB: '  ' }, /^MOCK_DB must not be empty$/],
    ['--fixtures empty', ['--fixtures', ''], {}, /--fixtures/],
    // A browser's Origin is exactly scheme://host[:port]: anything else could never match.
    ['--cors-origin without a scheme', ['--cors-origin', 'app.example.test'], {}, /^--cors-origin: 'app\.example\.test' has no scheme, so it can never match a browser's Origin.*'https:\/\/app\.example\.test'/],
    ['--cors-origin host:port without a scheme', ['--cors-origin', 'localhost:3000'], {}, /'localhost:3000' has no scheme.*'http:\/\/localhost:3000'/],
    ['--cors-origin, one of a list without a scheme', ['--cors-origin', 'https://a.test,b.test'], {}, /'b\.test' has no scheme/],
    ['MOCK_CORS_ORIGIN without a scheme', [], { MOCK_CORS_ORIGIN: 'app.example.test' }, /^MOCK_CORS_ORIGIN: 'app\.example\.test' has no scheme/],
    ['--cors-origin with a trailing slash', ['--cors-origin', 'https://app.example.test/'], {}, /can never match a browser's Origin.*write 'https:\/\/app\.example\.test'$/],
    ['--cors-origin with a path', ['--cors-origin', 'https://app.example.test/app'], {}, /write 'https:\/\/app\.example\.test'$/],
    ['--cors-origin in upper case', ['--cors-origin', 'https://App.Example.test'], {}, /write 'https:\/\/app\.example\.test'$/],
    ['--cors-origin with the default port', ['--cors-origin', 'https://app.example.test:443'], {}, /write 'https:\/\/app\.example\.test'$/],
    ['--cors-origin empty', ['--cors-origin', ''], {}, /^--cors-origin must not be empty$/],
    ['--ready-file without a value', ['--ready-file'], {}, /^--ready-file needs a value/],
    ['--proxy without a scheme', ['--proxy', 'staging.example.test'], {}, /^--proxy takes the upstream's base URL/],
    ['MOCK_PROXY ftp://', [], { MOCK_PROXY: 'ftp://up.test' }, /^MOCK_PROXY takes the upstream's base URL/],
    ['--proxy with a query', ['--proxy', 'http://up.test/?key=1'], {}, /^--proxy: .* has a query, fragment or credentials/],
    ['--proxy-strict without --proxy', ['--proxy-strict'], {}, /^--proxy-strict only applies with --proxy <url>/],
    ['MOCK_PROXY_TIMEOUT without a proxy', [], { MOCK_PROXY_TIMEOUT: '5s' }, /^MOCK_PROXY_TIMEOUT only applies with MOCK_PROXY=<url>$/],
    ['--proxy-timeout 0', ['--proxy', 'http://up.test', '--proxy-timeout', '0'], {}, /^--proxy-timeout takes a duration from 1ms to 600s/],
    ['--proxy-timeout 10 minutes', ['--proxy', 'http://up.test', '--proxy-timeout', '10m'], {}, /^--proxy-timeout takes a duration/],
    ['--proxy-concurrency without --proxy', ['--proxy-concurrency', '4'], {}, /^--proxy-concurrency only applies with --proxy <url>$/],
    ['--proxy-concurrency 0', ['--proxy', 'http://up.test', '--proxy-concurrency', '0'], {}, /^--proxy-concurrency must be a whole number from 1 to 1024, got '0'$/],
    ['MOCK_HEADERS_TIMEOUT 0', [], { MOCK_HEADERS_TIMEOUT: '0' }, /^MOCK_HEADERS_TIMEOUT takes a duration from 1ms to 600s, such as '10' \(seconds\)/],
    ['--request-timeout shorter than --headers-timeout', ['--headers-timeout', '20', '--request-timeout', '5'], {}, /^--request-timeout \(5000 ms\) must be at least --headers-timeout \(20000 ms\)/],
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
    expect(message).not.toMatch(/^[A-Z][a-z]/); // lower-case, like every message of the CLI
    // A value from the environment is refused under its variable, never a flag the user did not pass.
    if (argv.length === 0) expect(message).not.toMatch(/--[a-z]/);
    expect((error as ConfigError).name).toBe('ConfigError');
  });

  // A refused URL is printed back: its password must not be (the Redis URL's is masked the same way).
  it.each([
    ['--proxy', ['--proxy', 'http://user:s3cret@up.test/'], {}],
    ['MOCK_PROXY', [], { MOCK_PROXY: 'https://user:s3cret@up.test/?key=1' }],
    ['--proxy, a URL that does not parse', ['--proxy', 'http://user:s3cret@up test/'], {}],
    ['--db, a Redis URL with one slash', ['--db', 'redis:/user:s3cret@up.test:6379'], {}],
    ['MOCK_DB, a Redis URL without slashes', [], { MOCK_DB: 'rediss:user:s3cret@up.test' }],
  ])('masks the password of a refused %s URL', (_name, argv, env) => {
    expect(() => parseConfig(argv, env)).toThrow(ConfigError);
    expect(() => parseConfig(argv, env)).toThrow(/\*\*\*@up/);
    expect(() => parseConfig(argv, env)).not.toThrow(/s3cret/);
  });

  it('suggests nothing for a flag that is near none', () => {
    expect(() => parseConfig(['--verbose'], {})).toThrow(/^unknown option '--verbose' \(see --help\)$/);
  });
});

describe('helpText', () => {
  const text = helpText();
  const flags = ['--port', '--host', '--db', '--seed', '--reset', '--fixtures', '--cors-origin', '--ready-file', '--allowed-host', '--quiet', '--help', '--version', '--no-builtin-scenarios'];
  const envs = ['MOCK_NO_BUILTIN_SCENARIOS', 'MOCK_PORT', 'MOCK_HOST', 'MOCK_READY_FILE', 'MOCK_ALLOWED_HOSTS', 'MOCK_DB', 'MOCK_SEED', 'MOCK_RESET', 'MOCK_FIXTURES', 'MOCK_CORS_ORIGIN', 'MOCK_QUIET'];
  it.each(flags)('mentions the flag %s', (flag) => {
    expect(text).toMatch(new RegExp(`(^|\\s)${flag}(\\s|$)`, 'm'));
  });
  it.each(envs)('mentions the environment variable %s', (name) => {
    expect(text).toMatch(new RegExp(`\\b${name}\\b`));
  });
  it('names no generic PORT or HOST variable', () => {
    expect(text).not.toMatch(/\b(PORT|HOST)\b/);
  });
  it.each(COMMANDS.map((command) => command.name))('lists the command %s', (name) => {
    expect(text).toMatch(new RegExp(`^  ${name} `, 'm'));
  });
  it('says that --scenarios DIR adds to the built-in scenarios, DIR winning a name in both', () => {
    const line = text.split('\n').find((row) => row.startsWith('  --scenarios DIR')) ?? '';
    expect(line).toMatch(/with the built-in ones/);
    expect(line).toMatch(/a name in both is DIR's/);
  });
  it('says that flags win over the environment', () => {
    expect(text).toMatch(/flags win over environment/i);
  });
});
