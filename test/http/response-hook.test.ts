// The response validator's hook on res.json (src/http/validator-fixes/response-hook.ts): it judges
// every answer as the validator's own hook did, without copying the answer's headers or parsing the
// contract's media types again on each answer.
import { createRequire } from 'node:module';
import { OutgoingMessage } from 'node:http';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import supertest from 'supertest';
import { afterEach, describe, expect, test } from 'vitest';
import { validatorFixes } from '../../src/http/validator-fixes/installed.js';
import { acceptsOf, installResponseHook, keptAcceptLists, MAX_KEPT_ACCEPTS } from '../../src/http/validator-fixes/response-hook.js';

const validatorRequire = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
const contentTypeModule = validatorRequire('content-type') as { parse: (...args: unknown[]) => unknown };
const installedParse = contentTypeModule.parse;
const installedGetHeaders = OutgoingMessage.prototype.getHeaders;

afterEach(() => {
  contentTypeModule.parse = installedParse;
  OutgoingMessage.prototype.getHeaders = installedGetHeaders;
});

const thing = { type: 'object', additionalProperties: false, required: ['name'], properties: { name: { type: 'string' } } };
const SPEC = {
  openapi: '3.0.3',
  info: { title: 'response hook', version: '1' },
  paths: {
    '/thing': {
      post: {
        responses: {
          '201': { description: 'a thing', content: { 'application/json': { schema: thing } } },
          '204': { description: 'nothing' },
          '500': { description: 'a failure', content: { 'application/json': { schema: thing } } },
        },
      },
    },
  },
};

/** An app whose POST /thing answers what `answer` says, behind the validator with responses judged. */
function app(answer: RequestHandler): Express {
  const made = express();
  made.use(express.json());
  made.use(...(OpenApiValidator.middleware({ apiSpec: structuredClone(SPEC) as never, validateApiSpec: false, validateRequests: true, validateResponses: true }) as unknown as RequestHandler[]));
  made.post('/thing', answer);
  made.use(((error, _req, res, _next) => void res.status((error as { status?: number }).status ?? 500).json({ message: (error as Error).message })) as ErrorRequestHandler);
  return made;
}

const post = (made: Express, accept = 'application/json') => supertest(made).post('/thing').set('accept', accept).send({});

describe("the response validator's hook (response-hook.ts)", () => {
  test('is in place', () => {
    expect(validatorFixes.responseHook).toBe(true);
    expect(installResponseHook()).toBe(true); // a second install wraps nothing twice
  });

  test("judging an answer copies none of its headers and parses a media type once, not on every answer", async () => {
    const served = app((_req, res) => void res.status(201).set('x-one', '1').json({ name: 'a' }));
    await post(served).expect(201); // the first answer may judge the media type
    let copies = 0;
    let parses = 0;
    OutgoingMessage.prototype.getHeaders = function getHeaders(this: OutgoingMessage) {
      copies += 1;
      return installedGetHeaders.call(this);
    };
    contentTypeModule.parse = (...args: unknown[]) => {
      parses += 1;
      return installedParse(...args);
    };
    for (let i = 0; i < 3; i += 1) expect((await post(served).expect(201)).body).toEqual({ name: 'a' });
    expect({ copies, parses }).toEqual({ copies: 0, parses: 0 });
  });

  test('an answer that breaks the contract is refused through next, every time, with the Accept list or the Content-Type set', async () => {
    const served = app((_req, res) => void res.status(201).json({ name: 'a', extra: true }));
    for (const accept of ['application/json', ' text/html , application/json', '*/*']) {
      const refused = await post(served, accept).expect(500);
      expect(refused.body.message).toMatch(/must NOT have additional properties/);
    }
    const typed = app((_req, res) => void res.status(201).type('application/json').json({ name: 1 }));
    expect((await post(typed).expect(500)).body.message).toMatch(/must be string/);
  });

  test("as the validator's own hook: a 5xx passes unjudged, json(null) is judged, an answer already sent is left alone", async () => {
    expect((await post(app((_req, res) => void res.status(500).json({ unjudged: true }))).expect(500)).body).toEqual({ unjudged: true });
    expect((await post(app((_req, res) => void res.status(204).json(null))).expect(500)).body.message).toMatch(/should NOT have a body/);
    expect((await post(app((_req, res) => void res.status(201).json(null))).expect(500)).body.message).toMatch(/body required/);
    const sentFirst = app((_req, res) => {
      res.status(201).send('{"name":"sent"}');
      res.json({ name: 'never' });
    });
    expect((await post(sentFirst).expect(201)).text).toBe('{"name":"sent"}');
  });

  test('Accept spellings: split as the validator splits them, and at most MAX_KEPT_ACCEPTS kept whatever clients send', async () => {
    expect(acceptsOf(' a/b ,c/d;q=0.5')).toEqual(['a/b', 'c/d;q=0.5']);
    expect(acceptsOf(undefined)).toEqual([]);
    const server = app((_req, res) => void res.status(201).json({ name: 'a' })).listen(0, '127.0.0.1');
    try {
      const served = supertest(server);
      for (let i = 0; i < MAX_KEPT_ACCEPTS + 4; i += 1) await served.post('/thing').set('accept', `application/json, x/hostile-${i}`).send({}).expect(201);
    } finally {
      server.close();
    }
    expect(keptAcceptLists()).toBeLessThanOrEqual(MAX_KEPT_ACCEPTS);
    expect(acceptsOf(`application/json, x/${'y'.repeat(200)}`)).toHaveLength(2); // a long spelling is split, not kept
  });

  test('a validator without the method or its error class changes nothing and says so', () => {
    expect(installResponseHook(() => ({ InternalServerError: class {}, ResponseValidator: { prototype: {} } }))).toBe(false);
    expect(installResponseHook(() => undefined)).toBe(false);
  });
});
