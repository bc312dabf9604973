// A bare app around one express-openapi-validator chain over openapi.yaml, set up as the mock sets
// up its own (unknown query parameters allowed, no responses, no security, no multipart), for
// tests of the run-time fixes (src/http/validator-fixes/). It answers 200 with what the validator
// left on the request, and a refusal with its status and message. appAnswering: the same with
// responses validated too, in front of a fixed answer.
import { createRequire } from 'node:module';
import * as OpenApiValidator from 'express-openapi-validator';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { readContract } from '../../src/contract/package-files.js';

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
