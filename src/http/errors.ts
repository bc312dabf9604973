// The one place that maps failures to HTTP statuses and writes the spec's Error object
// ({errorDescription, code?}) for every error: the core's ApiErrors, the body parser's, the
// OpenAPI validator's own, and anything unexpected.
import type { ErrorRequestHandler, Response } from 'express';
import { ApiError, ControlRefused, errors } from '../core/errors.js';
import type { ErrorBody } from '../core/api-types.js';
import type { Verdict } from '../core/journal.js';
import { printable } from '../core/printable.js';
import { keepFirst } from '../core/violations.js';
import { BODY_NOT_UTF8, BODY_TOO_DEEP, BODY_TOO_MANY_FIELDS } from './json-body.js';
import { MAX_JSON_DEPTH, MAX_JSON_FIELDS } from './json-depth.js';
import { isStoreUnavailable, STORE_UNAVAILABLE } from '../core/link-store.js';
import { notGenerated } from './contract-handlers.js';

export const BODY_LIMIT = '1mb';

export interface ValidationItem {
  path?: string;
  message?: string;
  errorCode?: string;
}

export interface HttpLikeError {
  status?: number;
  path?: string;
  type?: string;
  message?: string;
  errors?: ValidationItem[];
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
export function toApiError(thrown: unknown): ApiError {
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
      return fromValidatorError(error);
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

function fromValidatorError(error: HttpLikeError): ApiError {
  switch (error.status) {
    case 400:
      return errors.invalidRequest(describeValidationErrors(error));
    case 415:
      return errors.invalidRequest(describeMediaType(error.message));
    case 401:
      return errors.missingApiKey();
    case 404:
      return new ApiError(404, `no route at ${error.path ?? 'this path'}`);
    case 405:
      return new ApiError(405, `method not allowed on ${error.path ?? 'this path'}`);
    default:
      if (isResponseViolation(error)) return errors.internal(`the mock's response would break the contract: ${describeValidationErrors(error)}`);
      if (isStoreUnavailable(error)) return errors.storeUnavailable(error.message ?? '');
      return errors.internal(`internal error: ${error.message ?? String(error)}`);
  }
}

/** The response validator reports paths under /response; its errors are contract violations. */
function isResponseViolation(error: HttpLikeError): boolean {
  if (error.status !== 500) return false;
  const items = error.errors ?? [];
  return items.some((item) => /^[/.]response/.test(item.path ?? '') || /^no schema defined for status code/.test(item.message ?? ''));
}

function describeMediaType(message: string | undefined): string {
  const sent = message?.replace(/^unsupported media type\s*/, '');
  const got = !sent || sent === 'undefined' ? 'no content type' : `content type '${sent}'`;
  return `the request body must be application/json (got ${got})`;
}

/**
 * "request body: unknown field 'slug'; request body: 'destinationUrl' must match format \"uri\"":
 * the first MAX_VIOLATIONS_PER_SIDE, the rest counted (a 12 KiB body can hold 1,000 unknown fields).
 */
export function describeValidationErrors(error: HttpLikeError): string {
  const { kept, notKept } = keepFirst(validationMessages(error));
  return notKept ? `${kept.join('; ')}; and ${notKept} more` : kept.join('; ');
}

/** The validator's findings, one sentence per field, the most telling one: a format says more to a reader than a regex. */
export function validationMessages(error: HttpLikeError): string[] {
  return mostTellingItems(error).map(describeItem);
}

/** The validator's findings, the most telling one per field. */
export function mostTellingItems(error: HttpLikeError): ValidationItem[] {
  const items = error.errors?.length ? error.errors : [{ message: error.message ?? 'invalid request' }];
  const perField = new Map<string, ValidationItem>();
  for (const item of items) {
    const kept = perField.get(item.path ?? '');
    if (!kept || rank(item) < rank(kept)) perField.set(item.path ?? '', item);
  }
  return [...perField.values()];
}

/**
 * Patterns of openapi.yaml read as sentences (test/http/text-fields.test.ts checks they are the
 * contract's own). The plain-text rule (D30) is the most telling message for a field it fails.
 */
export const PLAIN_TEXT_PATTERN = '^[^\\x00-\\x1F\\x7F-\\x9F\\u2028\\u2029\\u202A-\\u202E\\u2066-\\u2069\\uD800-\\uDFFF]*$';
const PATTERN_SENTENCES: Record<string, string> = {
  [PLAIN_TEXT_PATTERN]: 'must be plain text: no control characters, line separators, bidirectional controls or lone surrogates',
  '\\S': 'must not be blank',
};

const patternOf = (item: ValidationItem): string | undefined => /^must match pattern "(.*)"$/.exec(item.message ?? '')?.[1];

function rank(item: ValidationItem): number {
  if (!item.errorCode?.startsWith('pattern')) return 0;
  return patternOf(item) === PLAIN_TEXT_PATTERN ? -1 : 1;
}

const LOCATIONS: Record<string, string> = { body: 'request body', query: 'query', params: 'path', headers: 'header', response: 'response' };

/** A validator path's first segment in words: 'body' → 'request body'. */
export const locationWords = (location: string): string => LOCATIONS[location] ?? location;

export function describeItem(item: ValidationItem): string {
  const [location = 'request', ...field] = (item.path ?? '').split('/').filter(Boolean);
  const where = locationWords(location);
  const name = field.join('.');
  const code = item.errorCode?.split('.')[0];
  const pattern = patternOf(item);
  const message = (pattern !== undefined ? PATTERN_SENTENCES[pattern] : undefined) ?? item.message ?? 'is invalid';
  const wholeBody = describeWholeBody(item, location, name, code);
  if (wholeBody) return wholeBody;
  if (code === 'additionalProperties' && name) return `${where}: unknown field '${name}'`;
  if (code === 'required' && name) return `${where}: missing required field '${name}'`;
  if (location === 'query' && /^Unknown query parameter/.test(message)) return `query: unknown parameter '${name}'`;
  if (code === 'minProperties') return `${where}${name ? ` '${name}'` : ''}: must have at least one field`;
  return name ? `${where}: '${name}' ${message}` : `${where}: ${message}`;
}

/** What the validator says about the body as a whole, in the API's words rather than its own. */
function describeWholeBody(item: ValidationItem, location: string, name: string, code: string | undefined): string | undefined {
  // The validator loses the name of a field whose name is empty ({"": 1}): its path is empty.
  if (code === 'additionalProperties' && !item.path) return "request body: unknown field '' (a field with an empty name)";
  if (location !== 'body' || name) return undefined;
  if (code === 'required') return 'the request has no body; send a JSON object';
  if (code === 'type') return 'request body must be a JSON object, not an array';
  return undefined;
}

export function createErrorHandler(log: (line: string) => void): ErrorRequestHandler {
  const outage = outageLog(log);
  return (thrown, req, res, next) => {
    if (res.headersSent) {
      next(thrown);
      return;
    }
    const error = refusalDocumentedFor(req, toApiError(thrown));
    notGenerated(res);
    const headers = (thrown as HttpLikeError | undefined)?.headers;
    if (headers) res.set(headers); // e.g. the validator's Allow header on a 405
    res.locals['verdict'] = res.locals['operationId'] === undefined ? 'invalid-request' : verdictOf(thrown, error);
    // A 503 is the mock at a bound of its own (journal streams), said in the answer: no bug, no outage.
    if (error.status >= 500 && error.status !== 503) (isStoreUnavailable(thrown) ? outage : log)(describeInternal(`${req.method} ${req.originalUrl}`, error, thrown));
    sendError(res, error);
  };
}

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

/** While the data is out of reach every request fails alike: one line per few seconds says so, with a count. */
export const OUTAGE_LOG_EVERY_MS = 5_000;

function outageLog(log: (line: string) => void, now: () => number = Date.now): (line: string) => void {
  let last = Number.NEGATIVE_INFINITY;
  let quiet = 0;
  return (line) => {
    if (now() - last < OUTAGE_LOG_EVERY_MS) {
      quiet += 1;
      return;
    }
    log(quiet ? `${line} (and ${quiet} more requests refused alike since the last line)` : line);
    last = now();
    quiet = 0;
  };
}

/**
 * For the journal: was the request at fault, the mock, or its data store? A rule of the API refusing
 * a valid request is 'ok'; the mock refusing its own control headers is 'mock-control'.
 */
function verdictOf(thrown: unknown, error: ApiError): Verdict {
  if (thrown instanceof ControlRefused) return 'mock-control';
  if (isResponseViolation((thrown ?? {}) as HttpLikeError)) return 'contract-violation';
  if (isStoreUnavailable(thrown)) return 'store-unavailable';
  if (error.status >= 500) return 'internal-error';
  return thrown instanceof ApiError ? 'ok' : 'invalid-request';
}

/**
 * A loud log entry: a contract violation or a bug must not scroll past unseen. A failure the mock
 * explains itself (an ApiError, such as a full disk refusing a change) is one line: its stack says
 * nothing more, and a full disk would print it for every request. Only the unexpected gets its stack.
 * Its headline is the journal's verdict in capitals: INTERNAL ERROR is a bug of the mock, STORE
 * UNAVAILABLE an outage of its data (Redis down), which the mock cannot help.
 */
function describeInternal(request: string, error: ApiError, thrown: unknown): string {
  const violation = isResponseViolation((thrown ?? {}) as HttpLikeError);
  const outage = isStoreUnavailable(thrown);
  // The headline names the outage: the description's own 'store unavailable: ' would say it twice.
  const what = violation ? 'CONTRACT VIOLATION' : outage ? 'STORE UNAVAILABLE' : 'INTERNAL ERROR';
  const description = outage ? error.errorDescription.replace(STORE_UNAVAILABLE, '') : error.errorDescription;
  // One line whatever the request or the error names: its stack, below, is the mock's own.
  const headline = printable(`${what} answering ${request}: ${description}`);
  const explained = violation || outage || thrown instanceof ApiError || !(thrown instanceof Error);
  return explained ? headline : `${headline}\n${thrown.stack?.split('\n').slice(1).join('\n') ?? ''}`;
}
