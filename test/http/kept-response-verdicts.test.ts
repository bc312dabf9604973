// The response validator's kept verdicts (src/http/validator-fixes/kept-response-verdicts.ts): a GET
// answer whose bytes the same compiled validator judged valid before is not walked again; every
// other answer is judged as before, an invalid one every time, and the text judged is the text sent.
import express, { type Express } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import supertest from 'supertest';
import { beforeEach, describe, expect, test } from 'vitest';
import { validatorFixes } from '../../src/http/validator-fixes/installed.js';
import {
  installKeptResponseVerdicts,
  keptResponseVerdicts,
  MAX_KEPT_RESPONSE_CHARS,
  MAX_KEPT_RESPONSE_VERDICTS,
} from '../../src/http/validator-fixes/kept-response-verdicts.js';
import { directJson } from '../../src/http/json-answer.js';

/** A contract of one GET and one POST answering a Thing, whose `name` has a format that counts its judgements. */
const SPEC = {
  openapi: '3.0.3',
  info: { title: 'kept verdicts', version: '1' },
  paths: Object.fromEntries(
    ['/thing', '/other'].map((path) => [
      path,
      Object.fromEntries(['get', 'post'].map((method) => [method, { responses: { '200': { description: 'a thing', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } } }])),
    ]),
  ),
  components: {
    schemas: {
      Thing: {
        type: 'object',
        additionalProperties: false,
        required: ['name'],
        properties: { name: { type: 'string', format: 'counted', maxLength: 80_000 }, at: { type: 'string' } },
      },
    },
  },
};

let judged = 0;
/** What the handlers answer next. */
let answer: unknown;

function app(): Express {
  const made = express();
  made.response.json = directJson(made.response.json);
  made.use(
    ...(OpenApiValidator.middleware({
      apiSpec: structuredClone(SPEC) as never,
      validateApiSpec: false,
      validateRequests: true,
      validateResponses: true,
      formats: { counted: (text: string) => (judged += 1) > 0 && text !== 'refused' },
    }) as unknown as express.RequestHandler[]),
  );
  made.all(['/thing', '/other'], (_req, res) => void res.json(answer));
  made.use(((error, _req, res, _next) => void res.status((error as { status?: number }).status ?? 500).json({ message: (error as Error).message })) as express.ErrorRequestHandler);
  return made;
}

let served: supertest.Agent;
beforeEach(() => {
  judged = 0;
  served = supertest.agent(app());
});

describe("the response validator's kept verdicts (kept-response-verdicts.ts)", () => {
  test('are in place', () => {
    expect(validatorFixes.keptResponseVerdicts).toBe(true);
    expect(installKeptResponseVerdicts()).toBe(true); // a second install wraps nothing twice
  });

  test('a GET answer judged valid before is not judged again; its bytes are the text judged', async () => {
    answer = { name: 'first' };
    const first = await served.get('/thing').expect(200);
    const seen = judged;
    expect(seen).toBeGreaterThan(0);
    answer = { name: 'first' }; // a new object, the same bytes
    const second = await served.get('/thing').expect(200);
    expect(judged).toBe(seen);
    expect(second.text).toBe(first.text);
    expect(second.text).toBe(JSON.stringify(answer));
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  test('other bytes, another route and a POST are judged every time', async () => {
    answer = { name: 'same' };
    await served.get('/thing').expect(200);
    let before = judged;
    await served.get('/other').expect(200);
    expect(judged).toBeGreaterThan(before);
    before = judged;
    answer = { name: 'changed' };
    await served.get('/thing').expect(200);
    expect(judged).toBeGreaterThan(before);
    for (let i = 0; i < 2; i += 1) {
      before = judged;
      answer = { name: 'same' };
      await served.post('/thing').expect(200);
      expect(judged).toBe(before + 1);
    }
  });

  test('an invalid answer is refused every time, also after valid answers of the same route were kept', async () => {
    answer = { name: 'fine' };
    await served.get('/thing').expect(200);
    await served.get('/thing').expect(200);
    answer = { name: 'refused' };
    for (let i = 0; i < 3; i += 1) expect((await served.get('/thing').expect(500)).text).toContain('must match format');
    answer = { name: 7 };
    await served.get('/thing').expect(500);
    answer = { name: 'fine' };
    await served.get('/thing').expect(200);
  });

  test('a body whose text is not what Ajv saw is never kept (a Date is judged as an object, sent as a string)', async () => {
    answer = { name: 'dated', at: new Date(0) };
    await served.get('/thing').expect(500); // Ajv sees an object where a string is due
    answer = { name: 'dated', at: new Date(0).toISOString() }; // the same bytes, now a string: judged afresh, and valid
    const before = judged;
    await served.get('/thing').expect(200);
    expect(judged).toBeGreaterThan(before);
  });

  test(`hostile: distinct answers keep at most ${MAX_KEPT_RESPONSE_VERDICTS} texts, and one over ${MAX_KEPT_RESPONSE_CHARS} characters is judged every time`, async () => {
    for (let i = 0; i < MAX_KEPT_RESPONSE_VERDICTS + 20; i += 1) {
      answer = { name: `distinct ${i}` };
      await served.get('/thing').expect(200);
      expect(keptResponseVerdicts()).toBeLessThanOrEqual(MAX_KEPT_RESPONSE_VERDICTS);
    }
    answer = { name: 'x'.repeat(MAX_KEPT_RESPONSE_CHARS) };
    for (let i = 0; i < 2; i += 1) {
      const before = judged;
      await served.get('/thing').expect(200);
      expect(judged).toBe(before + 1);
    }
  });
});
