// The Config type: every option of the mock, parsed (src/process/config.ts) and read by the start-up, the
// option parsers and the toolkit; and GivenOptions, how the one check of each value reads what the
// CLI or startMock() was given (given-options.ts). Types only, so that the option parsers (option-values.ts,
// server-options.ts) name it without importing config.ts, which imports them.

export interface Config {
  port: number;
  host: string;
  /** A JSON file path, ':memory:', or a redis://, rediss:// (D20) or unix:// (a Unix socket) URL. */
  db: string;
  /** The namespace of every Redis key (D20). */
  redisPrefix: string;
  /** Processes serving one port (D26); 'auto' is one per CPU. */
  workers: number | 'auto';
  seed: number;
  reset: boolean;
  /** The OpenAPI file served instead of the shipped openapi.yaml (--contract); absent: the shipped one. */
  contract?: string;
  fixtures: string;
  /** The directory of scenario files: the built-in one (the default), or one loaded with it (a name in both is this one's). */
  scenarios: string;
  /** Load the built-in scenarios beside `scenarios` (false: --no-builtin-scenarios, that directory only). */
  builtinScenarios: boolean;
  /** The scenario active for every request from the start. */
  scenario?: string;
  /** Variety mode for every request from the start, under this seed (src/variety/). */
  variety?: number;
  /** Today's contract, against which the served one's next.* variety dimensions are measured (--variety-from). */
  varietyFrom?: string;
  /** Reload edited scenario files without a restart. */
  watch: boolean;
  /** durable: a change is on disk before it is acknowledged; relaxed: acknowledged first. */
  durability: Durability;
  /** How many requests the journal keeps. */
  journalSize: number;
  /** An unknown API key becomes a fresh account instead of a 401. */
  acceptAnyKey: boolean;
  /** With acceptAnyKey: no account is made for an unknown key once the data holds this many. */
  maxAnyKeyAccounts: number;
  /** Required by the admin API (x-admin-token); mandatory when host is not loopback. */
  adminToken?: string;
  /** Host names the admin API answers besides loopback ones when there is no admin token. */
  allowedHosts: readonly string[];
  /** Allowed CORS origins, each exactly as a browser sends Origin; ['*'] allows any. */
  corsOrigins: readonly string[];
  /** Written with the mock's URL once it listens, removed on a clean stop. */
  readyFile?: string;
  /** Proxy mode: API requests are forwarded here, and both sides judged against the contract. */
  proxy?: URL;
  /** Proxy mode: an off-contract upstream answer becomes a 502 Error object. */
  proxyStrict: boolean;
  /** Proxy mode: how long the upstream has for a whole answer before a 502. */
  proxyTimeoutMs: number;
  /** Proxy mode: how many exchanges with the upstream at once; the rest wait their turn. */
  proxyConcurrency: number;
  /** A connection's request head must arrive within this, or the connection is closed. */
  headersTimeoutMs: number;
  /** A connection's whole request must arrive within this, or it is answered 408 and closed. */
  requestTimeoutMs: number;
  quiet: boolean;
  help: boolean;
  version: boolean;
  /** Where each value that was given came from, by option: '--port' or 'MOCK_PORT'. Defaults are absent. */
  sources: Readonly<Record<string, string>>;
}

export type Durability = 'durable' | 'relaxed';

/** The readers the checks use: each value read once, as text, a number, a switch or a list. */
export interface GivenOptions {
  given(flag: string): boolean;
  /** A text value (a number given is written out); refused when empty. */
  text(flag: string): string | undefined;
  /** A number as given, or its text to be parsed by the check. */
  scalar(flag: string): string | number | undefined;
  bool(flag: string): boolean;
  /** A list: given as one, or as comma-separated text; `required`: refused when given empty. */
  list(flag: string, required?: boolean): string[];
  source(flag: string): string;
  refer(given: string, flag: string, placeholder: string): string;
  /** Where each given value came from, by flag: Config.sources. */
  sources(): Record<string, string>;
}

