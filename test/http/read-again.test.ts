// readAgainWhenChanged (src/http/read-again.ts) on its own, over steps that say what they found:
// a ReadAgain runs the steps given to run again (not the body's); an answer given
// before the transaction goes out only once the account it was decided on is still current;
// runs are bounded, and a store that cannot answer is answered as such at once.
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { ApiError, errors, ReadAgain } from '../../src/core/errors.js';
import type { LinkService } from '../../src/core/links.js';
import type { AccountRecord } from '../../src/core/model.js';
import { bodyVerdict, readAgainWhenChanged } from '../../src/http/read-again.js';

const REMEMBERED = { id: 'acc_1', apiKey: 'k', name: 'A', linkLimit: 5, domains: [] } as unknown as AccountRecord;

interface Script {
  /** What each run of the last step does: answer, or fail with this error. */
  runs: Array<'ok' | Error>;
  /** What stillCurrent answers, in turn. */
  current?: boolean[];
  /** The body step refuses the request with this. */
  bodyRefused?: Error;
  /** The request fails before its body steps. */
  unauthenticated?: boolean;
}

function appFor(script: Script) {
  const seen = { runs: 0, bodySteps: 0, checks: 0 };
  const service = {
    stillCurrent: (account: AccountRecord | undefined) => {
      if (account === undefined) return true;
      seen.checks += 1;
      return Promise.resolve(script.current?.shift() ?? true);
    },
  } as unknown as LinkService;
  const authenticated: RequestHandler = (_req, res, next) => {
    if (script.unauthenticated) throw errors.unknownApiKey();
    res.locals['account'] = REMEMBERED;
    next();
  };
  const bodyStep: RequestHandler = (_req, _res, next) => {
    seen.bodySteps += 1;
    if (script.bodyRefused) throw script.bodyRefused;
    next();
  };
  const handled: RequestHandler = (_req, res) => {
    const run = script.runs[seen.runs] ?? 'ok';
    seen.runs += 1;
    if (run !== 'ok') throw run;
    res.status(201).json({ run: seen.runs });
  };
  const app = express();
  app.use(authenticated, bodyVerdict.before, bodyStep, bodyVerdict.passed, bodyVerdict.refused, handled);
  app.use(readAgainWhenChanged(express.Router().use(authenticated, bodyVerdict.again, handled), service));
  const report: ErrorRequestHandler = (error: Error, _req, res, _next) => {
    res.status(error instanceof ApiError ? error.status : 500).json({ message: error.message });
  };
  app.use(report);
  return { request: supertest(app), seen };
}

describe('readAgainWhenChanged', () => {
  it('runs the steps again after a ReadAgain, the body step only the first time', async () => {
    const { request, seen } = appFor({ runs: [new ReadAgain(), new ReadAgain(), 'ok'] });
    const res = await request.post('/');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ run: 3 });
    expect(seen).toMatchObject({ runs: 3, bodySteps: 1 });
  });

  it('stops after five runs with the store-unavailable 500 of ReadAgain', async () => {
    const { request, seen } = appFor({ runs: Array.from({ length: 10 }, () => new ReadAgain()) });
    const res = await request.post('/');
    expect(res.status).toBe(500);
    expect(res.body.message).toMatch(/^store unavailable: /);
    expect(seen.runs).toBe(5);
  });

  it('an error answer goes out once the account is still current', async () => {
    const { request, seen } = appFor({ runs: [errors.domainNotFound('x.test')], current: [true] });
    const res = await request.post('/');
    expect(res.status).toBe(404);
    expect(seen).toMatchObject({ runs: 1, checks: 1 });
  });

  it('an error decided on an account that changed meanwhile is decided again', async () => {
    const { request, seen } = appFor({ runs: [errors.domainNotFound('x.test'), 'ok'], current: [false] });
    const res = await request.post('/');
    expect(res.status).toBe(201);
    expect(seen).toMatchObject({ runs: 2, checks: 1, bodySteps: 1 });
  });

  it('an account that never stays current ends in ReadAgain, not in the stale answer', async () => {
    const { request, seen } = appFor({ runs: Array.from({ length: 10 }, () => errors.domainNotFound('x.test')), current: Array.from({ length: 10 }, () => false) });
    const res = await request.post('/');
    expect(res.status).toBe(500);
    expect(res.body.message).toMatch(/^store unavailable: /);
    expect(seen.runs).toBe(5);
  });

  it('a store that cannot answer is the answer at once, with no check', async () => {
    const { request, seen } = appFor({ runs: [new Error('store unavailable: Redis at x did not answer within 2000 ms')] });
    const res = await request.post('/');
    expect(res.status).toBe(500);
    expect(seen).toMatchObject({ runs: 1, checks: 0 });
  });

  it('a body refused in the first run is refused again in a run again, never handled', async () => {
    const { request, seen } = appFor({ runs: [], bodyRefused: errors.invalidRequest('destinationUrl must be a URL'), current: [false, true] });
    const res = await request.post('/');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('destinationUrl must be a URL');
    expect(seen).toMatchObject({ runs: 0, bodySteps: 1, checks: 2 });
  });

  it('a request stopped before its body steps is answered as it was, with no check', async () => {
    const { request, seen } = appFor({ runs: [], unauthenticated: true, current: [false] });
    const res = await request.post('/');
    expect(res.status).toBe(401);
    expect(seen).toMatchObject({ runs: 0, bodySteps: 0, checks: 0 });
  });
});
