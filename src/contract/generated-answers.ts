// The answer of each operation a contract FILE adds that no store backs (`generated`,
// src/core/contract-classes.ts): its first 2xx status, with the media type's `example` (or first of
// `examples`) when FILE gives one, else openapi-sampler's sample of its schema (examples in the
// schema first). Made once at start and checked against FILE: an answer FILE would refuse is a
// start-up refusal, never a 500 on the first request. Stateless: the same answer to every request.
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { ContractClasses } from '../core/contract-classes.js';
import type { OpenApiDocument } from '../core/contract-types.js';
import { escapePointer, schemaAt } from '../core/schema-pointer.js';

const require = createRequire(import.meta.url);
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export interface GeneratedAnswer {
  status: number;
  /** undefined: no body (a 204, or a 2xx without JSON content). */
  body?: unknown;
}

/** Made once per document: at start (the check) and by every app built on it. */
const made = new WeakMap<OpenApiDocument, Map<string, GeneratedAnswer>>();

/** Each generated operation's answer by operationId; throws, naming the operation, when one cannot be made. */
export function generatedAnswers(document: OpenApiDocument, classes: ContractClasses): ReadonlyMap<string, GeneratedAnswer> {
  let answers = made.get(document);
  if (!answers) made.set(document, (answers = makeAnswers(document, classes)));
  return answers;
}

function makeAnswers(document: OpenApiDocument, classes: ContractClasses): Map<string, GeneratedAnswer> {
  const answers = new Map<string, GeneratedAnswer>();
  const generated = classes.operations.filter((operation) => operation.served === 'generated');
  if (generated.length === 0) return answers;
  const ajv = addFormats(new Ajv({ strict: false, validateSchema: false }));
  ajv.addSchema(document as object, 'contract');
  for (const { operationId, method, path } of generated) {
    const at = `/paths/${escapePointer(path)}/${method.toLowerCase()}/responses`;
    const responses = (schemaAt(document, { $ref: `#${at}` }, at)?.schema ?? {}) as Record<string, unknown>;
    const status = Object.keys(responses).find((code) => /^2\d\d$/.test(code));
    if (status === undefined) throw new Error(`cannot answer ${operationId} (${method} ${path}): it documents no 2xx answer`);
    const response = schemaAt(document, responses[status], `${at}/${status}`);
    const media = (response?.schema['content'] as Record<string, Record<string, unknown>> | undefined)?.['application/json'];
    if (!media || !response) {
      answers.set(operationId, { status: Number(status) });
      continue;
    }
    const body = exampleOf(media) ?? sampled(document, media['schema']);
    const schemaPointer = `${response.pointer}/content/application~1json/schema`;
    const validate = ajv.compile({ $ref: `contract#${schemaPointer}` });
    if (!validate(body)) {
      const first = validate.errors?.[0];
      throw new Error(`cannot answer ${operationId} (${method} ${path}) from its schema: the answer made ${first ? `${first.instancePath || 'body'} ${first.message ?? ''}` : 'breaks it'}; give it an example`);
    }
    answers.set(operationId, { status: Number(status), body });
  }
  return answers;
}

/**
 * The JSON body a documented answer of `document` gives when nothing else says: the media type's
 * example, else a sample of its schema; undefined when the answer has no JSON body. Also variety's
 * forced statuses of a next contract (src/variety/next-dimensions.ts).
 */
export function exampleAnswerBody(document: OpenApiDocument, response: unknown, pointer: string): unknown {
  const media = (schemaAt(document, response, pointer)?.schema['content'] as Record<string, Record<string, unknown>> | undefined)?.['application/json'];
  return media ? (exampleOf(media) ?? sampled(document, media['schema'])) : undefined;
}

function exampleOf(media: Record<string, unknown>): unknown {
  if (media['example'] !== undefined) return media['example'];
  const examples = media['examples'] as Record<string, { value?: unknown }> | undefined;
  return examples ? Object.values(examples)[0]?.value : undefined;
}

function sampled(document: OpenApiDocument, schema: unknown): unknown {
  const { sample } = require('openapi-sampler') as typeof import('openapi-sampler');
  return sample((schema ?? {}) as never, { skipReadOnly: false, skipWriteOnly: true, quiet: true }, document);
}
