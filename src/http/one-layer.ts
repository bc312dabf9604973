// Middleware run in order as one layer of Express's router, with Express's rules: a step that calls
// next(error), throws, or returns a promise that rejects skips the plain steps after it up to the
// next error handler (a function of four parameters); without an error, error handlers are
// skipped. Leaving the layer passes the error on, if any, to the router.
// Why: every layer the router visits costs a match, a params closure and a prefix trim per
// request (about 0.5 KiB of garbage each); the API's 15 steps as separate layers were a measured
// part of what a create costs over bare Express (bench/RESULTS.md, "What a create costs").
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';

type Step = RequestHandler | ErrorRequestHandler;

const isThenable = (value: unknown): value is PromiseLike<unknown> => typeof (value as PromiseLike<unknown> | null)?.then === 'function';

const isErrorHandler = (step: Step): step is ErrorRequestHandler => step.length === 4;

export function oneLayer(steps: readonly Step[]): RequestHandler {
  // Which steps are error handlers, read once: a function's length is a getter call, and asking
  // it of every step on every request was 1 µs of a create (bench/create-cost.md).
  const handlesErrors = steps.map(isErrorHandler);
  return (req: Request, res: Response, done: NextFunction): void => {
    let index = 0;
    const next = (reason?: unknown): void => {
      // Express's own words for leaving a route or router are not errors: they leave this layer too.
      if (reason === 'route' || reason === 'router') return done(reason);
      // As for Express, a falsy reason (next(null)) is no error.
      const error = reason ? reason : undefined;
      for (;;) {
        const at = index++;
        const step = steps[at];
        if (step === undefined) return error === undefined ? done() : done(error);
        if (handlesErrors[at] !== (error !== undefined)) continue;
        try {
          const result: unknown = error === undefined ? (step as RequestHandler)(req, res, next) : (step as ErrorRequestHandler)(error, req, res, next);
          if (isThenable(result)) result.then(undefined, (rejected: unknown) => next(rejected || new Error('Rejected promise')));
        } catch (thrown) {
          next(thrown);
        }
        return;
      }
    };
    next();
  };
}
