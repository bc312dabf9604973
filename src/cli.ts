#!/usr/bin/env node
// The process layer: the only reader of argv and the environment. Flags → Config; open the store;
// build the mock; listen; print the banner; on SIGINT/SIGTERM stop taking requests, let the ones
// in flight finish, flush every acknowledged write, and exit.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { ignoredSeedOptions, startupBanner } from './banner.js';
import { COMMANDS, ConfigError, helpText, parseConfig, type CommandName, type Config } from './config.js';
import { createMock, type Mock } from './mock.js';
import { createHttpServer } from './http/server.js';
import { DEFAULT_SCENARIOS_DIR, packageVersion, readContract } from './package-files.js';
import { listenError, loadFixtures, loadStartupScenarios, openSnapshots, openStore, removeReadyFile, requireSafeAdmin, StartupError, writeReadyFile } from './startup.js';
import { ContractRules } from './scenarios/contract-rules.js';
import { scenarioLoader } from './scenarios/load-scenarios.js';
import { watchScenarios } from './scenarios/watch-scenarios.js';
import { availableParallelism } from 'node:os';
import type { FixtureSpec } from '../fixtures/fixture-spec.js';
import type { MockData } from './core/model.js';
import { isRedisUrl } from './option-values.js';
import { openSharedState, sharedMockOptions } from './shared-state.js';
import { announceListening, cluster, isFirstWorker, runPrimary } from './workers.js';

const EXIT_USAGE = 2;
const STOP_GRACE_MS = 4000;

type CommandRunner = (argv: readonly string[], env: NodeJS.ProcessEnv) => Promise<number>;

// Subcommands load their own modules on demand: the server's start-up does not pay for them. Keyed
// by COMMANDS, whose table --help prints, so a command cannot run without being listed or vice versa.
const COMMAND_RUNNERS: Record<CommandName, () => Promise<CommandRunner>> = {
  contract: async () => (await import('./contract/command.js')).runContractCommand,
  coverage: async () => (await import('./commands/coverage.js')).runCoverageCommand,
};

async function main(): Promise<void> {
  const command = COMMANDS.find((candidate) => candidate.name === process.argv[2]);
  if (command) {
    const run = await COMMAND_RUNNERS[command.name]();
    process.exit(await run(process.argv.slice(3), process.env));
  }
  const config = parseConfig(process.argv.slice(2), process.env);
  if (config.help) return void console.log(helpText());
  if (config.version) return void console.log(packageVersion());
  requireSafeAdmin(config);
  const workerCount = config.workers === 'auto' ? availableParallelism() : config.workers;
  if (workerCount > 1 && cluster.isPrimary) {
    if (config.readyFile) removeReadyFile(config.readyFile);
    return runPrimary(workerCount);
  }
  if (config.readyFile && cluster.isPrimary) removeReadyFile(config.readyFile);
  const contract = readContract();
  const contractRules = new ContractRules(contract.document);
  const loadScenarios = scenarioLoader(contractRules, DEFAULT_SCENARIOS_DIR);
  const scenarios = loadStartupScenarios(loadScenarios, config);
  // --quiet silences the per-request lines, never a contract violation or an internal error.
  const log = (line: string): void => (config.quiet && !line.startsWith('CONTRACT') && !line.startsWith('INTERNAL') ? undefined : console.log(line));
  const fixtures = loadFixtures(config.fixtures);
  const reset = config.reset && isFirstWorker();
  // What the shared store says (Redis gone, back, re-seeded) is rare and matters: never quieted.
  const shared = isRedisUrl(config.db) ? await openShared(config, fixtures, reset, (line) => console.log(line)) : undefined;
  const mock = await createMock({
    ...(shared
      ? sharedMockOptions(shared)
      : { store: openStore(config.db, config.durability === 'durable', log), snapshots: openSnapshots(config.db) }),
    logRequests: !config.quiet,
    durability: config.durability,
    contract,
    contractRules,
    scenarios,
    ...(config.scenario ? { scenario: config.scenario } : {}),
    fixtures,
    seed: config.seed,
    reset,
    version: packageVersion(),
    corsOrigins: config.corsOrigins,
    allowedHosts: config.allowedHosts,
    journalSize: config.journalSize,
    acceptAnyKey: config.acceptAnyKey,
    ...(config.adminToken === undefined ? {} : { adminToken: config.adminToken }),
    log,
  });
  if (config.watch) watchScenarios(config.scenarios, loadScenarios, mock.scenarios, (line) => console.log(line));
  const server = await listen(mock, config);
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  stopGracefully(server, mock, config); // before the banner: a client may signal as soon as it reads the URL
  // Before the banner too: whoever reads the URL there finds the ready file written.
  if (config.readyFile) writeReadyFile(config.readyFile, url);
  for (const warning of ignoredSeedOptions(config, mock.seeded)) console.error(warning);
  console.log(await startupBanner(url, config, mock, packageVersion()));
  announceListening();
}

/** `--db redis://…`: links, journal, coverage, scenario and snapshots on one Redis (D20, D21). */
function openShared(config: Config, fixtures: FixtureSpec, reset: boolean, log: (line: string) => void) {
  const seed = async (): Promise<MockData> => (await import('../fixtures/seed.js')).buildSeed(config.seed, fixtures);
  return openSharedState({ url: config.db, prefix: config.redisPrefix, journalSize: config.journalSize, reset, seed, log });
}

function listen(mock: Mock, config: Config): Promise<Server> {
  return new Promise((resolveServer, reject) => {
    const server = createHttpServer(mock.app).listen(config.port, config.host);
    server.once('listening', () => resolveServer(server));
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, config)));
  });
}

function stopGracefully(server: Server, mock: Mock, config: Config): void {
  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping; finishing requests in flight and flushing the db`);
    if (config.readyFile) removeReadyFileOnStop(config.readyFile);
    // Keep-alive clients would go on sending on their open connections: tell each one, with its
    // next answer, that the connection closes (prepended, so it runs before the app answers).
    server.prependListener('request', (_req, res) => res.setHeader('connection', 'close'));
    const closed = new Promise<void>((done) => server.close(() => done()));
    server.closeIdleConnections();
    const forced = setTimeout(() => server.closeAllConnections(), STOP_GRACE_MS);
    await closed;
    clearTimeout(forced);
    await mock.close();
    console.log('stopped; every acknowledged change is written');
    process.exit(0);
  };
  process.on('SIGINT', (signal) => void stop(signal));
  process.on('SIGTERM', (signal) => void stop(signal));
}

/** No longer taking requests: no longer ready. A file that cannot be removed must not stop the flush. */
function removeReadyFileOnStop(file: string): void {
  try {
    removeReadyFile(file);
  } catch (error) {
    console.error(`shortlink-mock: ${(error as Error).message}`);
  }
}

main().catch((error: unknown) => {
  const known = error instanceof ConfigError || error instanceof StartupError || ['DataFileError', 'RedisStartError'].includes((error as Error)?.name);
  console.error(`shortlink-mock: ${known ? (error as Error).message : String((error as Error)?.stack ?? error)}`);
  process.exit(known ? EXIT_USAGE : 1);
});
