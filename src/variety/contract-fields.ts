// The freedoms openapi.yaml leaves in each operation's answers, read from its response schemas:
// which fields are optional (not in `required`), how long a string may be (`maxLength`), what an
// integer's bounds are, which strings are date-times, which arrays have an order. The variety
// engine (dimensions.ts) turns each freedom into named dimensions; nothing here is per field by hand
// except which fields are stored facts (STORED_FACTS).
import { errorSchemaOf, NO_OPERATION_ANSWERS, NO_OPERATION_RESPONSE } from '../contract/no-operation.js';

export interface FieldSchema {
  description?: string;
  type?: string;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  enum?: unknown[];
  /** OpenAPI 3.0's: null is a value too. */
  nullable?: boolean;
  items?: FieldSchema;
  properties?: Record<string, FieldSchema>;
  required?: string[];
  allOf?: FieldSchema[];
  $ref?: string;
}

export interface FieldFreedom {
  /** The top-level field of the answer body. */
  field: string;
  schema: FieldSchema;
  optional: boolean;
}

export interface OperationAnswers {
  operationId: string;
  /** Every documented status, with its body's fields ([] when it has no body). */
  statuses: { status: number; fields: FieldFreedom[] }[];
}

/**
 * The state is the truth (issue 26): these fields hold what the store holds, so only freedoms that
 * keep their value apply to them (another form of the same instant, another order of the same
 * tags, and an id's shape when the link is created).
 */
export const STORED_FACTS: ReadonlySet<string> = new Set(['id', 'createdAt', 'slug', 'destinationUrl', 'domain', 'shortUrl', 'tags']);

/**
 * A field whose values are an `enum` (Error.code) names a condition: each value is sent exactly when
 * the contract says (LINK_LIMIT_REACHED on the link-limit refusal, D5), so dropping it or adding it
 * would say another thing, not the same thing otherwise. Read from the schema, not from the name.
 */
export const isCode = (freedom: FieldFreedom): boolean => Array.isArray(freedom.schema.enum);

interface Document {
  paths?: Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Every operation of the document with the fields of each documented answer, and the answers that are no operation. */
export function operationAnswers(document: unknown): OperationAnswers[] {
  const doc = document as Document;
  const found: OperationAnswers[] = [];
  for (const item of Object.values(doc.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation?.operationId) continue;
      const statuses = Object.entries(operation.responses ?? {}).map(([status, response]) => ({ status: Number(status), fields: bodyFields(document, response) }));
      found.push({ operationId: operation.operationId, statuses });
    }
  }
  // The answers that are no operation (a 404 for a path the API lacks, a 405): Error objects.
  if (errorSchemaOf(document) === undefined) return found;
  for (const { operationId, status } of NO_OPERATION_ANSWERS) found.push({ operationId, statuses: [{ status, fields: bodyFields(document, NO_OPERATION_RESPONSE) }] });
  return found;
}

function bodyFields(document: unknown, response: unknown): FieldFreedom[] {
  const resolved = resolve(document, response) as { content?: Record<string, { schema?: FieldSchema }> };
  const schema = resolved.content?.['application/json']?.schema;
  if (!schema) return [];
  const body = resolve(document, schema) as FieldSchema;
  const required = new Set(body.required ?? []);
  return Object.entries(body.properties ?? {}).map(([field, property]) => ({ field, schema: merged(document, property), optional: !required.has(field) }));
}

/** A property's schema with its $ref followed and its allOf parts folded in (the facets variants read). */
function merged(document: unknown, schema: FieldSchema): FieldSchema {
  const own = resolve(document, schema) as FieldSchema;
  const parts = (own.allOf ?? []).map((part) => merged(document, part));
  const items = own.items ? { items: merged(document, own.items) } : {};
  return Object.assign({}, ...parts, own, items) as FieldSchema;
}

function resolve(document: unknown, node: unknown): unknown {
  const ref = (node as { $ref?: string } | undefined)?.$ref;
  if (!ref) return node ?? {};
  const target = ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);
  return resolve(document, target);
}
