// Assertions against openapi.yaml's schemas with our own Ajv, independent of the server's
// validator: a test that reads a body also proves that body is what the contract allows.
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';
import type { Response } from 'supertest';
import { contract } from './test-app.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
ajv.addSchema(contract.document as object, 'openapi');

function schemaCheck(name: string, body: unknown): string[] {
  const validate = ajv.getSchema(`openapi#/components/schemas/${name}`);
  if (!validate) throw new Error(`no schema ${name} in openapi.yaml`);
  return validate(body) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
}

export function expectMatchesSchema(name: string, body: unknown): void {
  expect(schemaCheck(name, body), `${name}: ${JSON.stringify(body)}`).toEqual([]);
}

export interface ExpectedError {
  code?: string;
  /** A part of errorDescription, e.g. the field or value it must name. */
  mentions?: string | RegExp;
}

/** The response is an Error object of the spec, with this status. */
export function expectError(res: Response, status: number, expected: ExpectedError = {}): void {
  expect({ status: res.status, body: res.body as unknown }).toMatchObject({ status });
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expectMatchesSchema('Error', res.body);
  const body = res.body as { code?: string; errorDescription: string };
  expect(body.code).toBe(expected.code);
  if (expected.mentions) expect(body.errorDescription).toMatch(expected.mentions);
}

/** The response is a Link of the spec, with this status. */
export function expectLink(res: Response, status: number): void {
  expect({ status: res.status, body: res.body as unknown }).toMatchObject({ status });
  expectMatchesSchema('Link', res.body);
}
