// A test app serving one of the next contracts of test/fixtures/contracts/ (issue 38), as
// `--contract FILE` builds it: the kept contract, its rules and classes, the built-in scenarios
// loaded against it; on the project's store (memory or Redis), like createTestApp.
import { resolve } from 'node:path';
import { DEFAULT_SCENARIOS_DIR } from '../../src/contract/package-files.js';
import type { MockOptions } from '../../src/process/mock.js';
import { keptUserContract } from '../../src/process/kept-files.js';
import { scenarioLoader } from '../../src/scenarios/load-scenarios.js';
import { createTestApp, type TestApp } from './test-app.js';

export const NEXT_CONTRACTS_DIR = resolve('test/fixtures/contracts');

export function nextContractFile(name: string): string {
  return resolve(NEXT_CONTRACTS_DIR, name);
}

export async function createNextContractApp(name: string, overrides: Partial<MockOptions> = {}): Promise<TestApp> {
  return createTestApp({ ...nextContractOptions(name), ...overrides });
}

/** What createMock takes to serve the next contract `name` as --contract does. */
export function nextContractOptions(name: string): Pick<MockOptions, 'contract' | 'contractRules' | 'contractClasses' | 'contractFile' | 'scenarios'> {
  const file = nextContractFile(name);
  const { contract, rules, classes } = keptUserContract(file, `--contract ${file}`);
  const scenarios = scenarioLoader(rules, DEFAULT_SCENARIOS_DIR)(DEFAULT_SCENARIOS_DIR);
  return { contract, contractRules: rules, contractClasses: classes, contractFile: file, scenarios };
}
