#!/usr/bin/env node
// The process layer: the only reader of argv and the environment. Flags → Config; open the store;
// build the mock; listen; print the banner; on SIGINT/SIGTERM stop taking requests, let the ones
// in flight finish, flush every acknowledged write, and exit.
import { ignoredSeedOptions, startupBanner } from './banner.js';
import { COMMANDS, ConfigError, helpText, parseConfig, type CommandName, type Config } from './config.js';
import { packageVersion } from './package-files.js';
import { removeReadyFile, requireSafeAdmin, startFromConfig, StartupError, stopStarted, writeReadyFile, type StartedMock } from './startup.js';
import { availableParallelism } from 'node:os';
import { announceListening, cluster, runPrimary } from './workers.js';

const EXIT_USAGE = 2;
const STOP_GRACE_MS = 4000;

type CommandRunner = (argv: readonly string[], env: NodeJS.ProcessEnv) => Promise<number>;

// Subcommands load their own modules on demand: the server's start-up does not pay for them. Keyed
// by COMMANDS, whose table --help prints, so a command cannot run without being listed or vice versa.
const COMMAND_RUNNERS: Record<CommandName, () => Promise<CommandRunner>> = {
  contract: async () => (await import('./contract/command.js')).runContractCommand,
  coverage: async () => (await import('./commands/coverage.js')).runCoverageCommand,
  drift: async () => (await import('./commands/drift.js')).runDriftCommand,
  pact: async () => (await import('./commands/pact.js')).runPactCommand,
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
  const started = await startFromConfig(config, (line) => console.log(line));
  const { mock, url } = started;
  stopGracefully(started, config); // before the banner: a client may signal as soon as it reads the URL
  // Before the banner too: whoever reads the URL there finds the ready file written.
  if (config.readyFile) writeReadyFile(config.readyFile, url);
  for (const warning of ignoredSeedOptions(config, mock.seeded)) console.error(warning);
  console.log(await startupBanner(url, config, mock, packageVersion()));
  announceListening();
}

function stopGracefully(started: StartedMock, config: Config): void {
  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping; finishing requests in flight and flushing the db`);
    if (config.readyFile) removeReadyFileOnStop(config.readyFile);
    await stopStarted(started, STOP_GRACE_MS);
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
