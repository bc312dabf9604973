// A small, correct, in-memory implementation of the three operations: the base every deliberately
// broken server is built from, each by one entry of `Breaks`. It must itself pass the whole contract
// suite (test/contract/catches-broken.test.ts proves it), so that when a broken server fails, the
// failure can only come from its one break. It knows nothing of x-mock-scenario, like a real
// deployment, so LINK_LIMIT_REACHED is reached only through limited-key, an account at its limit.
import express, { type ErrorRequestHandler, type Express, type Response } from 'express';
import { ajvText, requestValidators } from './reference-validators.js';
import { isRefusal, ReferenceState, type CreateRequest, type LinkJson, type Refusal, type RuleBreaks, type UpdateRequest } from './reference-state.js';

export { REFERENCE_ACCOUNTS, REFERENCE_LIMITED_LINK_ID, type LinkJson } from './reference-state.js';

/** One way to break the contract; a correct server sets none. */
export interface Breaks extends RuleBreaks {
  /** How a Link is written into a response. */
  present?: (link: LinkJson) => Record<string, unknown>;
  createStatus?: number;
  /** How a successful delete is answered (correct: 204, no body). */
  deleted?: (res: Response) => void;
  /** How every error is written (correct: an Error object). */
  error?: (res: Response, status: number, description: string, code?: string) => void;
  /** How an unknown link id is answered (correct: the 404 Error above). */
  linkNotFound?: (res: Response, id: string) => void;
  /** Applied to a create body before validation. */
  prepareCreate?: (body: Record<string, unknown>) => Record<string, unknown>;
  /** Applied to an update body before validation. */
  prepareUpdate?: (body: Record<string, unknown>) => Record<string, unknown>;
}

export function createReferenceServer(breaks: Breaks = {}): Express {
  const validate = requestValidators();
  const state = new ReferenceState(breaks);
  const present = breaks.present ?? ((link: LinkJson) => link);
  const fail = breaks.error ?? ((res: Response, status: number, errorDescription: string, code?: string) => void res.status(status).json({ errorDescription, ...(code ? { code } : {}) }));
  const refuse = (res: Response, refusal: Refusal): void => fail(res, refusal.status, refusal.description, refusal.code);
  const linkNotFound = breaks.linkNotFound ?? ((res: Response, id: string) => fail(res, 404, `link '${id}' not found`));
  const keyOf = (res: Response): string => res.locals['apiKey'] as string;

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // The key first, before the body is even parsed.
  app.use('/links', (req, res, next) => {
    const key = req.get('x-api-key');
    if (!key) return fail(res, 401, 'The x-api-key header is missing');
    if (!state.hasAccount(key)) return fail(res, 401, 'The x-api-key header names no account');
    res.locals['apiKey'] = key;
    next();
  });
  app.use(express.json());
  if (breaks.linkLimit === 'every-write') app.use('/links/:id', (_req, res, next) => (state.atLimit(keyOf(res)) ? refuse(res, state.limitRefusal(keyOf(res))) : next()));
  app.post('/links', (req, res) => {
    const body = breaks.prepareCreate ? breaks.prepareCreate({ ...(req.body as object) }) : req.body;
    if (!validate.create(body)) return fail(res, 400, `request body: ${ajvText(validate.create)}`);
    const created = state.create(keyOf(res), body as CreateRequest);
    if (isRefusal(created)) return refuse(res, created);
    res.status(breaks.createStatus ?? 201).json(present(created));
  });
  app.put('/links/:id', (req, res) => {
    const body = breaks.prepareUpdate ? breaks.prepareUpdate({ ...(req.body as object) }) : req.body;
    if (!validate.update(body)) return fail(res, 400, `request body: ${ajvText(validate.update)}`);
    const stored = state.find(req.params.id, keyOf(res));
    if (!stored) return linkNotFound(res, req.params.id);
    const updated = state.update(keyOf(res), stored, body as UpdateRequest);
    if (isRefusal(updated)) return refuse(res, updated);
    res.status(200).json(present(updated));
  });
  app.delete('/links/:id', (req, res) => {
    const stored = state.find(req.params.id, keyOf(res));
    if (!stored) return linkNotFound(res, req.params.id);
    state.remove(stored);
    if (breaks.deleted) breaks.deleted(res);
    else res.status(204).end();
  });
  app.use((req, res) => fail(res, 404, `no operation at ${req.method} ${req.path}`));
  const bodyErrors: ErrorRequestHandler = (error: Error, _req, res, _next) => fail(res, 400, `request body is not valid JSON: ${error.message}`);
  app.use(bodyErrors);
  return app;
}
