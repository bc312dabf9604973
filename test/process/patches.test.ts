// patches/ is applied by patch-package when `npm ci` runs. If it was not (a failed postinstall, an
// upgraded validator the patch no longer fits), nothing breaks but every request gets slower, so
// this test makes the silent case loud.
import { createRequire } from 'node:module';
import { afterEach, describe, expect, test } from 'vitest';
import { createTestApp, DEMO } from '../helpers/test-app.js';

// The very path-to-regexp instance express-openapi-validator requires.
const validatorRequire = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
const pathToRegexpModule = validatorRequire('path-to-regexp') as { pathToRegexp: (...args: unknown[]) => unknown };
const original = pathToRegexpModule.pathToRegexp;
// The module whose export the validator's start-up reads when it checks the document.
const schemaValidatorModule = validatorRequire('./framework/openapi.schema.validator') as { OpenAPISchemaValidator: new (...args: unknown[]) => object };
const OriginalSchemaValidator = schemaValidatorModule.OpenAPISchemaValidator;

afterEach(() => {
  pathToRegexpModule.pathToRegexp = original;
  schemaValidatorModule.OpenAPISchemaValidator = OriginalSchemaValidator;
});

describe('patches/express-openapi-validator', () => {
  test("the validator's route lookup compiles each route once, not on every request", async () => {
    let compiled = 0;
    pathToRegexpModule.pathToRegexp = (...args: unknown[]) => {
      compiled += 1;
      return original(...args);
    };
    const t = await createTestApp();
    const update = { destinationUrl: 'https://example.com/x', tags: [] };
    await t.request.put('/links/lnk_warmUp').set('x-api-key', DEMO).send(update).expect(404);
    const afterFirst = compiled;
    expect(afterFirst).toBeGreaterThan(0); // the counter does see the validator's calls

    for (let i = 0; i < 5; i += 1) {
      await t.request.put(`/links/lnk_missing${i}`).set('x-api-key', DEMO).send(update).expect(404);
      await t.request.post('/links').set('x-api-key', DEMO).send({}).expect(400);
    }
    expect(compiled).toBe(afterFirst + 1); // POST /links compiled its own route once, nothing more
  });

  test('with validateApiSpec off, start-up does not compile the OpenAPI meta-schema validator', async () => {
    let built = 0;
    schemaValidatorModule.OpenAPISchemaValidator = class extends OriginalSchemaValidator {
      constructor(...args: unknown[]) {
        super(...args);
        built += 1;
      }
    };
    const t = await createTestApp();
    // The validator initialises on the first request through it: this one does.
    await t.request.post('/links').set('x-api-key', DEMO).send({}).expect(400);
    expect(built).toBe(0);
  });
});
