#!/usr/bin/env node
// The process layer: the only reader of argv and the environment. Flags → Config; open the store;
// build the mock; listen; print the banner; on SIGINT/SIGTERM stop taking requests, let the ones
// in flight finish, flush every acknowledged write, and exit.
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { startupBanner } from './banner.js';
import { ConfigError, helpText, parseConfig, type Config } from './config.js';
import { createMock, type Mock } from './mock.js';
import { DEFAULT_SCENARIOS_DIR, packageVersion, readContract, readFixtureSpec } from './package-files.js';
import { jsonFileStore, memoryStore, MEMORY_LOCATION, type DataStore } from './store/data-store.js';
import type { Scenario } from './core/scenarios.js';
import { ContractRules } from './scenarios/contract-rules.js';
import { scenarioLoader } from './scenarios/load-scenarios.js';
import { watchScenarios } from './scenarios/watch-scenarios.js';


const EXIT_USAGE = 2;
const STOP_GRACE_MS = 4000;

class StartupError extends Error {}

async function main(): Promise<void> {
  const config = parseConfig(process.argv.slice(2), process.env);
  if (config.help) return void console.log(helpText());
  if (config.version) return void console.log(packageVersion());
  const contract = readContract();
  const loadScenarios = scenarioLoader(new ContractRules(contract.document), DEFAULT_SCENARIOS_DIR);
  const scenarios = loadStartupScenarios(loadScenarios, config);
  const log = (line: string): void => (config.quiet && !line.startsWith('CONTRACT') && !line.startsWith('INTERNAL') ? undefined : console.log(line));
  const mock = await createMock({
    store: openStore(config.db),
    contract,
    scenarios,
    ...(config.scenario ? { scenario: config.scenario } : {}),
    fixtures: loadFixtures(config.fixtures),
    seed: config.seed,
    reset: config.reset,
    version: packageVersion(),
    corsOrigins: config.corsOrigins,
    log,
  });
  if (config.watch) watchScenarios(config.scenarios, loadScenarios, mock.scenarios, (line) => console.log(line));
  const server = await listen(mock, config);
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  console.log(startupBanner(`http://${host}:${port}`, config, mock, packageVersion()));
  stopGracefully(server, mock);
}

function loadStartupScenarios(load: (dir: string) => Scenario[], config: Config): Scenario[] {
  let scenarios: Scenario[];
  try {
    scenarios = load(config.scenarios);
  } catch (error) {
    throw new StartupError(`scenario refused: ${(error as Error).message}`);
  }
  if (config.scenario && !scenarios.some((scenario) => scenario.name === config.scenario)) {
    throw new StartupError(`--scenario: unknown scenario '${config.scenario}'; known: ${scenarios.map((scenario) => scenario.name).join(', ') || 'none'}`);
  }
  return scenarios;
}

function openStore(db: string): DataStore {
  if (db === MEMORY_LOCATION) return memoryStore();
  const file = resolve(db);
  try {
    mkdirSync(dirname(file), { recursive: true });
  } catch (error) {
    throw new StartupError(`cannot create the directory of db ${file}: ${(error as Error).message}`);
  }
  return jsonFileStore(file);
}

function loadFixtures(file: string): ReturnType<typeof readFixtureSpec> {
  try {
    return readFixtureSpec(file);
  } catch (error) {
    throw new StartupError(`cannot load fixtures ${file}: ${(error as Error).message}`);
  }
}

function listen(mock: Mock, config: Config): Promise<Server> {
  return new Promise((resolveServer, reject) => {
    const server = mock.app.listen(config.port, config.host);
    server.once('listening', () => resolveServer(server));
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(new StartupError(`cannot listen on ${config.host}:${config.port}: ${error.code ?? error.message}`));
    });
  });
}

function stopGracefully(server: Server, mock: Mock): void {
  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping; finishing requests in flight and flushing the db`);
    const closed = new Promise<void>((done) => server.close(() => done()));
    server.closeIdleConnections();
    const forced = setTimeout(() => server.closeAllConnections(), STOP_GRACE_MS);
    await closed;
    clearTimeout(forced);
    await mock.flush();
    console.log('stopped; every acknowledged change is written');
    process.exit(0);
  };
  process.on('SIGINT', (signal) => void stop(signal));
  process.on('SIGTERM', (signal) => void stop(signal));
}

main().catch((error: unknown) => {
  const known = error instanceof ConfigError || error instanceof StartupError || (error as Error)?.name === 'DataFileError';
  console.error(`shortlink-mock: ${known ? (error as Error).message : String((error as Error)?.stack ?? error)}`);
  process.exit(known ? EXIT_USAGE : 1);
});
