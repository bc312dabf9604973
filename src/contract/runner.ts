// Runs the suite against one server: a session holds the target, the client, the independent
// checker and the links created so far; it runs checks one by one (the vitest suite calls it once
// per test), then the fuzzer, then deletes what the suite created. runContract() does it all in
// one go for the CLI and for tests of the suite itself.
import { randomBytes } from 'node:crypto';
import { CHECKS } from './cases.js';
import { CheckFailure, NotChecked, Skipped, type Check, type CheckResult, type Outcome } from './check-types.js';
import { ContractClient, DEFAULT_TIMEOUT_MS } from './client.js';
import { CheckContext, type Target } from './context.js';
import { CreatedLinks, describeCleanup } from './created-links.js';
import { secretsOf, type Secrets } from './exchange-format.js';
import { DEFAULT_FUZZ_RUNS, DEFAULT_FUZZ_TIME_LIMIT_MS, fuzzContract } from './fuzz.js';
import { fuzzNextContract } from './fuzz-next.js';
import { ResponseChecker, type OperationInfo } from './response-checker.js';
import { nextChecks } from './cases-next.js';
import { goneOperations, nextContractOf } from './next-contract.js';
import { readUserContract } from './user-contract.js';
import { requestSchema } from '../core/contract-classes.js';
import type { OpenApiDocument } from '../core/contract-types.js';
import { schemaAt } from '../core/schema-pointer.js';

export const DEFAULT_DOMAIN = 'short.test';

export interface ContractOptions {
  baseUrl: string;
  apiKey: string;
  otherApiKey?: string | undefined;
  domain?: string | undefined;
  otherDomain?: string | undefined;
  otherAccountDomain?: string | undefined;
  limitedApiKey?: string | undefined;
  limitedLinkId?: string | undefined;
  /** Fuzzed requests; 0 switches fuzzing off. Default 200. */
  fuzzRuns?: number | undefined;
  /** Seed of the fuzzer; default from the clock (the report prints it, to replay). */
  seed?: number | undefined;
  /** Bound of each request. */
  timeoutMs?: number | undefined;
  /** Bound of the whole fuzz run. */
  fuzzTimeLimitMs?: number | undefined;
  /** The contract the server is checked against (`--contract FILE`, issue 38), read and checked as the mock reads it; default the shipped openapi.yaml. */
  contract?: string | undefined;
  /** Called after each result, for progress output. */
  onResult?: (result: CheckResult) => void;
}

/** The maxLength of createLink's `slug` in a contract; undefined when it names none. */
function slugMaxOf(document: OpenApiDocument): number | undefined {
  const request = requestSchema(document, 'createLink');
  const slug = schemaAt(document, (request?.schema['properties'] as Record<string, unknown> | undefined)?.['slug'], '');
  const max = slug?.schema['maxLength'];
  return typeof max === 'number' && max > 0 ? max : undefined;
}

export interface Counts {
  checked: number;
  passed: number;
  failed: number;
  notChecked: number;
}

export interface Report {
  baseUrl: string;
  contract: string;
  /** The operations of openapi.yaml with their documented statuses, for grouping. */
  operations: OperationInfo[];
  target: Target;
  seed: number;
  fuzzRuns: number;
  runId: string;
  results: CheckResult[];
  counts: Counts;
  ms: number;
  /** To write the suite's keys as $CONTRACT_API_KEY, $CONTRACT_OTHER_API_KEY, $CONTRACT_LIMITED_API_KEY. */
  secrets: Secrets;
}

type MetaOf = Omit<CheckResult, 'outcome' | 'ms'>;
const FUZZ_META: MetaOf = { id: 'fuzz-property', operationId: 'fuzz', expectedStatus: null, rule: false, title: 'fuzzed requests from the request schemas, valid and invalid: every answer documented and schema-valid, never a 5xx, no forbidden body accepted' };
const FUZZ_NEXT_META: MetaOf = { id: 'fuzz-next-contract', operationId: 'fuzz', expectedStatus: null, rule: false, title: "fuzzed requests to every operation of --contract FILE, its new fields and reads included: every answer documented and valid by FILE, never a 5xx" };
const ALIVE_META: MetaOf = { id: 'fuzz-still-answers', operationId: 'fuzz', expectedStatus: null, rule: false, title: 'the server still answers after fuzzing' };
const CLEANUP_META: MetaOf = { id: 'cleanup', operationId: 'cleanup', expectedStatus: null, rule: false, title: 'every link the suite created is deleted again' };

export class ContractSession {
  readonly checks: readonly Check[];
  readonly context: CheckContext;
  readonly seed: number;
  readonly fuzzRuns: number;
  private readonly created = new CreatedLinks();
  private readonly started = performance.now();

  constructor(private readonly options: ContractOptions) {
    const optional = { otherApiKey: options.otherApiKey, otherDomain: options.otherDomain, otherAccountDomain: options.otherAccountDomain, limitedApiKey: options.limitedApiKey, limitedLinkId: options.limitedLinkId };
    const given = Object.fromEntries(Object.entries(optional).filter(([, value]) => value)) as Partial<Target>;
    const target: Target = { baseUrl: options.baseUrl, apiKey: options.apiKey, domain: options.domain ?? DEFAULT_DOMAIN, ...given };
    const client = new ContractClient(options.baseUrl, { timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, onExchange: (exchange) => this.created.observe(exchange) });
    this.seed = options.seed ?? Date.now() % 2 ** 31;
    this.fuzzRuns = options.fuzzRuns ?? DEFAULT_FUZZ_RUNS;
    // Time plus random bytes: unique across repeated and parallel runs against one persistent server.
    const runId = `c${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
    const document = options.contract === undefined ? undefined : readUserContract(options.contract).document;
    const checker = document === undefined ? ResponseChecker.fromFile() : new ResponseChecker(document as ConstructorParameters<typeof ResponseChecker>[0]);
    // FILE compared with the shipped contract: the cases of what it adds, the skips of what it removes.
    const next = document && options.contract !== undefined ? nextContractOf(options.contract, document) : undefined;
    this.checks = next ? [...CHECKS, ...nextChecks(next)] : CHECKS;
    this.context = new CheckContext(target, client, checker, runId, document && slugMaxOf(document), next);
  }

  async runCheck(check: Check): Promise<CheckResult> {
    const started = performance.now();
    let outcome: Outcome;
    try {
      const note = await check.run(this.context);
      outcome = note ? { status: 'passed', note } : { status: 'passed' };
    } catch (error) {
      if (error instanceof CheckFailure) outcome = { status: 'failed', reason: error.reason, ...(error.exchange ? { exchange: error.exchange } : {}) };
      else if (error instanceof Skipped) outcome = { status: 'not-checked', reason: error.message, skipped: true };
      else if (error instanceof NotChecked) outcome = { status: 'not-checked', reason: error.message };
      else outcome = { status: 'failed', reason: `the check itself crashed: ${(error as Error).stack ?? String(error)}` };
    }
    const { run: _run, ...meta } = check;
    return this.emit({ ...meta, rule: check.rule ?? false, outcome, ms: elapsed(started) });
  }

  async runFuzz(): Promise<CheckResult[]> {
    const started = performance.now();
    if (this.fuzzRuns === 0) {
      const off: Outcome = { status: 'not-checked', reason: 'fuzzing is switched off (--fuzz-runs 0)' };
      return [this.emit({ ...FUZZ_META, outcome: off, ms: 0 }), this.emit({ ...ALIVE_META, outcome: off, ms: 0 })];
    }
    const outcomes = await fuzzContract(this.context, { runs: this.fuzzRuns, seed: this.seed, ...(this.options.fuzzTimeLimitMs ? { timeLimitMs: this.options.fuzzTimeLimitMs } : {}) });
    const results = [this.emit({ ...FUZZ_META, outcome: outcomes.property, ms: elapsed(started) })];
    const { next } = this.context;
    if (next) {
      const nextStarted = performance.now();
      const outcome = await fuzzNextContract(this.context, next, { runs: this.fuzzRuns, seed: this.seed, timeLimitMs: this.options.fuzzTimeLimitMs ?? DEFAULT_FUZZ_TIME_LIMIT_MS });
      results.push(this.emit({ ...FUZZ_NEXT_META, outcome, ms: elapsed(nextStarted) }));
    }
    return [...results, this.emit({ ...ALIVE_META, outcome: outcomes.stillAnswers, ms: 0 })];
  }

  /** Deletes every link the suite created and has not deleted yet. */
  async cleanup(): Promise<CheckResult> {
    const started = performance.now();
    const gone = goneOperations(this.context.next).some((operation) => operation.operationId === 'deleteLink');
    const outcome: Outcome = gone
      ? { status: 'not-checked', skipped: true, reason: `skipped: --contract ${this.context.next!.file} removes deleteLink, so the ${this.created.size} links the checks created are left on the server` }
      : describeCleanup(await this.created.cleanup(this.context.client));
    return this.emit({ ...CLEANUP_META, outcome, ms: elapsed(started) });
  }

  get secrets(): Secrets {
    return secretsOf(this.context.target);
  }

  report(results: CheckResult[]): Report {
    const count = (status: Outcome['status']): number => results.filter((result) => result.outcome.status === status).length;
    const counts = { passed: count('passed'), failed: count('failed'), notChecked: count('not-checked'), checked: count('passed') + count('failed') };
    const { target } = this.context;
    return { baseUrl: target.baseUrl, contract: this.context.checker.title, operations: this.context.checker.operationList(), target, seed: this.seed, fuzzRuns: this.fuzzRuns, runId: this.context.runId, results, counts, ms: elapsed(this.started), secrets: this.secrets };
  }

  private emit(result: CheckResult): CheckResult {
    this.options.onResult?.(result);
    return result;
  }
}

export async function runContract(options: ContractOptions): Promise<Report> {
  const session = new ContractSession(options);
  const results: CheckResult[] = [];
  try {
    for (const check of session.checks) results.push(await session.runCheck(check));
    results.push(...(await session.runFuzz()));
  } finally {
    // Runs even when something above threw: what the suite creates, it deletes.
    results.push(await session.cleanup());
  }
  return session.report(results);
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
