// Variety in the middleware chain (src/variety/ is the engine). Chosen after authentication, with
// the scenario: x-mock-variety (one request's seed; a bad one is the mock's own 400, like a bad
// x-mock-scenario), else the key's setting, else the global one. A body is varied BEFORE the
// response validator judges it: a wrapper of res.json installed after the validator's own, so it
// runs first. An answer given before the validator's hook (a 401, a refused request) is varied
// where the app's res.json records it (varyLate) and judged there by the contract's checker.
// Either way a variant the contract refuses is a 500, never sent.
import type { Request, RequestHandler, Response } from 'express';
import { ControlRefused, errors } from '../core/errors.js';
import { parseSeed, type VarietySwitch } from '../variety/switch.js';
import { varyBody } from '../variety/vary-body.js';
import { newIdOfShape } from '../variety/id-shapes.js';
import { API_KEY_HEADER, NO_OPERATION } from './authenticate.js';
import { sendInEnvelope, type ChosenVariety } from './variety-envelope.js';

export type { ChosenVariety } from './variety-envelope.js';

export const VARIETY_HEADER = 'x-mock-variety';
/** res.locals key: the request's ChosenVariety, null when decided off, absent when not decided yet. */
export const CHOSEN_VARIETY = 'variety';

/** The step after the scenario's choice. Off, it costs one check (and one header lookup). */
export function chooseVariety(control: VarietySwitch): RequestHandler {
  return (req, res, next) => {
    const header = req.headers[VARIETY_HEADER];
    // A request run again (read-again.ts) keeps what it was given.
    if ((!control.on && header === undefined) || res.locals[CHOSEN_VARIETY] !== undefined) return next();
    try {
      res.locals[CHOSEN_VARIETY] = decide(control, req, res, header);
    } catch (error) {
      return next(error);
    }
    next();
  };
}

/** The operation answered, or the answer that is no operation (a 404 for a path the API lacks, a 405). */
const operationOf = (res: Response): string | undefined => (res.locals['operationId'] ?? res.locals[NO_OPERATION]) as string | undefined;

function decide(control: VarietySwitch, req: Request, res: Response, header: string | string[] | undefined): ChosenVariety | null {
  const operationId = operationOf(res);
  if (operationId === undefined) return null;
  if (header !== undefined) {
    const seed = typeof header === 'string' ? parseSeed(header) : undefined;
    if (seed === undefined) throw new ControlRefused(`the ${VARIETY_HEADER} header must be a seed, a whole number from 0 to 2^53-1 (got ${shown(String(header))})`);
    return { seed, plan: control.planOfSeed(seed, req.get(API_KEY_HEADER)).get(operationId), used: [], bodyVaried: false };
  }
  const found = control.planFor(req.get(API_KEY_HEADER));
  return found ? { seed: found.seed, plan: found.plan.get(operationId), used: [], bodyVaried: false } : null;
}

/** A refused header's value as the refusal quotes it: its start only, since a header may hold 16 KiB. */
const shown = (value: string): string => `'${value.length > HEADER_SHOWN ? `${value.slice(0, HEADER_SHOWN)}…' (${value.length} characters)` : `${value}'`}`;
const HEADER_SHOWN = 40;

/** Right after the validator's middleware: the body is varied first, then judged by the validator's hook. */
export const varyBeforeValidation: RequestHandler = (_req, res, next) => {
  const chosen = res.locals[CHOSEN_VARIETY] as ChosenVariety | null | undefined;
  if (chosen?.plan) {
    const validated = res.json;
    res.json = function variedJson(this: Response, body: unknown) {
      res.json = validated;
      return validated.call(this, varyOnce(chosen, res.statusCode, body));
    };
  }
  next();
};

/**
 * After varyBeforeValidation, for a valid request: a next contract's forced status (plan.forced,
 * src/variety/next-dimensions.ts) answers instead of the handler, so nothing is stored for an answer
 * that says it failed; its body is varied and judged like any other.
 */
export const forceNextStatus: RequestHandler = (_req, res, next) => {
  const chosen = res.locals[CHOSEN_VARIETY] as ChosenVariety | null | undefined;
  const forced = chosen?.plan?.forced;
  if (!chosen || !forced) return next();
  chosen.used.push(forced.dimension);
  res.status(forced.status);
  if (forced.body === undefined) res.end();
  else res.json(forced.body);
};

function varyOnce(chosen: ChosenVariety, status: number, body: unknown): unknown {
  if (chosen.bodyVaried || !chosen.plan || status >= 500) return body;
  chosen.bodyVaried = true;
  const varied = varyBody(chosen.plan, status, body);
  chosen.used.push(...varied.used);
  return varied.body;
}

export interface ContractJudge {
  checkResponse(operationId: string, status: number, contentType: string | null, bodyText: string): string[];
}

/**
 * The app's res.json under variety: decides for an error answered before the choice (a 401),
 * varies a body no validator hook has seen (judged by `judge`), and sends it in its envelope.
 */
export function varyLate(control: VarietySwitch, judge: () => ContractJudge, log: (line: string) => void) {
  return (res: Response, body: unknown, json: (this: Response, body: unknown) => Response): Response => {
    let chosen = res.locals[CHOSEN_VARIETY] as ChosenVariety | null | undefined;
    if (chosen === undefined) chosen = res.locals[CHOSEN_VARIETY] = quietly(control, res.req, res);
    if (!chosen?.plan || res.statusCode >= 500) return plain(res, body, json);
    let sent = body;
    if (!chosen.bodyVaried) {
      sent = varyOnce(chosen, res.statusCode, body);
      const operationId = operationOf(res) as string;
      const problems = chosen.used.length ? judge().checkResponse(operationId, res.statusCode, 'application/json', JSON.stringify(sent)) : [];
      if (problems.length) return refuseVariant(res, chosen, problems, json, log);
    }
    res.locals['responseBody'] = sent;
    sendInEnvelope(res, chosen, JSON.stringify(sent));
    return res;
  };
}

/** An error answered before the choice: a bad x-mock-variety is not this answer's business (the 401 comes first, D14). */
function quietly(control: VarietySwitch, req: Request, res: Response): ChosenVariety | null {
  const header = req.headers[VARIETY_HEADER];
  if (!control.on && header === undefined) return null;
  try {
    return decide(control, req, res, header);
  } catch {
    return null;
  }
}

function plain(res: Response, body: unknown, json: (this: Response, body: unknown) => Response): Response {
  res.locals['responseBody'] = body;
  return json.call(res, body);
}

/** A bug of the mock: the variant broke the contract. The client gets a 500 saying so, never the variant. */
function refuseVariant(res: Response, chosen: ChosenVariety, problems: string[], json: (this: Response, body: unknown) => Response, log: (line: string) => void): Response {
  const error = errors.internal(`the mock's response would break the contract (variety seed ${chosen.seed}, ${chosen.used.join(', ')}): ${problems.join('; ')}`);
  log(`CONTRACT VIOLATION answering ${res.req.method} ${res.req.originalUrl}: ${error.errorDescription}`);
  res.locals['verdict'] = 'contract-violation';
  res.status(error.status);
  return plain(res, { errorDescription: error.errorDescription }, json);
}

/** The id generator for a link created now, when the plan gives created ids another shape. */
export function newLinkIdFor(res: Response): (() => string) | undefined {
  const chosen = res.locals[CHOSEN_VARIETY] as ChosenVariety | null | undefined;
  const shape = chosen?.plan?.idShape;
  if (!chosen || !shape) return undefined;
  return () => {
    if (!chosen.used.includes(shape.dimension)) chosen.used.push(shape.dimension);
    return newIdOfShape(shape.shape, shape.maxLength);
  };
}
