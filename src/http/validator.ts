// express-openapi-validator, set up so that the mock can never tell a client something the
// contract forbids: requests and responses are validated, formats in full, no coercion, no
// stripping of unknown fields (they are errors, D6/D7).
import * as OpenApiValidator from 'express-openapi-validator';
import type { RequestHandler } from 'express';
import { parsedBodyBytes } from './json-body.js';
import { oneLayer } from './one-layer.js';
import type { OpenApiDocument } from '../core/contract-types.js';
import { oversizeArrayRefusal } from './validator-fixes/array-bounds.js';
import { missingBodyRefusal } from './validator-fixes/required-body.js';
import { validatorFormats } from './kept-formats.js';
// Installs the run-time fixes to the validator when this module loads, before any chain is built
// (validator-fixes/README.md names each, what it buys and the test that guards it).
import './validator-fixes/installed.js';

type ValidatorSpec = Parameters<typeof OpenApiValidator.middleware>[0]['apiSpec'];

/**
 * Bodies up to this size are validated with allErrors, so that a client learns every bad field at
 * once; a larger one only up to its first problem. Every body that could keep the contract is far
 * smaller (50 tags of 114 characters, a URL of 2,048, even with each character escaped: ~50 KiB),
 * and Ajv's cost with allErrors grows with the errors a body holds: unbounded, 1 MiB of unknown
 * fields is 80,000 of them. The size is the parser's count, known before validation: no extra pass.
 */
export const ALL_ERRORS_MAX_BYTES = 64 * 1024;

/**
 * `responses: false` validates requests only (the validating proxy judges answers from the wire).
 * Arrays over the contract's maxItems are refused before the validator (validator-fixes/array-bounds.ts),
 * and so is a missing body the contract requires (validator-fixes/required-body.ts: the validator misses some).
 */
export function contractValidator(document: OpenApiDocument, { responses = true } = {}): RequestHandler[] {
  // One step that picks a whole chain by the body's size, run as one layer (one-layer.ts): the
  // size is read once a request, not once by each of the validator's six middlewares.
  const thorough = oneLayer(validatorChain(document, responses, true));
  // Built on the first large body (no cost at start): the same middleware in the same order.
  let firstError: RequestHandler | undefined;
  const bySize: RequestHandler = (req, res, next) => {
    if ((parsedBodyBytes(res) ?? 0) <= ALL_ERRORS_MAX_BYTES) return thorough(req, res, next);
    firstError ??= oneLayer(validatorChain(document, responses, false));
    return firstError(req, res, next);
  };
  return [refuseEarly(document), bySize];
}

/** The checks in front of the validator, as one step: a missing required body, then arrays over their maxItems. */
function refuseEarly(document: OpenApiDocument): RequestHandler {
  const missingBody = missingBodyRefusal(document);
  const oversizeArray = oversizeArrayRefusal(document);
  return (req, res, next) => next(missingBody(req, res) ?? oversizeArray(req, res));
}

/**
 * One chain per contract document and mode in a process, however many apps are built from it.
 * Building one loads the contract and, on its first requests, compiles its schemas with Ajv: most
 * of the ~40 ms of CPU an app cost, paid again by every app a test suite or a toolkit user builds
 * in one process (the CLI builds one). A chain holds nothing of an app or of a request: its caches
 * are by route and content type. Its one step per app, Express `param` handlers for path
 * parameters that it adds to the first app it serves, concerns routes with `:name` parameters,
 * and the API's steps are no such route (its handlers read the validator's own pathParams). Keyed by
 * the document object: a contract is read once and never changed after (a changed contract is a
 * new object, as readContract makes).
 */
const chains = new WeakMap<OpenApiDocument, Map<string, RequestHandler[]>>();

function validatorChain(document: OpenApiDocument, responses: boolean, allErrors: boolean): RequestHandler[] {
  let byMode = chains.get(document);
  if (!byMode) chains.set(document, (byMode = new Map()));
  const mode = `${String(responses)} ${String(allErrors)}`;
  let chain = byMode.get(mode);
  if (!chain) byMode.set(mode, (chain = newValidatorChain(document, responses, allErrors)));
  return chain;
}

function newValidatorChain(document: OpenApiDocument, responses: boolean, allErrors: boolean): RequestHandler[] {
  return OpenApiValidator.middleware({
    apiSpec: structuredClone(document) as unknown as ValidatorSpec,
    // openapi.yaml is linted by Redocly and Spectral in CI; checking it again at every start
    // would cost a few hundred milliseconds of cold start.
    validateApiSpec: false,
    // allErrors (bodies up to ALL_ERRORS_MAX_BYTES): every bad field at once, not one per round trip.
    // Unknown query parameters are ignored: the API defines none, and a 400 for them would be
    // outside deleteLink's documented statuses (openapi.yaml says so).
    validateRequests: { allowUnknownQueryParameters: true, coerceTypes: false, allErrors },
    // The mock's own answers are small and its own: all their errors, whatever the request's size.
    validateResponses: responses ? { removeAdditional: false, coerceTypes: false, allErrors: true } : false,
    // The API key itself is checked earlier, against the accounts (src/http/authenticate.ts).
    validateSecurity: false,
    validateFormats: true,
    ajvFormats: { mode: 'full' },
    // The same judges as ajv-formats' full mode, with each verdict kept (kept-formats.ts).
    formats: validatorFormats,
    ignoreUndocumented: false,
    // The contract has no multipart bodies: no multer middleware on every request.
    fileUploader: false,
  }) as unknown as RequestHandler[];
}
