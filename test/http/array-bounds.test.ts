// An array over its maxItems is refused by its length, before the validator walks its items
// (src/http/validator-fixes/array-bounds.ts; docs/options.md, Limits). Untimed, so that
// `npm run test:quick` sees the refusal go: the timed test/http/validation-cost.test.ts measures
// what it saves. And the refusal must keep reading as the validator's own maxItems error, which a
// validator upgrade could reshape: compared here with what the validator itself says.
import type { RequestHandler } from 'express';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { contractValidator } from '../../src/http/validator.js';
import { toApiError, type HttpLikeError } from '../../src/http/errors.js';
import { contract, createTestApp, DEMO } from '../helpers/test-app.js';
import { refusalCatcher } from '../helpers/validator-app.js';

const LINK = { destinationUrl: 'https://e.test/', domain: 'short.test' };
const TOO_MANY = "request body: 'tags' must NOT have more than 50 items";

describe('an array over its maxItems', () => {
  it('51 tags that are all numbers: refused for its length alone, no word about any item', async () => {
    // The validator with allErrors (a body this small) would also say each item is not an object.
    const t = await createTestApp();
    const tags = Array.from({ length: 51 }, (_, i) => i);
    const res = await t.request.post('/links').set('x-api-key', DEMO).send({ ...LINK, tags });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errorDescription: TOO_MANY });
  });

  it("the refusal is the validator's own maxItems error, field for field", async () => {
    const tags = Array.from({ length: 51 }, (_, i) => ({ name: `tag ${i}` }));
    const [refuse, ...validator] = contractValidator(contract.document);
    const ours = await errorFrom([refuse as RequestHandler], { ...LINK, tags });
    const theirs = await errorFrom(validator, { ...LINK, tags });
    const item = theirs.errors?.find((found) => found.errorCode === 'maxItems.openapi.validation');
    expect(item).toBeDefined();
    // The validator's own list holds only this item for these tags; its summary `message` is not what a client reads.
    expect(theirs.errors).toEqual([item]);
    expect({ ...ours, message: undefined }).toEqual({ ...theirs, message: undefined });
    expect(toApiError(ours)).toEqual(toApiError(theirs));
    expect(toApiError(ours).errorDescription).toBe(TOO_MANY);
  });
});

/** What `steps` hand to next() for a POST /links with `body` (they run as in the app, after the body parser). */
async function errorFrom(steps: RequestHandler[], body: object): Promise<HttpLikeError> {
  const { app, refusal } = refusalCatcher(steps, 'createLink');
  await supertest(app).post('/links').set('x-api-key', DEMO).send(body).expect(418);
  return refusal();
}
