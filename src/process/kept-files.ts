// The package's contract (with its rules) and a fixtures file, as this process last read them, kept
// while the file's text is the same. Every mock started in one process through startFromConfig
// (startMock() in a test suite, the robustness runner's mock of each run) then shares one contract
// document and one fixtures object, and what is built once per document or fixtures object is built
// once for them all: the validators (src/http/validator.ts, src/admin/router.ts), the admin document
// (mock.ts), the contract's response validators (ContractRules) and the seeded data (seeded-data.ts).
// Before, each start read the files afresh, and those caches, keyed by the object, never hit: in
// test/robustness/brittle-clients.test.ts (21 mocks in one process), Ajv's compiles and
// express-openapi-validator's set-up were ~3.4 s of the process's CPU; kept, the file's own CPU went
// from 16.2-16.9 to 12.7-14.3 s, and test/toolkit/start-mock.test.ts's from 1.3-1.5 to 0.5-0.7 s
// (two runs each, 26 Nov 2026).
// The text is read at every start, so an edited file is read as new; entries are keyed by its
// SHA-256, so a kept entry does not also keep the text. Nothing here is changed by a
// mock: the tests have always built thousands of apps on one shared contract and fixtures object.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseFixtureSpec, type FixtureSpec } from '../../fixtures/fixture-spec.js';
import type { Contract } from '../core/contract-types.js';
import { classifyContract, type ContractClasses } from '../core/contract-classes.js';
import { refusedChanges } from '../core/contract-refusals.js';
import { CONTRACT_FILE, contractOf } from '../contract/package-files.js';
import { readRegularFileSync } from '../contract/regular-file.js';
import { ContractFileError, readUserContractText, userContractOf } from '../contract/user-contract.js';
import { linkFieldProblem } from '../contract/link-fields.js';
import { generatedAnswers } from '../contract/generated-answers.js';
import { textDigest } from '../contract/text-digest.js';
import { ContractRules } from '../scenarios/contract-rules.js';
import { StartupError } from './startup-error.js';

/** Texts kept per kind: a process that reads many versions of a file keeps the latest ones. */
export const MAX_KEPT_TEXTS = 4;

export interface KeptContract {
  contract: Contract;
  rules: ContractRules;
  /** How each operation and field is served, against the shipped contract (src/core/contract-classes.ts). */
  classes: ContractClasses;
}

const contracts = new Map<string, KeptContract>();
const fixtureSpecs = new Map<string, FixtureSpec>();

/** The package's contract and its rules: the same objects while openapi.yaml's text is the same (another file: the tests'). */
export function keptContract(file = CONTRACT_FILE): KeptContract {
  const text = readFileSync(file, 'utf8');
  return keptFor(contracts, textDigest(text), () => kept(contractOf(text), file === CONTRACT_FILE ? undefined : keptContract().contract));
}

/**
 * The contract a user named (--contract FILE), read within its bounds and checked (user-contract.ts),
 * kept like the package's: the package's own text, wherever it lies, is the very same kept entry.
 * Refused as a StartupError of one line naming how FILE was given and its first problem.
 */
export function keptUserContract(file: string, given: string): KeptContract {
  let text: string;
  try {
    text = readUserContractText(file);
    return keptFor(contracts, textDigest(text), () => {
      const accepted = kept(userContractOf(text), keptContract().contract);
      // A Link field the mock cannot make is refused now, not a 500 on the first answer.
      // Changes the rules cannot honour, each on a line of its own; then a Link field or an answer the mock cannot make.
      const refused = refusedChanges(accepted.contract.document, accepted.classes);
      if (refused.length > 0) throw new ContractFileError(refused.join('\n'));
      const unmade = linkFieldProblem(accepted.contract.document, accepted.classes) ?? unanswerable(accepted);
      if (unmade) throw new ContractFileError(unmade);
      return accepted;
    });
  } catch (error) {
    if ((error as Error).name !== 'ContractFileError') throw error;
    throw new StartupError((error as Error).message.split('\n').map((line) => `cannot serve ${given}: ${line}`).join('\n'));
  }
}

/** A contract, its rules and its classes against the shipped one (`shipped`; undefined: it is the shipped one). */
function kept(contract: Contract, shipped: Contract | undefined): KeptContract {
  const classes = classifyContract((shipped ?? contract).document, contract.document);
  const moved = classes.operations.some((operation) => operation.served !== 'rule');
  const scope = moved ? { every: ruleOperations(classes, 'rule'), gone: ruleOperations(classes, 'gone') } : undefined;
  return { contract, rules: new ContractRules(contract.document, scope), classes };
}

/** Why an operation FILE adds cannot be answered from its schema, or undefined. */
function unanswerable({ contract, classes }: KeptContract): string | undefined {
  try {
    generatedAnswers(contract.document, classes);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

function ruleOperations(classes: ContractClasses, served: 'rule' | 'gone'): string[] {
  return classes.operations.filter((operation) => operation.served === served).map((operation) => operation.operationId);
}

/** The fixtures of `file`: the same object while the file's text is the same. Refused as a StartupError. */
export function keptFixtures(file: string): FixtureSpec {
  try {
    const text = readRegularFileSync(file);
    return keptFor(fixtureSpecs, `${resolve(file)}\0${textDigest(text)}`, () => parseFixtureSpec(JSON.parse(text)));
  } catch (error) {
    throw new StartupError(`cannot load fixtures ${file}: ${(error as Error).message}`);
  }
}

function keptFor<T>(kept: Map<string, T>, key: string, read: () => T): T {
  const known = kept.get(key);
  if (known) return known;
  const value = read();
  if (kept.size >= MAX_KEPT_TEXTS) kept.delete(kept.keys().next().value as string);
  kept.set(key, value);
  return value;
}
