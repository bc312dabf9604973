// express-openapi-validator 5.6.2 finds a request's operation by calling path-to-regexp's
// `pathToRegexp(route, { sensitive, strict })` for every route, on every request, until one
// matches: compiling the same few expressions again and again (it was a patch-package patch until
// issue 14). We get the same effect at run time, in the validator's own copy of path-to-regexp
// and without touching any node_modules file, so it reaches an installed copy of this package too.
//
// Why this way: the validator has no option for it, and the lookup calls
// `path_to_regexp_1.pathToRegexp(...)` through the module object on each call, so replacing that
// one export with a memoised one is the thinnest change (a subclass cannot reach it: the
// validator builds its own OpenApiValidator inside `middleware()`, and rewriting its route-lookup
// middleware would copy ~90 lines of its logic). Only the validator's call shape is memoised
// (options exactly `{ sensitive, strict }`: `strict` is not even a path-to-regexp 8 option, so
// nobody else passes it); Express's router, which shares the module, calls `match`, never this.
// `pathToRegexp` is a pure function of its arguments and the validator only reads the result
// (`regexp.exec`, `keys`), so a shared result is invisible to it.
import { requireFromValidator, type ModuleLoader } from './internals.js';

type PathToRegexp = (path: unknown, options?: unknown) => unknown;

/** Marks our cache, so that a second install (a second copy of this package in one process) does nothing. */
const INSTALLED = Symbol.for('shortlink-mock.validatorRouteCache');

/** Far above the routes of any contract: a caller with unbounded paths can never grow the cache without end. */
const MAX_CACHED_ROUTES = 1_000;

/**
 * A memoised `pathToRegexp` for the validator's calls; any other call goes straight through. Kept
 * by route, then by the two flags: the validator passes the same route strings every time, so the
 * lookup hashes no new string (a `route flags` key built per call cost 2 µs a request).
 */
export function cachedPathToRegexp(compile: PathToRegexp): PathToRegexp {
  const compiled = new Map<string, unknown[]>();
  return function pathToRegexp(path, options) {
    const flags = validatorCallFlags(path, options);
    if (flags === undefined) return compile(path, options);
    const route = path as string;
    let byFlags = compiled.get(route);
    let result = byFlags?.[flags];
    if (result === undefined) {
      result = compile(path, options);
      if (!byFlags && compiled.size < MAX_CACHED_ROUTES) compiled.set(route, (byFlags = []));
      if (byFlags) byFlags[flags] = result;
    }
    return result;
  };
}

/** 0-3 from `sensitive` and `strict` for the validator's call shape, undefined for any other. */
function validatorCallFlags(path: unknown, options: unknown): number | undefined {
  if (typeof path !== 'string' || typeof options !== 'object' || options === null) return undefined;
  if (!('sensitive' in options) || !('strict' in options) || !hasTwoKeys(options)) return undefined;
  return (options.sensitive ? 1 : 0) + (options.strict ? 2 : 0);
}

function hasTwoKeys(object: object): boolean {
  let keys = 0;
  for (const key in object) if (Object.hasOwn(object, key)) keys += 1;
  return keys === 2;
}

/**
 * Installs the cache in the validator's path-to-regexp; true when it is in place (also when it
 * already was). False, changing nothing, if the module no longer looks as expected: the validator
 * then still works, only slower, and test/process/patches.test.ts fails.
 */
export function installValidatorRouteCache(load: ModuleLoader = requireFromValidator): boolean {
  const pathToRegexpModule = load('path-to-regexp');
  const current = pathToRegexpModule?.['pathToRegexp'];
  if (!pathToRegexpModule || typeof current !== 'function') return false;
  if (INSTALLED in current) return true;
  const cached = Object.assign(cachedPathToRegexp(current as PathToRegexp), { [INSTALLED]: true });
  pathToRegexpModule['pathToRegexp'] = cached;
  return pathToRegexpModule['pathToRegexp'] === cached;
}
