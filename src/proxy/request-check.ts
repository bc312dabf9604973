// The client's side of a proxied exchange: does its request keep openapi.yaml? Judged by the same
// express-openapi-validator setup that refuses bad requests in mock mode (src/http/validator.ts),
// but only watched: the request goes to the upstream whatever the verdict, so that the drift
// report shows what the client really sends and how the service takes it.
import { isUtf8 } from 'node:buffer';
import type { Request, RequestHandler, Response } from 'express';
import type { Violation } from '../core/journal.js';
import { toApiError, tooManyFields, type HttpLikeError } from '../http/errors.js';
import { noteBodyBytes } from '../http/json-body.js';
import { jsonOverLimits, MAX_JSON_DEPTH, MAX_JSON_FIELDS } from '../http/json-depth.js';
import type { OperationTable } from '../http/operation-table.js';
import { requestRuleViolations } from './request-rules.js';

export type ValidatorChain = readonly RequestHandler[];

/**
 * Every way the request breaks the contract ([] when it keeps it). Sets req.body to the parsed JSON
 * when it is JSON, for the validator and the scenarios; the raw bytes stay what is forwarded.
 */
export async function requestViolations(table: OperationTable, validator: ValidatorChain, req: Request, res: Response, raw: Buffer | undefined): Promise<Violation[]> {
  // One rule for every path outside the contract, the path being the evidence: a client (or a
  // scanner) calling many such paths is one row of the drift report, not one per path.
  const match = table.match(req.method, req.path);
  if (match.kind === 'unknown-path') return [{ side: 'request', rule: `${req.method} on a path the contract does not have`, detail: preview(req.path) }];
  if (match.kind === 'method-not-allowed') return [{ side: 'request', rule: `${req.method} on a path of the contract that allows only ${match.allowed.join(', ')}`, detail: preview(req.path) }];
  const body = readJson(req, raw);
  if ('problem' in body) return [requestViolation(body.problem, body.detail)];
  req.body = body.value;
  noteBodyBytes(res, raw?.length ?? 0);
  const refusal = await withMediaTypeOnly(req, () => runChain(validator, req, res));
  if (refusal === undefined) return [];
  const status = (refusal as { status?: number }).status;
  return status === 400 ? requestRuleViolations(refusal as HttpLikeError) : [requestViolation(toApiError(refusal).errorDescription)];
}

const requestViolation = (rule: string, detail?: string): Violation => ({ side: 'request', rule, ...(detail === undefined ? {} : { detail }) });

const preview = (text: string): string => (text.length > 120 ? `${text.slice(0, 117)}...` : text);

/** The body as JSON, or why it cannot be read as JSON; no body or a non-JSON type is left to the validator. */
function readJson(req: Request, raw: Buffer | undefined): { value: unknown } | { problem: string; detail?: string } {
  if (!raw || raw.length === 0) return { value: undefined };
  if (!/^application\/(.+\+)?json$/i.test((req.headers['content-type'] ?? '').split(';')[0]?.trim() ?? '')) return { value: undefined };
  if (!isUtf8(raw)) return { problem: 'request body is not valid UTF-8' };
  const over = jsonOverLimits(raw, MAX_JSON_DEPTH, MAX_JSON_FIELDS);
  if (over === 'depth') return { problem: `request body is nested more than ${MAX_JSON_DEPTH} levels deep` };
  // Parsing them would stall the proxy as it would the mock (json-depth.ts): judged unread, as the mock refuses them.
  if (over === 'fields') return { problem: tooManyFields };
  try {
    return { value: JSON.parse(raw.toString('utf8')) as unknown };
  } catch (error) {
    // The parser's message names a position: evidence, not a rule of its own for each position.
    return { problem: 'request body is not valid JSON', detail: (error as Error).message };
  }
}

/**
 * The validator caches per content type, parameters included: `application/json; v=<n>` would grow
 * that cache without bound. It sees the media type only; the upstream still gets the header as sent.
 */
async function withMediaTypeOnly<T>(req: Request, run: () => Promise<T>): Promise<T> {
  const sent = req.headers['content-type'];
  if (!sent?.includes(';')) return run();
  req.headers['content-type'] = sent.slice(0, sent.indexOf(';')).trim();
  try {
    return await run();
  } finally {
    req.headers['content-type'] = sent;
  }
}

/** Runs middleware in order as Express would, and resolves with the first error one passes on (undefined: none). */
function runChain(handlers: ValidatorChain, req: Request, res: Response): Promise<unknown> {
  return new Promise((resolve) => {
    let index = 0;
    const next = (error?: unknown): void => {
      if (error !== undefined && error !== null && error !== 'route') return resolve(error);
      const handler = handlers[index++];
      if (!handler) return resolve(undefined);
      try {
        void handler(req, res, next);
      } catch (thrown) {
        resolve(thrown);
      }
    };
    next();
  });
}
