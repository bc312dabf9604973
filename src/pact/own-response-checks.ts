// The engine's part of `pact check`, made by the mock's own validators when swagger-mock-validator
// (an optional dependency) cannot be loaded, so that no expected response goes unjudged:
//  - the expected status is documented for the operation (createLink 409 and deleteLink 200 are not);
//  - a body expected for a status that documents none is refused;
//  - a body for a status with a JSON schema: its Content-Type, when the pact gives one, is JSON;
//    the body is valid against the schema with Pact's partial-body semantics, as the engine reads
//    it (check.ts): a field the schema lacks is refused, a required field the pact leaves out is
//    not (a provider that answers more than the pact lists passes verification), so Ajv's
//    'required' errors alone are dropped. A schema object that does not say whether it takes other
//    fields is read as closed, as the engine reads it (closedObjects), so that a --contract without
//    `additionalProperties: false` is judged alike.
// Codes and messages are the engine's own, so a report reads the same with either judge.
import type { ErrorObject } from 'ajv';
import { fieldPath, itemCount, type ResponseChecker } from '../contract/response-checker.js';
import type { OpenApiDocument } from '../core/contract-types.js';
import { preview, type Finding } from './finding.js';
import type { PactInteraction } from './pact-file.js';

type HttpInteraction = Extract<PactInteraction, { kind: 'http' }>;
export type ResponseFinding = Pick<Finding, 'side' | 'field' | 'code' | 'message'>;

/** The problems of the interaction's expected response, for an operation the contract has. */
export function responseFindings(checker: ResponseChecker, { response }: HttpInteraction, operationId: string): ResponseFinding[] {
  const { status, headers, body } = response;
  const documented = checker.operation(operationId).statuses;
  if (!documented.includes(status)) {
    return [{ side: 'response', field: 'status', code: 'response.status.unknown', message: `${status} is not documented for this operation (documented: ${documented.join(', ')})` }];
  }
  if (body === undefined) return [];
  if (!checker.documentsBody(operationId, status)) {
    return [{ side: 'response', field: 'body', code: 'response.body.unknown', message: 'the contract documents no body for this status, the pact expects one' }];
  }
  const contentType = headers['content-type'];
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  const notJson = mediaType !== undefined && mediaType !== 'application/json' && !mediaType.endsWith('+json');
  const typeFinding: ResponseFinding[] = notJson
    ? [{ side: 'response', field: 'header content-type', code: 'response.content-type.incompatible', message: `'${contentType}' is not a content type the contract gives for ${status} (application/json)` }]
    : [];
  const partial = checker.responseBodyErrors(operationId, status, body).filter((error) => error.keyword !== 'required');
  return [...typeFinding, ...partial.map(bodyFinding)];
}

/** An Ajv error as the engine words it: the field by its path, the value it got. */
function bodyFinding(error: ErrorObject): ResponseFinding {
  const field = fieldPath('body', error.instancePath);
  const at = { side: 'response' as const, field, code: 'response.body.incompatible' };
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') return { ...at, message: `has unexpected field '${String(params['additionalProperty'])}' (the schema does not define it)` };
  if (error.keyword === 'maxItems') return { ...at, message: `${error.message ?? 'has too many items'} (got ${itemCount(error.data)})` };
  if (error.keyword === 'enum' && Array.isArray(params['allowedValues'])) return { ...at, message: `must be one of ${params['allowedValues'].join(', ')} (got ${preview(error.data)})` };
  return { ...at, message: `${error.message ?? 'is invalid'} (got ${preview(error.data)})` };
}

/** Keys whose values are data, not schemas. */
const DATA = new Set(['example', 'examples', 'default', 'enum', 'const']);
/** Keys whose members are parts of one schema: closing a part would refuse the other parts' fields. */
const PARTS = new Set(['allOf', 'anyOf', 'oneOf']);

/** A copy of the document in which every object schema with properties and no additionalProperties refuses other fields. */
export function closedObjects(document: OpenApiDocument): OpenApiDocument {
  const close = (node: unknown, isPart: boolean): unknown => {
    if (Array.isArray(node)) return node.map((item) => close(item, isPart));
    if (typeof node !== 'object' || node === null) return node;
    const copy = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, DATA.has(key) ? value : close(value, PARTS.has(key))]));
    if (!isPart && 'properties' in copy && !('additionalProperties' in copy)) copy['additionalProperties'] = false;
    return copy;
  };
  return close(document, false) as OpenApiDocument;
}
