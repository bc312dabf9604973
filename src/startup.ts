// The start-up steps of the CLI that touch files or refuse a configuration, each failing with a
// StartupError whose one-line message the CLI prints before exiting with code 2.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { asGiven, sourceOf, type Config } from './config.js';
import type { Scenario } from './core/scenarios.js';
import { isLoopbackHost } from './admin/admin-token.js';
import { readFixtureSpec } from './package-files.js';
import { memoryStore, MEMORY_LOCATION, type DataStore } from './store/data-store.js';
import { DEFAULT_COMPACT_AFTER_BYTES, LogFileStore } from './store/log-file-store.js';
import { directorySnapshots, memorySnapshots, type SnapshotStore } from './store/snapshot-store.js';

export class StartupError extends Error {
  override name = 'StartupError';
}

export function openStore(db: string, durable: boolean, log: (line: string) => void): DataStore {
  if (db === MEMORY_LOCATION) return memoryStore();
  const file = resolve(db);
  try {
    mkdirSync(dirname(file), { recursive: true });
  } catch (error) {
    throw new StartupError(`cannot create the directory of db ${file}: ${(error as Error).message}`);
  }
  return new LogFileStore(file, {
    durable,
    compactAfterBytes: DEFAULT_COMPACT_AFTER_BYTES,
    onError: (error) => log(`INTERNAL ERROR compacting ${file} (the change log keeps every change): ${error.message}`),
  });
}

/** Snapshots live in `snapshots/` beside the db file, or in memory with `--db :memory:`. */
export function openSnapshots(db: string): SnapshotStore {
  return db === MEMORY_LOCATION ? memorySnapshots() : directorySnapshots(join(dirname(resolve(db)), 'snapshots'));
}

export function loadFixtures(file: string): ReturnType<typeof readFixtureSpec> {
  try {
    return readFixtureSpec(file);
  } catch (error) {
    throw new StartupError(`cannot load fixtures ${file}: ${(error as Error).message}`);
  }
}

export function loadStartupScenarios(load: (dir: string) => Scenario[], config: Config): Scenario[] {
  let scenarios: Scenario[];
  try {
    scenarios = load(config.scenarios);
  } catch (error) {
    throw new StartupError(`scenario refused: ${(error as Error).message}`);
  }
  if (config.scenario && !scenarios.some((scenario) => scenario.name === config.scenario)) {
    throw new StartupError(`${sourceOf(config, 'scenario')}: unknown scenario '${config.scenario}'; known: ${scenarios.map((scenario) => scenario.name).join(', ') || 'none'}`);
  }
  return scenarios;
}

/** Off loopback, anyone on the network could reset or read the journal: a token is required. */
export function requireSafeAdmin(config: Config): void {
  if (!isLoopbackHost(config.host) && config.adminToken === undefined) {
    throw new StartupError(`${asGiven(config, 'host', config.host)} is not a loopback address: set --admin-token (or MOCK_ADMIN_TOKEN) to protect the admin API`);
  }
}

/** Why the server could not listen, with what to do about it, naming where the port or host came from. */
export function listenError(error: NodeJS.ErrnoException, config: Config): StartupError {
  const port = config.sources['port'] ? asGiven(config, 'port', config.port) : `port ${config.port} (the default)`;
  if (error.code === 'EADDRINUSE') {
    return new StartupError(`cannot listen on ${config.host}: ${port} is already in use; pick another with --port N, or --port 0 for a free one (the banner and --ready-file say which)`);
  }
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') {
    return new StartupError(`cannot listen on ${asGiven(config, 'host', config.host)}: not an address of this machine (${error.code})`);
  }
  return new StartupError(`cannot listen on ${config.host} with ${port}: ${error.code ?? error.message}`);
}

/**
 * The ready file holds the URL of a mock that is listening, so a script waits for this very mock
 * instead of whatever answers on a port. Written beside and renamed: a reader never sees half a URL.
 */
export function writeReadyFile(file: string, url: string): void {
  const partial = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(partial, `${url}\n`);
    renameSync(partial, file);
  } catch (error) {
    throw new StartupError(`cannot write the ready file ${file}: ${(error as Error).message}`);
  }
}

/** Removed before start-up (a file left by an earlier run must not announce this one) and on a stop. */
export function removeReadyFile(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch (error) {
    throw new StartupError(`cannot remove the ready file ${file}: ${(error as Error).message}`);
  }
}
