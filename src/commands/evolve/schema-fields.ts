// The fields of an operation's request body and of each of its answers' bodies, flattened for the
// spec-diff rules: body pointer (array items as `*`: /tags/*/name) → the field's schema, with
// $refs followed and allOf merged. Bounded in depth (a recursive schema stops) and in count.
import type { Contract } from '../../core/contract-types.js';
import { resolve } from './operation-view.js';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const MAX_FIELD_DEPTH = 10;
const MAX_FIELDS = 2000;

export interface Field {
  /** The schema, $ref followed and allOf merged. */
  schema: Json;
  /** Whether its parent object requires it. */
  required: boolean;
}

export type Fields = Map<string, Field>;

export interface OperationShape {
  operationId: string;
  method: string;
  path: string;
  /** The spec pointer of the operation: /paths/~1links~1{id}/delete. */
  pointer: string;
  /** The operation's own node, for rules that read more (security, parameters). */
  node: Json;
  /** The path item's node. */
  item: Json;
  request?: Fields;
  responses: Map<string, Fields | undefined>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
export const escapePointer = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every operation of the contract, keyed `METHOD template` (the key stays when an operationId is renamed). */
export function operationShapes(contract: Contract): Map<string, OperationShape> {
  const document = contract.document as unknown as Json;
  const shapes = new Map<string, OperationShape>();
  const paths = isObject(document['paths']) ? document['paths'] : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = resolve(document, rawItem) ?? {};
    for (const method of METHODS) {
      const node = item[method];
      if (!isObject(node)) continue;
      const operationId = typeof node['operationId'] === 'string' ? node['operationId'] : `${method.toUpperCase()} ${path}`;
      const responses = new Map<string, Fields | undefined>();
      for (const [status, response] of Object.entries(isObject(node['responses']) ? node['responses'] : {})) responses.set(status, bodyFields(document, response));
      const request = bodyFields(document, node['requestBody']);
      shapes.set(`${method.toUpperCase()} ${path}`, { operationId, method: method.toUpperCase(), path, pointer: `/paths/${escapePointer(path)}/${method}`, node, item, ...(request ? { request } : {}), responses });
    }
  }
  return shapes;
}

function bodyFields(document: Json, node: unknown): Fields | undefined {
  const body = resolve(document, node);
  const content = isObject(body?.['content']) ? body['content'] : undefined;
  const json = content && isObject(content['application/json']) ? content['application/json'] : undefined;
  if (!json || !isObject(json['schema'])) return undefined;
  const fields: Fields = new Map();
  walk(document, json['schema'], '', fields, 0);
  return fields;
}

/** The schema with its $ref followed and its allOf parts' properties and required merged in. */
export function merged(document: Json, node: unknown, depth = 0): Json {
  const schema = resolve(document, node) ?? {};
  if (!Array.isArray(schema['allOf']) || depth > MAX_FIELD_DEPTH) return schema;
  const parts = schema['allOf'].map((part) => merged(document, part, depth + 1));
  const properties = Object.assign({}, ...parts.map((part) => (isObject(part['properties']) ? part['properties'] : {})), isObject(schema['properties']) ? schema['properties'] : {}) as Json;
  const required = [...parts.flatMap((part) => (Array.isArray(part['required']) ? part['required'] : [])), ...(Array.isArray(schema['required']) ? schema['required'] : [])];
  const rest = Object.assign({}, ...parts, schema) as Json;
  return { ...rest, properties, required };
}

function walk(document: Json, node: unknown, at: string, fields: Fields, depth: number): void {
  if (depth > MAX_FIELD_DEPTH || fields.size >= MAX_FIELDS) return;
  const schema = merged(document, node);
  if (isObject(schema['items'])) walk(document, schema['items'], `${at}/*`, fields, depth + 1);
  if (!isObject(schema['properties'])) return;
  const required = new Set(Array.isArray(schema['required']) ? schema['required'] : []);
  for (const [name, property] of Object.entries(schema['properties'])) {
    if (fields.size >= MAX_FIELDS) return;
    const pointer = `${at}/${escapePointer(name)}`;
    fields.set(pointer, { schema: merged(document, property), required: required.has(name) });
    walk(document, property, pointer, fields, depth + 1);
  }
}
