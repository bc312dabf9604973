// The validator's parameter rewrite, skipped for a request it would not change
// (src/http/validator-fixes/no-parameters.ts): what every other request gets must stay the validator's.
import { createRequire } from 'node:module';
import * as OpenApiValidator from 'express-openapi-validator';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import supertest from 'supertest';
import { afterEach, describe, expect, test } from 'vitest';
import { installNoParameters, nothingToRewrite } from '../../src/http/validator-fixes/no-parameters.js';
import { validatorFixes } from '../../src/http/validator-fixes/installed.js';
import { readContract } from '../../src/contract/package-files.js';

const validatorRequire = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
const urlModule = validatorRequire('url') as { parse: (...args: unknown[]) => unknown };
const installedParse = urlModule.parse;

afterEach(() => {
  urlModule.parse = installedParse;
});

const validatorChain = () =>
  OpenApiValidator.middleware({ apiSpec: structuredClone(readContract().document) as never, validateRequests: { allowUnknownQueryParameters: true }, validateResponses: false, validateSecurity: false, fileUploader: false }) as unknown as RequestHandler[];

function appOf(validator: RequestHandler[]) {
  const app = express();
  app.use(express.json(), ...validator, (req: Request, res: Response) => {
    res.status(200).json({ query: req.query, params: (req as { openapi?: { pathParams: unknown } }).openapi?.pathParams });
  });
  app.use((error: { status?: number; message: string }, _req: Request, res: Response, _next: NextFunction) => {
    res.status(error.status ?? 500).json({ message: error.message });
  });
  return app;
}

const create = { destinationUrl: 'https://example.com/x', domain: 'short.test', tags: [] };

describe("the validator's parameter rewrite, skipped when it would change nothing (no-parameters.ts)", () => {
  test('is in place', () => {
    expect(validatorFixes.noParameters).toBe(true);
    expect(installNoParameters()).toBe(true); // a second install wraps nothing twice
  });

  test('POST /links without a query is not rewritten (the URL is not parsed again); with a query or a path parameter it is', async () => {
    let parses = 0;
    urlModule.parse = (...args: unknown[]) => {
      parses += 1;
      return installedParse(...args);
    };
    const app = appOf(validatorChain());
    await supertest(app).post('/links').send(create).expect(200);
    expect(parses).toBe(0);
    await supertest(app).post('/links?x=1').send(create).expect(200);
    expect(parses).toBe(1);
    await supertest(app).put('/links/lnk_one').send({ tags: [] }).expect(200);
    expect(parses).toBe(2);
  });

  test("a bracketed query is still the validator's nested object, and path parameters still reach the request", async () => {
    const app = appOf(validatorChain());
    expect((await supertest(app).post('/links?a[b]=1').send(create).expect(200)).body.query).toEqual({ a: { b: '1' } });
    expect((await supertest(app).put('/links/lnk_one?c=2').send({ tags: [] }).expect(200)).body).toEqual({ query: { c: '2' }, params: { id: 'lnk_one' } });
  });

  test('nothingToRewrite: only no declared parameters and an empty query', () => {
    expect(nothingToRewrite({ query: {}, openapi: { schema: {} } })).toBe(true);
    expect(nothingToRewrite({ query: {}, openapi: { schema: { parameters: [] } } })).toBe(true);
    expect(nothingToRewrite({ query: {}, openapi: { schema: { parameters: [{ name: 'id', in: 'path' }] } } })).toBe(false);
    expect(nothingToRewrite({ query: { a: '1' }, openapi: { schema: {} } })).toBe(false);
    expect(nothingToRewrite({ query: undefined, openapi: { schema: {} } })).toBe(false);
  });

  test('a validator without the method changes nothing and says so', () => {
    expect(installNoParameters(() => ({ RequestParameterMutator: { prototype: {} } }))).toBe(false);
    expect(installNoParameters(() => undefined)).toBe(false);
  });
});
