// The one in-process test builder: a fresh mock over a seeded memory store and a supertest agent.
// No ports, no shared state between tests.
import supertest from 'supertest';
import { createMock, type Mock, type MockOptions } from '../../src/mock.js';
import { readContract, readFixtureSpec } from '../../src/package-files.js';
import { memoryStore } from '../../src/store/data-store.js';

export const TEST_SEED = 1234;
export const contract = readContract();
export const fixtures = readFixtureSpec();

export interface TestApp extends Mock {
  request: supertest.Agent;
}

export async function createTestApp(overrides: Partial<MockOptions> = {}): Promise<TestApp> {
  const mock = await createMock({
    store: memoryStore(),
    contract,
    fixtures,
    seed: TEST_SEED,
    version: 'test',
    ...overrides,
  });
  return { ...mock, request: supertest.agent(mock.app) };
}

export const DEMO = 'demo-key';
export const OTHER = 'other-key';
export const LIMITED = 'limited-key';
