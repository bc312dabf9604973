// What the CLI prints at start-up: where the mock is, where its data lives, and the API keys to
// try, so a developer can point an app at it without reading anything else.
import { asGiven, type Config } from './config.js';
import { sep } from 'node:path';
import { isRedisUrl } from './option-values.js';
import { DEFAULT_SCENARIOS_DIR } from '../contract/package-files.js';
import { hasBuiltInLayer } from '../scenarios/scenario-layers.js';
import { redactUrl } from '../store/redis/redis-connection.js';
import type { KeptFrom } from '../store/redis/redis-generations.js';
import type { Mock } from './mock.js';
import { servedLines } from './served-lines.js';

export async function startupBanner(url: string, config: Config, mock: Mock, version: string): Promise<string> {
  const store = mock.service.store;
  const [defaultDomain, accounts] = await Promise.all([store.defaultDomain(), store.accounts()]);
  const counts = await Promise.all(accounts.map((account) => store.linkCount(account.id)));
  const keyWidth = Math.max(...accounts.map((account) => account.apiKey.length));
  const keys = accounts.map((account, index) => {
    const domains = [defaultDomain.name, ...account.domains.map((domain) => domain.name)].join(', ');
    const usage = `${counts[index] ?? 0}/${account.linkLimit} links`;
    return `${account.apiKey.padEnd(keyWidth)}  ${account.name} (${usage}; domains ${domains})`;
  });
  const db = dbLine(config, mock);
  const example = `curl -X POST ${url}/links -H 'x-api-key: ${accounts[0]?.apiKey ?? 'demo-key'}' -H 'content-type: application/json' -d '{"destinationUrl":"https://example.com","domain":"${defaultDomain.name}","tags":[]}'`;
  return [
    `shortlink-mock ${version} listening on ${url}`,
    `  contract   ${url}/openapi.yaml (${config.contract === undefined ? '' : `${config.contract}; `}every request and response is validated against it${watchedContract(config)})`,
    ...(config.contract === undefined ? [] : servedLines(mock.servedContract)),
    ...(config.proxy ? [`  proxy      every API request goes to ${config.proxy.href} (${proxyMode(config)}); violations: ${url}/__admin/violations, shortlink-mock drift`] : []),
    `  db         ${db}`,
    `  console    ${url}/__admin/  (journal, scenarios, coverage, snapshots)${config.adminToken ? ' — needs the admin token' : ''}`,
    `  docs       ${url}/docs`,
    `  health     ${url}/__admin/health`,
    `  scenarios  ${scenarioLine(mock, config, await mock.scenarios.activeName())}`,
    config.proxy
      ? `  API keys   the upstream's: x-api-key is forwarded as sent (the keys below serve only the admin API's own data)\n             ${keys.join(`\n             `)}`
      : `  API keys   ${keys.join(`\n             `)}${config.acceptAnyKey ? '\n             (--accept-any-key: any other key becomes a fresh account)' : ''}`,
    `  try        ${example}`,
  ].join('\n');
}

function proxyMode(config: Config): string {
  const strict = config.proxyStrict ? 'strict: an off-contract answer becomes a 502' : 'answers pass unchanged, with x-contract-violations';
  return `${strict}; timeout ${config.proxyTimeoutMs} ms; scenarios answer first`;
}

function scenarioLine(mock: Mock, config: Config, active: string | null): string {
  const names = mock.scenarios.names();
  const watching = config.watch ? `, watching ${config.scenarios} for edits` : '';
  return `${names.length} loaded${scenarioSources(mock, config)}${watching} (${names.join(', ') || 'none'}); active: ${active ?? 'none'}; per request: x-mock-scenario: <name>`;
}

/** ` from DIR`, or with --scenarios DIR beside the built-in ones: `: 5 built in and 2 from DIR (a name in both is DIR's)`. */
function scenarioSources(mock: Mock, config: Config): string {
  if (!hasBuiltInLayer(config.scenarios, DEFAULT_SCENARIOS_DIR, config.builtinScenarios)) return ` from ${config.scenarios}`;
  const builtIn = mock.scenarios.list(null).filter((scenario) => scenario.source.startsWith(DEFAULT_SCENARIOS_DIR + sep)).length;
  return `: ${builtIn} built in and ${mock.scenarios.names().length - builtIn} from ${config.scenarios} (a name in both is DIR's)`;
}

/** What the db line says of kept data, by who wrote it (the rule: redis-generations.ts, KeptFrom). */
const KEPT: Record<KeptFrom, string> = {
  'earlier-run': 'kept from an earlier run',
  'another-instance': 'seeded by another instance, running now',
  unknown: 'kept: seeded by another instance or an earlier run',
};

/** The same for the warnings of ignoredSeedOptions. */
const HOLDS: Record<KeptFrom, string> = {
  'earlier-run': 'holds data from an earlier run',
  'another-instance': 'holds data another instance seeded (it runs now)',
  unknown: 'holds data another instance or an earlier run seeded',
};

/** --watch with --contract FILE: FILE is reloaded on edits, except in proxy mode (src/process/watch-contract.ts). */
function watchedContract(config: Config): string {
  if (!config.watch || config.contract === undefined) return '';
  return config.proxy ? '; --watch does not reload it in proxy mode: restart to serve an edit' : '; reloaded when edited (--watch)';
}

function dbLine(config: Config, mock: Mock): string {
  if (config.db === ':memory:') return ':memory: (nothing is written to disk)';
  const kept = mock.seeded ? `seeded with seed ${config.seed}` : `${KEPT[mock.keptFrom ?? 'earlier-run']}; --reset re-seeds it`;
  // The store's location: a Redis URL with its password masked.
  if (isRedisUrl(config.db)) return `${mock.store.location}, prefix '${config.redisPrefix}', shared by every instance on it (${kept})`;
  return `${config.db} (${kept})`;
}

/**
 * Options that only shape a fresh seed, given although this start kept the data of an earlier run:
 * one line each, so `--fixtures my.json` is never silently ignored.
 */
export function ignoredSeedOptions(config: Config, seeded: boolean, keptFrom: KeptFrom = 'earlier-run'): string[] {
  if (seeded || config.db === ':memory:') return [];
  const given: Array<[flag: 'fixtures' | 'seed', value: string | number]> = [
    ['fixtures', config.fixtures],
    ['seed', config.seed],
  ];
  return given
    .filter(([flag]) => config.sources[flag] !== undefined)
    .map(([flag, value]) => `warning: ${asGiven(config, flag, value)} is not used: ${dbName(config)} ${HOLDS[keptFrom]}, kept as it is; add --reset to re-seed it (this replaces its data)`);
}

const dbName = (config: Config): string => (isRedisUrl(config.db) ? `the Redis prefix '${config.redisPrefix}' at ${redactUrl(config.db)}` : config.db);
