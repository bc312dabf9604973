// Assertions against the admin API's own document (src/admin/openapi.yaml, bundled by
// readAdminContract) with an Ajv of our own, independent of the server's validator: a test that
// reads an admin response also proves the status is documented and the body is what it allows.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';
import type { Response } from 'supertest';
import { readAdminContract } from '../../src/contract/package-files.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export const adminContract = readAdminContract();
const document = adminContract.document as unknown as {
  paths: Record<string, Record<string, { responses?: Record<string, unknown> } | undefined>>;
};
const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
ajv.addSchema(adminContract.document as object, 'admin');

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** RFC 6901: '/' and '~' escaped in one pointer segment. */
const segment = (value: string): string => value.replace(/~/g, '~0').replace(/\//g, '~1');

interface ResponseSpec {
  content?: Record<string, { schema?: unknown }>;
}

/** The documented response (following one $ref) and the JSON pointer of its JSON schema, if any. */
function documentedResponse(method: Method, pathTemplate: string, status: number): { pointer: string | null } {
  const pathItem = document.paths[pathTemplate];
  if (!pathItem) throw new Error(`the admin document has no path ${pathTemplate}`);
  const operation = pathItem[method.toLowerCase()];
  if (!operation?.responses) throw new Error(`the admin document has no ${method} ${pathTemplate}`);
  const documented = Object.keys(operation.responses);
  expect(documented, `${method} ${pathTemplate} answered ${status}, documented: ${documented.join(', ')}`).toContain(String(status));
  let pointer = `#/paths/${segment(pathTemplate)}/${method.toLowerCase()}/responses/${status}`;
  let response = operation.responses[String(status)] as ResponseSpec & { $ref?: string };
  if (response.$ref) {
    pointer = response.$ref;
    const [, ...parts] = response.$ref.split('/');
    response = parts.reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], adminContract.document) as ResponseSpec;
  }
  return { pointer: response.content?.['application/json']?.schema ? `${pointer}/content/application~1json/schema` : null };
}

const validators = new Map<string, ValidateFunction>();
function validatorAt(pointer: string): ValidateFunction {
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.getSchema(`admin${pointer}`);
    if (!validate) throw new Error(`no schema at ${pointer} in the admin document`);
    validators.set(pointer, validate);
  }
  return validate;
}

/** A regular expression for a path template: '/__admin/links/{id}/clicks' → ^/__admin/links/[^/]+/clicks$ */
function templatePattern(pathTemplate: string): RegExp {
  const escaped = pathTemplate.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
  return new RegExp(`^${escaped}$`);
}

/**
 * The response's status is documented for this operation of the admin document, and its body is
 * what the document allows: JSON matching the schema, or nothing for a response without content.
 */
export function expectAdminResponse(res: Response, method: Method, pathTemplate: string): void {
  const sentPath = (res as unknown as { req?: { path?: string } }).req?.path;
  if (sentPath !== undefined) expect(sentPath.split('?')[0], 'the request matches the path template').toMatch(templatePattern(pathTemplate));
  const { pointer } = documentedResponse(method, pathTemplate, res.status);
  if (pointer === null) {
    expect(res.text ?? '', `${method} ${pathTemplate} ${res.status} has no body`).toBe('');
    return;
  }
  expect(res.headers['content-type'], `${method} ${pathTemplate} ${res.status} is JSON`).toMatch(/^application\/json/);
  const validate = validatorAt(pointer);
  const problems = validate(res.body) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`);
  expect(problems, `${method} ${pathTemplate} ${res.status}: ${JSON.stringify(res.body)}`).toEqual([]);
}
