// express-openapi-validator 5.6.2 rewrites a request's parameters by the contract's styles on
// every request (`RequestParameterMutator.prototype.modifyRequest`, req.parameter.mutator.js): it
// parses the URL again with the legacy `url.parse`, splits its query, builds a set of bracketed
// parameter names and walks the query's keys, about 1.5 µs of a create's CPU. For an operation that
// declares no parameters, asked with an empty query, all of that changes nothing: the loop over
// the parameters is empty, and the query handed back is the very object it was given (its
// bracket handling only rewrites keys, and there are none). POST /links, the most frequent
// request, is such an operation; such requests skip it. Every other request is rewritten by the
// validator itself, as before.
//
// Why this way: the validator builds one mutator per request and calls this method on it, so
// wrapping the prototype's method is the thinnest change, and the validator has no option for it.
import { requireFromValidator, wrapPrototypeMethod, type ModuleLoader } from './internals.js';

interface RequestLike {
  query?: unknown;
  openapi?: { schema?: { parameters?: unknown } };
}

/** True when the validator's rewrite would change nothing: no parameters declared, no query given. */
export function nothingToRewrite(req: RequestLike): boolean {
  const parameters = req.openapi?.schema?.parameters;
  if (parameters !== undefined && !(Array.isArray(parameters) && parameters.length === 0)) return false;
  const query = req.query;
  if (typeof query !== 'object' || query === null) return false;
  for (const key in query) if (Object.hasOwn(query, key)) return false;
  return true;
}

/** Marks our method, so that a second install (a second copy of this package in one process) does nothing. */
const INSTALLED = Symbol.for('shortlink-mock.validatorNoParameters');

/** Wraps the mutator's `modifyRequest` (wrapPrototypeMethod says what true and false mean). */
export function installNoParameters(load: ModuleLoader = requireFromValidator): boolean {
  return wrapPrototypeMethod(load, './middlewares/parsers/req.parameter.mutator', 'RequestParameterMutator', 'modifyRequest', INSTALLED, (modify) =>
    function modifyRequest(this: unknown, req: RequestLike) {
      return nothingToRewrite(req) ? undefined : (modify as (this: unknown, req: RequestLike) => unknown).call(this, req);
    },
  );
}
