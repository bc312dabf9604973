// startMock()'s options: the CLI's options, typed, handed as they are to the one check of each value
// that the CLI's flags go through (configFrom, src/process/config.ts), so that they are checked and
// defaulted exactly as the CLI's are, and no environment is read: a test's MOCK_* variables never
// change a startMock() mock. A refusal names the option (`options.port`), not a flag.
import { ConfigError, configFrom, type Config } from '../process/config.js';
import { givenOptions, type GivenValue } from '../process/given-options.js';
import { guessAndKnown } from '../core/nearest.js';
import { HANDLE_OPTION_NAMES } from './handle-options.js';
import { varietySeedOf } from './variety-option.js';

/** Options of startMock(): every CLI option but `--workers` (a test process is one mock). */
export interface StartMockOptions {
  /** Port to listen on; 0 (the default here) lets the OS pick a free one. `--port` */
  port?: number;
  /** Address to listen on (default `127.0.0.1`); off loopback, `adminToken` is required. `--host` */
  host?: string;
  /** A lowdb JSON file, `:memory:` (the default here) or `redis://host:port[/n]` (or `unix:///path/redis.sock`) to share state. `--db` */
  db?: string;
  /** Namespace of every Redis key (default `shortlink-mock:`). `--redis-prefix` */
  redisPrefix?: string;
  /** Seed of the faker fixtures: two mocks with one seed serve identical data. `--seed` */
  seed?: number;
  /** Re-seed a db file (or Redis prefix) even if it holds data. `--reset` */
  reset?: boolean;
  /** An OpenAPI 3.0.x/3.1.x file served, validated against and answered by instead of the shipped `openapi.yaml`. `--contract` */
  contract?: string;
  /** Today's contract: what `contract` newly allows against it becomes variety's next.* dimensions (robustness --contract). `--variety-from` */
  varietyFrom?: string;
  /** Fixture accounts file (default: the package's `fixtures/accounts.json`). `--fixtures` */
  fixtures?: string;
  /** A directory of your own scenario files, loaded with the package's built-in ones (a name in both is yours). `--scenarios` */
  scenarios?: string;
  /** With `scenarios`: load that directory only, without the built-in scenarios. `--no-builtin-scenarios` */
  noBuiltinScenarios?: boolean;
  /** Scenario active for every request from the start. `--scenario` */
  scenario?: string;
  /** Reload edited scenario files, and the `contract` file, without a restart. `--watch` */
  watch?: boolean;
  /** Variety mode for every request from the start: `seed` is `--variety`; `only`/`except` are checked against the contract's dimensions before it starts, and set through the admin API once it listens. */
  variety?: { seed: number; only?: readonly string[]; except?: readonly string[] };
  /** `durable` (default): answer after the change is on disk; `relaxed`: answer first. `--durability` */
  durability?: 'durable' | 'relaxed';
  /** How many requests the journal keeps (default 1000). `--journal-size` */
  journalSize?: number;
  /** An unknown API key becomes a fresh account seeded from the key instead of a 401. `--accept-any-key` */
  acceptAnyKey?: boolean;
  /** With acceptAnyKey: once the data holds this many accounts, an unknown key is a 401 (default 10000). `--max-any-key-accounts` */
  maxAnyKeyAccounts?: number;
  /** Require `x-admin-token` on the admin API; the handle sends it. `--admin-token` */
  adminToken?: string;
  /** Host names the admin API answers besides loopback ones when there is no admin token. `--allowed-host` */
  allowedHosts?: readonly string[];
  /** Origins allowed by CORS, each `scheme://host[:port]`; default `['*']` (any). `--cors-origin` */
  corsOrigins?: readonly string[];
  /** Write the URL to this file once listening; removed by stop(). `--ready-file` */
  readyFile?: string;
  /** Validating proxy: forward every API request to this upstream URL and judge both sides against the contract. `--proxy` */
  proxy?: string;
  /** With `proxy`: an off-contract upstream answer becomes a 502 Error object. `--proxy-strict` */
  proxyStrict?: boolean;
  /** With `proxy`: how long the upstream has to answer, in milliseconds (default 10,000). `--proxy-timeout` */
  proxyTimeoutMs?: number;
  /** No log line per request; true by default here (contract violations and internal errors are still logged). `--quiet` */
  quiet?: boolean;
  /** Where the mock's log lines go (default `console.log`). */
  log?: (line: string) => void;
  /** Bound of each admin call made through the handle, in milliseconds: 1 to 600,000 (default 10,000). */
  timeoutMs?: number;
  /** How long stop() lets requests in flight finish before closing their connections: 0 to 600,000 ms (default 4,000). */
  stopGraceMs?: number;
}

type ConfigOptionName = Exclude<keyof StartMockOptions, (typeof HANDLE_OPTION_NAMES)[number]>;

/** Each option's CLI flag. A Record over the option names: an option without a flag does not compile. */
const FLAGS: Record<ConfigOptionName, string> = {
  port: 'port',
  host: 'host',
  db: 'db',
  redisPrefix: 'redis-prefix',
  seed: 'seed',
  reset: 'reset',
  contract: 'contract',
  fixtures: 'fixtures',
  scenarios: 'scenarios',
  noBuiltinScenarios: 'no-builtin-scenarios',
  scenario: 'scenario',
  watch: 'watch',
  durability: 'durability',
  journalSize: 'journal-size',
  acceptAnyKey: 'accept-any-key',
  maxAnyKeyAccounts: 'max-any-key-accounts',
  adminToken: 'admin-token',
  allowedHosts: 'allowed-host',
  corsOrigins: 'cors-origin',
  readyFile: 'ready-file',
  proxy: 'proxy',
  proxyStrict: 'proxy-strict',
  proxyTimeoutMs: 'proxy-timeout',
  quiet: 'quiet',
  variety: 'variety',
  varietyFrom: 'variety-from',
};

const IN_PROCESS_DEFAULTS: StartMockOptions = { port: 0, db: ':memory:', quiet: true };

/** The Config of a startMock() mock; a refused option is a ConfigError naming the option, not the flag. */
export function configOf(options: StartMockOptions): Readonly<Config> {
  const given = { ...IN_PROCESS_DEFAULTS, ...withoutUndefined(options) };
  const value = (flag: string): GivenValue | undefined => {
    const name = OPTION_OF_FLAG.get(flag) as ConfigOptionName | undefined;
    const option = name === undefined ? undefined : given[name];
    // `false` is a switch not given, as a flag left out; variety's flag takes its seed.
    if (option === undefined || option === false) return undefined;
    return name === 'variety' ? (varietySeedOf(option) as GivenValue) : (option as GivenValue);
  };
  const optionName = (flag: string): string => (OPTION_OF_FLAG.has(flag) ? `options.${OPTION_OF_FLAG.get(flag) ?? flag}` : `--${flag}`);
  try {
    refuseUnknownNames(options);
    return configFrom(
      givenOptions({
        value,
        name: optionName,
        refer: (_given, flag, placeholder) => `${optionName(flag)} ${placeholder}`,
        // The start-up's own refusals name flags (`set --admin-token`); inOptionTerms reads them as options.
        sources: () => Object.fromEntries(Object.values(FLAGS).flatMap((flag) => (value(flag) === undefined ? [] : [[flag, `--${flag}`]]))),
      }),
    );
  } catch (error) {
    if (error instanceof ConfigError) throw new ConfigError(`startMock: ${error.message}`);
    throw error;
  }
}

const OPTION_OF_FLAG = new Map(Object.entries(FLAGS).map(([name, flag]) => [flag, name]));
const OPTION_NAMES = [...Object.keys(FLAGS), ...HANDLE_OPTION_NAMES];

/** A misspelt name (`prot`, `acceptAnykey`) is refused: ignored, it would start a mock without it. */
function refuseUnknownNames(options: StartMockOptions): void {
  const unknown = Object.keys(options).find((name) => !OPTION_NAMES.includes(name));
  if (unknown !== undefined) throw new ConfigError(`unknown option '${unknown}'${guessAndKnown(unknown, OPTION_NAMES, 'known options')}`);
}

/**
 * parseConfig's and the start-up's messages name flags and their environment twins (`set
 * --admin-token (or MOCK_ADMIN_TOKEN)`); a startMock() caller wrote options: `options.adminToken`.
 */
export function inOptionTerms(message: string): string {
  return message
    .replace(/ \(or MOCK_[A-Z_]+\)/g, '')
    .replace(/--([a-z-]+)/g, (whole, flag: string) => (OPTION_OF_FLAG.has(flag) ? `options.${OPTION_OF_FLAG.get(flag) ?? flag}` : whole));
}

function withoutUndefined(options: StartMockOptions): StartMockOptions {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as StartMockOptions;
}
