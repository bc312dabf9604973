// What a mock builds on the contract it serves (createMock, mock.ts): the link service with FILE's
// Link shape, the Express app with FILE's validator and handlers, GET /__admin/contract's answer.
// Built once at start, and again for each contract --watch swaps in (watch-contract.ts); what does
// not depend on the contract (the data, traffic state, scenarios, variety) is made once and kept.
import type { RequestHandler } from 'express';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { createApp, type AppDeps } from './app.js';
import type { SeedAccount } from '../core/new-account.js';
import type { Contract } from '../core/contract-types.js';
import { CoverageTracker } from '../core/coverage.js';
import { CONSOLE_DIR, readAdminContract } from '../contract/package-files.js';
import type { KnownLinks, SnapshotStore } from '../core/snapshots.js';
import { DEFAULT_MAX_ANY_KEY_ACCOUNTS } from '../core/any-key-accounts.js';
import { LinkService } from '../core/links.js';
import type { MockData } from '../core/model.js';
import { cryptoRandomInt } from '../core/random.js';
import type { ScenarioRegistry } from '../core/scenario-registry.js';
import { ContractRules } from '../scenarios/contract-rules.js';
import { classifyContract, type ContractClasses } from '../core/contract-classes.js';
import type { ServedContract } from '../admin/contract-routes.js';
import { keptContract } from './kept-files.js';
import { linkShapeOf } from '../contract/link-fields.js';
import type { TrafficState } from '../core/traffic-state.js';
import type { VarietySwitch } from '../variety/switch.js';
import type { Mock, MockContract, MockOptions, OpenedData } from './mock-types.js';

/** What a mock builds on its contract: made again when --watch swaps another one in. */
export type ContractParts = Pick<Mock, 'app' | 'servedContract' | 'service'>;

/** What a mock makes once, whatever contract it serves. */
export interface KeptParts {
  data: OpenedData;
  /** The fixtures' data; with `known`, equal links as the stored records (seededData). */
  seed: (known?: KnownLinks) => Promise<MockData>;
  traffic: TrafficState;
  scenarios: ScenarioRegistry;
  variety: VarietySwitch;
  snapshots: SnapshotStore;
  startedAt: Date;
  seedAccount: SeedAccount;
  /** With --accept-any-key: an unknown key's account. */
  createAccount?: NonNullable<ConstructorParameters<typeof LinkService>[0]['createAccount']>;
  mcp: RequestHandler;
  proxy?: NonNullable<AppDeps['proxy']>;
}

export function contractParts(options: MockOptions, kept: KeptParts, given: MockContract): ContractParts {
  const { data, traffic, scenarios } = kept;
  const { store } = data;
  const servedContract = servedContractOf(given);
  // The Link fields a contract FILE adds or removes (--contract); none with the shipped one.
  const shape = linkShapeOf(given.contract.document, servedContract, options.seed);
  const service = new LinkService({
    store,
    ...(shape ? { shape } : {}),
    ...(kept.createAccount ? { createAccount: kept.createAccount, maxAccounts: options.maxAnyKeyAccounts ?? DEFAULT_MAX_ANY_KEY_ACCOUNTS } : {}),
    random: options.random ?? cryptoRandomInt,
    now: options.now ?? (() => new Date()),
  });
  const contractRules = given.contractRules ?? new ContractRules(given.contract.document);
  const app = createApp({
    service,
    servedContract,
    contract: given.contract,
    contractRules,
    scenarios,
    variety: kept.variety,
    journal: traffic.journal,
    coverage: new CoverageTracker(contractRules.documentedOutcomes(), traffic.coverage),
    violations: traffic.violations,
    snapshots: kept.snapshots,
    adminContract: adminContractOf(given.contract),
    consoleDir: CONSOLE_DIR,
    docsAssetsDir: swaggerUiAssets(),
    // Unchanged links as the stored records, where the store can (LinkStore.readReusing, issue 40).
    reset: async () => service.replaceData(await (store.readReusing ? store.readReusing(kept.seed) : kept.seed())),
    seedAccount: kept.seedAccount,
    // The `times` counters start over with the data: in the store's own replace when it can (Redis).
    onStateReplaced: options.shared?.countersResetBy === traffic ? () => undefined : () => scenarios.clearCounters(),
    ...(data.health ? { storeHealth: data.health } : {}),
    version: options.version,
    startedAt: kept.startedAt,
    random: options.random ?? cryptoRandomInt,
    ...(options.adminToken === undefined ? {} : { adminToken: options.adminToken }),
    ...(options.sleep ? { sleep: options.sleep } : {}),
    ...(options.corsOrigins ? { corsOrigins: options.corsOrigins } : {}),
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
    ...(options.log ? { log: options.log } : {}),
    ...(options.logRequests === false ? { logRequests: false } : {}),
    ...(options.handlers ? { handlers: options.handlers } : {}),
    mcp: kept.mcp,
    ...(kept.proxy ? { proxy: kept.proxy } : {}),
  });
  return { app, servedContract, service };
}

function swaggerUiAssets(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

/** GET /__admin/contract's answer: the classes kept with the contract, or classified here against the shipped one. */
function servedContractOf(options: MockContract): ServedContract {
  const classes = options.contractClasses ?? classesOf(options.contract.document);
  const version = (options.contract.document['info'] as { version?: unknown } | undefined)?.version;
  return { file: options.contractFile ?? null, version: String(version ?? ''), ...classes };
}

/** Classified once per contract document: the tests build thousands of apps on one. */
const classified = new WeakMap<Contract['document'], ContractClasses>();

function classesOf(document: Contract['document']): ContractClasses {
  let classes = classified.get(document);
  if (!classes) classified.set(document, (classes = classifyContract(keptContract().contract.document, document)));
  return classes;
}

/**
 * The admin document for an API contract, read once per contract: every mock built on the same
 * contract object (the tests' thousands of apps, startMock's) then shares one document, so the
 * admin router's validator is built and compiled once for them all (src/admin/router.ts).
 */
const adminContracts = new WeakMap<Contract['document'], Contract>();

function adminContractOf(api: Contract): Contract {
  let admin = adminContracts.get(api.document);
  if (!admin) adminContracts.set(api.document, (admin = readAdminContract(api, undefined, keptContract().contract)));
  return admin;
}
