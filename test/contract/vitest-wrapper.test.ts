// The vitest wrapper of the suite (contract-tests/) as a CI job runs it: its own vitest process,
// configured only through CONTRACT_* variables, against a live server. Against a broken server it
// must exit non-zero, and the test that fails must be the check that catches the break (so the
// exit code comes from the break, not from a wrapper that could not start).
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, MOCK_LIMITED_KEY, startInProcessMock, type Listening } from '../../contract-tests/servers.js';
import { PACKAGE_ROOT } from '../../src/contract/package-files.js';
import { BROKEN_SERVERS } from '../broken-servers/catalogue.js';
import { envWithout, runToEnd } from './run-to-end.js';

const VITEST = join(PACKAGE_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const RUN_LIMIT_MS = 120_000;

/** `vitest run contract-tests/contract.test.ts` in a child process, bounded; none of this process's vitest or CONTRACT_* variables leak in. */
async function runWrapper(contractEnv: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const env = { ...envWithout(['CONTRACT_', 'VITEST', 'NODE_ENV']), NO_COLOR: '1', ...contractEnv };
  const run = await runToEnd([VITEST, 'run', 'contract-tests/contract.test.ts'], { cwd: PACKAGE_ROOT, env, limitMs: RUN_LIMIT_MS });
  return { code: run.code, output: run.stdout + run.stderr };
}

let server: Listening | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('contract-tests/ (the suite under vitest)', () => {
  it('exits non-zero against a server that lets an account at its link limit create, failing exactly that check', { timeout: RUN_LIMIT_MS + 10_000 }, async () => {
    const broken = BROKEN_SERVERS.find((candidate) => candidate.name === 'no-link-limit');
    if (!broken) throw new Error('the broken server no-link-limit is missing from the catalogue');
    server = await listen(broken.app());
    // A real server's way in: every account given by variable (the demo defaults apply only without CONTRACT_API_KEY).
    const run = await runWrapper({
      CONTRACT_BASE_URL: server.url,
      CONTRACT_API_KEY: 'demo-key',
      CONTRACT_OTHER_API_KEY: 'other-key',
      CONTRACT_LIMITED_API_KEY: MOCK_LIMITED_KEY,
      CONTRACT_FUZZ_RUNS: '10',
      CONTRACT_SEED: '11',
    });
    expect(run.code, run.output).toBe(1);
    expect(run.output).toMatch(/FAIL .*createLink 400: rule: an account at its link limit: a create is a 400 Error with code LINK_LIMIT_REACHED/);
    expect(run.output).toMatch(/createLink with a valid body from the account at its link limit: expected 400, got 201/);
    expect(run.output).toMatch(/Tests +1 failed \| \d+ passed/);
  });

  it("names the mock's global scenario in the failures it causes", { timeout: RUN_LIMIT_MS + 10_000 }, async () => {
    server = await startInProcessMock({ scenario: 'not-found' });
    const run = await runWrapper({ CONTRACT_BASE_URL: server.url, CONTRACT_FUZZ_RUNS: '0' });
    expect(run.code, run.output).toBe(1);
    expect(run.output).toMatch(/createLink with a valid body \(given\): expected 201, got 404/);
    expect(run.output).toContain(`note: the mock at ${server.url} has the global scenario 'not-found' on (GET /__admin/health)`);
  });
});
