// How a contract FILE is served, compared with the contract the rules were written for (the shipped
// openapi.yaml), decided once at start (D32): each operation `rule` (createLink, updateLink, deleteLink
// still in FILE: every rule of today), `store` (a read of one link, or a list of the account's links,
// answered from the store), `generated` (any other new operation, answered from its schema) or `gone`
// (in the shipped contract, not in FILE); and each field of a Link answer and of the two rule-served
// request bodies that FILE adds or removes, by its JSON pointer. Pure: two documents in, data out.
import type { OpenApiDocument } from './contract-types.js';
import { escapePointer, schemaAt, type SchemaAt } from './schema-pointer.js';

export type OperationServed = 'rule' | 'store' | 'generated' | 'gone';

export interface ServedOperation {
  operationId: string;
  method: string;
  path: string;
  served: OperationServed;
  /** `store` only: one link by its id, or a page of the account's links. */
  read?: 'one' | 'list';
  /** `list` only: the member holding the links, or absent when the answer is the array itself. */
  itemsField?: string;
}

/** A field FILE adds or removes. `generated`: a new Link field, made from its schema (and taken from the request when sent). */
export type FieldServed = 'generated' | 'request' | 'ignored' | 'gone';

export interface ServedField {
  /** In FILE for what it adds; in the shipped contract for what it removes. */
  pointer: string;
  name: string;
  /** 'Link' or the operation whose request body it is. */
  of: 'Link' | 'createLink' | 'updateLink';
  served: FieldServed;
  /** A new Link field FILE requires. */
  required?: boolean;
}

export interface ContractClasses {
  operations: ServedOperation[];
  fields: ServedField[];
}

/** The operations whose rules the mock has: kept as long as FILE keeps them. */
export const RULE_OPERATIONS: readonly string[] = ['createLink', 'updateLink', 'deleteLink'];
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

export function classifyContract(shipped: OpenApiDocument, next: OpenApiDocument): ContractClasses {
  const before = operationsOf(shipped);
  const after = operationsOf(next);
  const link = linkSchema(next);
  const operations: ServedOperation[] = after.map((operation) => ({ ...pick(operation), ...servedAs(operation, next, link, before) }));
  for (const operation of before) if (!after.some((kept) => kept.operationId === operation.operationId)) operations.push({ ...pick(operation), served: 'gone' });
  return { operations, fields: fieldsOf(shipped, next, operations) };
}

interface Operation {
  operationId: string;
  method: string;
  path: string;
  node: Record<string, unknown>;
}

function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((method) => typeof item?.[method] === 'object' && item[method] !== null).map((method) => {
      const node = item[method] as Record<string, unknown>;
      return { operationId: typeof node['operationId'] === 'string' ? node['operationId'] : `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, node };
    }),
  );
}

const pick = ({ operationId, method, path }: Operation) => ({ operationId, method, path });

function servedAs(operation: Operation, document: OpenApiDocument, link: SchemaAt | undefined, before: Operation[]): Pick<ServedOperation, 'served' | 'read' | 'itemsField'> {
  if (RULE_OPERATIONS.includes(operation.operationId) && before.some((known) => known.operationId === operation.operationId)) return { served: 'rule' };
  if (operation.method !== 'GET' || !link) return { served: 'generated' };
  const answer = successSchema(document, operation);
  if (!answer) return { served: 'generated' };
  if (/^\/links\/\{[^}/]+\}$/.test(operation.path) && sameSchema(answer, link)) return { served: 'store', read: 'one' };
  if (operation.path === '/links') {
    if (isArrayOf(document, answer, link)) return { served: 'store', read: 'list' };
    const member = Object.entries(properties(answer)).find(([, schema]) => isArrayOf(document, schemaAt(document, schema, ''), link));
    if (member) return { served: 'store', read: 'list', itemsField: member[0] };
  }
  return { served: 'generated' };
}

/** The Link schema: createLink's 201 answer in FILE, else components.schemas.Link. */
export function linkSchema(document: OpenApiDocument): SchemaAt | undefined {
  const create = operationsOf(document).find((operation) => operation.operationId === 'createLink');
  const fromCreate = create && successSchema(document, create, '201');
  if (fromCreate) return fromCreate;
  const components = (document['components'] as { schemas?: Record<string, unknown> } | undefined)?.schemas;
  return components?.['Link'] === undefined ? undefined : schemaAt(document, components['Link'], '/components/schemas/Link');
}

/** The JSON schema of an operation's success answer (`status`, or its first 2xx), resolved. */
export function successSchema(document: OpenApiDocument, operation: { node: Record<string, unknown>; method: string; path: string }, status?: string): SchemaAt | undefined {
  const responses = (operation.node['responses'] ?? {}) as Record<string, unknown>;
  const code = status ?? Object.keys(responses).find((key) => /^2\d\d$/.test(key));
  if (code === undefined) return undefined;
  const base = `/paths/${escapePointer(operation.path)}/${operation.method.toLowerCase()}/responses/${code}`;
  const response = schemaAt(document, responses[code], base);
  const schema = (response?.schema['content'] as Record<string, { schema?: unknown }> | undefined)?.['application/json']?.schema;
  return schema === undefined || !response ? undefined : schemaAt(document, schema, `${response.pointer}/content/application~1json/schema`);
}

function sameSchema(a: SchemaAt, b: SchemaAt): boolean {
  return a.pointer === b.pointer || JSON.stringify(a.schema) === JSON.stringify(b.schema);
}

function isArrayOf(document: OpenApiDocument, schema: SchemaAt | undefined, link: SchemaAt): boolean {
  if (!schema || schema.schema['type'] !== 'array') return false;
  const items = schemaAt(document, schema.schema['items'], `${schema.pointer}/items`);
  return items !== undefined && sameSchema(items, link);
}

export function properties(schema: SchemaAt | undefined): Record<string, unknown> {
  return (schema?.schema['properties'] as Record<string, unknown> | undefined) ?? {};
}

function fieldsOf(shipped: OpenApiDocument, next: OpenApiDocument, operations: ServedOperation[]): ServedField[] {
  const link = linkSchema(next);
  const linkFields = Object.keys(properties(link));
  const required = new Set((link?.schema['required'] as string[] | undefined) ?? []);
  // A FILE without a Link schema says nothing of a Link's fields, so removes none: Links are shown as
  // the shipped contract has them (the admin's link pages too, judged by the shipped Link).
  const fields = link ? compared('Link', linkSchema(shipped), link, (name) => ({ served: 'generated', ...(required.has(name) ? { required: true } : {}) })) : [];
  for (const operationId of ['createLink', 'updateLink'] as const) {
    if (!operations.some((operation) => operation.operationId === operationId && operation.served === 'rule')) continue;
    fields.push(...compared(operationId, requestSchema(shipped, operationId), requestSchema(next, operationId), (name) => ({ served: linkFields.includes(name) ? 'request' : 'ignored' })));
  }
  return fields;
}

function compared(of: ServedField['of'], before: SchemaAt | undefined, after: SchemaAt | undefined, added: (name: string) => Pick<ServedField, 'served' | 'required'>): ServedField[] {
  const [old, now] = [properties(before), properties(after)];
  return [
    ...Object.keys(now).filter((name) => !(name in old)).map((name) => ({ pointer: `${after?.pointer ?? ''}/properties/${escapePointer(name)}`, name, of, ...added(name) })),
    ...Object.keys(old).filter((name) => !(name in now)).map((name) => ({ pointer: `${before?.pointer ?? ''}/properties/${escapePointer(name)}`, name, of, served: 'gone' as const })),
  ];
}

/** The JSON schema of an operation's request body, resolved. */
export function requestSchema(document: OpenApiDocument, operationId: string): SchemaAt | undefined {
  const operation = operationsOf(document).find((candidate) => candidate.operationId === operationId);
  if (!operation) return undefined;
  const base = `/paths/${escapePointer(operation.path)}/${operation.method.toLowerCase()}/requestBody`;
  const body = schemaAt(document, operation.node['requestBody'], base);
  const schema = (body?.schema['content'] as Record<string, { schema?: unknown }> | undefined)?.['application/json']?.schema;
  return schema === undefined || !body ? undefined : schemaAt(document, schema, `${body.pointer}/content/application~1json/schema`);
}
