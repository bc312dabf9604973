// Variety's dimensions of a next contract (a mock serving --contract NEXT with --variety-from FROM):
// what an answer of NEXT may newly be, measured against today's contract FROM, each a dimension
// named `next.<operationId>.<pointer>:<variant>` that the robustness runner turns on like any other:
//   - present:        a field NEXT adds to an answer, optional there, sent (off: left out, as today);
//   - new-enum-value: a field whose enum NEXT widens, set to the first new value;
//   - null:           a field NEXT makes nullable, sent as null;
//   - absent:         a field NEXT no longer requires, left out;
//   - forced:         a status NEXT newly documents for an operation, answered instead of the usual
//                     one, with its example (or a sample of its schema) as the body.
// Read from the answers' top-level fields, as every other body dimension (contract-fields.ts); an
// operation only NEXT has is new as a whole, and not varied here.
import { exampleAnswerBody } from '../contract/generated-answers.js';
import type { OpenApiDocument } from '../core/contract-types.js';
import { escapePointer } from '../core/schema-pointer.js';
import { operationAnswers, type FieldFreedom, type OperationAnswers } from './contract-fields.js';
import type { BodyDimension, StatusDimension } from './dimensions.js';
import { ABSENT, NO_CHANGE, type Variant } from './variants.js';

export const NEXT_PREFIX = 'next.';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Every next dimension of `next` against `from`, in the order of NEXT's operations, statuses and fields. */
export function nextDimensions(from: OpenApiDocument, next: OpenApiDocument): Array<BodyDimension | StatusDimension> {
  const before = new Map(operationAnswers(from).map((operation) => [operation.operationId, operation]));
  const dimensions: Array<BodyDimension | StatusDimension> = [];
  for (const operation of operationAnswers(next)) {
    const was = before.get(operation.operationId);
    if (!was) continue;
    const seen = new Map<string, BodyDimension>();
    for (const { status, fields } of operation.statuses) {
      const today = was.statuses.find((answer) => answer.status === status);
      if (!today) {
        const forced = forcedStatus(next, operation.operationId, status);
        if (forced) dimensions.push(forced);
        continue;
      }
      for (const freedom of fields) {
        for (const dimension of fieldDimensions(operation, status, freedom, today.fields.find((field) => field.field === freedom.field))) {
          const known = seen.get(dimension.name);
          if (known) known.statuses.push(status);
          else seen.set(dimension.name, dimension) && dimensions.push(dimension);
        }
      }
    }
  }
  return dimensions;
}

/** The dimensions of one field of one answer: what NEXT allows of it that FROM did not. */
function fieldDimensions(operation: OperationAnswers, status: number, freedom: FieldFreedom, today: FieldFreedom | undefined): BodyDimension[] {
  const variants: Variant[] = [];
  if (!today) {
    if (freedom.optional) variants.push(present);
  } else {
    const added = (freedom.schema.enum ?? []).filter((value) => today.schema.enum !== undefined && !today.schema.enum.includes(value));
    if (added.length > 0) variants.push(newEnumValue(added[0]));
    if (freedom.schema.nullable === true && today.schema.nullable !== true) variants.push(nullValue);
    if (freedom.optional && !today.optional) variants.push(absent);
  }
  return variants.map((variant) => ({
    kind: 'body',
    name: `${NEXT_PREFIX}${operation.operationId}./${escapePointer(freedom.field)}:${variant.name}`,
    operationId: operation.operationId,
    field: freedom.field,
    variant,
    freedom,
    statuses: [status],
    description: variant.description(freedom.field, freedom),
    ...(variant === present ? { withheldWhenOff: true } : {}),
  }));
}

/** Sent when on (it counts as used when the answer has it); left out when off (plan.ts: withheld). */
const present: Variant = {
  name: 'present',
  description: (field) => `'${field}' sent: new in the next contract (an optional field today's contract has not; off, it is left out as today)`,
  appliesTo: () => true,
  apply: (value, isPresent) => (isPresent ? value : NO_CHANGE),
};

const nullValue: Variant = {
  name: 'null',
  description: (field) => `'${field}' sent as null: the next contract makes it nullable`,
  appliesTo: () => true,
  apply: () => null,
};

const absent: Variant = {
  name: 'absent',
  description: (field) => `'${field}' left out: the next contract no longer requires it`,
  appliesTo: () => true,
  apply: (_value, isPresent) => (isPresent ? ABSENT : NO_CHANGE),
};

function newEnumValue(value: unknown): Variant {
  return {
    name: 'new-enum-value',
    description: (field) => `'${field}' set to ${JSON.stringify(value)}, a value only the next contract's enum has`,
    appliesTo: () => true,
    apply: (before) => (before === value ? NO_CHANGE : value),
  };
}

/** A status NEXT newly documents for the operation, with the body it is answered with. */
function forcedStatus(next: OpenApiDocument, operationId: string, status: number): StatusDimension | undefined {
  if (!Number.isInteger(status)) return undefined;
  const found = operationAt(next, operationId);
  if (!found) return undefined;
  const pointer = `/paths/${escapePointer(found.path)}/${found.method}/responses/${status}`;
  const response = (found.node['responses'] as Record<string, unknown>)[String(status)];
  return {
    kind: 'status',
    name: `${NEXT_PREFIX}${operationId}./responses/${status}:forced`,
    operationId,
    field: `/responses/${status}`,
    variant: 'forced',
    status,
    body: exampleAnswerBody(next, response, pointer),
    description: `answered ${status} instead, a status only the next contract documents for ${operationId} (with its example or a sample of its schema)`,
  };
}

function operationAt(document: OpenApiDocument, operationId: string): { path: string; method: string; node: Record<string, unknown> } | undefined {
  const paths = (document['paths'] ?? {}) as Record<string, Record<string, Record<string, unknown> | undefined>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) if (item[method]?.['operationId'] === operationId) return { path, method, node: item[method] as Record<string, unknown> };
  }
  return undefined;
}
