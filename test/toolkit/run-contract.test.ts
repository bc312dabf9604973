// runContract(): the contract suite as a function, the same runner as `shortlink-mock contract`,
// against a startMock() mock with the fixture accounts: every check passes, nothing is left behind.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { formatContractReport, runContract, startMock, type RunningMock } from '../../src/index.js';
import { fixtureSuiteOptions } from '../helpers/suite-options.js';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock.stop());

it('runs the whole suite against a startMock() mock: no failure, and the report the CLI prints', { timeout: 120_000 }, async () => {
  const before = (await mock.health()).links;
  const report = await runContract(await fixtureSuiteOptions(mock, { fuzzRuns: 30, seed: 14 }));
  const failed = report.results.filter((result) => result.outcome.status === 'failed');
  expect(failed, formatContractReport(report)).toEqual([]);
  expect(report.counts.notChecked).toBe(0);
  expect(report.counts.passed).toBe(report.results.length);
  expect(formatContractReport(report)).toContain('passed');
  expect((await mock.health()).links).toBe(before);
});
