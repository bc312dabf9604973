// Puts a mock together from its parts: the data (kept or seeded), the group-committing store, the
// link service and the Express app. The CLI and the test builder both start here.
import { DEFAULT_JOURNAL_SIZE } from '../core/journal.js';
import { memorySnapshots } from '../store/file/snapshot-store.js';
import type { StoreOp } from '../core/changes.js';
import type { MockData } from '../core/model.js';
import type { KnownLinks } from '../core/snapshots.js';
import { ScenarioRegistry } from '../core/scenario-registry.js';
import { endOfPhase, GroupCommit } from '../store/file/group-commit.js';
import { LocalLinkStore } from '../store/file/local-link-store.js';
import { accountForKey } from './account-for-key.js';
import { seededAtStart, seededData } from './seeded-data.js';
import { dataFrom, openData, type Seed } from '../store/file/open-data.js';
import { createTrafficState } from '../store/create-traffic-state.js';
import { varietySwitchFor } from '../variety/switch.js';
import { followShared, VARIETY_FOLLOW_MS } from '../variety/follow-shared.js';
import { lazyMcpEndpoint } from '../toolkit/mcp/lazy-endpoint.js';
import { contractParts, type ContractParts, type KeptParts } from './contract-parts.js';
import type { Mock, MockContract, MockOptions, OpenedData, SharedData } from './mock-types.js';

export type { Mock, MockContract, MockOptions, ProxyOptions, SharedData } from './mock-types.js';

export async function createMock(given: MockOptions): Promise<Mock> {
  // The data the start read (storeData: its state, every link) is handed to the store once, not kept
  // in `options`, which the closures below hold for the mock's life: kept, it outlived every reset and
  // restore, and at 1,000,000 links each full collection marked two stores (issue 40).
  const { storeData, ...options } = given;
  // faker is heavy: it is loaded only when data has to be seeded, not on every start.
  const seeds = () => import('../../fixtures/seed.js');
  // A reset's seed takes the stored record of each link it draws equal (KnownLinks, issue 40).
  const seed = (known?: KnownLinks): Promise<MockData> => seededData(options.seed, options.fixtures, 'worker', known);
  // Nothing is served yet: a large seed is built on this thread (a worker adds a copy of every link),
  // with its state, and its base file written by a worker thread from the lines of the links drawn here (seed-base.ts).
  const seedAtStart: Seed = (target) => seededAtStart(options.seed, options.fixtures, target);
  const data = options.shared ? sharedData(options.shared) : await localData(options, storeData, seedAtStart);
  const { store } = data;
  const { buildAccountForKey } = options.acceptAnyKey ? await seeds() : { buildAccountForKey: undefined };
  const traffic = options.traffic ?? createTrafficState({ kind: 'memory', journalSize: options.journalSize ?? DEFAULT_JOURNAL_SIZE });
  const scenarios = new ScenarioRegistry(options.scenarios ?? [], traffic.scenario);
  if (options.scenario) await scenarios.setActive(options.scenario, '--scenario');
  // Shared by instances on Redis: this one starts from what is set there, and follows it. Built on
  // the contract of the start: a contract reloaded by --watch keeps it (docs/next-contract.md).
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
  const proxy = upstream && judge && proxyMode && options.proxy ? { upstream, judge, strict: options.proxy.strict, pipeline: proxyMode.proxyPipeline } : undefined;
  // What does not depend on the contract is made once: a contract swapped in by --watch keeps it.
  const kept: KeptParts = {
    data, seed, traffic, scenarios, variety, startedAt: new Date(),
    snapshots: options.snapshots ?? memorySnapshots(),
    // Seeds only when asked: faker is loaded on the first POST /__admin/accounts.
    seedAccount: async (apiKey, links) => accountForKey(store, (await seeds()).buildAccountForKey)(apiKey, links),
    ...(buildAccountForKey ? { createAccount: accountForKey(store, buildAccountForKey) } : {}),
    mcp: lazyMcpEndpoint({ adminToken: options.adminToken, proxy: options.proxy !== undefined }),
    ...(proxy ? { proxy } : {}),
  };
  const assemble = (contract: MockContract): ContractParts => contractParts(options, kept, contract);
  const first = assemble(options);
  const mock: Mock = { ...first, store, scenarios, variety, journal, seeded: data.seeded, keptFrom: data.keptFrom,
    prepareContract: (contract) => {
      if (proxy) throw new Error('in proxy mode the contract is judged by threads compiled at start: restart the mock to serve another');
      const next = assemble(contract);
      // One step, between two requests: a request already in flight finishes on the app it started on.
      return () => void Object.assign(mock, next);
    },
    close: async () => {
      upstream?.close();
      stopFollowing();
      await judge?.close();
      await traffic.close();
      await data.close();
    },
  };
  return mock;
}

/** The upstream client, the answer judge (and its threads) and the pipeline of src/proxy/. */
async function loadProxyMode() {
  const [{ Upstream }, { AnswerJudge }, { proxyPipeline }] = await Promise.all([import('../proxy/forward.js'), import('../proxy/answer-judge.js'), import('../proxy/pipeline.js')]);
  return { Upstream, AnswerJudge, proxyPipeline };
}

/** This process's data, kept or seeded, its changes group-committed to the DataStore. */
async function localData(options: MockOptions, storeData: MockOptions['storeData'], seed: Seed): Promise<OpenedData> {
  const dataStore = options.store;
  if (!dataStore || options.shared) throw new Error('createMock takes either a store or shared data');
  const opened = storeData === undefined ? await openData(dataStore, seed, options.reset ?? false) : await dataFrom(dataStore, storeData, seed);
  // A turn's changes share one write, and their answers leave together (group-commit.ts says why).
  const commits = new GroupCommit<StoreOp>((ops) => dataStore.write(ops), endOfPhase);
  const persist = options.durability === 'relaxed' ? (ops: StoreOp[]) => relaxed(commits.commit(ops), options.log) : (ops: StoreOp[]) => commits.commit(ops);
  // The state the seed or the check of kept data built: building it again at 1,000,000 links is
  // seconds (issue 40).
  const store = new LocalLinkStore(opened.data, persist, dataStore.location, opened.state);
  return { store, seeded: opened.seeded, close: async () => {
      await commits.flush();
      await dataStore.close();
    },
  };
}

function sharedData(shared: SharedData): OpenedData {
  return { store: shared.store, seeded: shared.seeded, keptFrom: shared.keptFrom, close: shared.close ?? (() => shared.store.close()), health: () => shared.store.health() };
}

/**
 * Relaxed durability: acknowledged before the write ends, at the end of the turn's I/O phase, when
 * the turn's changes go to their one write: the turn's answers then leave together
 * (group-commit.ts). A failed write is logged, not lost silently.
 */
function relaxed(write: Promise<void>, log: ((line: string) => void) | undefined): Promise<void> {
  write.catch((error: unknown) => log?.(`INTERNAL ERROR writing the db: ${(error as Error).message}`));
  return endOfPhase();
}

