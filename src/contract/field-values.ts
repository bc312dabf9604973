// Values of a field a contract FILE adds to createLink's or updateLink's request, for the suite to
// send and expect back (issue 38): the schema's own `example`/`examples`/`default`/`enum` first,
// then openapi-sampler's sample, then a few plain values by `format` and `type`. Which of them FILE
// allows is decided by the caller with FILE's own request validation, not here.
import { createRequire } from 'node:module';
import type { OpenApiDocument } from '../core/contract-types.js';
import { properties, requestSchema } from '../core/contract-classes.js';
import { schemaAt } from '../core/schema-pointer.js';

const require = createRequire(import.meta.url);

const BY_FORMAT: Record<string, unknown[]> = {
  'date-time': ['2027-01-31T23:59:59.000Z', '2030-06-15T12:00:00.000Z'],
  date: ['2027-01-31', '2030-06-15'],
  uri: ['https://example.com/contract-suite/a', 'https://example.com/contract-suite/b'],
  url: ['https://example.com/contract-suite/a', 'https://example.com/contract-suite/b'],
  email: ['suite-a@example.com', 'suite-b@example.com'],
  uuid: ['7f1d5c6e-3b2a-4c1d-9e8f-0a1b2c3d4e5f', '0e9d8c7b-6a5f-4e3d-8c2b-1a0f9e8d7c6b'],
};
const BY_TYPE: Record<string, unknown[]> = {
  string: ['contract-suite', 'contract-suite-2', 'x'],
  integer: [1, 2, 0, 10, 100],
  number: [1, 2.5, 0, 10],
  boolean: [true, false],
  array: [[]],
  object: [{}],
};

/** Candidate values of the request field `name` of `operationId` in FILE, distinct, in order of preference. */
export function fieldCandidates(document: OpenApiDocument, operationId: string, name: string): unknown[] {
  const request = requestSchema(document, operationId);
  const field = schemaAt(document, properties(request)[name], `${request?.pointer ?? ''}/properties/${name}`)?.schema;
  if (!field) return [];
  const own = [field['example'], ...(Array.isArray(field['examples']) ? field['examples'] : []), field['default'], ...(Array.isArray(field['enum']) ? field['enum'] : [])];
  const format = typeof field['format'] === 'string' ? (BY_FORMAT[field['format']] ?? []) : [];
  const type = typeof field['type'] === 'string' ? (BY_TYPE[field['type']] ?? []) : [];
  const values = [...own, sampled(document, field), ...format, ...type].filter((value) => value !== undefined);
  return values.filter((value, index) => values.findIndex((other) => JSON.stringify(other) === JSON.stringify(value)) === index);
}

function sampled(document: OpenApiDocument, schema: Record<string, unknown>): unknown {
  try {
    const { sample } = require('openapi-sampler') as typeof import('openapi-sampler');
    return sample(schema as never, { skipReadOnly: true, quiet: true }, document);
  } catch {
    // A schema the sampler cannot make a value of: the other candidates remain.
    return undefined;
  }
}
