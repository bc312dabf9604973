// The validator's operation lookup, kept per method, path and routing settings
// (src/http/validator-fixes/metadata-cache.ts): it must answer as the validator does, and never
// hand one request the operation of another method, path or app.
import { createRequire } from 'node:module';
import type { NextFunction, Request, Response } from 'express';
import supertest from 'supertest';
import { afterEach, describe, expect, test } from 'vitest';
import { cachedMetadata, installMetadataCache, MAX_CACHED_MATCHES } from '../../src/http/validator-fixes/metadata-cache.js';
import type { ModuleLoader } from '../../src/http/validator-fixes/internals.js';
import { validatorFixes } from '../../src/http/validator-fixes/installed.js';
import { validatorApp, validatorChain, validCreate } from '../helpers/validator-app.js';
import { createTestApp, DEMO } from '../helpers/test-app.js';

const validatorRequire = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
const pathToRegexpModule = validatorRequire('path-to-regexp') as { pathToRegexp: (...args: unknown[]) => unknown };
const installedPathToRegexp = pathToRegexpModule.pathToRegexp;

afterEach(() => {
  pathToRegexpModule.pathToRegexp = installedPathToRegexp;
});

const create = validCreate;

describe("the validator's operation lookup, kept (metadata-cache.ts)", () => {
  test('is in place', () => {
    expect(validatorFixes.metadataCache).toBe(true);
    expect(installMetadataCache()).toBe(true); // a second install wraps nothing twice
  });

  test("a path matched before is not looked up in the contract's routes again", async () => {
    let lookups = 0;
    pathToRegexpModule.pathToRegexp = (...args: unknown[]) => {
      lookups += 1;
      return installedPathToRegexp(...args);
    };
    const t = await createTestApp();
    // A path with a parameter is looked up on every request: proof that the spy sees the lookups
    // (a POST /links alone may find its match kept already by an app an earlier file built).
    await t.request.put('/links/lnk_missing0').set('x-api-key', DEMO).send({ tags: [] }).expect(404);
    expect(lookups).toBeGreaterThan(0);
    await t.request.post('/links').set('x-api-key', DEMO).send(create).expect(201);
    const afterFirst = lookups;
    for (let i = 0; i < 5; i += 1) await t.request.post('/links').set('x-api-key', DEMO).send({ ...create, slug: undefined }).expect(201);
    expect(lookups).toBe(afterFirst);
    // A path with a parameter is a new path for every id: looked up each time, as before.
    await t.request.put('/links/lnk_missing1').set('x-api-key', DEMO).send({ tags: [] }).expect(404);
    expect(lookups).toBeGreaterThan(afterFirst);
  });

  test('each method of a kept path gets its own answer: a 405 stays a 405 after a match', async () => {
    const app = validatorApp(validatorChain());
    for (let i = 0; i < 2; i += 1) {
      expect((await supertest(app).post('/links').send(create).expect(200)).body).toMatchObject({ route: '/links', pathParams: {} });
      expect((await supertest(app).patch('/links').send(create).expect(405)).body.message).toMatch(/PATCH method not allowed/);
      expect((await supertest(app).get('/links').expect(405)).body.message).toMatch(/GET method not allowed/);
      // The request is still validated on its own: the kept operation carries no verdict.
      expect((await supertest(app).post('/links').send({}).expect(400)).body.message).toMatch(/must have required property/);
    }
  });

  test("paths with parameters get their own values on every request, never a kept one's", async () => {
    const app = validatorApp(validatorChain());
    for (const id of ['lnk_one', 'lnk_two']) {
      const { body } = await supertest(app).put(`/links/${id}`).send({ tags: [] }).expect(200);
      expect(body).toMatchObject({ route: '/links/{id}', pathParams: { id } });
    }
  });

  test("two apps sharing one chain keep their own routing settings: a case-sensitive app's 404 is not the other's match", async () => {
    const chain = validatorChain();
    const relaxed = validatorApp(chain);
    const caseSensitive = validatorApp(chain, { 'case sensitive routing': true });
    // The validator's own answer first (nothing kept yet), then after the other app's match was kept.
    for (let i = 0; i < 2; i += 1) {
      await supertest(caseSensitive).post('/LINKS').send(create).expect(404);
      await supertest(relaxed).post('/LINKS').send(create).expect(200);
      await supertest(caseSensitive).post('/links').send(create).expect(200);
    }
  });

  test('the query is no part of the path: a kept path answers whatever its query', async () => {
    const app = validatorApp(validatorChain());
    await supertest(app).post('/links?a=1').send(create).expect(200);
    expect((await supertest(app).post('/links?b=2').send(create).expect(200)).body.route).toBe('/links');
  });

  test(`at most ${MAX_CACHED_MATCHES} spellings are kept; after that the validator answers each request itself`, () => {
    let asked = 0;
    const metadata = (req: Request, _res: Response, next: NextFunction) => {
      asked += 1;
      (req as { openapi?: unknown }).openapi = { expressRoute: req.originalUrl, openApiRoute: req.originalUrl, pathParams: {}, schema: {}, serial: 0 };
      next();
    };
    const cached = cachedMetadata(metadata as never, {});
    const app = { enabled: () => false };
    const send = (path: string) => cached({ method: 'POST', originalUrl: path, url: path, app } as unknown as Request, {} as Response, () => {});
    for (let i = 0; i < MAX_CACHED_MATCHES + 10; i += 1) send(`/p${i}`);
    expect(asked).toBe(MAX_CACHED_MATCHES + 10);
    send('/p0');
    expect(asked).toBe(MAX_CACHED_MATCHES + 10); // kept
    send(`/p${MAX_CACHED_MATCHES + 5}`);
    expect(asked).toBe(MAX_CACHED_MATCHES + 11); // never kept: the bound was reached
  });

  test('with ignorePaths set, the answer depends on more than the path: nothing is kept', () => {
    const metadata = () => {};
    expect(cachedMetadata(metadata as never, { ignorePaths: /x/ })).toBe(metadata);
  });

  test('a validator without the method changes nothing and says so', () => {
    const load: ModuleLoader = () => ({ OpenApiValidator: { prototype: {} } });
    expect(installMetadataCache(load)).toBe(false);
    expect(installMetadataCache(() => undefined)).toBe(false);
  });
});
