// The API routes in proxy mode (--proxy), in order, replacing the stateful handlers of mock mode:
//   which operation (none is fine: every request is forwarded) → scenario choice (400) → a forced
//   401 → the body as bytes → the request judged against the contract (watched, never refused) →
//   the scenario's delay, forced answer or fault → forward, judge the answer, pass it on.
// Scenarios come first, so QA can force an error path in front of a real backend without calling it.
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { RandomInt } from '../core/random.js';
import type { ScenarioRegistry } from '../core/scenario-registry.js';
import type { OpenApiDocument } from '../core/contract-types.js';
import { OperationTable } from '../http/operation-table.js';
import { BODY_LIMIT } from '../http/errors.js';
import { jsonBody } from '../http/json-body.js';
import { MAX_JSON_FIELDS } from '../http/json-depth.js';
import { applyRequestScenario, chooseRequestScenario, readBodyOfControlRefusal, type Sleep } from '../http/scenarios.js';
import { contractValidator } from '../http/validator.js';
import type { ContractRules } from '../scenarios/contract-rules.js';
import type { AnswerJudge } from './answer-judge.js';
import type { Upstream } from './forward.js';
import { keepRequestSide } from './kept-violations.js';
import { proxyAnswer } from './proxy-answer.js';
import { RAW_BODY, rawBody } from './raw-body.js';
import { requestViolations } from './request-check.js';

export interface ProxySettings {
  upstream: Upstream;
  /** Judges the upstream's answers; its judging threads are the mock's to stop (close). */
  judge: AnswerJudge;
  /** --proxy-strict: an off-contract answer becomes a 502 Error object. */
  strict: boolean;
}

export interface ProxyDeps extends ProxySettings {
  document: OpenApiDocument;
  scenarios: ScenarioRegistry;
  contractRules: ContractRules;
  random: RandomInt;
  sleep: Sleep;
  log: (line: string) => void;
}

export function proxyPipeline(deps: ProxyDeps): (RequestHandler | ErrorRequestHandler)[] {
  const table = new OperationTable(deps.document);
  const validator = contractValidator(deps.document, { responses: false });
  const judged: RequestHandler = async (req, res, next) => {
    // Also on an answer a scenario forces: the client learns its request was off the contract.
    keepRequestSide(res, await requestViolations(table, validator, req, res, res.locals[RAW_BODY] as Buffer | undefined));
    next();
  };
  return [
    matchOperation(table),
    onlyOperations(chooseRequestScenario(deps.scenarios, deps.contractRules)),
    // A refused control (the mock's own 400, not forwarded): its JSON body is read for the journal only.
    readBodyOfControlRefusal(jsonBody(BODY_LIMIT, { maxFields: MAX_JSON_FIELDS })),
    onlyOperations(applyRequestScenario(deps.scenarios, deps.random, deps.sleep, 'before-validation')),
    rawBody(),
    judged,
    onlyOperations(applyRequestScenario(deps.scenarios, deps.random, deps.sleep, 'after-validation')),
    proxyAnswer({ upstream: deps.upstream, judge: deps.judge, strict: deps.strict, log: deps.log, operations: table.operations }),
  ];
}

/** The operation, for scenarios, the journal and coverage; a path the contract lacks is null, and still forwarded. */
function matchOperation(table: OperationTable): RequestHandler {
  return (req, res, next) => {
    const match = table.match(req.method, req.path);
    res.locals['operationId'] = match.kind === 'operation' ? match.operationId : null;
    next();
  };
}

/** Scenarios are chosen by operation: a request outside the contract has none. */
function onlyOperations(handler: RequestHandler): RequestHandler {
  return (req, res, next) => (res.locals['operationId'] ? handler(req, res, next) : next());
}
