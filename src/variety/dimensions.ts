// Every dimension of variety, named `<operationId>.<field or part>:<variant>`, built from the
// contract: a body dimension for each variant a field's schema allows (variants.ts), the id's shape
// for an operation that creates (a 201 with an `id` of a maxLength), and the HTTP envelope of every
// operation that answers JSON.
import { operationAnswers, type FieldFreedom } from './contract-fields.js';
import { VARIANTS, type Variant } from './variants.js';

export interface BodyDimension {
  kind: 'body';
  name: string;
  operationId: string;
  field: string;
  variant: Variant;
  freedom: FieldFreedom;
  /** The statuses whose body has the field. */
  statuses: number[];
  description: string;
  /** A next contract's new field (next-dimensions.ts): left out of the answer while the dimension is off. */
  withheldWhenOff?: boolean;
}

/** A status only a next contract documents, answered instead of the usual one (next-dimensions.ts). */
export interface StatusDimension {
  kind: 'status';
  name: string;
  operationId: string;
  /** `/responses/<status>`. */
  field: string;
  variant: 'forced';
  status: number;
  /** Its body (undefined: none). */
  body: unknown;
  description: string;
}

export type IdShape = 'longest' | 'uuid';
export type EnvelopePart = 'content-type:no-charset' | 'framing:chunked' | 'encoding:gzip';

export interface OtherDimension {
  kind: 'id' | 'envelope';
  name: string;
  operationId: string;
  /** The field or part the dimension varies: `id`, `content-type`, `framing`, `encoding`. */
  field: string;
  variant: string;
  description: string;
  /** An id shape's length at most: the schema's maxLength. */
  maxLength?: number;
}

export type Dimension = BodyDimension | OtherDimension | StatusDimension;

const ENVELOPE: readonly { part: string; variant: string; description: string }[] = [
  { part: 'content-type', variant: 'no-charset', description: 'Content-Type application/json without "; charset=utf-8"' },
  { part: 'framing', variant: 'chunked', description: 'the body sent chunked (Transfer-Encoding) instead of with a Content-Length' },
  { part: 'encoding', variant: 'gzip', description: 'the body gzip-compressed, when the request\'s Accept-Encoding allows gzip' },
];

const UUID_LENGTH = 36;

export function buildDimensions(document: unknown): Dimension[] {
  const dimensions: Dimension[] = [];
  for (const { operationId, statuses } of operationAnswers(document)) {
    const seen = new Map<string, BodyDimension>();
    for (const { status, fields } of statuses) {
      for (const freedom of fields) {
        for (const variant of VARIANTS) {
          const name = `${operationId}.${freedom.field}:${variant.name}`;
          const known = seen.get(name);
          if (known) known.statuses.push(status);
          if (known || !variant.appliesTo(freedom)) continue;
          const dimension: BodyDimension = { kind: 'body', name, operationId, field: freedom.field, variant, freedom, statuses: [status], description: variant.description(freedom.field, freedom) };
          seen.set(name, dimension);
          dimensions.push(dimension);
        }
        if (status === 201 && freedom.field === 'id') dimensions.push(...idShapes(operationId, freedom));
      }
    }
    if (statuses.some((answer) => answer.fields.length > 0)) {
      for (const { part, variant, description } of ENVELOPE) dimensions.push({ kind: 'envelope', name: `${operationId}.${part}:${variant}`, operationId, field: part, variant, description });
    }
  }
  return dimensions;
}

/** A created resource's id in another shape its schema allows; the store keeps it from then on. */
function idShapes(operationId: string, { schema }: FieldFreedom): OtherDimension[] {
  const shapes: OtherDimension[] = [];
  const max = schema.maxLength;
  if (schema.type !== 'string' || schema.pattern || max === undefined) return shapes;
  shapes.push({ kind: 'id', name: `${operationId}.id:longest`, operationId, field: 'id', variant: 'longest', maxLength: max, description: `a created link's id of ${max} characters, the longest the contract allows (kept from then on)` });
  if (max >= UUID_LENGTH) shapes.push({ kind: 'id', name: `${operationId}.id:uuid`, operationId, field: 'id', variant: 'uuid', maxLength: max, description: "a created link's id shaped like a UUID (kept from then on)" });
  return shapes;
}
