// The independent judge of every answer: openapi.yaml read afresh and compiled by an Ajv instance
// of our own. It deliberately shares nothing with the server's validator middleware, so that a bug
// there (or a server that has no validator at all) cannot make a wrong answer look right.
import { readFileSync } from 'node:fs';
import type { ErrorObject } from 'ajv';
import { createRequire } from 'node:module';
import { CONTRACT_FILE } from './package-files.js';
import { BoundedAjv, type BodyErrors } from './bounded-validation.js';
import { DocumentedAnswers } from './closest-status.js';
import { ERROR_SCHEMA_POINTER, errorSchemaOf, NO_OPERATION_ANSWERS } from './no-operation.js';
import { describeError, describeGeneral, problemText, type Problem } from './problem-text.js';

export { fieldPath, itemCount, type Problem } from './problem-text.js';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
// `yaml` is required by fromFile only: the CLI's start imports this module (the variety judge) but
// never reads a file with it, and loading `yaml` was ~50 ms of a cold start's CPU.
const require = createRequire(import.meta.url);
const DOC = 'contract';

interface ContractDocument {
  info?: { title?: string; version?: string };
  paths: Record<string, Record<string, unknown>>;
}

interface DocumentedStatus {
  /** The validator of its application/json body, or null when the status has no body. */
  validate: BodyErrors | null;
  schemaName: string;
}

export interface OperationInfo {
  operationId: string;
  /** Upper case, as sent. */
  method: string;
  /** As written in openapi.yaml, e.g. '/links/{id}'. */
  path: string;
  statuses: number[];
}

export class ResponseChecker {
  readonly title: string;
  private readonly operations = new Map<string, OperationInfo & { responses: DocumentedAnswers<DocumentedStatus>; requestBody: BodyErrors | null }>();
  /** The answers that are no operation (no-operation.ts), judged as their Error object; not in operationList(). */
  private readonly noOperations = new Map<string, OperationInfo & { responses: DocumentedAnswers<DocumentedStatus> }>();

  static fromFile(file = CONTRACT_FILE): ResponseChecker {
    return new ResponseChecker((require('yaml') as typeof import('yaml')).parse(readFileSync(file, 'utf8')) as ContractDocument);
  }

  constructor(document: ContractDocument) {
    // Its cost per body is bounded (bounded-validation.ts).
    const ajv = new BoundedAjv(document, DOC);
    this.title = `${document.info?.title ?? 'API'} ${document.info?.version ?? ''}`.trim();
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of METHODS) {
        const operation = item[method] as { operationId?: string; responses?: Record<string, unknown>; requestBody?: unknown } | undefined;
        if (!operation?.operationId) continue;
        const base = `${DOC}#/paths/${pointer(path)}/${method}`;
        const responses = new DocumentedAnswers<DocumentedStatus>();
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          responses.add(status, compileBody(ajv, document, response, `${base}/responses/${status}`));
        }
        const requestBody = operation.requestBody ? compileBody(ajv, document, operation.requestBody, `${base}/requestBody`).validate : null;
        this.operations.set(operation.operationId, {
          operationId: operation.operationId,
          method: method.toUpperCase(),
          path,
          statuses: responses.statuses(),
          responses,
          requestBody,
        });
      }
    }
    const errorSchema = errorSchemaOf(document);
    if (errorSchema === undefined) return;
    for (const { operationId, status } of NO_OPERATION_ANSWERS) {
      const responses = new DocumentedAnswers<DocumentedStatus>();
      responses.add(String(status), { validate: ajv.compile(`${DOC}${ERROR_SCHEMA_POINTER}`, errorSchema), schemaName: 'Error' });
      this.noOperations.set(operationId, { operationId, method: '*', path: '*', statuses: [status], responses });
    }
  }

  operationList(): OperationInfo[] {
    return [...this.operations.values()].map(({ operationId, method, path, statuses }) => ({ operationId, method, path, statuses }));
  }

  operation(operationId: string): OperationInfo {
    const found = this.operations.get(operationId);
    if (!found) throw new Error(`openapi.yaml has no operation '${operationId}'`);
    return found;
  }

  /** Every way this answer breaks the contract of the operation; [] when it keeps it. */
  checkResponse(operationId: string, status: number, contentType: string | null, bodyText: string): string[] {
    const problems = this.problemsOf(operationId, status, contentType, bodyText);
    // A body's schema errors read as one sentence: "body does not match Link: a; b".
    const schema = problems.filter((problem) => problem.schemaName !== undefined);
    const whole = schema.length ? [`body does not match ${schema[0]?.schemaName}: ${schema.map(problemText).join('; ')}`] : [];
    return [...problems.filter((problem) => problem.schemaName === undefined).map(problemText), ...whole];
  }

  /**
   * The same, one problem per broken rule, each split into the rule (the same words for every
   * answer that breaks it alike: the validating proxy groups drift by it) and this answer's evidence:
   * an array index is `[]` in the rule and an unexpected field is one rule per object, the concrete
   * field being the evidence, so that an answer of 40,000 tags is not 40,000 rules.
   */
  responseProblems(operationId: string, status: number, contentType: string | null, bodyText: string): Problem[] {
    return this.problemsOf(operationId, status, contentType, bodyText, true).map((problem) =>
      problem.schemaName === undefined ? problem : { ...problem, rule: `body does not match ${problem.schemaName}: ${problem.rule}` },
    );
  }

  private problemsOf(operationId: string, status: number, contentType: string | null, bodyText: string, general = false): Problem[] {
    const operation = this.operations.get(operationId) ?? this.noOperations.get(operationId);
    if (!operation) return [{ rule: `openapi.yaml has no operation '${operationId}'` }];
    const judged = operation.responses.judge(status);
    if ('documented' in judged) return this.bodyProblems(operationId, status, judged.documented, contentType, bodyText, general);
    // An undocumented status is reported, and its body judged as the closest documented answer's
    // (closest-status.ts says which): every problem at once, not one per round of fixes.
    const undocumented = { rule: `status ${status} is not documented for ${operationId} (documented: ${operation.statuses.join(', ')})` };
    if (!judged.closest) return [undocumented];
    const { status: as, answer } = judged.closest;
    return [undocumented, ...this.bodyProblems(operationId, as, answer, contentType, bodyText, general, status)];
  }

  /** The body's problems as the answer `documented` for `status` (`actual`: the status sent, when it is judged as another's). */
  private bodyProblems(operationId: string, status: number, documented: DocumentedStatus, contentType: string | null, bodyText: string, general: boolean, actual = status): Problem[] {
    if (!documented.validate) {
      if (bodyText.length === 0) return [];
      const which = actual === status ? `status ${status} of ${operationId}` : `status ${actual} of ${operationId}, judged as its documented ${status},`;
      return [{ rule: `${which} must have no body`, detail: `${bodyText.length} bytes`, joiner: ', got ' }];
    }
    const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
    if (mediaType !== 'application/json') {
      return [{ rule: `content type is ${contentType ? `'${contentType}'` : 'missing'}, expected application/json for ${operationId} ${status}` }];
    }
    let body: unknown;
    try {
      body = JSON.parse(bodyText);
    } catch (error) {
      return [{ rule: `body of ${operationId} ${status} is not valid JSON`, detail: (error as Error).message }];
    }
    return documented.validate(body, bodyText.length).map((error) => ({ ...(general ? describeGeneral(error) : describeError(error)), schemaName: documented.schemaName }));
  }

  /** Why openapi.yaml forbids this request body (undefined: no body sent), or [] when it allows it. */
  requestBodyProblems(operationId: string, body: unknown): string[] {
    const validate = this.operations.get(operationId)?.requestBody;
    if (!validate) return [];
    if (body === undefined) return ['the request body is required'];
    return validate(body).map((error) => problemText(describeError(error, 'request body')));
  }

  /** The raw Ajv errors of a request body (for a caller that reads their pointers: evolve); [] when the operation takes none. */
  requestBodyErrors(operationId: string, body: unknown): ErrorObject[] {
    return this.operations.get(operationId)?.requestBody?.(body) ?? [];
  }

  /** For a judge without bounds of its own (pact's engine): the body with arrays over maxItems cut to one past them. */
  boundedBody(operationId: string, status: number | 'request', body: unknown): unknown {
    const operation = this.operations.get(operationId);
    const validate = status === 'request' ? operation?.requestBody : operation?.responses.exactly(status)?.validate;
    return validate && body !== undefined ? validate.bounded(body) : body;
  }

  /** Whether the status is documented for the operation with an application/json body. */
  documentsBody(operationId: string, status: number): boolean {
    return Boolean(this.operations.get(operationId)?.responses.exactly(status)?.validate);
  }

  /**
   * The raw Ajv errors of a response body against its status's schema, for a caller that reads
   * them its own way (pact check: Pact bodies are partial, so it drops 'required'); [] when the
   * status documents no body (documentsBody tells).
   */
  responseBodyErrors(operationId: string, status: number, body: unknown): ErrorObject[] {
    return this.operations.get(operationId)?.responses.exactly(status)?.validate?.(body) ?? [];
  }
}

function compileBody(ajv: BoundedAjv, document: ContractDocument, node: unknown, at: string): DocumentedStatus {
  // A response or request body may itself be a $ref into components; follow it once.
  const ref = (node as { $ref?: string }).$ref;
  const resolved = (ref ? resolvePointer(document, ref) : node) as { content?: Record<string, { schema?: { $ref?: string } }> } | undefined;
  const json = resolved?.content?.['application/json'];
  if (!json?.schema) return { validate: null, schemaName: 'no body' };
  const base = ref ? `${DOC}${ref}` : at;
  const schemaName = json.schema.$ref?.split('/').pop() ?? 'its schema';
  return { validate: ajv.compile(`${base}/content/application~1json/schema`, json.schema), schemaName };
}

function resolvePointer(document: ContractDocument, ref: string): unknown {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);
}

function pointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
