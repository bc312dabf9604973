// The contract suite as a function: the very runner `shortlink-mock contract` runs
// (src/contract/runner.ts), loaded on first use so that importing the package for startMock()
// does not load the suite and its fuzzer.
import type { ContractOptions, Report } from '../contract/runner.js';

/**
 * Checks a live server (a startMock() mock, a staging deployment, the real service) against
 * openapi.yaml, deletes the links it created, and returns the report `shortlink-mock contract`
 * prints (print it with `formatContractReport`). `report.counts.failed === 0` means no violation.
 */
export async function runContract(options: ContractOptions): Promise<Report> {
  return (await import('../contract/runner.js')).runContract(options);
}
