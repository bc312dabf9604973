// The one in-process test builder: a fresh mock over a seeded store and a supertest agent. No
// ports, no shared state between tests. The store is the Vitest project's (test-store.ts): memory,
// or a prefix of its own on the run's Redis server, so the same tests run on both (D27); tests read
// the data through the async helpers below, which mean the same on either.
import supertest from 'supertest';
import { afterAll, onTestFinished } from 'vitest';
import type { AccountRecord, LinkRecord, MockData } from '../../src/core/model.js';
import { createMock, type Mock, type MockOptions } from '../../src/process/mock.js';
import { DEFAULT_SCENARIOS_DIR, readContract, readFixtureSpec } from '../../src/contract/package-files.js';
import { ContractRules } from '../../src/scenarios/contract-rules.js';
import { scenarioLoader } from '../../src/scenarios/load-scenarios.js';
import { openTestStore, testStoreKind, type TestStoreKind } from './test-store.js';

export const TEST_SEED = 1234;
export const contract = readContract();
export const fixtures = readFixtureSpec();
// One for every mock of the run, as the CLI builds one per process: it only reads the contract (its
// validators are compiled on first use and kept). Built per createTestApp it was 8 of the 40 ms of
// CPU a mock costs, and the suite builds thousands of mocks.
const contractRules = new ContractRules(contract.document);
export const loadScenarios = scenarioLoader(contractRules, DEFAULT_SCENARIOS_DIR);
/** The built-in scenarios of scenarios/. */
export const builtInScenarios = loadScenarios(DEFAULT_SCENARIOS_DIR);

export interface TestApp extends Mock {
  request: supertest.Agent;
  /** Everything the store holds now, as a copy safe from later changes. */
  data(): Promise<MockData>;
  accountByKey(apiKey: string): Promise<AccountRecord | undefined>;
  /** The links of the key's account, in no particular order (none for an unknown key). */
  linksOf(apiKey: string): Promise<LinkRecord[]>;
}

/** Mocks holding connections (Redis): closed when their test ends, or when the file ends. */
const open = new Set<() => Promise<void>>();
afterAll(async () => {
  await Promise.all([...open].map((close) => close()));
});

/** A mock on the project's store (SHORTLINK_MOCK_TEST_STORE), or on `kind` when a file names it. */
export async function createTestApp(overrides: Partial<MockOptions> = {}, kind: TestStoreKind = testStoreKind()): Promise<TestApp> {
  // A test that brings its own data (a failing DataStore, say) is about that store: it keeps it.
  const own = overrides.store !== undefined || overrides.shared !== undefined;
  const storeOptions = own ? {} : await openTestStore({ seed: overrides.seed ?? TEST_SEED, fixtures, ...pick(overrides) }, kind);
  const mock = await createMock({
    contract,
    fixtures,
    seed: TEST_SEED,
    version: 'test',
    scenarios: builtInScenarios,
    contractRules,
    ...overrides,
    ...storeOptions,
  });
  const close = once(mock.close);
  if (kind === 'redis' && !own) closeLater(close);
  const { store } = mock;
  return {
    ...mock,
    close,
    request: supertest.agent(mock.app),
    data: () => store.snapshot(),
    accountByKey: async (apiKey) => store.accountByKey(apiKey),
    linksOf: async (apiKey) => {
      const account = await store.accountByKey(apiKey);
      return account ? store.linksOf(account.id) : [];
    },
  };
}

function pick(overrides: Partial<MockOptions>): Pick<MockOptions, 'journalSize' | 'traffic'> {
  return {
    ...(overrides.journalSize === undefined ? {} : { journalSize: overrides.journalSize }),
    ...(overrides.traffic ? { traffic: overrides.traffic } : {}),
  };
}

function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  const closeOnce = (): Promise<void> => {
    open.delete(closeOnce);
    return (closing ??= close());
  };
  return closeOnce;
}

function closeLater(close: () => Promise<void>): void {
  open.add(close);
  try {
    // Made in a test (or its beforeEach): closed when it ends; else (beforeAll) at the file's end.
    onTestFinished(() => close());
  } catch {
    // Outside a test: the afterAll above.
  }
}

export const DEMO = 'demo-key';
export const OTHER = 'other-key';
export const LIMITED = 'limited-key';
