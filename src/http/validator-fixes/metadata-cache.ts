// express-openapi-validator 5.6.2 finds a request's operation again on every request: its
// metadata middleware (`applyOpenApiMetadata`, openapi.metadata.js) walks every route of the
// contract, and for each builds a route pair, two lower-cased strings and an options object, asks
// the app twice for its routing settings, looks up the route's regular expression and runs it,
// until one matches. The answer depends only on the method, the path and those two settings, and
// a client sends the same few (POST /links; the admin API's GET /__admin/links has 20 routes to
// walk). We keep, per method, path and settings, what a match set on the request.
//
// Why this way: the lookup is a closure inside the middleware, so nothing outside can reach it;
// what builds the middleware, `OpenApiValidator.prototype.metadataMiddleware(context,
// responseApiDoc)`, is a method we can wrap. A request we have seen matched is answered from the
// cache with the same `req.openapi` and `req.params` the validator sets (new objects for each
// request, as the validator makes them); any other goes to the validator's own middleware, which
// also makes every refusal (404, 405, a malformed path), none of which is kept. Only matches
// without path parameters are kept (`/links/{id}` is a new path for every id): what is kept is a
// fixed route of the contract, however it is spelt, and at most MAX_CACHED_MATCHES spellings.
import type { NextFunction, Request, Response } from 'express';
import { requireFromValidator, wrapPrototypeMethod, type ModuleLoader } from './internals.js';

/** Spellings kept: a client that sends a new case or trailing slash on every request can never grow the cache without end. */
export const MAX_CACHED_MATCHES = 256;

/** What the validator's metadata middleware sets on a request it matched (its `req.openapi`). */
interface OpenApiMetadata {
  expressRoute: string;
  openApiRoute: string;
  pathParams: Record<string, string>;
  schema: unknown;
  serial: number;
  _responseSchema?: unknown;
}

/** The validator's context, as far as the cache needs it (framework/openapi.context.js). */
interface OpenApiContextLike {
  ignorePaths?: unknown;
  useRequestUrl?: boolean;
}

type Middleware = (req: Request, res: Response, next: NextFunction) => unknown;
type Kept = Omit<OpenApiMetadata, 'pathParams'> & { withResponse: boolean };

/**
 * The validator's metadata middleware with a cache of its matches in front. `context` is the
 * validator's; with `ignorePaths` set the answer depends on more than the path, and the cache is
 * not used.
 */
export function cachedMetadata(metadata: Middleware, context: OpenApiContextLike): Middleware {
  if (context.ignorePaths !== undefined && context.ignorePaths !== null) return metadata;
  const useRequestUrl = context.useRequestUrl === true;
  // By routing settings (0-3: they change what a path matches), then method, then path: no key
  // string is built per request.
  const bySettings = [0, 1, 2, 3].map(() => new Map<string, Map<string, Kept>>());
  let size = 0;
  return function cachedMetadataMiddleware(req, res, next) {
    const url = useRequestUrl ? req.url : req.originalUrl;
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    const byMethod = bySettings[(req.app.enabled('strict routing') ? 2 : 0) + (req.app.enabled('case sensitive routing') ? 1 : 0)]!;
    const kept = byMethod.get(req.method)?.get(path);
    if (kept !== undefined) return answerFromCache(req, kept, next);
    if (size >= MAX_CACHED_MATCHES) return metadata(req, res, next);
    const before = (req as { openapi?: unknown }).openapi;
    return metadata(req, res, (error?: unknown) => {
      const matched = (req as { openapi?: OpenApiMetadata }).openapi;
      if (error === undefined && matched !== undefined && matched !== before && Object.keys(matched.pathParams).length === 0 && size < MAX_CACHED_MATCHES) {
        let byPath = byMethod.get(req.method);
        if (!byPath) byMethod.set(req.method, (byPath = new Map()));
        byPath.set(path, keptOf(matched));
        size += 1;
      }
      next(error as Error | undefined);
    });
  };
}

function keptOf({ expressRoute, openApiRoute, schema, serial, ...rest }: OpenApiMetadata): Kept {
  return { expressRoute, openApiRoute, schema, serial, _responseSchema: rest._responseSchema, withResponse: '_responseSchema' in rest };
}

/** As the validator sets a match: the same properties in the same order, on new objects. */
function answerFromCache(req: Request, kept: Kept, next: NextFunction): void {
  const pathParams: Record<string, string> = {};
  const openapi: OpenApiMetadata = { expressRoute: kept.expressRoute, openApiRoute: kept.openApiRoute, pathParams, schema: kept.schema, serial: kept.serial };
  (req as { openapi?: OpenApiMetadata }).openapi = openapi;
  req.params = pathParams;
  if (kept.withResponse) openapi._responseSchema = kept._responseSchema;
  next();
}

/** Marks our method, so that a second install (a second copy of this package in one process) does nothing. */
const INSTALLED = Symbol.for('shortlink-mock.validatorMetadataCache');

/**
 * Wraps the validator's `metadataMiddleware` so that what it builds has the cache in front
 * (wrapPrototypeMethod says what true and false mean).
 */
export function installMetadataCache(load: ModuleLoader = requireFromValidator): boolean {
  return wrapPrototypeMethod(load, './openapi.validator', 'OpenApiValidator', 'metadataMiddleware', INSTALLED, (build) =>
    function metadataMiddleware(this: unknown, context: unknown, responseApiDoc: unknown) {
      const middleware = (build as (this: unknown, context: unknown, responseApiDoc: unknown) => unknown).call(this, context, responseApiDoc);
      if (typeof middleware !== 'function' || typeof context !== 'object' || context === null) return middleware;
      return cachedMetadata(middleware as Middleware, context as OpenApiContextLike);
    },
  );
}
