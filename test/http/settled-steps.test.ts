// Once the contract is loaded, the validator's five middlewares go straight to what they reach
// (src/http/validator-fixes/settled-steps.ts), without their `pContext.then(…).catch(next)`.
import * as OpenApiValidator from 'express-openapi-validator';
import express from 'express';
import supertest from 'supertest';
import { afterEach, describe, expect, test, vi } from 'vitest';
import '../../src/http/validator-fixes/installed.js';
import { SettledAtOnce } from '../../src/http/validator-fixes/settled-contract.js';
import { readContract } from '../../src/contract/package-files.js';
import { DEMO } from '../helpers/test-app.js';

const body = { destinationUrl: 'https://example.com/x', domain: 'short.test', tags: [] };

function appWith(apiSpec: unknown, answer: express.RequestHandler = (_req, res) => void res.status(201).json({ errorDescription: 'not a link' })): express.Express {
  const app = express();
  const middlewares = OpenApiValidator.middleware({ apiSpec: apiSpec as never, validateRequests: true, validateResponses: true, validateSecurity: false, fileUploader: false });
  app.use(express.json(), ...(middlewares as unknown as express.RequestHandler[]), answer);
  app.use(((error, _req, res, _next) => void res.status((error as { status?: number }).status ?? 500).json({ message: (error as Error).message })) as express.ErrorRequestHandler);
  return app;
}

afterEach(() => vi.restoreAllMocks());

describe("the validator's middlewares once the contract is loaded", () => {
  test('a request does not go through the contract promise again, and is still validated both ways', async () => {
    const app = appWith(structuredClone(readContract().document));
    // The first request may wait for the contract and builds what each middleware reaches.
    await supertest(app).post('/links').set('x-api-key', DEMO).send(body).expect(500);
    const then = vi.spyOn(SettledAtOnce.prototype, 'then');
    // The answer breaks the contract (a 201 is a Link): the response step still judges it.
    const refused = await supertest(app).post('/links').set('x-api-key', DEMO).send(body).expect(500);
    expect(refused.body.message).toMatch(/^\/response/);
    // The request step still refuses a bad body, and the metadata step an unknown path.
    const bad = await supertest(app).post('/links').set('x-api-key', DEMO).send({ ...body, destinationUrl: 7 }).expect(400);
    expect(bad.body.message).toMatch(/destinationUrl/);
    await supertest(app).post('/nowhere').set('x-api-key', DEMO).send(body).expect(404);
    expect(then).not.toHaveBeenCalled();
  });

  test('a contract that failed to load refuses every request, as before', async () => {
    const app = appWith({ openapi: '3.0.3', info: { title: 'broken', version: '1' }, paths: { '/links': { post: { responses: { '201': { $ref: '#/nowhere' } } } } } });
    for (let i = 0; i < 3; i += 1) await supertest(app).post('/links').send(body).expect(500);
  });

  test('the path parameters are still installed on the first app, and a path with a parameter still validated', async () => {
    const app = appWith(structuredClone(readContract().document), (req, res) => void res.status(200).json({ id: req.params['id'] ?? null }));
    for (let i = 0; i < 2; i += 1) {
      const answer = await supertest(app).put('/links/lnk_x').set('x-api-key', DEMO).send({ destinationUrl: 'https://example.com/y', tags: [] }).expect(500);
      // The answer is no Link: the response step judged a request routed with its parameter.
      expect(answer.body.message).toMatch(/^\/response/);
    }
  });
});
