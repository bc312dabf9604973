// The Config type, its defaults, and parseConfig(argv, env): every option as a flag with an
// environment twin, parsed and checked once into a frozen object. Pure: the CLI passes in
// process.argv and process.env, tests pass their own.
import { parseArgs } from 'node:util';
import { DEFAULT_SEED } from '../fixtures/fixture-spec.js';
import { DEFAULT_JOURNAL_SIZE } from './core/journal.js';
import { DEFAULT_FIXTURES_FILE, DEFAULT_SCENARIOS_DIR } from './package-files.js';

export interface Config {
  port: number;
  host: string;
  /** A JSON file path, or ':memory:'. */
  db: string;
  seed: number;
  reset: boolean;
  fixtures: string;
  scenarios: string;
  /** The scenario active for every request from the start. */
  scenario?: string;
  /** Reload edited scenario files without a restart. */
  watch: boolean;
  /** durable: a change is on disk before it is acknowledged; relaxed: acknowledged first. */
  durability: Durability;
  /** How many requests the journal keeps. */
  journalSize: number;
  /** An unknown API key becomes a fresh account instead of a 401. */
  acceptAnyKey: boolean;
  /** Required by the admin API (x-admin-token); mandatory when host is not loopback. */
  adminToken?: string;
  /** Host names the admin API answers besides loopback ones when there is no admin token. */
  allowedHosts: readonly string[];
  /** Allowed CORS origins; ['*'] allows any. */
  corsOrigins: readonly string[];
  quiet: boolean;
  help: boolean;
  version: boolean;
}

export type Durability = 'durable' | 'relaxed';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

interface OptionSpec {
  flag: string;
  env?: string;
  type: 'string' | 'boolean';
  /** The flag may be given several times; its environment twin is a comma-separated list. */
  multiple?: boolean;
  value?: string;
  description: string;
}

export const OPTIONS: readonly OptionSpec[] = [
  { flag: 'port', env: 'PORT', type: 'string', value: 'N', description: 'port to listen on; 0 picks a free one (default 4010)' },
  { flag: 'host', env: 'HOST', type: 'string', value: 'ADDR', description: 'address to listen on (default 127.0.0.1)' },
  { flag: 'db', env: 'MOCK_DB', type: 'string', value: 'FILE', description: "lowdb JSON file, or ':memory:' for no file (default .data/db.json)" },
  { flag: 'durability', env: 'MOCK_DURABILITY', type: 'string', value: 'MODE', description: "'durable' (default): answer after the change is on disk; 'relaxed': answer first, write soon after" },
  { flag: 'seed', env: 'MOCK_SEED', type: 'string', value: 'N', description: `seed of the faker fixtures (default ${DEFAULT_SEED})` },
  { flag: 'reset', env: 'MOCK_RESET', type: 'boolean', description: 're-seed the db file even if it holds data' },
  { flag: 'fixtures', env: 'MOCK_FIXTURES', type: 'string', value: 'FILE', description: 'fixture accounts file (default fixtures/accounts.json)' },
  { flag: 'scenarios', env: 'MOCK_SCENARIOS', type: 'string', value: 'DIR', description: 'directory of scenario files (default scenarios/)' },
  { flag: 'scenario', env: 'MOCK_SCENARIO', type: 'string', value: 'NAME', description: 'scenario active for every request from the start (default none)' },
  { flag: 'watch', env: 'MOCK_WATCH', type: 'boolean', description: 'reload edited scenario files without a restart' },
  { flag: 'journal-size', env: 'MOCK_JOURNAL_SIZE', type: 'string', value: 'N', description: 'how many requests the admin journal keeps (default 1000)' },
  { flag: 'accept-any-key', env: 'MOCK_ACCEPT_ANY_KEY', type: 'boolean', description: 'an unknown API key becomes a fresh account seeded from the key (default: 401)' },
  { flag: 'admin-token', env: 'MOCK_ADMIN_TOKEN', type: 'string', value: 'TOKEN', description: 'require x-admin-token on the admin API; needed when --host is not loopback' },
  { flag: 'allowed-host', env: 'MOCK_ALLOWED_HOSTS', type: 'string', multiple: true, value: 'NAME', description: 'a host name the admin API answers besides localhost/127.0.0.1/[::1] when no --admin-token is set; repeatable (env: comma-separated)' },
  { flag: 'cors-origin', env: 'MOCK_CORS_ORIGIN', type: 'string', value: 'LIST', description: "comma-separated origins allowed by CORS (default '*': any)" },
  { flag: 'quiet', env: 'MOCK_QUIET', type: 'boolean', description: 'no log line per request' },
  { flag: 'help', type: 'boolean', description: 'print this help and exit' },
  { flag: 'version', type: 'boolean', description: 'print the version and exit' },
];

export const DEFAULTS = { port: 4010, host: '127.0.0.1', db: '.data/db.json', seed: DEFAULT_SEED } as const;

type Env = Record<string, string | undefined>;
type Values = Record<string, string | boolean | string[] | undefined>;

export function parseConfig(argv: readonly string[], env: Env): Readonly<Config> {
  const values = readFlags(argv);
  const text = (flag: string): string | undefined => {
    const value = values[flag] ?? envValue(flag, env);
    return typeof value === 'string' ? value : undefined;
  };
  const list = (flag: string): string[] => {
    const value = values[flag] ?? envValue(flag, env)?.split(',');
    return (Array.isArray(value) ? value : []).map((item) => item.trim()).filter(Boolean);
  };
  const bool = (flag: string): boolean => values[flag] === true || isTruthy(flag, envValue(flag, env));
  return Object.freeze({
    port: integer('port', text('port'), DEFAULTS.port, 0, 65535),
    host: nonEmpty('host', text('host')) ?? DEFAULTS.host,
    db: nonEmpty('db', text('db')) ?? DEFAULTS.db,
    seed: integer('seed', text('seed'), DEFAULTS.seed, 0, Number.MAX_SAFE_INTEGER),
    reset: bool('reset'),
    durability: durability(text('durability')),
    fixtures: nonEmpty('fixtures', text('fixtures')) ?? DEFAULT_FIXTURES_FILE,
    scenarios: nonEmpty('scenarios', text('scenarios')) ?? DEFAULT_SCENARIOS_DIR,
    ...present('scenario', nonEmpty('scenario', text('scenario'))),
    watch: bool('watch'),
    journalSize: integer('journal-size', text('journal-size'), DEFAULT_JOURNAL_SIZE, 0, 1_000_000),
    acceptAnyKey: bool('accept-any-key'),
    ...present('adminToken', nonEmpty('admin-token', text('admin-token'))),
    allowedHosts: Object.freeze(list('allowed-host').map(allowedHost)),
    corsOrigins: Object.freeze((text('cors-origin') ?? '*').split(',').map((origin) => origin.trim()).filter(Boolean)),
    quiet: bool('quiet'),
    help: bool('help'),
    version: bool('version'),
  });
}

export function helpText(): string {
  const rows = OPTIONS.map((option) => {
    const left = `--${option.flag}${option.value ? ` ${option.value}` : ''}`;
    const env = option.env ? ` [env ${option.env}]` : '';
    return `  ${left.padEnd(22)} ${option.description}${env}`;
  });
  return [
    'Usage: shortlink-mock [options]',
    '       shortlink-mock contract --base-url URL --api-key KEY [options]',
    '',
    'A stateful, contract-validated mock of the Short-Link Management API.',
    '',
    'Commands:',
    `  ${'contract'.padEnd(22)} check a live server (this mock or any deployment) against openapi.yaml; see contract --help`,
    `  ${'coverage'.padEnd(22)} print which documented error paths each key's client has met on a running mock; see coverage --help`,
    '',
    'Options:',
    ...rows,
    '',
    'Flags win over environment variables.',
  ].join('\n');
}

function readFlags(argv: readonly string[]): Values {
  const options = Object.fromEntries(OPTIONS.map((option) => [option.flag, { type: option.type, multiple: option.multiple ?? false }]));
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values as Values;
  } catch (error) {
    throw new ConfigError(`${(error as Error).message.split('\n')[0]} (see --help)`);
  }
}

function envValue(flag: string, env: Env): string | undefined {
  const name = OPTIONS.find((option) => option.flag === flag)?.env;
  return name ? env[name] : undefined;
}

function isTruthy(flag: string, value: string | undefined): boolean {
  if (value === undefined || value === '' || value === '0' || value.toLowerCase() === 'false') return false;
  if (value === '1' || value.toLowerCase() === 'true') return true;
  throw new ConfigError(`--${flag}: expected true/false or 1/0 in the environment, got '${value}'`);
}

function durability(value: string | undefined): Durability {
  if (value === undefined || value === 'durable' || value === 'relaxed') return value ?? 'durable';
  throw new ConfigError(`--durability must be 'durable' or 'relaxed', got '${value}'`);
}

/** A bare host name, as it shows in a Host header without its port: no scheme, port or path. */
function allowedHost(value: string): string {
  if (!/^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/.test(value)) {
    throw new ConfigError(`--allowed-host takes a host name such as 'dev.example.test' (no scheme, port or path), got '${value}'`);
  }
  return value.toLowerCase();
}

/** `{key: value}` when there is a value, `{}` otherwise (optional Config fields stay absent). */
function present<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}

function nonEmpty(flag: string, value: string | undefined): string | undefined {
  if (value !== undefined && value.trim() === '') throw new ConfigError(`--${flag} must not be empty`);
  return value;
}

function integer(flag: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const parsed = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
    throw new ConfigError(`--${flag} must be a whole number from ${min} to ${max}, got '${value}'`);
  }
  return parsed;
}
