#!/usr/bin/env node
// The process layer: the only reader of argv and the environment. Flags → Config; open the store;
// build the mock; listen; print the banner; on SIGINT/SIGTERM stop taking requests, let the ones
// in flight finish, flush every acknowledged write, and exit.
import { COMMANDS, ConfigError, helpText, parseConfig, type CommandName, type Config } from './process/config.js';
import { packageVersion } from './contract/package-root.js';
import { isRefusal } from './process/startup-error.js';
import type { StartedMock } from './process/startup.js';
import { availableParallelism } from 'node:os';

const EXIT_USAGE = 2;
const STOP_GRACE_MS = 4000;

type CommandRunner = (argv: readonly string[], env: NodeJS.ProcessEnv) => Promise<number>;

// Subcommands load their own modules on demand: the server's start-up does not pay for them. Keyed
// by COMMANDS, whose table --help prints, so a command cannot run without being listed or vice versa.
const COMMAND_RUNNERS: Record<CommandName, () => Promise<CommandRunner>> = {
  contract: async () => (await import('./contract/command.js')).runContractCommand,
  coverage: async () => (await import('./commands/coverage.js')).runCoverageCommand,
  drift: async () => (await import('./commands/drift.js')).runDriftCommand,
  evolve: async () => (await import('./commands/evolve.js')).runEvolveCommand,
  mcp: async () => (await import('./commands/mcp.js')).runMcpCommand,
  pact: async () => (await import('./commands/pact.js')).runPactCommand,
  robustness: async () => (await import('./commands/robustness.js')).runRobustnessCommand,
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
  await serve(config);
}

/**
 * The server's modules (Express, the validator, the store, faker, …) are imported here, once the
 * flags ask for a server: --help, --version and the subcommands never load them (a cold start).
 */
async function serve(config: Config): Promise<void> {
  const [startup, { ignoredSeedOptions, startupBanner }, { announceListening, cluster, runPrimary }] = await Promise.all([import('./process/startup.js'), import('./process/banner.js'), import('./process/workers.js')]);
  startup.requireSafeAdmin(config);
  // A contract FILE refused is one line, before any worker starts or any file is touched.
  if (config.contract !== undefined && cluster.isPrimary) startup.startupContract(config);
  const workerCount = config.workers === 'auto' ? availableParallelism() : config.workers;
  if (workerCount > 1 && cluster.isPrimary) {
    startup.removeReadyFile(config);
    return runPrimary(workerCount);
  }
  if (cluster.isPrimary) startup.removeReadyFile(config);
  const started = await startup.startFromConfig(config, (line) => console.log(line));
  const { mock, url } = started;
  stopGracefully(startup, started, config); // before the banner: a client may signal as soon as it reads the URL
  // Before the banner too: whoever reads the URL there finds the ready file written.
  startup.writeReadyFile(config, url);
  // With --workers, the primary prints the banner of its first worker only.
  announceListening(await startupBanner(url, config, mock, packageVersion()), ignoredSeedOptions(config, mock.seeded, mock.keptFrom));
}

type Startup = typeof import('./process/startup.js');

function stopGracefully(startup: Startup, started: StartedMock, config: Config): void {
  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping; finishing requests in flight and flushing the db`);
    removeReadyFileOnStop(startup, config);
    await startup.stopStarted(started, STOP_GRACE_MS);
    console.log('stopped; every acknowledged change is written');
    process.exit(0);
  };
  process.on('SIGINT', (signal) => void stop(signal));
  process.on('SIGTERM', (signal) => void stop(signal));
}

/** No longer taking requests: no longer ready. A file that cannot be removed must not stop the flush. */
function removeReadyFileOnStop(startup: Startup, config: Config): void {
  try {
    startup.removeReadyFile(config);
  } catch (error) {
    console.error(`shortlink-mock: ${(error as Error).message}`);
  }
}

main().catch((error: unknown) => {
  const known = error instanceof ConfigError || isRefusal(error);
  console.error(`shortlink-mock: ${known ? (error as Error).message : String((error as Error)?.stack ?? error)}`);
  process.exit(known ? EXIT_USAGE : 1);
});
