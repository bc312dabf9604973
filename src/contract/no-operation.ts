// Answers that are no operation of the contract. openapi.yaml's description says a path it lacks
// is a 404 Error object and a method a path does not take a 405 Error object (with Allow); having
// no operationId, they get pseudo-operation names here, which variety's dimensions use
// (`unknownPath.errorDescription:longest`) and by which the ResponseChecker judges them.
export const NO_OPERATION_ANSWERS = [
  { operationId: 'unknownPath', status: 404 },
  { operationId: 'wrongMethod', status: 405 },
] as const;

export type NoOperation = (typeof NO_OPERATION_ANSWERS)[number]['operationId'];

const ERROR_SCHEMA = ['components', 'schemas', 'Error'] as const;
/** Where their body's schema is, as a JSON pointer into the document. */
export const ERROR_SCHEMA_POINTER = `#/${ERROR_SCHEMA.join('/')}`;

/** The Error schema of the document, or undefined when it has none (then nothing is added for them). */
export function errorSchemaOf(document: unknown): unknown {
  return ERROR_SCHEMA.reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], document);
}

/** Their response object, written as an operation's would be. */
export const NO_OPERATION_RESPONSE = { content: { 'application/json': { schema: { $ref: ERROR_SCHEMA_POINTER } } } } as const;
