// oneLayer runs its steps with Express's own rules: the same order and outcome as the same steps
// given to app.use one by one. Each row runs both ways and compares what the client got.
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import supertest from 'supertest';
import { describe, expect, test } from 'vitest';
import { oneLayer } from '../../src/http/one-layer.js';

type Step = RequestHandler | ErrorRequestHandler;

const mark = (name: string): RequestHandler => (_req, res, next) => {
  (res.locals['trail'] ??= []).push(name);
  next();
};
const fail = (name: string): RequestHandler => (_req, res) => {
  (res.locals['trail'] ??= []).push(name);
  throw new Error(`${name} failed`);
};
const reject = (name: string): RequestHandler => async (_req, res) => {
  (res.locals['trail'] ??= []).push(name);
  await Promise.resolve();
  throw new Error(`${name} rejected`);
};
const nextError = (name: string): RequestHandler => (_req, res, next) => {
  (res.locals['trail'] ??= []).push(name);
  setImmediate(() => next(new Error(`${name} passed an error`)));
};
const recover = (name: string): ErrorRequestHandler => (error: Error, _req, res, next) => {
  (res.locals['trail'] ??= []).push(`${name}(${error.message})`);
  next();
};
const passOn = (name: string): ErrorRequestHandler => (error: Error, _req, res, next) => {
  (res.locals['trail'] ??= []).push(`${name}(${error.message})`);
  next(error);
};
const leaveRouter: RequestHandler = (_req, res, next) => {
  (res.locals['trail'] ??= []).push('leave');
  next('router');
};
const nextNull: RequestHandler = (_req, res, next) => {
  (res.locals['trail'] ??= []).push('null');
  next(null);
};

const rows: { name: string; steps: Step[] }[] = [
  { name: 'plain steps in order', steps: [mark('a'), mark('b'), mark('c')] },
  { name: 'a throw skips plain steps to the next error handler', steps: [mark('a'), fail('b'), mark('skipped'), recover('r'), mark('c')] },
  { name: 'a rejected promise is an error', steps: [reject('a'), mark('skipped'), passOn('p'), mark('skipped too'), recover('r'), mark('b')] },
  { name: 'next(error) later, from another turn', steps: [nextError('a'), mark('skipped'), recover('r'), mark('b')] },
  { name: 'error handlers are skipped without an error', steps: [mark('a'), recover('never'), mark('b')] },
  { name: 'an error still there at the end goes to the router', steps: [mark('a'), fail('b'), mark('skipped')] },
  { name: "next('router') leaves", steps: [mark('a'), leaveRouter, mark('skipped')] },
  { name: 'next(null) is no error', steps: [nextNull, mark('b')] },
];

function appWith(use: (app: express.Express) => void): express.Express {
  const app = express();
  use(app);
  app.use((_req, res) => void res.json({ trail: res.locals['trail'] ?? [] }));
  app.use(((error: Error, _req, res, _next) => void res.status(500).json({ trail: res.locals['trail'] ?? [], error: error.message })) as ErrorRequestHandler);
  return app;
}

describe('oneLayer does what the same steps do as separate layers', () => {
  test.each(rows)('$name', async ({ steps }) => {
    const layered = await supertest(appWith((app) => app.use(...(steps as RequestHandler[])))).get('/x');
    const composed = await supertest(appWith((app) => app.use(oneLayer(steps)))).get('/x');
    expect({ status: composed.status, body: composed.body }).toEqual({ status: layered.status, body: layered.body });
  });
});
