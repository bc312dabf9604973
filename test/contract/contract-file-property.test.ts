// Issue 38, tests: for each accepted fixture of test/fixtures/contracts/, a seeded fast-check run of
// valid and invalid requests to every operation of FILE (its new fields and reads included) against
// one mock started with FILE: every answer is documented and valid by FILE, never a 5xx. And the
// property can fail: a mock of the shipped contract does not serve a read FILE adds.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startMock } from '../../src/index.js';
import { ContractSession } from '../../src/contract/runner.js';
import { keptUserContract } from '../../src/process/kept-files.js';
import { NEXT_CONTRACTS_DIR, nextContractFile } from '../helpers/next-contract-app.js';
import { fixtureSuiteOptions } from '../helpers/suite-options.js';

const ACCEPTED = readdirSync(NEXT_CONTRACTS_DIR).filter((name) => {
  try {
    keptUserContract(nextContractFile(name), name);
    return true;
  } catch {
    return false;
  }
});
const operationsOf = (name: string) => keptUserContract(nextContractFile(name), name).classes.operations;
const servesAnOperation = (name: string): boolean => operationsOf(name).some((operation) => operation.served !== 'gone');
const keepsARuledOperation = (name: string): boolean => operationsOf(name).some((operation) => operation.served === 'rule');
// Bounded in count and in time: a few seconds per fixture at most.
const RUN = { fuzzRuns: 60, seed: 3811, fuzzTimeLimitMs: 8_000 };

/**
 * A run that must find a failure is not cut short by a clock: an interrupted run passes, so under load
 * the 8 s could end it before the seed's failing run. Its bound is the runs' count (and the test's).
 */
const MUST_FAIL_RUN = { ...RUN, fuzzTimeLimitMs: 30_000 };

async function fuzzResults(contract: string, started: Parameters<typeof startMock>[0] = { contract }, run: typeof RUN = RUN) {
  const mock = await startMock(started);
  try {
    return await new ContractSession(await fixtureSuiteOptions(mock, { contract, ...run })).runFuzz();
  } finally {
    await mock.stop();
  }
}

describe('a property run of each accepted FILE against the mock started with it', () => {
  it('covers at least 12 accepted fixtures', () => expect(ACCEPTED.length).toBeGreaterThanOrEqual(12));

  it.each(ACCEPTED)('%s: every answer documented and valid by FILE', { timeout: 40_000 }, async (name) => {
    const results = await fuzzResults(nextContractFile(name));
    const next = results.find((result) => result.id === 'fuzz-next-contract');
    // A FILE of no operation (no-paths.yaml) leaves the run nothing to send: not checked, saying why, never a silent pass.
    const expected = servesAnOperation(name) ? { status: 'passed' } : { status: 'not-checked', reason: expect.stringMatching(/removes/) };
    expect(next?.outcome, JSON.stringify(next)).toMatchObject(expected);
    // The shipped contract's run fuzzes createLink, updateLink and deleteLink: a FILE without them skips it, saying so.
    const shipped = keepsARuledOperation(name) ? { status: 'passed' } : { status: 'not-checked', reason: expect.stringMatching(/removes/) };
    expect(results.find((result) => result.id === 'fuzz-property')?.outcome, JSON.stringify(results)).toMatchObject(shipped);
  });
});

describe('the property can fail', () => {
  it.each(['get-link.yaml', 'list-links.yaml'])('%s against a mock of the shipped contract: a read FILE adds answers 405, not documented by FILE', { timeout: 40_000 }, async (name) => {
    const results = await fuzzResults(nextContractFile(name), {}, MUST_FAIL_RUN);
    const next = results.find((result) => result.id === 'fuzz-next-contract');
    expect(next?.outcome.status).toBe('failed');
    expect(next?.outcome.status === 'failed' && next.outcome.reason).toMatch(/status 405 is not documented for (getLink|listLinks)/);
  });
});
