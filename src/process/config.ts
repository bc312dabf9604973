// The Config type, its defaults, and parseConfig(argv, env): every option as a flag with an
// environment twin, parsed and checked once into a frozen object that remembers where each value
// came from, so that every later refusal names what the user actually set (--scenario or
// MOCK_SCENARIO). Pure: the CLI passes in process.argv and process.env, tests pass their own.
import { DEFAULT_SEED } from '../../fixtures/fixture-spec.js';
import { DEFAULT_JOURNAL_SIZE } from '../core/journal.js';
import { DEFAULT_MAX_ANY_KEY_ACCOUNTS } from '../core/any-key-accounts.js';
import { DEFAULT_FIXTURES_FILE, DEFAULT_SCENARIOS_DIR } from '../contract/package-root.js';
import { MAX_CONTRACT_BYTES } from '../contract/contract-limits.js';
import { allowedHost, ConfigError, corsOrigin, dbLocation, durability, integer, isRedisUrl, proxyOptions, redisPrefix, varietyOption, workers } from './option-values.js';
import { DEFAULT_HEADERS_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS, serverTimeouts } from './server-options.js';
import { DEFAULT_PROXY_CONCURRENCY, MAX_WAITING_PER_SLOT } from '../proxy/exchange-slots.js';
import { parseFlags, type FlagSpec } from '../core/parse-flags.js';
import type { Config, GivenOptions } from './config-types.js';
import { givenOptions } from './given-options.js';

export { ConfigError };
export type { Config, Durability } from './config-types.js';

export const DEFAULT_REDIS_PREFIX = 'shortlink-mock:';

interface OptionSpec extends FlagSpec {
  flag: string;
  /** Its environment twin; a `multiple` flag's twin is a comma-separated list. */
  env?: string;
  value?: string;
  description: string;
}

/** The subcommands, as `shortlink-mock <name> --help` documents them; the CLI runs each by name. */
export const COMMANDS = [
  { name: 'contract', summary: 'check a live server (this mock or any deployment) against openapi.yaml; see contract --help' },
  { name: 'coverage', summary: "print which documented error paths each key's client has met on a running mock; see coverage --help" },
  { name: 'drift', summary: 'print the distinct contract violations a mock in proxy mode has seen (exit 1 when any); see drift --help' },
  { name: 'evolve', summary: 'judge recorded traffic (journal or pacts) against the next contract: which consumer breaks; see evolve --help' },
  { name: 'mcp', summary: 'an MCP server over stdio for coding agents: a mock of its own, or --base-url URL to drive a running one; see mcp --help' },
  { name: 'pact', summary: "write a Pact file from a running mock's journal (pact export), or check one against openapi.yaml (pact check); see pact --help" },
  { name: 'robustness', summary: "run your client's tests against every answer the contract allows (variety mode); shrink a failure to its cause; see robustness --help" },
] as const;

export type CommandName = (typeof COMMANDS)[number]['name'];

export const OPTIONS: readonly OptionSpec[] = [
  // Not PORT/HOST: shells and CI images set those for other programs (HOST is often this machine's name).
  { flag: 'port', env: 'MOCK_PORT', type: 'string', value: 'N', description: 'port to listen on; 0 picks a free one (default 4010)' },
  { flag: 'host', env: 'MOCK_HOST', type: 'string', value: 'ADDR', description: 'address to listen on (default 127.0.0.1)' },
  { flag: 'db', env: 'MOCK_DB', type: 'string', value: 'FILE|URL', description: "lowdb JSON file, ':memory:' for no file, or redis://host:port[/n] (rediss:// for TLS, unix:///path/redis.sock[?db=n] for a Unix socket) to share state between instances (default .data/db.json)" },
  { flag: 'redis-prefix', env: 'MOCK_REDIS_PREFIX', type: 'string', value: 'PREFIX', description: `namespace of every Redis key, so several mocks share one Redis (default '${DEFAULT_REDIS_PREFIX}')` },
  { flag: 'workers', env: 'MOCK_WORKERS', type: 'string', value: 'N|auto', description: "processes serving one port (node:cluster), each a full mock; 'auto' is one per CPU; more than 1 needs --db redis:// (default 1)" },
  { flag: 'durability', env: 'MOCK_DURABILITY', type: 'string', value: 'MODE', description: "'durable' (default): answer after the change is on disk; 'relaxed': answer first, write soon after" },
  { flag: 'seed', env: 'MOCK_SEED', type: 'string', value: 'N', description: `seed of the faker fixtures (default ${DEFAULT_SEED})` },
  { flag: 'reset', env: 'MOCK_RESET', type: 'boolean', description: 're-seed the db file even if it holds data' },
  { flag: 'contract', env: 'MOCK_CONTRACT', type: 'string', value: 'FILE', description: `serve, validate against and answer by this OpenAPI 3.0.x/3.1.x file (YAML or JSON, local $refs only, at most ${MAX_CONTRACT_BYTES / 1024 / 1024} MiB) instead of the shipped openapi.yaml; the rules of createLink, updateLink and deleteLink still apply (default: the shipped openapi.yaml)` },
  { flag: 'fixtures', env: 'MOCK_FIXTURES', type: 'string', value: 'FILE', description: 'fixture accounts file (default fixtures/accounts.json)' },
  { flag: 'scenarios', env: 'MOCK_SCENARIOS', type: 'string', value: 'DIR', description: "a directory of your own scenario files, loaded with the built-in ones; a name in both is DIR's, and the log says so (default: the built-in scenarios/ only)" },
  { flag: 'no-builtin-scenarios', env: 'MOCK_NO_BUILTIN_SCENARIOS', type: 'boolean', description: "with --scenarios DIR: load DIR's scenarios only, without the built-in ones" },
  { flag: 'scenario', env: 'MOCK_SCENARIO', type: 'string', value: 'NAME', description: 'scenario active for every request from the start (default none)' },
  { flag: 'variety', env: 'MOCK_VARIETY', type: 'string', value: 'SEED', description: 'variety mode: every answer drawn, under this seed, from the answers openapi.yaml allows for the same state (GET /__admin/variety/dimensions lists how); not with --proxy (whose answers come from the upstream); default off' },
  { flag: 'variety-from', env: 'MOCK_VARIETY_FROM', type: 'string', value: 'FILE', description: "today's contract (read like --contract FILE): what the served contract newly allows against it (a new optional answer field sent, a new enum value, a field made nullable sent as null, one no longer required left out, a newly documented status answered) becomes variety dimensions named next.<operationId>.<pointer>:<variant>, and answers leave new fields out until theirs is on; used by robustness --contract (default: none)" },
  { flag: 'watch', env: 'MOCK_WATCH', type: 'boolean', description: 'reload edited scenario files, and the --contract FILE, without a restart' },
  { flag: 'journal-size', env: 'MOCK_JOURNAL_SIZE', type: 'string', value: 'N', description: 'how many requests the admin journal keeps (default 1000)' },
  { flag: 'accept-any-key', env: 'MOCK_ACCEPT_ANY_KEY', type: 'boolean', description: 'an unknown API key becomes a fresh account seeded from the key (default: 401)' },
  { flag: 'max-any-key-accounts', env: 'MOCK_MAX_ANY_KEY_ACCOUNTS', type: 'string', value: 'N', description: `with --accept-any-key: once the data holds N accounts (all of them), an unknown key is a 401 saying so (default ${DEFAULT_MAX_ANY_KEY_ACCOUNTS})` },
  { flag: 'admin-token', env: 'MOCK_ADMIN_TOKEN', type: 'string', value: 'TOKEN', description: 'require x-admin-token on the admin API; needed when --host is not loopback' },
  { flag: 'allowed-host', env: 'MOCK_ALLOWED_HOSTS', type: 'string', multiple: true, value: 'NAME', description: 'a host name the admin API answers besides localhost/127.0.0.1/[::1] when no --admin-token is set; repeatable (env: comma-separated)' },
  { flag: 'cors-origin', env: 'MOCK_CORS_ORIGIN', type: 'string', value: 'LIST', description: "comma-separated origins allowed by CORS, each scheme://host[:port] as browsers send it (default '*': any)" },
  { flag: 'ready-file', env: 'MOCK_READY_FILE', type: 'string', value: 'PATH', description: 'write the URL to this file once listening (removed on a clean stop): a script waits for this very mock' },
  { flag: 'proxy', env: 'MOCK_PROXY', type: 'string', value: 'URL', description: "validating proxy: forward every API request to this upstream (e.g. https://staging.example.com) and judge request and answer against openapi.yaml; violations go to the x-contract-violations header, the journal and GET /__admin/violations" },
  { flag: 'proxy-strict', env: 'MOCK_PROXY_STRICT', type: 'boolean', description: "with --proxy: answer an off-contract upstream answer with a 502 Error object naming the violation" },
  { flag: 'proxy-timeout', env: 'MOCK_PROXY_TIMEOUT', type: 'string', value: 'TIME', description: "with --proxy: how long the upstream has to answer, e.g. 10s or 500ms, before a 502, and then the client to take the answer before its connection is reset (default 10s)" },
  { flag: 'proxy-concurrency', env: 'MOCK_PROXY_CONCURRENCY', type: 'string', value: 'N', description: `with --proxy: how many exchanges with the upstream at once; ${MAX_WAITING_PER_SLOT} more per slot wait their turn within --proxy-timeout, the rest get a 502 (default ${DEFAULT_PROXY_CONCURRENCY})` },
  { flag: 'headers-timeout', env: 'MOCK_HEADERS_TIMEOUT', type: 'string', value: 'TIME', description: `how long a connection has to send a request's headers, e.g. 10 (seconds) or 500ms, before it is closed; also a connection that sends nothing (default ${DEFAULT_HEADERS_TIMEOUT_MS / 1000})` },
  { flag: 'request-timeout', env: 'MOCK_REQUEST_TIMEOUT', type: 'string', value: 'TIME', description: `how long a connection has to send a whole request, body included, e.g. 30 (seconds), before a 408 (default ${DEFAULT_REQUEST_TIMEOUT_MS / 1000}; at least --headers-timeout)` },
  { flag: 'quiet', env: 'MOCK_QUIET', type: 'boolean', description: 'no log line per request' },
  { flag: 'help', type: 'boolean', description: 'print this help and exit' },
  { flag: 'version', type: 'boolean', description: 'print the version and exit' },
];

export const DEFAULTS = { port: 4010, host: '127.0.0.1', db: '.data/db.json', seed: DEFAULT_SEED } as const;

type Env = Record<string, string | undefined>;
type Given = Map<string, { value: string | boolean | string[]; source: string }>;

/** The CLI's Config: its flags, then their environment twins. */
export function parseConfig(argv: readonly string[], env: Env): Readonly<Config> {
  return configFrom(cliOptions(readGiven(argv, env)));
}

/**
 * Every option checked and defaulted, once, into a frozen Config: the one check of each value for
 * the CLI (parseConfig) and startMock() (src/toolkit/start-options.ts), whatever form it came in.
 */
export function configFrom(options: GivenOptions): Readonly<Config> {
  const { text, scalar, list, bool, source, refer } = options;
  const db = dbLocation(source('db'), text('db') ?? DEFAULTS.db);
  const builtinScenarios = !bool('no-builtin-scenarios');
  if (!builtinScenarios && text('scenarios') === undefined) {
    const given = source('no-builtin-scenarios');
    throw new ConfigError(`${given} needs ${refer(given, 'scenarios', 'DIR')}: without a directory of your own no scenario would be loaded`);
  }
  const workerCount = workers(source('workers'), text('workers'));
  // Each worker is a full mock: with a file or memory store each would be a mock of its own.
  if (workerCount !== 1 && !isRedisUrl(db)) {
    throw new ConfigError(`${source('workers')} ${workerCount} needs state shared by every worker: start with --db redis://host:port (a file or :memory: belongs to one process)`);
  }
  return Object.freeze({
    port: integer(source('port'), scalar('port'), DEFAULTS.port, 0, 65535),
    host: text('host') ?? DEFAULTS.host,
    db,
    redisPrefix: redisPrefix(source('redis-prefix'), text('redis-prefix') ?? DEFAULT_REDIS_PREFIX),
    workers: workerCount,
    seed: integer(source('seed'), scalar('seed'), DEFAULTS.seed, 0, Number.MAX_SAFE_INTEGER),
    reset: bool('reset'),
    durability: durability(source('durability'), text('durability')),
    ...present('contract', text('contract')),
    fixtures: text('fixtures') ?? DEFAULT_FIXTURES_FILE,
    scenarios: text('scenarios') ?? DEFAULT_SCENARIOS_DIR,
    builtinScenarios,
    ...present('scenario', text('scenario')),
    ...varietyOption(options),
    ...present('varietyFrom', text('variety-from')),
    watch: bool('watch'),
    journalSize: integer(source('journal-size'), scalar('journal-size'), DEFAULT_JOURNAL_SIZE, 0, 1_000_000),
    acceptAnyKey: bool('accept-any-key'),
    maxAnyKeyAccounts: integer(source('max-any-key-accounts'), scalar('max-any-key-accounts'), DEFAULT_MAX_ANY_KEY_ACCOUNTS, 1, 10_000_000),
    ...present('adminToken', text('admin-token')),
    allowedHosts: Object.freeze(list('allowed-host').map((name) => allowedHost(source('allowed-host'), name))),
    corsOrigins: Object.freeze((options.given('cors-origin') ? list('cors-origin', true) : ['*']).map((origin) => corsOrigin(source('cors-origin'), origin))),
    ...present('readyFile', text('ready-file')),
    ...proxyOptions(options),
    ...serverTimeouts(options),
    quiet: bool('quiet'),
    help: bool('help'),
    version: bool('version'),
    sources: Object.freeze(options.sources()),
  });
}

/** How the user named an option's value: `--port` or `MOCK_PORT` (the flag when it was not given). */
export function sourceOf(config: Config, flag: string): string {
  return config.sources[flag] ?? `--${flag}`;
}

/** The option as the user set it, `--host 0.0.0.0` or `MOCK_HOST=0.0.0.0`, for a message about its value. */
export function asGiven(config: Config, flag: string, value: string | number): string {
  const source = sourceOf(config, flag);
  return source.startsWith('--') ? `${source} ${value}` : `${source}=${value}`;
}

export function helpText(): string {
  const rows = OPTIONS.map((option) => {
    const left = `--${option.flag}${option.value ? ` ${option.value}` : ''}`;
    const env = option.env ? ` [env ${option.env}]` : '';
    return `  ${left.padEnd(22)} ${option.description}${env}`;
  });
  return [
    'Usage: shortlink-mock [options]',
    `       shortlink-mock <${COMMANDS.map((command) => command.name).join('|')}> [options]   (see <command> --help)`,
    '',
    'A stateful, contract-validated mock of the Short-Link Management API.',
    '',
    'Commands:',
    ...COMMANDS.map((command) => `  ${command.name.padEnd(22)} ${command.summary}`),
    '',
    'Options:',
    ...rows,
    '',
    'Flags win over environment variables.',
  ].join('\n');
}

/** Each option that was given, from its flag or else its environment twin, with where it came from. */
function readGiven(argv: readonly string[], env: Env): Given {
  let flags;
  try {
    flags = parseFlags(argv, Object.fromEntries(OPTIONS.map((option) => [option.flag, option])), COMMANDS.map((command) => command.name));
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  const given: Given = new Map();
  for (const option of OPTIONS) {
    const fromFlag = flags[option.flag];
    const fromEnv = option.env === undefined ? undefined : env[option.env];
    if (fromFlag !== undefined) given.set(option.flag, { value: fromFlag, source: `--${option.flag}` });
    else if (fromEnv !== undefined) given.set(option.flag, { value: fromEnv, source: option.env as string });
  }
  return given;
}

/** The CLI's values: text (or a switch, or a repeated flag's list), named by the flag or the variable set. */
function cliOptions(given: Given): GivenOptions {
  const name = (flag: string): string => given.get(flag)?.source ?? `--${flag}`;
  return givenOptions({
    value: (flag) => given.get(flag)?.value,
    name,
    refer: (asGiven, flag, placeholder) => (asGiven.startsWith('--') ? `--${flag} ${placeholder}` : `${OPTIONS.find((option) => option.flag === flag)?.env ?? `--${flag}`}=${placeholder}`),
    sources: () => Object.fromEntries([...given].map(([flag, { source }]) => [flag, source])),
  });
}

/** `{key: value}` when there is a value, `{}` otherwise (optional Config fields stay absent). */
function present<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}
