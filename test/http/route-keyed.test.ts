// The validator's request middleware and response validators found by route without a key text
// per request (src/http/validator-fixes/route-keyed.ts).
import supertest from 'supertest';
import '../../src/http/validator-fixes/installed.js';
import { afterEach, describe, expect, test } from 'vitest';
import { installRouteKeyed, MAX_ROUTE_KEYED, RouteKeyed } from '../../src/http/validator-fixes/route-keyed.js';
import { DEMO } from '../helpers/test-app.js';
import { appAnswering, validCreate as body, validatorRequire } from '../helpers/validator-app.js';

const prototypes = {
  middlewareCache: (validatorRequire('./middlewares/openapi.request.validator') as { RequestValidator: { prototype: object } }).RequestValidator.prototype,
  validatorsCache: (validatorRequire('./middlewares/openapi.response.validator') as { ResponseValidator: { prototype: object } }).ResponseValidator.prototype,
};

/** Counts reads of each validator's own key cache (the constructors assign it; a setter here wraps it). */
function countCacheReads(): Record<keyof typeof prototypes, number> {
  const reads = { middlewareCache: 0, validatorsCache: 0 };
  for (const name of Object.keys(prototypes) as (keyof typeof prototypes)[]) {
    const own = Symbol(name);
    Object.defineProperty(prototypes[name], name, {
      configurable: true,
      get(this: Record<symbol, unknown>) {
        return this[own];
      },
      set(this: Record<symbol, unknown>, cache: Record<string, unknown>) {
        this[own] = new Proxy(cache, { get: (target, key) => ((reads[name] += 1), Reflect.get(target, key)) });
      },
    });
  }
  return reads;
}

afterEach(() => {
  for (const name of Object.keys(prototypes) as (keyof typeof prototypes)[]) delete (prototypes[name] as Record<string, unknown>)[name];
});

describe("the validator's lookups by route", () => {
  test("a route asked before is found without the validator's key lookups, and is still validated both ways", async () => {
    const reads = countCacheReads();
    const app = appAnswering(400, { errorDescription: 'refused' });
    for (let i = 0; i < 2; i += 1) await supertest(app).post('/links').set('x-api-key', DEMO).send(body);
    const before = { ...reads };
    expect(before.middlewareCache).toBeGreaterThan(0);
    for (let i = 0; i < 3; i += 1) await supertest(app).post('/links').set('x-api-key', DEMO).send(body).expect(400);
    expect(reads).toEqual(before);
    // Still judged: a bad request body, and (with another Content-Type spelling) a bad answer.
    const bad = await supertest(app).post('/links').set('x-api-key', DEMO).send({ ...body, destinationUrl: 7 }).expect(400);
    expect(bad.body.message).toMatch(/destinationUrl/);
    const wrong = appAnswering(201, { errorDescription: 'not a link' });
    for (let i = 0; i < 2; i += 1) {
      const refused = await supertest(wrong).post('/links').set('x-api-key', DEMO).set('content-type', 'application/json; charset=utf-8').send(JSON.stringify(body)).expect(500);
      expect(refused.body.message).toMatch(/^\/response/);
    }
  });

  test('a new Content-Type spelling on every request keeps at most MAX_ROUTE_KEYED lookups; the others go to the validator', () => {
    const kept = new RouteKeyed();
    const spellings = Array.from({ length: MAX_ROUTE_KEYED + 50 }, (_, i) => `application/json; x=${i}`);
    for (const spelling of spellings) kept.keep('POST', '/links', spelling, spelling);
    expect(kept.get('POST', '/links', spellings[MAX_ROUTE_KEYED - 1]!)).toBe(spellings[MAX_ROUTE_KEYED - 1]);
    expect(spellings.slice(MAX_ROUTE_KEYED).map((spelling) => kept.get('POST', '/links', spelling))).toEqual(spellings.slice(MAX_ROUTE_KEYED).map(() => undefined));
  });

  test('a validator without what it wraps changes nothing: false, and installing again wraps nothing twice', () => {
    expect(installRouteKeyed(() => undefined)).toBe(false);
    const validate = (prototypes.middlewareCache as Record<string, unknown>)['validate'];
    expect(installRouteKeyed()).toBe(true);
    expect((prototypes.middlewareCache as Record<string, unknown>)['validate']).toBe(validate);
  });

  test('a new spelling beyond what is kept is still validated by the validator', async () => {
    const app = appAnswering(400, { errorDescription: 'refused' });
    for (const spelling of ['application/json; x=1', 'application/json; x=2']) {
      const bad = await supertest(app).post('/links').set('x-api-key', DEMO).set('content-type', spelling).send(JSON.stringify({ ...body, tags: 'none' })).expect(400);
      expect(bad.body.message).toMatch(/tags/);
    }
  });
});
