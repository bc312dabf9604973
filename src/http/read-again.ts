// The API steps of a request, run again when what they decided on turned out to be out of date.
// On shared state a create may be decided on its key's account as this instance remembers it,
// with no scenario set, instead of on a read (src/store/redis/redis-remembered-accounts.ts):
//   - its transaction checks that this still holds; when it does not, nothing is written and the
//     core throws ReadAgain: the steps run again, from authentication, on fresh reads;
//   - any other answer (an invalid body, an unknown domain) is given only once a read has shown
//     that it still holds; otherwise the steps run again too.
// Only errors come here, so a request that needs none of this pays nothing for it. The steps run
// again are those that depend on the account or the scenario. Parsing and validating the body do
// not (and a request stream cannot be read twice): their verdict of the first run is kept
// (bodyVerdict) and given again at their place, so a body they refused is refused again, never
// handled. Nothing is answered and nothing is written before the steps run again, so the client
// sees one answer, the one of the last run.
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response, Router } from 'express';
import { ReadAgain } from '../core/errors.js';
import type { LinkService } from '../core/links.js';
import { isStoreUnavailable } from '../core/link-store.js';
import { accountOf } from './operations.js';

/** Runs of the steps at most (each further one follows a change made through another instance while it ran). */
const RUNS = 5;
const RUNS_SO_FAR = 'runs';
const BODY_VERDICT = 'bodyVerdict';
const BODY_REFUSAL = 'bodyRefusal';

/**
 * The body steps' verdict in the first run: `checking` while they run, then `valid` or `refused`.
 * Unset when the request did not get to them. Only a mark: the refusal itself is kept for a run
 * again only when one happens (keeping every refused request's error on its response held memory
 * longer: the soak's RSS rose from about 145 to over 200 MiB).
 */
type Verdict = 'checking' | 'valid' | 'refused';

/** Put around the body steps of the first run (before, passed, refused), and at their place in a run again (again). */
export const bodyVerdict = {
  before: ((_req, res, next) => {
    res.locals[BODY_VERDICT] = 'checking' satisfies Verdict;
    next();
  }) as RequestHandler,
  passed: ((_req, res, next) => {
    res.locals[BODY_VERDICT] = 'valid' satisfies Verdict;
    next();
  }) as RequestHandler,
  refused: ((error, _req, res, next) => {
    if (res.locals[BODY_VERDICT] === 'checking') res.locals[BODY_VERDICT] = 'refused' satisfies Verdict;
    next(error);
  }) as ErrorRequestHandler,
  again: ((_req, res, next) => {
    if (res.locals[BODY_VERDICT] === 'valid') return next();
    next(res.locals[BODY_REFUSAL] ?? new Error('a request was run again before its body was checked'));
  }) as RequestHandler,
};

/** An error handler, after the steps: `again` holds the steps that are run again, bodyVerdict.again at the body's place. */
export function readAgainWhenChanged(again: Router, service: LinkService): ErrorRequestHandler {
  const settle = (error: unknown, req: Request, res: Response, next: NextFunction): void => {
    const runs = (res.locals[RUNS_SO_FAR] as number | undefined) ?? 1;
    const verdict = res.locals[BODY_VERDICT] as Verdict | undefined;
    const runAgain = (): void => {
      res.locals[RUNS_SO_FAR] = runs + 1;
      delete res.locals['account'];
      // A body refused in the first run: what reached here was its refusal, given again at its place.
      if (verdict === 'refused') res.locals[BODY_REFUSAL] ??= error;
      again(req, res, (later?: unknown) => (later === undefined || later === 'route' || later === 'router' ? next(later) : settle(later, req, res, next)));
    };
    // A request stopped before its body was checked was not decided on a remembered account.
    if (verdict === undefined || verdict === 'checking') return next(error);
    if (runs < RUNS && error instanceof ReadAgain) return runAgain();
    // A store that cannot answer is the answer, whatever the request was decided on.
    if (error instanceof ReadAgain || isStoreUnavailable(error) || res.headersSent) return next(error);
    const current = service.stillCurrent(accountOf(res));
    if (current === true) return next(error);
    Promise.resolve(current).then((still) => (still ? next(error) : runs < RUNS ? runAgain() : next(new ReadAgain())), next);
  };
  return (error, req, res, next) => settle(error, req, res, next);
}
