// The API steps of a request, run again when what they decided on turned out to be out of date.
// On shared state a create may be decided on its key's account as this instance remembers it,
// with no scenario set, instead of on a read (src/store/redis-remembered-accounts.ts):
//   - its transaction checks that this still holds; when it does not, nothing is written and the
//     core throws ReadAgain: the steps run again, from authentication, on fresh reads;
//   - any other answer (an invalid body, an unknown domain) is given only once a read has shown
//     that it still holds; otherwise the steps run again too.
// Parsing and validating the body happen once: they do not depend on the account or the
// scenario, and a request stream cannot be read twice. Nothing is answered and nothing is written
// before the steps run again, so the client sees one answer, the one of the last run.
import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import { ReadAgain } from '../core/errors.js';
import type { LinkService } from '../core/links.js';
import { isStoreUnavailable } from '../store/link-store.js';
import { accountOf } from './operations.js';

/** Runs of the steps at most (each further one follows a change made through another instance while it ran). */
const RUNS = 5;
const RUN_AGAIN = 'runAgain';

export function readAgainWhenChanged(steps: Router, service: LinkService): RequestHandler {
  return (req, res, next) => {
    let runs = 1;
    const again = (): void => {
      runs += 1;
      res.locals[RUN_AGAIN] = true;
      delete res.locals['account'];
      steps(req, res, settle);
    };
    const settle = (error?: unknown): void => {
      if (error === undefined || error === 'route' || error === 'router') return next(error);
      if (runs < RUNS && error instanceof ReadAgain) return again();
      // A store that cannot answer is the answer, whatever the request was decided on.
      if (error instanceof ReadAgain || isStoreUnavailable(error) || res.headersSent) return next(error);
      const current = service.stillCurrent(accountOf(res));
      if (current === true) return next(error);
      Promise.resolve(current).then((still) => (still ? next(error) : runs < RUNS ? again() : next(new ReadAgain())), next);
    };
    steps(req, res, settle);
  };
}

/** A step of the first run only (parsing and validating the body). */
export function firstRunOnly(step: RequestHandler): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => (res.locals[RUN_AGAIN] ? next() : step(req, res, next));
}
