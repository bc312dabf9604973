// The response validator's judgement of a contract media type (can it be validated as JSON?) made
// once per media type, not parsed again on every answer (src/http/validator-fixes/json-media-types.ts).
import supertest from 'supertest';
import '../../src/http/validator-fixes/installed.js';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { installJsonMediaTypes, MediaTypeVerdicts } from '../../src/http/validator-fixes/json-media-types.js';
import { MAX_CACHED_CONTENT_TYPES } from '../../src/http/validator-fixes/content-type-cache.js';
import { DEMO } from '../helpers/test-app.js';
import { appAnswering, validCreate as body, validatorRequire } from '../helpers/validator-app.js';

/** The content-type parser the validator's response step uses (its own copy). */
const contentTypeParser = validatorRequire('content-type') as { parse: (text: string) => { type: string } };
const { ResponseValidator } = validatorRequire('./middlewares/openapi.response.validator') as { ResponseValidator: { prototype: Record<string, unknown> } };

afterEach(() => vi.restoreAllMocks());

describe("the response validator's media type verdicts", () => {
  test('an answer of a media type judged before is not parsed again, and is still validated', async () => {
    const app = appAnswering(400, { errorDescription: 'refused' });
    for (let i = 0; i < 2; i += 1) await supertest(app).post('/links').set('x-api-key', DEMO).send(body).expect(400);
    const parse = vi.spyOn(contentTypeParser, 'parse');
    for (let i = 0; i < 3; i += 1) await supertest(app).post('/links').set('x-api-key', DEMO).send(body).expect(400);
    expect(parse).not.toHaveBeenCalled();
    // Still judged: an answer that breaks the contract is refused, every time.
    const wrong = appAnswering(201, { errorDescription: 'not a link' });
    for (let i = 0; i < 2; i += 1) expect((await supertest(wrong).post('/links').set('x-api-key', DEMO).send(body).expect(500)).body.message).toMatch(/^\/response/);
  });

  test("the verdicts are the validator's; a type it cannot parse still throws, every time; at most MAX_CACHED_CONTENT_TYPES kept", () => {
    const canValidate = (type: string): boolean => (ResponseValidator.prototype['canValidateContentType'] as (type: string) => boolean)(type);
    const verdicts = ['application/json', 'application/problem+json', 'text/plain', 'application/json; charset=utf-8'];
    for (let i = 0; i < 2; i += 1) expect(verdicts.map(canValidate)).toEqual([true, true, false, true]);
    for (let i = 0; i < 2; i += 1) expect(() => canValidate('not a type')).toThrow(/invalid media type/);
    let asked = 0;
    const kept = new MediaTypeVerdicts();
    const judgeOnce = (type: string): boolean => ((asked += 1), type.endsWith('json'));
    const types = Array.from({ length: MAX_CACHED_CONTENT_TYPES + 20 }, (_, i) => `application/x${i}+json`);
    const judge = (type: string): boolean => {
      const known = kept.get(type);
      if (known !== undefined) return known;
      const verdict = judgeOnce(type);
      kept.keep(type, verdict);
      return verdict;
    };
    for (let i = 0; i < 2; i += 1) for (const type of types) expect(judge(type)).toBe(true);
    expect(asked).toBe(MAX_CACHED_CONTENT_TYPES + 2 * 20);
    expect(kept.size).toBe(MAX_CACHED_CONTENT_TYPES);
  });

  test('a validator without the method changes nothing: false, and installing again wraps nothing twice', () => {
    expect(installJsonMediaTypes(() => undefined)).toBe(false);
    const method = ResponseValidator.prototype['canValidateContentType'];
    expect(installJsonMediaTypes()).toBe(true);
    expect(ResponseValidator.prototype['canValidateContentType']).toBe(method);
  });
});
