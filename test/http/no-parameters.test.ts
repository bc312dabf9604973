// The validator's parameter rewrite, skipped for a request it would not change
// (src/http/validator-fixes/no-parameters.ts): what every other request gets must stay the validator's.
import { createRequire } from 'node:module';
import supertest from 'supertest';
import { afterEach, describe, expect, test } from 'vitest';
import { installNoParameters, nothingToRewrite } from '../../src/http/validator-fixes/no-parameters.js';
import { validatorFixes } from '../../src/http/validator-fixes/installed.js';
import { validatorApp, validatorChain, validCreate } from '../helpers/validator-app.js';

const validatorRequire = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
const urlModule = validatorRequire('url') as { parse: (...args: unknown[]) => unknown };
const installedParse = urlModule.parse;

afterEach(() => {
  urlModule.parse = installedParse;
});

const create = validCreate;

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
    const app = validatorApp(validatorChain());
    await supertest(app).post('/links').send(create).expect(200);
    expect(parses).toBe(0);
    await supertest(app).post('/links?x=1').send(create).expect(200);
    expect(parses).toBe(1);
    await supertest(app).put('/links/lnk_one').send({ tags: [] }).expect(200);
    expect(parses).toBe(2);
  });

  test("a bracketed query is still the validator's nested object, and path parameters still reach the request", async () => {
    const app = validatorApp(validatorChain());
    expect((await supertest(app).post('/links?a[b]=1').send(create).expect(200)).body.query).toEqual({ a: { b: '1' } });
    expect((await supertest(app).put('/links/lnk_one?c=2').send({ tags: [] }).expect(200)).body).toMatchObject({ query: { c: '2' }, pathParams: { id: 'lnk_one' } });
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
