// The run-time fixes to express-openapi-validator (src/http/validator-fixes/, whose README maps each
// fix to its tests here). If one no longer fits an upgraded validator, the mock still works but
// every request (or every start) gets slower, silently: these tests make that loud. They measure
// the effect itself, not the way it is achieved, and check that the folder's README names the
// validator version installed (an upgrade is a moment to read each fix again).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as OpenApiValidator from 'express-openapi-validator';
import express from 'express';
import supertest from 'supertest';
import { afterEach, describe, expect, test } from 'vitest';
import { validatorFixes } from '../../src/http/validator-fixes/installed.js';
import type { ModuleLoader } from '../../src/http/validator-fixes/internals.js';
import { installLazyMetaSchema } from '../../src/http/validator-fixes/lazy-meta-schema.js';
import { cachedPathToRegexp, installValidatorRouteCache } from '../../src/http/validator-fixes/route-cache.js';
import { installRefLookup, ORIGINAL } from '../../src/http/validator-fixes/ref-lookup.js';
import { cachedContentTypeParsers, installContentTypeCache, MAX_CACHED_CONTENT_TYPE_LENGTH, MAX_CACHED_CONTENT_TYPES } from '../../src/http/validator-fixes/content-type-cache.js';
import { installSettledContract, SettledAtOnce } from '../../src/http/validator-fixes/settled-contract.js';
import { installMetadataCache } from '../../src/http/validator-fixes/metadata-cache.js';
import { installNoParameters } from '../../src/http/validator-fixes/no-parameters.js';
import { readAdminContract, readContract } from '../../src/contract/package-files.js';
import { createTestApp, DEMO } from '../helpers/test-app.js';

// The very modules express-openapi-validator requires.
const validatorRequire = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
const pathToRegexpModule = validatorRequire('path-to-regexp') as { pathToRegexp: (...args: unknown[]) => unknown };
const installedPathToRegexp = pathToRegexpModule.pathToRegexp;
// What the validator's start-up reads to build the OpenAPI meta-schema validator: its Ajv schema.
const metaSchemaModule = validatorRequire('./framework/openapi/factory.schema') as { factorySchema: (...args: unknown[]) => unknown };
const factorySchema = metaSchemaModule.factorySchema;
// The validator's Content-Type parser, whose `from` the fourth fix replaces.
type ContentTypeInstance = { mediaType: string | null; parameters: Record<string, string>; normalize(exclude?: string[]): string | undefined };
const { ContentType } = validatorRequire('./middlewares/util') as {
  ContentType: { prototype: ContentTypeInstance; from: (req: { headers: Record<string, unknown> }) => ContentTypeInstance; fromString: (type: string | undefined) => ContentTypeInstance };
};
const normalize = ContentType.prototype.normalize;
/** The class's own parse, as the validator does it without our cache. */
const parseFresh = (type: string | undefined) => new (ContentType as unknown as new (type?: string) => ContentTypeInstance)(type);
const installedFrom = ContentType.from;
const fromString = ContentType.fromString;

afterEach(() => {
  pathToRegexpModule.pathToRegexp = installedPathToRegexp;
  metaSchemaModule.factorySchema = factorySchema;
  ContentType.from = installedFrom;
  ContentType.fromString = fromString;
  ContentType.prototype.normalize = normalize;
});

describe('run-time fixes to express-openapi-validator', () => {
  test('the fixes were written for the validator installed (validator-fixes/README.md names its version)', () => {
    const installed = (validatorRequire('../package.json') as { version: string }).version;
    const readme = readFileSync(new URL('../../src/http/validator-fixes/README.md', import.meta.url), 'utf8');
    expect(readme).toContain(`express-openapi-validator ${installed}`);
  });

  test('the fixes fit the installed validator', () => {
    expect(validatorFixes).toEqual({ routeCache: true, lazyMetaSchema: true, refLookup: true, contentTypeCache: true, settledContract: true, metadataCache: true, noParameters: true, routeKeyed: true, keptResponseVerdicts: true, jsonMediaTypes: true });
  });

  test('installing again (a second copy of the package in one process) wraps nothing twice', () => {
    const schemaValidatorModule = validatorRequire('./framework/openapi.schema.validator') as Record<string, unknown>;
    const installMiddleware = () => (validatorRequire('./openapi.validator') as { OpenApiValidator: { prototype: { installMiddleware: unknown } } }).OpenApiValidator.prototype.installMiddleware;
    const before = [pathToRegexpModule.pathToRegexp, schemaValidatorModule['OpenAPISchemaValidator'], ContentType.from, ContentType.fromString, installMiddleware()];
    expect([installValidatorRouteCache(), installLazyMetaSchema(), installRefLookup(), installContentTypeCache(), installSettledContract()]).toEqual([true, true, true, true, true]);
    expect([pathToRegexpModule.pathToRegexp, schemaValidatorModule['OpenAPISchemaValidator'], ContentType.from, ContentType.fromString, installMiddleware()]).toEqual(before);
  });

  test("once the contract is loaded, the validator's middlewares run in the request's own turn", async () => {
    // A microtask queued before the validator runs: if any of its middlewares waits a turn of the
    // queue (a promise per middleware, as in the validator as published), the microtask runs first.
    const sameTurn: boolean[] = [];
    const app = express();
    app.use(express.json());
    app.use((_req, res, next) => {
      let turn = true;
      queueMicrotask(() => (turn = false));
      res.locals['sameTurn'] = () => turn;
      next();
    });
    app.use(OpenApiValidator.middleware({ apiSpec: structuredClone(readContract().document) as never, validateRequests: true, validateResponses: true, validateSecurity: false }));
    app.use((_req, res) => {
      sameTurn.push((res.locals['sameTurn'] as () => boolean)());
      res.status(500).json({ errorDescription: 'answered' });
    });
    const body = { destinationUrl: 'https://example.com/x', domain: 'short.test', tags: [] };
    for (let i = 0; i < 3; i += 1) await supertest(app).post('/links').set('x-api-key', DEMO).send(body).expect(500);
    // The first request may wait for the contract to load; the others find it loaded.
    expect(sameTurn.slice(1)).toEqual([true, true]);
  });

  test("the validator's middlewares hand Express nothing once the contract is loaded, and never a thenable of ours", async () => {
    // Express's router warns ("handlers that are Promise-like are deprecated") of any thenable
    // that is not a native promise: the admin API mounts the validator on a router of its own.
    const returned: unknown[] = [];
    // As the mock sets it up: no multipart step (an async function of the validator's own).
    const middlewares = (OpenApiValidator.middleware({ apiSpec: structuredClone(readContract().document) as never, validateRequests: true, validateResponses: false, validateSecurity: false, fileUploader: false }) as unknown as express.RequestHandler[]).map(
      (middleware): express.RequestHandler => (req, res, next) => {
        const result = middleware(req, res, next) as unknown;
        returned.push(result);
        return result as void;
      },
    );
    const app = express();
    app.use(express.json(), ...middlewares, (_req: express.Request, res: express.Response) => res.status(204).end());
    const body = { destinationUrl: 'https://example.com/x', domain: 'short.test', tags: [] };
    await supertest(app).post('/links').send(body).expect(204);
    expect(returned.every((result) => result === undefined || result instanceof Promise)).toBe(true);
    returned.length = 0;
    await supertest(app).post('/links').send(body).expect(204);
    expect(returned).toEqual(middlewares.map(() => undefined));
  });

  test('SettledAtOnce: a promise until it settles, then the same callbacks and values at once', async () => {
    let resolve!: (value: string) => void;
    const loading = SettledAtOnce.of(new Promise<string>((done) => (resolve = done)));
    const early = loading.then((value) => `early ${String(value)}`);
    let ran = false;
    loading.then(() => (ran = true));
    expect(ran).toBe(false); // pending: nothing runs before the value is there
    resolve('loaded');
    expect(await early).toBe('early loaded');
    const seen: unknown[] = [];
    const chained = loading.then((value) => seen.push(value)).then(() => seen.push('next'));
    expect(seen).toEqual(['loaded', 'next']); // settled: at once, in order
    expect(await chained).toBe(2);
    // A throw becomes a rejection for the next catch, as with a promise, and values pass through.
    const failure = new Error('boom');
    const caught: unknown[] = [];
    loading.then(() => { throw failure; }).then(() => caught.push('skipped')).catch((error) => caught.push(error));
    expect(caught).toEqual([failure]);
    // A returned thenable is waited for.
    expect(await loading.then(() => Promise.resolve('later'))).toBe('later');
    // A rejected load reaches the validator's catch, as before.
    const refused = SettledAtOnce.of(Promise.reject(failure));
    await expect(refused).rejects.toBe(failure);
    const after: unknown[] = [];
    refused.then(() => after.push('no')).catch((error) => after.push(error));
    expect(after).toEqual([failure]);
  });

  test("the validator's route lookup compiles each route once, not on every request", async () => {
    // Every compilation makes a new {regexp, keys}: the same object again means no compilation.
    let lookups = 0;
    const results = new Set<unknown>();
    pathToRegexpModule.pathToRegexp = (...args: unknown[]) => {
      lookups += 1;
      const result = installedPathToRegexp(...args);
      results.add(result);
      return result;
    };
    const t = await createTestApp();
    const update = { destinationUrl: 'https://example.com/x', tags: [] };
    await t.request.put('/links/lnk_warmUp').set('x-api-key', DEMO).send(update).expect(404);
    const afterFirst = results.size;
    expect(afterFirst).toBeGreaterThan(0); // the spy does see the validator's lookups

    for (let i = 0; i < 5; i += 1) {
      await t.request.put(`/links/lnk_missing${i}`).set('x-api-key', DEMO).send(update).expect(404);
      await t.request.post('/links').set('x-api-key', DEMO).send({}).expect(400);
    }
    expect(lookups).toBeGreaterThanOrEqual(5); // the validator still asks on every request with a path parameter (metadata-cache.ts keeps the others)...
    // ...but at most POST /links's route was new, and compiled once (none at all when an app an
    // earlier file built keeps its match: the suite runs files unisolated); each compile per request would add 10.
    expect(results.size - afterFirst).toBeLessThanOrEqual(1);
  });

  test('the validator parses each spelling of Content-Type once, not several times on every request', async () => {
    // Every fresh parse is normalized by the class's own method; a kept one answers by itself.
    const parsed: (string | undefined)[] = [];
    // A cache of its own, empty, over the class's own parser (the installed one was warmed by other tests).
    ContentType.fromString = parseFresh;
    ContentType.from = (req) => parseFresh(req.headers['content-type'] as string | undefined);
    expect(installContentTypeCache()).toBe(true);
    ContentType.prototype.normalize = function (this: ContentTypeInstance, ...args: [string[]?]) {
      parsed.push(this.mediaType ?? undefined);
      return normalize.apply(this, args);
    };
    const t = await createTestApp();
    const update = { destinationUrl: 'https://example.com/x', tags: [] };
    await t.request.put('/links/lnk_warmUp').set('x-api-key', DEMO).send(update).expect(404);
    const afterFirst = parsed.length;
    for (let i = 0; i < 5; i += 1) await t.request.put(`/links/lnk_missing${i}`).set('x-api-key', DEMO).send(update).expect(404);
    expect(afterFirst).toBeGreaterThan(0); // the spy does see the validator's parses...
    expect(parsed).toHaveLength(afterFirst); // ...and five more creates parsed nothing again
  });

  test('with validateApiSpec off, start-up does not build the OpenAPI meta-schema validator', async () => {
    let built = 0;
    metaSchemaModule.factorySchema = (...args: unknown[]) => {
      built += 1;
      return factorySchema(...args);
    };
    const t = await createTestApp();
    // The validator initialises on the first request through it: this one does.
    await t.request.post('/links').set('x-api-key', DEMO).send({}).expect(400);
    expect(built).toBe(0);
  });

  test('with validateApiSpec on, the meta-schema is still built and still refuses a bad document', async () => {
    let built = 0;
    metaSchemaModule.factorySchema = (...args: unknown[]) => {
      built += 1;
      return factorySchema(...args);
    };
    const badDocument = { openapi: '3.0.3', info: { title: 'bad' }, paths: { '/x': { get: { responses: {} } } } };
    const app = express();
    app.use(OpenApiValidator.middleware({ apiSpec: badDocument as never, validateApiSpec: true }));
    app.get('/x', (_req, res) => res.json({}));
    app.use((error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(500).json({ message: error.message });
    });
    const silence = console.error;
    console.error = () => {}; // the validator prints the document's errors before throwing
    try {
      const response = await supertest(app).get('/x').expect(500);
      expect(response.body.message).toMatch(/apiDoc was invalid/);
    } finally {
      console.error = silence;
    }
    expect(built).toBe(1);
  });
});

describe("the validator's preparation of a document (SchemaPreprocessor)", () => {
  // The Ajv class both of the validator's Ajvs (draft-04 for OpenAPI 3.0) compile with.
  const ajvCore = validatorRequire('ajv/dist/core') as { default: { prototype: Record<string, (...args: unknown[]) => unknown> } };
  const { SchemaPreprocessor } = validatorRequire('./middlewares/parsers/schema.preprocessor') as {
    SchemaPreprocessor: (new (doc: unknown, ajvOptions: unknown, responses: unknown) => { preProcess(): unknown }) & { prototype: Record<PropertyKey, unknown> };
  };
  const { AjvOptions } = validatorRequire('./framework/ajv/options') as { AjvOptions: new (options: unknown) => { preprocessor: unknown } };
  // The options src/http/validator.ts gives, as the validator hands them to its preprocessor.
  const options = new AjvOptions({ coerceTypes: false, formats: {}, validateFormats: true, serDes: [], ajvFormats: { mode: 'full' } }).preprocessor;
  const prepare = (document: unknown) => new SchemaPreprocessor(structuredClone(document), options, { removeAdditional: false, coerceTypes: false, allErrors: true }).preProcess();
  const documents = [
    { name: 'openapi.yaml', document: readContract().document },
    { name: 'the admin document', document: readAdminContract().document },
  ];

  test.each(documents)('$name: compiles no schema (its Ajv is thrown away)', ({ document }) => {
    const compile = ajvCore.default.prototype['_compileSchemaEnv']!;
    let compiled = 0;
    ajvCore.default.prototype['_compileSchemaEnv'] = function (this: unknown, ...args: unknown[]) {
      compiled += 1;
      return compile.apply(this, args);
    };
    try {
      prepare(document);
    } finally {
      ajvCore.default.prototype['_compileSchemaEnv'] = compile;
    }
    expect(compiled).toBe(0);
  });

  test.each(documents)("$name: prepares the same documents as the validator's own lookup", ({ document }) => {
    const installed = SchemaPreprocessor.prototype['resolveSchema'] as Record<PropertyKey, unknown>;
    const fixed = prepare(document);
    SchemaPreprocessor.prototype['resolveSchema'] = installed[ORIGINAL];
    try {
      expect(fixed).toStrictEqual(prepare(document));
    } finally {
      SchemaPreprocessor.prototype['resolveSchema'] = installed;
    }
  });
});

describe('cachedPathToRegexp', () => {
  // The options the validator passes.
  const VALIDATOR = { sensitive: false, strict: false };
  const compileCounting = () => {
    const calls: unknown[][] = [];
    const compile = (...args: unknown[]) => {
      calls.push(args);
      return { compiled: calls.length };
    };
    return { calls, cached: cachedPathToRegexp(compile) };
  };

  test.each([
    { name: 'the same route and options', first: ['/links/:id', VALIDATOR], second: ['/links/:id', VALIDATOR], compilations: 1 },
    { name: 'another route', first: ['/links/:id', VALIDATOR], second: ['/links', VALIDATOR], compilations: 2 },
    { name: 'other options', first: ['/links', VALIDATOR], second: ['/links', { sensitive: true, strict: false }], compilations: 2 },
    { name: "a caller other than the validator (router's options)", first: ['/links', { end: true }], second: ['/links', { end: true }], compilations: 2 },
    { name: 'no options', first: ['/links'], second: ['/links'], compilations: 2 },
    { name: 'strict differs', first: ['/links', VALIDATOR], second: ['/links', { sensitive: false, strict: true }], compilations: 2 },
    { name: 'a third option', first: ['/links', { ...VALIDATOR, end: true }], second: ['/links', { ...VALIDATOR, end: true }], compilations: 2 },
    { name: 'the flags only inherited', first: ['/links', Object.create(VALIDATOR)], second: ['/links', Object.create(VALIDATOR)], compilations: 2 },
  ])('$name: $compilations compilation(s)', ({ first, second, compilations }) => {
    const { calls, cached } = compileCounting();
    const a = cached(...(first as [unknown, unknown]));
    const b = cached(...(second as [unknown, unknown]));
    expect(calls).toHaveLength(compilations);
    expect(a === b).toBe(compilations === 1);
  });
});

describe('cachedContentTypeParsers', () => {
  const request = (header: unknown) => ({ headers: header === undefined ? {} : { 'content-type': header } });
  const spellings = [undefined, '', 'application/json', 'Application/JSON; Charset=UTF-8', 'application/json; b=2; a=1', 'text/*', 'application/json;charset'];

  test.each(spellings)('%j: the same answers as the parser, every time, from one parse', (header) => {
    let parses = 0;
    const { from } = cachedContentTypeParsers({ ...ContentType, fromString: (type) => ((parses += 1), parseFresh(type)) });
    const fresh = parseFresh(header);
    for (let i = 0; i < 3; i += 1) {
      const cached = from(request(header)) as ContentTypeInstance;
      expect([cached.mediaType, cached.parameters, cached.normalize(), cached.normalize(['charset'])]).toEqual([fresh.mediaType, fresh.parameters, fresh.normalize(), fresh.normalize(['charset'])]);
    }
    expect(parses).toBe(1);
  });

  test('the shared value cannot be changed by one request for the next', () => {
    const { from, fromString: cachedFromString } = cachedContentTypeParsers({ ...ContentType, fromString: parseFresh });
    const shared = from(request('application/json; a=1')) as ContentTypeInstance;
    expect(() => {
      shared.mediaType = 'text/plain';
    }).toThrow(TypeError);
    expect(from(request('application/json; a=1')).normalize()).toBe('application/json; a=1');
    expect(cachedFromString('application/json; a=1')).toBe(shared); // the two parsers share what they keep
  });

  test(`a client sending a new spelling each time: at most ${MAX_CACHED_CONTENT_TYPES} kept, the rest parsed each time, and right`, () => {
    let parses = 0;
    const { from } = cachedContentTypeParsers({ ...ContentType, fromString: (type) => ((parses += 1), parseFresh(type)) });
    const hostile = Array.from({ length: 1_000 }, (_, i) => `application/json; n=${i}`);
    for (const header of hostile) from(request(header));
    parses = 0;
    for (const header of hostile) expect(from(request(header)).normalize()).toBe(header);
    expect(parses).toBe(hostile.length - MAX_CACHED_CONTENT_TYPES);
  });

  test(`a header over ${MAX_CACHED_CONTENT_TYPE_LENGTH} characters is parsed each time and never kept`, () => {
    let parses = 0;
    const { from } = cachedContentTypeParsers({ ...ContentType, fromString: (type) => ((parses += 1), parseFresh(type)) });
    const long = `application/json; x=${'a'.repeat(MAX_CACHED_CONTENT_TYPE_LENGTH)}`;
    for (let i = 0; i < 3; i += 1) expect(from(request(long)).normalize()).toBe(long);
    expect(parses).toBe(3);
  });
});

// A later validator may move or reshape what the fixes replace: then they change nothing and say
// so (the first test above fails), and the mock starts and answers as before, only slower.
describe('a validator the fixes no longer fit', () => {
  const shapes: { name: string; module: Record<string, unknown> | undefined }[] = [
    { name: 'the module is gone', module: undefined },
    { name: 'the export is gone', module: {} },
    { name: 'the export is not a function', module: { pathToRegexp: 'x', OpenAPISchemaValidator: 'x' } },
    { name: 'the class has no validate()', module: { pathToRegexp: 1, OpenAPISchemaValidator: class {} } },
  ];
  test.each(shapes)('$name: every installer changes nothing and returns false', ({ module }) => {
    const snapshot = module && { ...module };
    const load: ModuleLoader = () => module;
    expect(installValidatorRouteCache(load)).toBe(false);
    expect(installLazyMetaSchema(load)).toBe(false);
    expect(installRefLookup(load)).toBe(false);
    expect(installContentTypeCache(load)).toBe(false);
    expect(installSettledContract(load)).toBe(false);
    expect(installMetadataCache(load)).toBe(false);
    expect(installNoParameters(load)).toBe(false);
    expect(module).toEqual(snapshot);
  });
});
