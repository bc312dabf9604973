// The one place that maps failures to HTTP statuses and writes the spec's Error object
// ({errorDescription, code?}) for every error: the core's ApiErrors, the body parser's, the
// OpenAPI validator's own, and anything unexpected. The validator's findings are put in words by
// validator-findings.ts, and what an answered error tells the journal and the log is error-log.ts's:
// neither decides a status.
import type { ErrorRequestHandler, Response } from 'express';
import { ApiError, errors } from '../core/errors.js';
import type { ErrorBody } from '../core/api-types.js';
import { BODY_NOT_UTF8, BODY_TOO_DEEP, BODY_TOO_MANY_FIELDS } from './json-body.js';
import { MAX_JSON_DEPTH, MAX_JSON_FIELDS } from './json-depth.js';
import { isStoreUnavailable } from '../core/link-store.js';
import { notGenerated } from './contract-handlers.js';
import { describeInternal, outageLog, verdictOf } from './error-log.js';
import { describeMediaType, describeValidationErrors, isResponseViolation, type ValidatorError } from './validator-findings.js';

export const BODY_LIMIT = '1mb';

export interface HttpLikeError extends ValidatorError {
  path?: string;
  type?: string;
  headers?: Record<string, string>;
  /** body-parser's: the text it could not parse. */
  body?: unknown;
  /** body-parser's, on a body too large: the limit it applied, in bytes (the API's and the admin API's differ). */
  limit?: number;
}

/** 65,536 → '64 KiB', 1,048,576 → '1 MiB'; the API's limit when the error does not say. */
function sizeInWords(bytes: number | undefined): string {
  if (bytes === undefined) return BODY_LIMIT.replace('mb', ' MiB');
  return bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}

export function sendError(res: Response, error: ApiError): void {
  const body: ErrorBody = { errorDescription: error.errorDescription, ...(error.code ? { code: error.code } : {}) };
  res.status(error.status).json(body);
}

/** Turns anything thrown while answering into an ApiError with a documented status. */
/**
 * `requestPath`: the path as the client sent it, for a 404 or 405: the validator's own `path` is the
 * router's (the admin API's leaves out `/__admin`).
 */
export function toApiError(thrown: unknown, requestPath?: string): ApiError {
  if (thrown instanceof ApiError) return thrown;
  const error = (thrown ?? {}) as HttpLikeError;
  switch (error.type) {
    case 'entity.parse.failed':
      return errors.invalidRequest(describeParseFailure(error));
    case 'entity.too.large':
      return errors.invalidRequest(`request body is over the ${sizeInWords(error.limit)} limit`);
    case BODY_TOO_DEEP:
      return errors.invalidRequest(`request body is nested more than ${MAX_JSON_DEPTH} levels deep, the limit of this server`);
    case BODY_TOO_MANY_FIELDS:
      return errors.invalidRequest(tooManyFields);
    case BODY_NOT_UTF8:
      return errors.invalidRequest('request body is not valid UTF-8; send UTF-8 JSON');
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return errors.invalidRequest(`request body: ${error.message ?? 'unsupported encoding'}; send UTF-8 JSON`);
    default:
      return fromValidatorError(error, requestPath ?? error.path);
  }
}

/** A body's fields past MAX_JSON_FIELDS: the API's 400, the proxy's request violation. */
export const tooManyFields = `request body has more than ${MAX_JSON_FIELDS} fields, the limit of this server`;

/**
 * JSON that is valid but not an object or array (`null`, `"x"`, `1`) is refused by the strict parser:
 * say what it is. Only JSON's own whitespace is trimmed: String.trim also drops a byte-order mark
 * and a no-break space, and would call a body the parser refused "an object".
 */
function describeParseFailure(error: HttpLikeError): string {
  const text = typeof error.body === 'string' ? error.body.replace(JSON_WHITESPACE, '') : '';
  if (text === '') return 'request body holds nothing but whitespace; send a JSON object';
  // The decoder drops one byte-order mark, as UTF-8 readers do: the parser met the next one.
  if (text.startsWith('\uFEFF')) return 'request body is not valid JSON: it starts with a second byte-order mark (U+FEFF); at most one may come before the JSON';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `request body is not valid JSON: ${error.message ?? 'parse error'}`;
  }
  return `request body must be a JSON object, not ${value === null ? 'null' : withArticle(typeof value)}`;
}

const JSON_WHITESPACE = /^[\x20\x09\x0a\x0d]+|[\x20\x09\x0a\x0d]+$/g;

const withArticle = (noun: string): string => `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;

function fromValidatorError(error: HttpLikeError, path: string | undefined): ApiError {
  switch (error.status) {
    case 400:
      return errors.invalidRequest(describeValidationErrors(error));
    case 415:
      return errors.invalidRequest(describeMediaType(error.message));
    case 401:
      return errors.missingApiKey();
    case 404:
      return new ApiError(404, `no route at ${path ?? 'this path'}`);
    case 405:
      return new ApiError(405, `method not allowed on ${path ?? 'this path'}`);
    default:
      if (isResponseViolation(error)) return errors.internal(`the mock's response would break the contract: ${describeValidationErrors(error)}`);
      if (isStoreUnavailable(error)) return errors.storeUnavailable(error.message ?? '');
      return errors.internal(`internal error: ${error.message ?? String(error)}`);
  }
}

export function createErrorHandler(log: (line: string) => void): ErrorRequestHandler {
  const outage = outageLog(log);
  return (thrown, req, res, next) => {
    if (res.headersSent) {
      next(thrown);
      return;
    }
    const error = refusalDocumentedFor(req, toApiError(thrown, pathAsSent(req.originalUrl)));
    notGenerated(res);
    const headers = (thrown as HttpLikeError | undefined)?.headers;
    if (headers) res.set(headers); // e.g. the validator's Allow header on a 405
    res.locals['verdict'] = res.locals['operationId'] === undefined ? 'invalid-request' : verdictOf(thrown, error);
    // A 503 is the mock at a bound of its own (journal streams), said in the answer: no bug, no outage.
    if (error.status >= 500 && error.status !== 503) (isStoreUnavailable(thrown) ? outage : log)(describeInternal(`${req.method} ${req.originalUrl}`, error, thrown));
    sendError(res, error);
  };
}

/** The path of a request target, without its query. */
const pathAsSent = (url: string): string => {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
};

/**
 * A refused request (400) of an operation whose contract documents no 400, `4XX` or `default` but
 * a 422 (a --contract FILE may) is answered 422, the status FILE gives for it: the mock never
 * answers what its contract forbids when the contract offers a way (docs/next-contract.md).
 * `req.openapi.schema` is the operation the validator matched; absent before a match (a 404/405).
 */
function refusalDocumentedFor(req: object, error: ApiError): ApiError {
  if (error.status !== 400) return error;
  const responses = (req as { openapi?: { schema?: { responses?: Record<string, unknown> } } }).openapi?.schema?.responses;
  if (!responses || '400' in responses || '4XX' in responses || 'default' in responses || !('422' in responses)) return error;
  return new ApiError(422, error.errorDescription, error.code);
}
