// Once the contract is loaded, each of express-openapi-validator's (5.6.2) five middlewares still
// runs `pContext.then(({ context }) => { built ||= self.<builder>(…); return built(req, res, next); }).catch(next)`
// on every request: a closure, our SettledAtOnce's `then` and `catch` (settled-contract.ts), a
// type test of what the callback gave and our answer to the router, five times a request, only to
// reach a middleware that was built on the first request and never changes. Once a wrapper has run
// with the contract loaded, what it reaches is known, and the request goes there at once:
// - metadata, request, response: the middleware the wrapper built, caught as it is built (the
//   validator calls its builders through the instance, `self.metadataMiddleware(…)`, so an own
//   property of the instance sees every one);
// - path parameters: after its one-time `installPathParams` (it has called `next()`), it only
//   calls `next()`;
// - security: the middleware built for it, or, when none was built (the mock's `validateSecurity:
//   false`) and the wrapper passed the request on, `next()`.
// A throw goes to `next` as the wrapper's `.catch(next)` sent it, a returned thenable's rejection
// too. A contract that failed to load never goes direct: every request meets its error, as before.

export const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as PromiseLike<unknown>).then === 'function';

type Middleware = (req: unknown, res: unknown, next: (error?: unknown) => unknown) => unknown;
type Kind = 'metadata' | 'request' | 'response' | 'security';

/** The validator's builder of each kind of middleware (OpenApiValidator's methods). */
const BUILDERS: Readonly<Record<Kind, string>> = {
  metadata: 'metadataMiddleware',
  request: 'requestValidationMiddleware',
  response: 'responseValidationMiddleware',
  security: 'securityMiddleware',
};

/** The validator's wrappers, by their function names, and what each reaches. */
const WRAPPERS: Readonly<Record<string, Kind | 'pathParams'>> = {
  pathParamsMiddleware: 'pathParams',
  metadataMiddleware: 'metadata',
  securityMiddleware: 'security',
  requestMiddleware: 'request',
  responseMiddleware: 'response',
};

const passOn: Middleware = (_req, _res, next) => next();

/**
 * Makes `wrappers` (installMiddleware's answer, each already made to answer the router natively)
 * go straight to what they reach once the contract is known loaded: once the path-parameters
 * wrapper, first of the five, has passed a request on without an error (it throws the load's error
 * otherwise). Shadows the builders on `validator` (the instance) to see what they build. Unknown
 * wrappers, and all of them when there is no path-parameters wrapper, stay as they are.
 */
export function settledSteps(validator: object, wrappers: unknown[], names: readonly string[]): unknown[] {
  const kinds = names.map((name) => WRAPPERS[name]);
  if (!kinds.includes('pathParams')) return wrappers;
  const built = catchBuilt(validator);
  const contract = { loaded: false };
  return wrappers.map((wrapper, at) => {
    const kind = kinds[at];
    return kind === undefined || typeof wrapper !== 'function' ? wrapper : settledStep(wrapper as Middleware, kind, built, contract);
  });
}

function catchBuilt(validator: object): Partial<Record<Kind, Middleware>> {
  const built: Partial<Record<Kind, Middleware>> = {};
  for (const kind of Object.keys(BUILDERS) as Kind[]) {
    const name = BUILDERS[kind];
    const build = (validator as Record<string, unknown>)[name];
    if (typeof build !== 'function') continue;
    Object.defineProperty(validator, name, {
      configurable: true,
      writable: true,
      value: function (this: unknown, ...args: unknown[]) {
        const middleware = (build as (...args: unknown[]) => unknown).apply(this, args);
        if (typeof middleware === 'function') built[kind] = middleware as Middleware;
        return middleware;
      },
    });
  }
  return built;
}

function settledStep(wrapper: Middleware, kind: Kind | 'pathParams', built: Partial<Record<Kind, Middleware>>, contract: { loaded: boolean }): Middleware {
  let direct: Middleware | undefined;
  return function settledStep(req, res, next) {
    if (direct !== undefined) return runDirect(direct, req, res, next);
    if (kind === 'pathParams' || kind === 'security') {
      if (kind === 'security' && !contract.loaded) return wrapper(req, res, next);
      // Passed on without an error: the contract loaded and installPathParams is done; no security
      // middleware was built, or the one built passed it.
      return wrapper(req, res, (error?: unknown) => {
        if (error === undefined && direct === undefined) {
          contract.loaded = true;
          direct = kind === 'security' ? (built.security ?? passOn) : passOn;
        }
        return next(error);
      });
    }
    if (!contract.loaded) return wrapper(req, res, next);
    const result = wrapper(req, res, next);
    direct = built[kind];
    return result;
  };
}

/** As the wrapper's `.then(…).catch(next)` with a loaded contract: a throw or a rejection goes to next. */
function runDirect(middleware: Middleware, req: unknown, res: unknown, next: (error?: unknown) => unknown): unknown {
  let result: unknown;
  try {
    result = middleware(req, res, next);
  } catch (error) {
    next(error);
    return undefined;
  }
  return isThenable(result) ? Promise.resolve(result).then(undefined, next) : undefined;
}
