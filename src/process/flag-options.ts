// What createMock (mock.ts) takes from a Config: the flags' values as they are, and --variety-from
// FILE read and checked as --contract FILE is.
import { asGiven, type Config } from './config.js';
import type { MockOptions } from './mock.js';
import { StartupError } from './startup-error.js';
import type { Contract } from '../core/contract-types.js';
import { readUserContract } from '../contract/user-contract.js';

/** --variety-from FILE, read and checked as --contract FILE is; refused as a StartupError naming how it was given. */
export function varietyFrom(config: Config): { varietyFrom?: Contract } {
  if (config.varietyFrom === undefined) return {};
  try {
    return { varietyFrom: readUserContract(config.varietyFrom) };
  } catch (error) {
    if ((error as Error).name !== 'ContractFileError') throw error;
    throw new StartupError(`cannot read ${asGiven(config, 'variety-from', config.varietyFrom)}: ${(error as Error).message}`);
  }
}

/** What createMock takes from the flags as they are. */
export function flagOptions(config: Config): Omit<MockOptions, 'contract' | 'fixtures' | 'version'> {
  return {
    logRequests: !config.quiet,
    durability: config.durability,
    ...(config.scenario ? { scenario: config.scenario } : {}),
    ...(config.variety === undefined ? {} : { variety: { seed: config.variety } }),
    seed: config.seed,
    corsOrigins: config.corsOrigins,
    allowedHosts: config.allowedHosts,
    journalSize: config.journalSize,
    acceptAnyKey: config.acceptAnyKey,
    maxAnyKeyAccounts: config.maxAnyKeyAccounts,
    ...(config.adminToken === undefined ? {} : { adminToken: config.adminToken }),
    ...(config.proxy ? { proxy: { url: config.proxy, strict: config.proxyStrict, timeoutMs: config.proxyTimeoutMs, concurrency: config.proxyConcurrency } } : {}),
  };
}
