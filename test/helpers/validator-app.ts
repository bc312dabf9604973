// A bare app around one express-openapi-validator chain over openapi.yaml, set up as the mock sets
// up its own (unknown query parameters allowed, no responses, no security, no multipart), for
// tests of the run-time fixes (src/http/validator-fixes/). It answers 200 with what the validator
// left on the request, and a refusal with its status and message. appAnswering: the same with
// responses validated too, in front of a fixed answer.
import { createRequire } from 'node:module';
import * as OpenApiValidator from 'express-openapi-validator';
import express, { type ErrorRequestHandler, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { readContract } from '../../src/contract/package-files.js';
import type { HttpLikeError } from '../../src/http/errors.js';

export const validatorChain = (): RequestHandler[] =>
  OpenApiValidator.middleware({ apiSpec: structuredClone(readContract().document) as never, validateRequests: { allowUnknownQueryParameters: true }, validateResponses: false, validateSecurity: false, fileUploader: false }) as unknown as RequestHandler[];

/** Serves `validator` with these app settings; answers { route, pathParams, query } of the validator's match. */
export function validatorApp(validator: RequestHandler[], settings: Record<string, boolean> = {}): express.Express {
  const app = express();
  for (const [name, value] of Object.entries(settings)) app.set(name, value);
  app.use(express.json(), ...validator, (req: Request, res: Response) => {
    const openapi = (req as { openapi?: { openApiRoute: string; pathParams: unknown } }).openapi;
    res.status(200).json({ route: openapi?.openApiRoute ?? null, pathParams: openapi?.pathParams ?? null, query: req.query });
  });
  app.use((error: { status?: number; message: string }, _req: Request, res: Response, _next: NextFunction) => {
    res.status(error.status ?? 500).json({ message: error.message });
  });
  return app;
}

export const validCreate = { destinationUrl: 'https://example.com/x', domain: 'short.test', tags: [] };


/** `require` from inside express-openapi-validator: its own modules and its own copies of its dependencies. */
export const validatorRequire = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));

/** An app validating both ways against openapi.yaml that answers every request with `status` and `answer`. */
export function appAnswering(status: number, answer: unknown): express.Express {
  const app = express();
  const middlewares = OpenApiValidator.middleware({ apiSpec: structuredClone(readContract().document) as never, validateRequests: true, validateResponses: true, validateSecurity: false, fileUploader: false });
  app.use(express.json(), ...(middlewares as unknown as RequestHandler[]), (_req: Request, res: Response) => void res.status(status).json(answer));
  app.use((error: { status?: number; message: string }, _req: Request, res: Response, _next: NextFunction) => void res.status(error.status ?? 500).json({ message: error.message }));
  return app;
}

/**
 * An app running `steps` (after the JSON body parser, with res.locals.operationId set as the mock's
 * operation table sets it) in front of a 201, that keeps the error a step hands to next():
 * to compare a check in front of the validator with the validator's own refusal.
 */
export function refusalCatcher(steps: RequestHandler[], operationId: string): { app: express.Express; refusal: () => HttpLikeError } {
  let caught: HttpLikeError | undefined;
  const app = express();
  app.use(express.json());
  app.use((_req, res, next) => {
    res.locals['operationId'] = operationId;
    next();
  });
  app.use(...steps);
  app.use((_req, res) => void res.status(201).json({}));
  app.use(((error: HttpLikeError, _req, res, _next) => {
    caught = error;
    res.status(418).end();
  }) as ErrorRequestHandler);
  const refusal = (): HttpLikeError => {
    if (!caught) throw new Error('no step refused the request');
    return { status: caught.status, path: caught.path, message: caught.message, errors: caught.errors } as HttpLikeError;
  };
  return { app, refusal };
}
