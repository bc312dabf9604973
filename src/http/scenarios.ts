// The scenario in the middleware chain, in two steps. Choosing runs right after authentication,
// so a bad x-mock-scenario or Prefer header is refused before the body is validated (it is read
// only to be journaled: readBodyOfControlRefusal). Applying runs
// after request validation, so only a valid request is shaped: delayed, answered with the forced
// (and still response-validated) error, or dropped with a network fault.
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import { ControlRefused } from '../core/errors.js';
import type { Awaitable } from '../core/awaitable.js';
import { chooseScenario, SCENARIO_HEADER, type ScenarioRequest } from '../core/scenario-choice.js';
import type { ChosenScenario, ScenarioRegistry } from '../core/scenario-registry.js';
import { decide, type RulePhase } from '../core/scenarios.js';
import type { RandomInt } from '../core/random.js';
import type { ContractRules } from '../scenarios/contract-rules.js';
import { API_KEY_HEADER } from './authenticate.js';
import { applyFault } from './faults.js';

export type Sleep = (ms: number) => Promise<void>;
export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The key's and global scenario come from the traffic state: at once in memory, after a read when
// shared. Either way the request goes on synchronously when the answer is there (no microtask per
// request in memory mode); a failed read (store unavailable) is the request's error, through Express.
export function chooseRequestScenario(registry: ScenarioRegistry, contract: ContractRules): RequestHandler {
  return (req, res, next) => {
    // Read alongside authentication (readActiveScenarioEarly), which it is only when no header
    // picks a scenario: then that read is the choice (chooseScenario would take it too, but an
    // answer of none, undefined, made it read the same state again, with a closure and a request
    // object built for it, on nearly every request).
    if (ACTIVE_SCENARIO in res.locals) return settleChoice(res.locals[ACTIVE_SCENARIO] as Awaitable<ChosenScenario | undefined>, res, next);
    const operationId = res.locals['operationId'] as string;
    // Set field by field, not spread from optional parts: this runs for every request.
    const request: ScenarioRequest = { operationId, documentedStatuses: () => contract.documentedStatuses(operationId) };
    const scenarioHeader = req.get(SCENARIO_HEADER);
    const preferHeader = req.get('prefer');
    const apiKey = req.get(API_KEY_HEADER);
    if (scenarioHeader !== undefined) request.scenarioHeader = scenarioHeader;
    if (preferHeader !== undefined) request.preferHeader = preferHeader;
    if (apiKey !== undefined) request.apiKey = apiKey;
    return settleChoice(chooseScenario(registry, request), res, next);
  };
}

const ACTIVE_SCENARIO = 'activeScenario';

/** The choice kept for the steps after it, at once when it is there (no microtask in memory mode). */
function settleChoice(chosen: Awaitable<ChosenScenario | undefined>, res: Response, next: NextFunction): Promise<void> | void {
  if (chosen instanceof Promise) {
    return chosen.then((choice) => {
      res.locals['scenario'] = choice;
      next();
    });
  }
  res.locals['scenario'] = chosen;
  next();
}

/**
 * The step after the choice, for its refusals only (an error step: a normal request never runs it).
 * A refused control is answered before the body is parsed, yet the journal is to show what the
 * client sent: the body is read here with the API's own parser and bounds (`readBody`), then the
 * refusal goes on as it was. A body that cannot be read (not JSON, too large) changes nothing: the
 * answer is still the control's 400, and the journal shows no body, as for any unreadable body.
 */
export function readBodyOfControlRefusal(readBody: RequestHandler): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (!(error instanceof ControlRefused)) return next(error);
    readBody(req, res, () => next(error));
  };
}

/**
 * Starts reading the request key's scenario and the global one (one read) while the request is
 * authenticated, when its headers pick none: on shared state the two reads then share one round
 * trip. A failed read is the request's error only if the choice gets to it (it is marked handled
 * here, and awaited there). Operations for which `mayRecall` is true may be answered from what
 * shared state remembers instead (ScenarioState.activeNames): their requests must run under
 * readAgainWhenChanged (read-again.ts).
 */
export function readActiveScenarioEarly(registry: ScenarioRegistry, mayRecall: (operationId: string) => boolean): (req: Request, res: Response) => void {
  return (req, res) => {
    // The headers as Node gives them (names in lower case): req.get lower-cases each name again.
    const { headers } = req;
    if (headers[SCENARIO_HEADER] !== undefined || headers['prefer'] !== undefined) return;
    const active = registry.activeFor(headers[API_KEY_HEADER] as string | undefined, mayRecall(res.locals['operationId'] as string));
    if (active instanceof Promise) active.catch(() => undefined);
    res.locals[ACTIVE_SCENARIO] = active;
  };
}

/**
 * `readBody`: before validation the body is not read yet; a forced answer (the 401 standing for a
 * failed authentication) reads it first, for the journal only, whatever it holds.
 */
export function applyRequestScenario(registry: ScenarioRegistry, random: RandomInt, sleep: Sleep, phase: RulePhase, readBody?: RequestHandler): RequestHandler {
  // Not async itself: a request without a scenario (nearly all) goes on at once, with no promise
  // for it and none for the one layer to wait on (src/http/one-layer.ts).
  const how: Shaping = { registry, random, sleep, phase, ...(readBody ? { readBody } : {}) };
  return (req, res, next) => {
    const chosen = res.locals['scenario'] as ChosenScenario | undefined;
    return chosen ? shape(chosen, how, req, res, next) : next();
  };
}

interface Shaping {
  registry: ScenarioRegistry;
  random: RandomInt;
  sleep: Sleep;
  phase: RulePhase;
  readBody?: RequestHandler;
}

async function shape(chosen: ChosenScenario, how: Shaping, req: Request, res: Response, next: NextFunction): Promise<void> {
  const { scenario } = chosen;
  const facts = { operationId: res.locals['operationId'] as string, headers: req.headers, body: req.body, ...optional('apiKey', req.get(API_KEY_HEADER)) };
  const decided = decide(scenario, facts, how.registry.countersFor(chosen), how.random, how.phase);
  const outcome = decided instanceof Promise ? await decided : decided;
  if (outcome.kind === 'pass' && outcome.delayMs === 0) return next();
  // Set with `times`: only a request it shapes takes a use; with none left it is answered normally
  // (and a later phase does not ask again).
  if (chosen.counted === true && !(await how.registry.takeUse(chosen))) {
    res.locals['scenario'] = undefined;
    return next();
  }
  res.locals['shapedBy'] = scenario.name;
  if (outcome.delayMs > 0) await how.sleep(outcome.delayMs);
  if (outcome.kind === 'respond') {
    const { status, body } = outcome.response;
    if (how.readBody) how.readBody(req, res, () => void res.status(status).json(body));
    else res.status(status).json(body);
  } else if (outcome.kind === 'fault') applyFault(outcome.fault, req, res);
  else next();
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}
