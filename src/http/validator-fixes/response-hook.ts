// express-openapi-validator 5.6.2 judges each answer from a hook on res.json that its response
// middleware sets per request (`ResponseValidator.prototype.validate`, openapi.response.validator.js,
// through its modded express-mung). On every response that hook copied all the response's headers
// (`res.getHeaders()`: a prototype-less object, so a dictionary insert per header) to read one,
// Content-Type, and the judge then parsed the chosen media type twice (`canValidateContentType`:
// the content-type and media-typer packages, a regular expression and two objects each) to learn
// what the contract's own media types always answer the same. Issue 40: what a create costs over
// the stack's ceiling (bench/create-cost.md).
//
// The hook below is the validator's, step for step (same order, same checks, same outcomes): no
// hook when the answer is already sent; 5xx answers pass unjudged (mung's `mungError` off); the
// route's validators from `_getOrBuildValidator`; Content-Type, else the Accept list; `_validate`
// (so kept-response-verdicts.ts still wraps it); a refusal goes to `next` (the validator sets mung's
// onError so); `res.json(null)` becomes a 204 as mung makes it. Only Content-Type is read with
// `getHeader`, an Accept spelling's list is made once, and a media type's verdict is kept (at
// most MAX_KEPT_MEDIA_TYPES spellings of at most MAX_KEPT_MEDIA_TYPE_CHARS characters).
//
// Why this way: the per-request work sits inside `validate()`'s closure, which has no option and
// no smaller method to wrap; the validator calls `validate()` once per chain.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { requireFromValidator, wrapPrototypeMethod, type ModuleLoader } from './internals.js';

/** Media-type spellings whose verdict (validatable as JSON or not) is kept; more are judged each time. */
export const MAX_KEPT_MEDIA_TYPES = 64;
/** A longer spelling is judged each time. */
export const MAX_KEPT_MEDIA_TYPE_CHARS = 128;
/** Accept spellings whose list is kept (the client's own text: bounded in number and length too). */
export const MAX_KEPT_ACCEPTS = 64;

/** What of a ResponseValidator the hook uses (openapi.response.validator.js). */
interface ResponseValidatorLike {
  serial: number;
  eovOptions?: { onError?: (error: unknown, body: unknown, req: Request) => void };
  _getOrBuildValidator(req: Request, responses: unknown): object;
  _validate(args: { validators: object; body: unknown; statusCode: number; path: string; accepts: readonly string[] }): unknown;
}

interface OpenApiMeta {
  serial?: number;
  _responseSchema?: { responses?: unknown };
}

type Json = (this: Response, body: unknown) => Response;

/** The validator's response middleware, without the header copy (`validate()` returns it). */
export function judgingJson(validator: ResponseValidatorLike, InternalServerError: new (...args: never[]) => Error): RequestHandler {
  const judge = (req: Request, res: Response, body: unknown): void => {
    const openapi = (req as { openapi?: OpenApiMeta }).openapi;
    // `==`, as the validator compares them (a serial is a number on both sides).
    if (!openapi || validator.serial != openapi.serial) return;
    const validators = validator._getOrBuildValidator(req, openapi._responseSchema?.responses);
    const contentType = res.getHeader('content-type') as string | undefined;
    const accepts = contentType ? [contentType] : acceptsOf(req.headers.accept);
    try {
      validator._validate({ validators, body, statusCode: res.statusCode, path: req.originalUrl, accepts });
    } catch (error) {
      if (!(error instanceof InternalServerError && validator.eovOptions?.onError)) throw error;
      validator.eovOptions.onError(error, body, req);
    }
  };
  return (req: Request, res: Response, next: NextFunction): void => {
    const original = res.json as Json;
    res.json = function judgedJson(this: Response, body: unknown): Response {
      res.json = original;
      if (res.headersSent) return res;
      if (res.statusCode >= 500) return original.call(this, body);
      try {
        judge(req, res, body);
      } catch (error) {
        return next(error) as unknown as Response;
      }
      if (res.headersSent) return res;
      if (body === null) return res.status(204).end();
      return original.call(this, body);
    };
    next();
  };
}

const NO_ACCEPTS: readonly string[] = Object.freeze([]);
const acceptLists = new Map<string, readonly string[]>();

/** How many Accept spellings are kept now (tests read the bound). */
export const keptAcceptLists = (): number => acceptLists.size;

/** The Accept header as the validator splits it (each media range trimmed), made once per spelling. */
export function acceptsOf(accept: string | undefined): readonly string[] {
  if (!accept) return NO_ACCEPTS;
  const known = acceptLists.get(accept);
  if (known) return known;
  const list = Object.freeze(accept.split(',').map((range) => range.trim()));
  if (acceptLists.size < MAX_KEPT_ACCEPTS && accept.length <= MAX_KEPT_MEDIA_TYPE_CHARS) acceptLists.set(accept, list);
  return list;
}

type CanValidate = (this: unknown, contentType: string) => boolean;

/** `canValidateContentType` with its verdict kept per spelling; a spelling it throws on is asked again each time. */
export function keptMediaVerdicts(canValidate: CanValidate): CanValidate {
  const verdicts = new Map<string, boolean>();
  return function canValidateContentType(this: unknown, contentType) {
    const known = verdicts.get(contentType);
    if (known !== undefined) return known;
    const verdict = canValidate.call(this, contentType);
    if (verdicts.size < MAX_KEPT_MEDIA_TYPES && typeof contentType === 'string' && contentType.length <= MAX_KEPT_MEDIA_TYPE_CHARS) verdicts.set(contentType, verdict);
    return verdict;
  };
}

/** Marks our methods, so that a second install (a second copy of this package in one process) does nothing. */
const INSTALLED = Symbol.for('shortlink-mock.validatorResponseHook');

/** Replaces the response validator's `validate` and wraps its `canValidateContentType` (wrapPrototypeMethod says what true and false mean). */
export function installResponseHook(load: ModuleLoader = requireFromValidator): boolean {
  const InternalServerError = load('./framework/types')?.['InternalServerError'];
  if (typeof InternalServerError !== 'function') return false;
  const id = './middlewares/openapi.response.validator';
  const hooked = wrapPrototypeMethod(load, id, 'ResponseValidator', 'validate', INSTALLED, () =>
    function validate(this: unknown) {
      return judgingJson(this as ResponseValidatorLike, InternalServerError as new () => Error);
    },
  );
  return hooked && wrapPrototypeMethod(load, id, 'ResponseValidator', 'canValidateContentType', INSTALLED, (canValidate) => keptMediaVerdicts(canValidate as unknown as CanValidate) as never);
}
