// The contract suite as vitest tests: one test per check of src/contract/cases.ts, then the fuzz
// property, then the clean-up. Without CONTRACT_BASE_URL it checks the mock itself, started in
// process on a free port; with it, any live server:
//   CONTRACT_BASE_URL=https://staging.example.test CONTRACT_API_KEY=... npx vitest run contract-tests
// Without CONTRACT_API_KEY, the mock's demo accounts are assumed (demo-key with its custom domain
// go.acme.test, other-key with links.globex.test, and limited-key at its link limit, one of whose
// links is looked up in the mock's admin API); with it, the other accounts and domains come only
// from CONTRACT_OTHER_API_KEY, CONTRACT_OTHER_DOMAIN, CONTRACT_OTHER_ACCOUNT_DOMAIN,
// CONTRACT_LIMITED_API_KEY and CONTRACT_LIMITED_LINK_ID, and their checks are skipped without them.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { CHECKS } from '../src/contract/cases.js';
import type { CheckResult } from '../src/contract/check-types.js';
import { describeExchange } from '../src/contract/exchange-format.js';
import { DEFAULT_TIMEOUT_MS } from '../src/contract/client.js';
import { ContractSession, DEFAULT_DOMAIN } from '../src/contract/runner.js';
import { activeScenarioNote } from '../src/contract/scenario-note.js';
import { MOCK_LIMITED_KEY, mockLinkIdOf, startInProcessMock, type Listening } from './servers.js';

const env = process.env;
const DEFAULT_SEED = 20261122;
const CHECK_TIMEOUT_MS = 60_000;
const FUZZ_TIMEOUT_MS = 180_000;

let server: Listening | undefined;
let session: ContractSession | undefined;

beforeAll(async () => {
  const baseUrl = env['CONTRACT_BASE_URL'] ?? (server = await startInProcessMock()).url;
  const demo = env['CONTRACT_API_KEY'] === undefined;
  const limitedApiKey = env['CONTRACT_LIMITED_API_KEY'] ?? (demo ? MOCK_LIMITED_KEY : undefined);
  const limitedLinkId = env['CONTRACT_LIMITED_LINK_ID'] ?? (demo && limitedApiKey ? await mockLinkIdOf(baseUrl, limitedApiKey) : undefined);
  session = new ContractSession({
    baseUrl,
    apiKey: env['CONTRACT_API_KEY'] ?? 'demo-key',
    otherApiKey: env['CONTRACT_OTHER_API_KEY'] ?? (demo ? 'other-key' : undefined),
    domain: env['CONTRACT_DOMAIN'] ?? DEFAULT_DOMAIN,
    otherDomain: env['CONTRACT_OTHER_DOMAIN'] ?? (demo ? 'go.acme.test' : undefined),
    otherAccountDomain: env['CONTRACT_OTHER_ACCOUNT_DOMAIN'] ?? (demo ? 'links.globex.test' : undefined),
    limitedApiKey,
    limitedLinkId,
    fuzzRuns: wholeNumber('CONTRACT_FUZZ_RUNS', 200),
    seed: wholeNumber('CONTRACT_SEED', DEFAULT_SEED),
  });
});

afterAll(async () => {
  // What the suite created, it deletes, even when checks failed; a link left behind fails the run.
  const cleanup = await session?.cleanup();
  await server?.close();
  if (cleanup?.outcome.status === 'failed') throw new Error(cleanup.outcome.reason);
});

function wholeNumber(name: string, fallback: number): number {
  const value = env[name];
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value.trim())) throw new Error(`${name} must be a whole number, got '${value}'`);
  return Number(value.trim());
}

function current(): ContractSession {
  if (!session) throw new Error('the contract session did not start (see beforeAll)');
  return session;
}

let scenarioNote: Promise<string | undefined> | undefined;

/**
 * The reason, then the offending request as curl and the response, as the CLI report shows them;
 * and, as the CLI says before its summary, the mock's global scenario when one is on (asked once).
 */
async function explain(result: CheckResult): Promise<string> {
  if (result.outcome.status !== 'failed') return '';
  const exchange = result.outcome.exchange;
  const lines = exchange ? describeExchange(exchange, current().secrets) : [];
  const { baseUrl } = current().context.target;
  const note = await (scenarioNote ??= activeScenarioNote(baseUrl, DEFAULT_TIMEOUT_MS));
  return [result.outcome.reason, ...lines, ...(note ? [note] : [])].join('\n');
}

describe('contract of the server under test against openapi.yaml', () => {
  for (const check of CHECKS) {
    const label = `${check.operationId} ${check.expectedStatus ?? ''}: ${check.rule ? 'rule: ' : ''}${check.title}`;
    it(label, { timeout: CHECK_TIMEOUT_MS }, async (ctx) => {
      const result = await current().runCheck(check);
      if (result.outcome.status === 'not-checked') ctx.skip(`not checked: ${result.outcome.reason}`);
      if (result.outcome.status === 'failed') throw new Error(await explain(result));
    });
  }

  it('fuzz: requests built from the request schemas all get documented, schema-valid answers, and the server still answers afterwards', { timeout: FUZZ_TIMEOUT_MS }, async (ctx) => {
    const results = await current().runFuzz();
    const failed = results.filter((result) => result.outcome.status === 'failed');
    if (failed.length > 0) throw new Error((await Promise.all(failed.map(explain))).join('\n\n'));
    const skipped = results.find((result) => result.outcome.status === 'not-checked');
    if (skipped?.outcome.status === 'not-checked') ctx.skip(skipped.outcome.reason);
  });
});
