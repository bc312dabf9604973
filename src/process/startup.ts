// The start-up steps of the CLI that touch files or refuse a configuration, each failing with a
// StartupError whose one-line message the CLI prints before exiting with code 2; and the two that
// the CLI and startMock() (src/toolkit/start-mock.ts) share: start a mock from a Config, stop it.
// What createMock takes from the flags is flag-options.ts's; the listening, listen.ts's.
import type { FSWatcher } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { asGiven, sourceOf, type Config } from './config.js';
import type { Mock } from './mock.js';
import { DEFAULT_SCENARIOS_DIR, packageVersion } from '../contract/package-files.js';
import { scenarioLoader } from '../scenarios/load-scenarios.js';
import { watchScenarios } from '../scenarios/watch-scenarios.js';
import { watchContract } from './watch-contract.js';
import { hasBuiltInLayer, overBuiltIns, replacingLine, type ServedScenarios } from '../scenarios/scenario-layers.js';
import type { FixtureSpec } from '../../fixtures/fixture-spec.js';
import type { MockData } from '../core/model.js';
import { isRedisUrl } from './option-values.js';
import { isFirstWorker } from './workers.js';
import type { Scenario } from '../core/scenarios.js';
import { isLoopbackHost } from '../admin/admin-token.js';
import { keptContract, keptFixtures, keptUserContract, type KeptContract } from './kept-files.js';
import { openLocalDb } from './local-db.js';
import { collectAfterLoad, collectGarbage, watchedLoad, type FullCollections } from './collect-garbage.js';
import { StartupError } from './startup-error.js';
import { flagOptions, varietyFrom } from './flag-options.js';
import { listenOrClose } from './listen.js';
import { namingOption } from './named-refusal.js';
import { guessAndKnown } from '../core/nearest.js';
import { keptWhenQuiet } from './quiet-lines.js';

export { StartupError };
// The ready file's two steps live in ready-file.ts; the CLI and startMock() reach them through this module.
export { removeReadyFile, writeReadyFile } from './ready-file.js';

/**
 * The scenarios served at start (scenario-layers.ts), and the built-in layer a --watch reload keeps
 * (undefined: DIR is the only one). `atStart`: a refusal of DIR's files names --scenarios (or
 * MOCK_SCENARIOS) when the user gave DIR; a --watch reload of the contract passes false, since
 * there the new contract, not DIR, is what changed.
 */
export function loadStartupScenarios(load: (dir: string) => Scenario[], config: Config, atStart = false): { served: ServedScenarios; builtIns?: Scenario[] } {
  const builtIns = hasBuiltInLayer(config.scenarios, DEFAULT_SCENARIOS_DIR, config.builtinScenarios) ? scenariosOf(() => load(DEFAULT_SCENARIOS_DIR)) : undefined;
  const loadOwn = () => scenariosOf(() => load(config.scenarios));
  const own = atStart && config.sources['scenarios'] !== undefined ? namingOption(config, 'scenarios', loadOwn) : loadOwn();
  const served = overBuiltIns(builtIns ?? [], own);
  const { scenarios } = served;
  if (config.scenario && !scenarios.some((scenario) => scenario.name === config.scenario)) {
    const names = scenarios.map((scenario) => scenario.name).sort();
    throw new StartupError(`${sourceOf(config, 'scenario')}: unknown scenario '${config.scenario}'${guessAndKnown(config.scenario, names)}`);
  }
  return { served, ...(builtIns ? { builtIns } : {}) };
}

function scenariosOf(load: () => Scenario[]): Scenario[] {
  try {
    return load();
  } catch (error) {
    throw new StartupError(`scenario refused: ${(error as Error).message}`);
  }
}

/** Off loopback, anyone on the network could reset or read the journal: a token is required. */
export function requireSafeAdmin(config: Config): void {
  if (!isLoopbackHost(config.host) && config.adminToken === undefined) {
    throw new StartupError(`${asGiven(config, 'host', config.host)} is not a loopback address: set --admin-token (or MOCK_ADMIN_TOKEN) to protect the admin API`);
  }
}

/** A mock listening in this process: what the CLI and startMock() get from startFromConfig. */
export interface StartedMock {
  mock: Mock;
  server: Server;
  /** `http://host:port`, with the port the OS picked for port 0. */
  url: string;
  /** The --watch watchers (scenarios; --contract FILE), closed by stopStarted. */
  watchers: FSWatcher[];
}

/**
 * Loads the contract, scenarios and fixtures, opens the store (file, memory or Redis), builds the
 * mock and listens. `print` gets every line the mock logs; with `quiet` only contract violations
 * and internal errors, which are never silenced.
 */
export async function startFromConfig(config: Config, print: (line: string) => void): Promise<StartedMock> {
  // The same contract and fixtures objects for every mock of this process while the files are unchanged (kept-files.ts).
  const started = startupContract(config);
  const { contract, rules: contractRules, classes: contractClasses } = started;
  // The scenarios are checked against the contract served: a contract reloaded by --watch brings its own check.
  let loadScenarios = scenarioLoader(contractRules, DEFAULT_SCENARIOS_DIR);
  const { served, builtIns } = loadStartupScenarios(loadScenarios, config, true);
  // Like the --watch lines, never quieted: which file a scenario name means is not a request's line.
  for (const scenario of served.replacing) print(replacingLine(scenario));
  const log = (line: string): void => (config.quiet && !keptWhenQuiet(line) ? undefined : print(line));
  const fixtures = namingOption(config, 'fixtures', () => keptFixtures(config.fixtures));
  const reset = config.reset && isFirstWorker();
  // What the shared store says (Redis gone, back, re-seeded) is rare and matters: never quieted.
  const shared = isRedisUrl(config.db) ? await namingOption(config, 'db', () => openShared(config, fixtures, reset, print)) : undefined;
  // Opened and checked before the server's modules load: a db the CLI refuses costs none of them.
  // V8's own full collections during the load watched: one late in it may leave the one before listening nothing to do (collect-garbage.ts).
  const collections: FullCollections = {};
  const data = shared ?? (await namingOption(config, 'db', () => watchedLoad(() => openLocalDb(config.db, config.durability === 'durable', reset, log), collections)));
  const { createMock } = await import('./mock.js');
  const options = { ...data, ...flagOptions(config), contract, contractRules, contractClasses, ...(config.contract === undefined ? {} : { contractFile: config.contract }), ...varietyFrom(config), scenarios: served.scenarios, fixtures, reset, version: packageVersion(), log };
  // Seeding writes the db: a db it cannot write (--reset over a file that is not the mock's) is refused there.
  const mock = await namingOption(config, 'db', () => createMock(options), ['DataFileError']);
  // The garbage of loading a large db or seed, collected while no request can wait on it (collect-garbage.ts).
  if (!shared) collectAfterLoad(await mock.store.totalLinks(), collectGarbage, collections);
  const swappable = reloadsContract(config);
  const server = await listenOrClose(mock, config, swappable);
  const watchers = config.watch ? [watchScenarios(config.scenarios, (dir) => loadScenarios(dir), mock.scenarios, print, builtIns)] : [];
  if (swappable && config.contract !== undefined) {
    const given = asGiven(config, 'contract', config.contract);
    const scenariosFor = (next: KeptContract) => {
      const load = scenarioLoader(next.rules, DEFAULT_SCENARIOS_DIR);
      const checked = loadStartupScenarios(load, config).served.scenarios;
      return async () => {
        await mock.scenarios.replace(checked);
        loadScenarios = load;
      };
    };
    watchers.push(watchContract({ file: config.contract, read: () => keptUserContract(config.contract ?? '', given), scenariosFor }, mock, started, print));
  }
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return { mock, server, url: `http://${host}:${port}`, watchers };
}

/**
 * --watch with --contract FILE reloads FILE too (watch-contract.ts); not in proxy mode, whose
 * judging threads compile the contract of the start (the banner says so).
 */
export function reloadsContract(config: Config): boolean {
  return config.watch && config.contract !== undefined && !config.proxy;
}

/**
 * The contract served: --contract FILE, checked before the store is opened (nothing is written to
 * the db for a file that is refused), or the shipped openapi.yaml. The CLI's primary calls it too,
 * before it starts workers, so that a refused file is one line and not one per worker.
 */
export function startupContract(config: Config): KeptContract {
  return config.contract === undefined ? keptContract() : keptUserContract(config.contract, asGiven(config, 'contract', config.contract));
}

/**
 * `--db redis://…`: links, journal, coverage, scenario and snapshots on one Redis (D20, D21). Its
 * modules are loaded only then: a start on a file or in memory does not pay for them.
 */
async function openShared(config: Config, fixtures: FixtureSpec, reset: boolean, log: (line: string) => void) {
  const { openSharedState, sharedMockOptions } = await import('./shared-state.js');
  const seed = async (): Promise<MockData> => (await import('../../fixtures/seed.js')).buildSeed(config.seed, fixtures);
  return sharedMockOptions(await openSharedState({ url: config.db, prefix: config.redisPrefix, journalSize: config.journalSize, reset, seed, log }));
}

/**
 * Stops taking requests, lets the ones in flight finish (for at most graceMs, then closes their
 * connections), writes every acknowledged change and releases the store.
 */
export async function stopStarted(started: StartedMock, graceMs: number): Promise<void> {
  const { server, mock } = started;
  for (const watcher of started.watchers) watcher.close();
  // Keep-alive clients would go on sending on their open connections: tell each one, with its
  // next answer, that the connection closes (prepended, so it runs before the app answers).
  server.prependListener('request', (_req, res) => res.setHeader('connection', 'close'));
  const closed = new Promise<void>((done) => server.close(() => done()));
  server.closeIdleConnections();
  // A request already in flight was answered without that header, and its connection then waits
  // idle for the client's next request (a keep-alive client may hold it for seconds): closed as
  // soon as it is idle, not at graceMs. Only while stopping: no cost to a request.
  const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
  const forced = setTimeout(() => server.closeAllConnections(), graceMs);
  await closed;
  clearInterval(sweep);
  clearTimeout(forced);
  await mock.close();
}

/** How often a stop closes the connections that went idle since it began. */
const IDLE_SWEEP_MS = 25;
