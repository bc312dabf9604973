// The servers the suite can run against without a URL: the mock itself, in process, seeded fresh
// with the built-in scenarios (so x-mock-scenario works), on the Vitest project's store (memory, or
// Redis: test/helpers/test-store.ts), listening on a port the OS picks. And,
// for the mock only, the id of a fixture link, which the public API cannot list.
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_SEED } from '../fixtures/seed.js';
import { createMock, type MockOptions } from '../src/process/mock.js';
import { DEFAULT_SCENARIOS_DIR, readContract, readFixtureSpec } from '../src/contract/package-files.js';
import { ContractRules } from '../src/scenarios/contract-rules.js';
import { scenarioLoader } from '../src/scenarios/load-scenarios.js';
import { openTestStore } from '../test/helpers/test-store.js';

export interface Listening {
  url: string;
  close: () => Promise<void>;
}

/** Listens on 127.0.0.1 and a free port; close() drops keep-alive connections instead of waiting them out. */
export function listen(app: RequestListener): Promise<Listening> {
  const server = createServer(app);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

/** extra: a global scenario on from the start, an admin token (for tests of what the suite says about them). */
export async function startInProcessMock(extra: Pick<MockOptions, 'scenario' | 'adminToken'> = {}): Promise<Listening> {
  const contract = readContract();
  const scenarios = scenarioLoader(new ContractRules(contract.document), DEFAULT_SCENARIOS_DIR)(DEFAULT_SCENARIOS_DIR);
  const fixtures = readFixtureSpec();
  const store = await openTestStore({ seed: DEFAULT_SEED, fixtures });
  const mock = await createMock({ ...store, contract, fixtures, seed: DEFAULT_SEED, version: 'contract-tests', scenarios, ...extra });
  const listening = await listen(mock.app);
  return {
    url: listening.url,
    close: async () => {
      await listening.close();
      await mock.close();
    },
  };
}

/** The mock's fixture account that is at its link limit (fixtures/accounts.json). */
export const MOCK_LIMITED_KEY = 'limited-key';
const LOOKUP_TIMEOUT_MS = 5_000;

/**
 * The id of one link of an account of a mock, read from its admin API (GET /__admin/links): the
 * public API cannot list links. Undefined when the server is not a mock that answers it.
 */
export async function mockLinkIdOf(baseUrl: string, apiKey: string): Promise<string | undefined> {
  try {
    const response = await fetch(`${baseUrl.replace(/\/+$/, '')}/__admin/links?account=${encodeURIComponent(apiKey)}`, { signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS) });
    if (!response.ok) return undefined;
    const { links } = (await response.json()) as { links?: { id?: unknown }[] };
    const id = links?.[0]?.id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}
