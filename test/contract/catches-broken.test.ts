// Proof that the contract suite catches broken servers: run against each deliberately broken server
// of test/broken-servers/, it must fail, and its failures must name the break; run against the mock
// and against the correct reference server the broken ones are built from, it must pass.
import { afterEach, describe, expect, it } from 'vitest';
import { listen, MOCK_LIMITED_KEY, mockLinkIdOf, startInProcessMock, type Listening } from '../../contract-tests/servers.js';
import { formatReport, toJUnit } from '../../src/contract/report.js';
import { runContract, type Report } from '../../src/contract/runner.js';
import { BROKEN_SERVERS } from '../broken-servers/catalogue.js';
import { createReferenceServer, REFERENCE_LIMITED_LINK_ID } from '../broken-servers/reference-server.js';

const FUZZ_RUNS = 30;
const SEED = 7;

let server: Listening | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The same accounts in the mock's fixtures and the reference server; limited-key is at its link limit. */
const ACCOUNTS = { apiKey: 'demo-key', otherApiKey: 'other-key', otherDomain: 'go.acme.test', otherAccountDomain: 'links.globex.test', limitedApiKey: 'limited-key' };

async function check(start: () => Promise<Listening>, limitedLinkId: (url: string) => Promise<string | undefined> = async () => REFERENCE_LIMITED_LINK_ID): Promise<Report> {
  server = await start();
  return runContract({ baseUrl: server.url, ...ACCOUNTS, limitedLinkId: await limitedLinkId(server.url), fuzzRuns: FUZZ_RUNS, seed: SEED });
}

async function limitedAccountOf(url: string): Promise<{ links: number; linkLimit: number } | undefined> {
  const { accounts } = (await (await fetch(`${url}/__admin/accounts`)).json()) as { accounts: { apiKey: string; links: number; linkLimit: number }[] };
  return accounts.find((account) => account.apiKey === MOCK_LIMITED_KEY);
}

const failures = (report: Report): string[] =>
  report.results.flatMap((result) => (result.outcome.status === 'failed' ? [`${result.title}\n${result.outcome.reason}`] : []));

describe('the contract suite passes a correct server', () => {
  it('passes the mock, with every check checked, every created link deleted, and the limited account left at its limit', async () => {
    const report = await check(startInProcessMock, (url) => mockLinkIdOf(url, MOCK_LIMITED_KEY));
    expect(failures(report)).toEqual([]);
    expect(report.counts.notChecked).toBe(0);
    expect(report.results.find((result) => result.id === 'cleanup')?.outcome.status).toBe('passed');
    const limited = await limitedAccountOf(server!.url);
    expect(limited && limited.links).toBe(limited?.linkLimit);
  });

  it('passes the reference server the broken ones are built from; the scenario header it ignores is "not checked"', async () => {
    const report = await check(() => listen(createReferenceServer()));
    expect(failures(report)).toEqual([]);
    const notChecked = report.results.filter((result) => result.outcome.status === 'not-checked');
    expect(notChecked.map((result) => result.id)).toEqual(['createLink-400-link-limit-reached']);
    expect(formatReport(report)).toMatch(/not checked {2}answers LINK_LIMIT_REACHED[\s\S]*reason: +the server does not support the x-mock-scenario header \(it answered 201\)/);
  });

  it('reports isolation and the second domain as not checked when no second account or domain is given', async () => {
    server = await listen(createReferenceServer());
    const report = await runContract({ baseUrl: server.url, apiKey: 'demo-key', fuzzRuns: 0, seed: SEED });
    expect(failures(report)).toEqual([]);
    const reasons = report.results.flatMap((result) => (result.outcome.status === 'not-checked' ? [`${result.id}: ${result.outcome.reason}`] : []));
    expect(reasons).toEqual([
      expect.stringMatching(/^createLink-400-link-limit-reached: /),
      expect.stringMatching(/^rule-slug-other-domain: no second domain: pass --other-domain/),
      expect.stringMatching(/^rule-isolation-create-domain: no second account: pass --other-api-key/),
      expect.stringMatching(/^rule-isolation-create-tag: no second account: pass --other-api-key/),
      expect.stringMatching(/^rule-isolation-update: no second account: pass --other-api-key/),
      expect.stringMatching(/^rule-isolation-delete: no second account: pass --other-api-key/),
      expect.stringMatching(/^rule-limit-create-refused: no account at its link limit: pass --limited-api-key \(CONTRACT_LIMITED_API_KEY\)/),
      expect.stringMatching(/^rule-limit-update: no account at its link limit: pass --limited-api-key/),
      expect.stringMatching(/^rule-limit-delete: no account at its link limit: pass --limited-api-key/),
      expect.stringMatching(/^fuzz-property: fuzzing is switched off/),
      expect.stringMatching(/^fuzz-still-answers: fuzzing is switched off/),
    ]);
  });

  it("reports the second account's domain and the limited account's link as not checked when only the keys are given", async () => {
    server = await listen(createReferenceServer());
    const report = await runContract({ baseUrl: server.url, apiKey: 'demo-key', otherApiKey: 'other-key', limitedApiKey: 'limited-key', fuzzRuns: 0, seed: SEED });
    expect(failures(report)).toEqual([]);
    const outcome = (id: string) => report.results.find((result) => result.id === id)?.outcome;
    expect(outcome('rule-isolation-create-domain')).toEqual({ status: 'not-checked', reason: expect.stringMatching(/^no custom domain of the second account: pass --other-account-domain \(CONTRACT_OTHER_ACCOUNT_DOMAIN\)/) });
    expect(outcome('rule-limit-update')).toEqual({ status: 'not-checked', reason: expect.stringMatching(/^no link of the account at its link limit: pass --limited-link-id \(CONTRACT_LIMITED_LINK_ID\)/) });
    // The rest of both stories needs no more than the keys.
    for (const id of ['rule-isolation-create-tag', 'rule-limit-create-refused', 'rule-limit-delete']) expect(outcome(id)).toEqual({ status: 'passed', note: expect.any(String) });
  });
});

describe('the contract suite fails each broken server, naming the break', () => {
  it.each(BROKEN_SERVERS.map((broken) => [broken.name, broken] as const))('%s', async (_name, broken) => {
    const report = await check(() => listen(broken.app()));
    expect(report.counts.failed, `${broken.breaks}: no check failed`).toBeGreaterThan(0);
    const text = failures(report);
    for (const pattern of broken.expect) {
      expect(text.some((failure) => pattern.test(failure)), `${broken.breaks}: no failure matches ${String(pattern)}:\n${text.join('\n')}`).toBe(true);
    }
    // The person reading the report sees the same reason, and CI sees it in the JUnit file.
    const printed = formatReport(report);
    expect(printed).toMatch(/^FAILED: /m);
    for (const pattern of broken.expect) expect(printed).toMatch(pattern);
    expect(toJUnit(report)).toMatch(/<failure message="/);
  });
});
