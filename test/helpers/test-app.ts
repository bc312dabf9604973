// The one in-process test builder: a fresh mock over a seeded memory store and a supertest agent.
// No ports, no shared state between tests.
import supertest from 'supertest';
import { createMock, type Mock, type MockOptions } from '../../src/mock.js';
import { DEFAULT_SCENARIOS_DIR, readContract, readFixtureSpec } from '../../src/package-files.js';
import { ContractRules } from '../../src/scenarios/contract-rules.js';
import { scenarioLoader } from '../../src/scenarios/load-scenarios.js';
import { memoryStore } from '../../src/store/data-store.js';
import { LocalLinkStore } from '../../src/store/local-link-store.js';

export const TEST_SEED = 1234;
export const contract = readContract();
export const fixtures = readFixtureSpec();
export const loadScenarios = scenarioLoader(new ContractRules(contract.document), DEFAULT_SCENARIOS_DIR);
/** The built-in scenarios of scenarios/. */
export const builtInScenarios = loadScenarios(DEFAULT_SCENARIOS_DIR);

export interface TestApp extends Omit<Mock, 'store'> {
  /** The memory store, whose data and indexes tests read directly. */
  store: LocalLinkStore;
  request: supertest.Agent;
}

export async function createTestApp(overrides: Partial<MockOptions> = {}): Promise<TestApp> {
  const mock = await createMock({
    store: memoryStore(),
    contract,
    fixtures,
    seed: TEST_SEED,
    version: 'test',
    scenarios: builtInScenarios,
    ...overrides,
  });
  if (!(mock.store instanceof LocalLinkStore)) throw new Error('createTestApp builds on the memory store');
  return { ...mock, store: mock.store, request: supertest.agent(mock.app) };
}

export const DEMO = 'demo-key';
export const OTHER = 'other-key';
export const LIMITED = 'limited-key';
