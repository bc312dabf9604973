// express-openapi-validator 5.6.2 finds a request's built request middleware
// (`RequestValidator.prototype.validate`) and its response validators
// (`ResponseValidator.prototype._getOrBuildValidator`) under a key text made on every request,
// `${req.method}-${openapi.expressRoute}-${contentType}`, in a plain object: each request makes
// that text, and looking a new text up in an object flattens it, hashes it and finds its
// internalized copy (twice on the request side). The parts are strings that are the same objects
// request after request, their hashes kept: the method from Node's parser, the route from the
// contract, the content type's text from our parse cache (content-type-cache.ts). So we keep what
// the validator found, per instance, in maps by those three parts, and ask the validator itself
// (which builds and keeps its own, as before) only when we have not kept it yet.
//
// Why this way: both are prototype methods the validator calls on its instances; what they return
// depends only on the key they build, and what they build stays in their own caches, unchanged.
import { requireFromValidator, wrapPrototypeMethod, type ModuleLoader, type PrototypeMethod } from './internals.js';

/** Routes × methods × content types kept per validator: a client sending a new Content-Type on every request can never grow it without end (beyond, the validator's own lookup answers). */
export const MAX_ROUTE_KEYED = 256;

interface ContentTypeClass {
  from(req: unknown): { normalize(): string | undefined };
}
interface RequestLike {
  method: string;
  headers: Record<string, unknown>;
  openapi?: { expressRoute?: unknown };
}

/** Per method, then route, then content type: what the validator found under their key. */
export class RouteKeyed {
  private readonly byMethod = new Map<string, Map<string, Map<string, unknown>>>();
  private size = 0;

  get(method: string, route: string, type: string): unknown {
    return this.byMethod.get(method)?.get(route)?.get(type);
  }

  keep(method: string, route: string, type: string, found: unknown): void {
    if (found === undefined || this.size >= MAX_ROUTE_KEYED) return;
    let byRoute = this.byMethod.get(method);
    if (!byRoute) this.byMethod.set(method, (byRoute = new Map()));
    let byType = byRoute.get(route);
    if (!byType) byRoute.set(route, (byType = new Map()));
    if (!byType.has(type)) this.size += 1;
    byType.set(type, found);
  }
}

const KEPT = Symbol('shortlink-mock.routeKeyed');

function keptOf(owner: object): RouteKeyed {
  const holder = owner as { [KEPT]?: RouteKeyed };
  return (holder[KEPT] ??= new RouteKeyed());
}

// Two arguments, not a rest parameter: an array per call is what this fix is here to save.
type Method = (this: unknown, req: RequestLike, second?: unknown) => unknown;

/** `original`, whose answer depends only on the key, answered from the instance's RouteKeyed when the request has a route. */
function keyedByRoute(original: Method, types: ContentTypeClass): Method {
  return function (this: unknown, req, second) {
    const route = req.openapi?.expressRoute;
    if (typeof route !== 'string') return original.call(this, req, second);
    const method = req.method;
    const type = types.from(req).normalize() ?? 'not_provided';
    const kept = keptOf(this as object);
    const known = kept.get(method, route, type);
    if (known !== undefined) return known;
    const returned = original.call(this, req, second);
    kept.keep(method, route, type, returned);
    return returned;
  };
}

/** Marks our methods, so that a second install (a second copy of this package in one process) does nothing. */
const REQUEST_INSTALLED = Symbol.for('shortlink-mock.validatorRouteKeyedRequest');
const RESPONSE_INSTALLED = Symbol.for('shortlink-mock.validatorRouteKeyedResponse');

type Middleware = (req: RequestLike, res: unknown, next: unknown) => unknown;

/**
 * Wraps both lookups (wrapPrototypeMethod says what true and false mean; true only when both are
 * in place). Install before kept-response-verdicts.ts, which wraps the response one again.
 */
export function installRouteKeyed(load: ModuleLoader = requireFromValidator): boolean {
  const types = load('./middlewares/util')?.['ContentType'] as ContentTypeClass | undefined;
  if (typeof types?.from !== 'function') return false;
  const request = wrapPrototypeMethod(load, './middlewares/openapi.request.validator', 'RequestValidator', 'validate', REQUEST_INSTALLED, (validate) => {
    // The request side runs the middleware it found: we keep the middleware once the validator has
    // built it (under its own key, as it does), and run it ourselves.
    const findMiddleware = keyedByRoute(function (this: unknown, req) {
      return (this as { middlewareCache?: Record<string, unknown> }).middlewareCache?.[`${req.method}-${String(req.openapi?.expressRoute)}-${types.from(req).normalize() ?? 'not_provided'}`];
    }, types);
    const validateAsIs = validate as unknown as (this: unknown, req: RequestLike, res: unknown, next: unknown) => unknown;
    return function (this: unknown, req: RequestLike, res: unknown, next: unknown) {
      const middleware = findMiddleware.call(this, req);
      return typeof middleware === 'function' ? (middleware as Middleware)(req, res, next) : validateAsIs.call(this, req, res, next);
    } as unknown as PrototypeMethod;
  });
  const response = wrapPrototypeMethod(load, './middlewares/openapi.response.validator', 'ResponseValidator', '_getOrBuildValidator', RESPONSE_INSTALLED, (build) =>
    keyedByRoute(build as unknown as Method, types) as unknown as PrototypeMethod,
  );
  return request && response;
}
