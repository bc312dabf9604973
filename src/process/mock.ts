// Puts a mock together from its parts: the data (kept or seeded), the group-committing store, the
// link service and the Express app. The CLI and the test builder both start here.
import type { Express } from 'express';
import type { FixtureSpec } from '../../fixtures/fixture-spec.js';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { createApp } from './app.js';
import type { Contract } from '../core/contract-types.js';
import { CoverageTracker } from '../core/coverage.js';
import { DEFAULT_JOURNAL_SIZE } from '../core/journal.js';
import { CONSOLE_DIR, readAdminContract } from '../contract/package-files.js';
import type { SnapshotStore } from '../core/snapshots.js';
import { memorySnapshots } from '../store/file/snapshot-store.js';
import { DEFAULT_MAX_ANY_KEY_ACCOUNTS, LinkService } from '../core/links.js';
import type { StoreOp } from '../core/changes.js';
import type { MockData } from '../core/model.js';
import { cryptoRandomInt, type RandomInt } from '../core/random.js';
import { ScenarioRegistry } from '../core/scenario-registry.js';
import type { Scenario } from '../core/scenarios.js';
import type { OperationHandlers } from '../http/operations.js';
import type { Sleep } from '../http/scenarios.js';
import { ContractRules } from '../scenarios/contract-rules.js';
import { classifyContract, type ContractClasses } from '../core/contract-classes.js';
import type { ServedContract } from '../admin/contract-routes.js';
import { keptContract } from './kept-files.js';
import { linkShapeOf } from '../contract/link-fields.js';
import type { DataStore } from '../store/file/data-store.js';
import { GroupCommit } from '../store/file/group-commit.js';
import type { KeptFrom } from '../store/redis/redis-generations.js';
import { LocalLinkStore } from '../store/file/local-link-store.js';
import type { LinkStore } from '../core/link-store.js';
import { accountForKey, type SlugCheck } from './account-for-key.js';
import { seededData } from './seeded-data.js';
import type { StoreHealth } from '../core/link-store.js';
import { dataFrom, openData } from '../store/file/open-data.js';
import { createTrafficState } from '../store/create-traffic-state.js';
import type { JournalStore, TrafficState } from '../core/traffic-state.js';
import type { VarietySettings } from '../variety/plan.js';
import { type VarietySwitch, varietySwitchFor } from '../variety/switch.js';
import { followShared, VARIETY_FOLLOW_MS } from '../variety/follow-shared.js';
import { lazyMcpEndpoint } from '../toolkit/mcp/lazy-endpoint.js';

/** Data opened elsewhere and shared by every instance (Redis): it seeded itself (D24). */
export interface SharedData {
  store: LinkStore & SlugCheck & { health(): Promise<StoreHealth> };
  seeded: boolean;
  /** When this start kept the data: who wrote it (redis-generations.ts). */
  keptFrom?: KeptFrom;
  /** Releases the store and whatever else it holds open (default: the store's close). */
  close?: () => Promise<void>;
  /**
   * The traffic state whose `times` counters the store's replaceAll deletes in its own atomic step
   * (Redis, same prefix: src/process/shared-state.ts). When it is the mock's, a reset or restore does not
   * clear them again after: that would be a second, separate step, erasing uses counted since.
   */
  countersResetBy?: TrafficState;
}

export interface MockOptions {
  /** This process's data: the lowdb file with its change log, or memory. */
  store?: DataStore;
  /** What `store` keeps, already read and checked (keptData): not read again; null: seed it. Default: read here. */
  storeData?: MockData | null;
  /** Or data shared with other instances (`--db redis://`); exactly one of the two. */
  shared?: SharedData;
  contract: Contract;
  /** What the contract allows each operation to answer; built from `contract` when not given. */
  contractRules?: ContractRules;
  /** How `contract` is served against the shipped one; classified here when not given. */
  contractClasses?: ContractClasses;
  /** FILE as the user gave it (--contract), for GET /__admin/contract; absent: the shipped openapi.yaml. */
  contractFile?: string;
  /** Today's contract (--variety-from): what `contract` newly allows against it is varied as next.* dimensions. */
  varietyFrom?: Contract;
  fixtures: FixtureSpec;
  seed: number;
  /** 'relaxed' acknowledges a change before its write finishes (default 'durable'). */
  durability?: 'durable' | 'relaxed';
  /** Re-seed even if the store holds data. */
  reset?: boolean;
  version: string;
  /** The loaded scenarios, and the one active globally from the start. */
  scenarios?: readonly Scenario[];
  scenario?: string;
  /** Variety mode for every request from the start (--variety). */
  variety?: VarietySettings;
  corsOrigins?: readonly string[];
  /** Host names the admin API answers besides loopback ones when there is no admin token (--allowed-host). */
  allowedHosts?: readonly string[];
  /** How many requests the journal keeps (default 1000). */
  journalSize?: number;
  /** The journal, coverage and global scenario: default in this process's memory (journalSize entries). Closed by close(). */
  traffic?: TrafficState;
  /** Where named snapshots go (default: memory). */
  snapshots?: SnapshotStore;
  /** Required by the admin API when set. */
  adminToken?: string;
  /** An unknown API key becomes a fresh account seeded from the key (default: a 401). */
  acceptAnyKey?: boolean;
  /** With acceptAnyKey: once the data holds this many accounts, an unknown key is a 401 (default DEFAULT_MAX_ANY_KEY_ACCOUNTS). */
  maxAnyKeyAccounts?: number;
  log?: (line: string) => void;
  /** false: no line per request (--quiet); errors still go to `log`. Default true. */
  logRequests?: boolean;
  handlers?: Partial<OperationHandlers>;
  /** Proxy mode: API requests go to this upstream, both sides judged against the contract. */
  proxy?: ProxyOptions;
  random?: RandomInt;
  now?: () => Date;
  sleep?: Sleep;
}

export interface ProxyOptions {
  url: URL;
  /** An off-contract upstream answer becomes a 502 Error object. */
  strict: boolean;
  /** How long the upstream has for a whole answer. */
  timeoutMs: number;
  /** How many exchanges with the upstream at once (default DEFAULT_PROXY_CONCURRENCY). */
  concurrency?: number;
  /** How long a client has to take its answer before its connection is reset (default timeoutMs). */
  clientTimeoutMs?: number;
}

export interface Mock {
  app: Express;
  /** How the contract is served against the shipped one (GET /__admin/contract, the banner). */
  servedContract: ServedContract;
  service: LinkService;
  /** Where the data is: this process's (LocalLinkStore, whose indexes tests read) or shared. */
  store: LinkStore;
  scenarios: ScenarioRegistry;
  /** Variety mode's settings (the admin API's PUT /__admin/variety changes them too). */
  variety: VarietySwitch;
  journal: JournalStore;
  /** True when this start seeded the data, false when it kept the stored data. */
  seeded: boolean;
  /** Who wrote the data this start kept, when the store can tell (Redis); the file store's is always an earlier run. */
  keptFrom?: KeptFrom;
  /** Writes every change made so far, finishes background work and releases the store's files. */
  close: () => Promise<void>;
}

export async function createMock(options: MockOptions): Promise<Mock> {
  // faker is heavy: it is loaded only when data has to be seeded, not on every start.
  const seeds = () => import('../../fixtures/seed.js');
  const seed = (): Promise<MockData> => seededData(options.seed, options.fixtures);
  const data = options.shared ? sharedData(options.shared) : await localData(options, seed);
  const { store } = data;
  const { buildAccountForKey } = options.acceptAnyKey ? await seeds() : { buildAccountForKey: undefined };
  const servedContract = servedContractOf(options);
  // The Link fields a contract FILE adds or removes (--contract); none with the shipped one.
  const shape = linkShapeOf(options.contract.document, servedContract, options.seed);
  const service = new LinkService({
    store,
    ...(shape ? { shape } : {}),
    ...(buildAccountForKey ? { createAccount: accountForKey(store, buildAccountForKey), maxAccounts: options.maxAnyKeyAccounts ?? DEFAULT_MAX_ANY_KEY_ACCOUNTS } : {}),
    random: options.random ?? cryptoRandomInt,
    now: options.now ?? (() => new Date()),
  });
  const traffic = options.traffic ?? createTrafficState({ kind: 'memory', journalSize: options.journalSize ?? DEFAULT_JOURNAL_SIZE });
  const scenarios = new ScenarioRegistry(options.scenarios ?? [], traffic.scenario);
  if (options.scenario) await scenarios.setActive(options.scenario, '--scenario');
  const contractRules = options.contractRules ?? new ContractRules(options.contract.document);
  // Shared by instances on Redis: this one starts from what is set there, and follows it.
  const variety = varietySwitchFor(options.contract.document, traffic.variety, options.varietyFrom?.document);
  await variety.refresh(true);
  if (options.variety) await variety.set(options.variety);
  const stopFollowing = followShared(variety, VARIETY_FOLLOW_MS, options.log ?? (() => undefined));
  const journal = traffic.journal;
  // Proxy mode's modules are loaded only with --proxy: ~20 ms of CPU that no other start pays.
  const proxyMode = options.proxy && (await loadProxyMode());
  const upstream = options.proxy && proxyMode && new proxyMode.Upstream(options.proxy.url, options.proxy.timeoutMs, options.proxy.concurrency, options.proxy.clientTimeoutMs);
  // Its threads start on the first large answer, not here.
  const judge = upstream && proxyMode && new proxyMode.AnswerJudge(options.contract.document);
  const app = createApp({
    service,
    servedContract,
    contract: options.contract,
    contractRules,
    scenarios,
    variety,
    journal,
    coverage: new CoverageTracker(contractRules.documentedOutcomes(), traffic.coverage),
    violations: traffic.violations,
    snapshots: options.snapshots ?? memorySnapshots(),
    adminContract: adminContractOf(options.contract),
    consoleDir: CONSOLE_DIR,
    docsAssetsDir: swaggerUiAssets(),
    reset: async () => service.replaceData(await seed()),
    // Seeds only when asked: faker is loaded on the first POST /__admin/accounts.
    seedAccount: async (apiKey, links) => accountForKey(store, (await seeds()).buildAccountForKey)(apiKey, links),
    // The `times` counters start over with the data: in the store's own replace when it can (Redis).
    onStateReplaced: options.shared?.countersResetBy === traffic ? () => undefined : () => scenarios.clearCounters(),
    ...(data.health ? { storeHealth: data.health } : {}),
    version: options.version,
    random: options.random ?? cryptoRandomInt,
    ...(options.adminToken === undefined ? {} : { adminToken: options.adminToken }),
    ...(options.sleep ? { sleep: options.sleep } : {}),
    ...(options.corsOrigins ? { corsOrigins: options.corsOrigins } : {}),
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
    ...(options.log ? { log: options.log } : {}),
    ...(options.logRequests === false ? { logRequests: false } : {}),
    ...(options.handlers ? { handlers: options.handlers } : {}),
    mcp: lazyMcpEndpoint({ adminToken: options.adminToken, proxy: options.proxy !== undefined }),
    ...(upstream && judge && proxyMode && options.proxy ? { proxy: { upstream, judge, strict: options.proxy.strict, pipeline: proxyMode.proxyPipeline } } : {}),
  });
  return { app, servedContract, service, store, scenarios, variety, journal, seeded: data.seeded, keptFrom: data.keptFrom, close: async () => {
      upstream?.close();
      stopFollowing();
      await judge?.close();
      await traffic.close();
      await data.close();
    },
  };
}

/** The upstream client, the answer judge (and its threads) and the pipeline of src/proxy/. */
async function loadProxyMode() {
  const [{ Upstream }, { AnswerJudge }, { proxyPipeline }] = await Promise.all([import('../proxy/forward.js'), import('../proxy/answer-judge.js'), import('../proxy/pipeline.js')]);
  return { Upstream, AnswerJudge, proxyPipeline };
}

interface OpenedData {
  store: LinkStore & SlugCheck;
  seeded: boolean;
  keptFrom?: KeptFrom;
  /** Writes every change made so far and releases the store. */
  close: () => Promise<void>;
  health?: () => Promise<StoreHealth>;
}

/** This process's data, kept or seeded, its changes group-committed to the DataStore. */
async function localData(options: MockOptions, seed: () => Promise<MockData>): Promise<OpenedData> {
  const dataStore = options.store;
  if (!dataStore || options.shared) throw new Error('createMock takes either a store or shared data');
  const { storeData } = options;
  const opened = storeData === undefined ? await openData(dataStore, seed, options.reset ?? false) : await dataFrom(dataStore, storeData, seed);
  const commits = new GroupCommit<StoreOp>((ops) => dataStore.write(ops));
  const persist = options.durability === 'relaxed' ? (ops: StoreOp[]) => relaxed(commits.commit(ops), options.log) : (ops: StoreOp[]) => commits.commit(ops);
  const store = new LocalLinkStore(opened.data, persist, dataStore.location);
  return { store, seeded: opened.seeded, close: async () => {
      await commits.flush();
      await dataStore.close();
    },
  };
}

function sharedData(shared: SharedData): OpenedData {
  return { store: shared.store, seeded: shared.seeded, keptFrom: shared.keptFrom, close: shared.close ?? (() => shared.store.close()), health: () => shared.store.health() };
}

/** Relaxed durability: acknowledge now; a failed write is logged, not lost silently. */
function relaxed(write: Promise<void>, log: ((line: string) => void) | undefined): Promise<void> {
  write.catch((error: unknown) => log?.(`INTERNAL ERROR writing the db: ${(error as Error).message}`));
  return Promise.resolve();
}

function swaggerUiAssets(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

/** GET /__admin/contract's answer: the classes kept with the contract, or classified here against the shipped one. */
function servedContractOf(options: MockOptions): ServedContract {
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
  if (!admin) adminContracts.set(api.document, (admin = readAdminContract(api)));
  return admin;
}
