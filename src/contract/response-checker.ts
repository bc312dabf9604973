// The independent judge of every answer: openapi.yaml read afresh and compiled by an Ajv instance
// of our own. It deliberately shares nothing with the server's validator middleware, so that a bug
// there (or a server that has no validator at all) cannot make a wrong answer look right.
import { readFileSync } from 'node:fs';
import type { ErrorObject } from 'ajv';
import { parse } from 'yaml';
import { CONTRACT_FILE } from '../package-files.js';
import { BoundedAjv, type BodyErrors } from './bounded-validation.js';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
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
  private readonly operations = new Map<string, OperationInfo & { responses: Map<number, DocumentedStatus>; requestBody: BodyErrors | null }>();

  static fromFile(file = CONTRACT_FILE): ResponseChecker {
    return new ResponseChecker(parse(readFileSync(file, 'utf8')) as ContractDocument);
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
        const responses = new Map<number, DocumentedStatus>();
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          responses.set(Number(status), compileBody(ajv, document, response, `${base}/responses/${status}`));
        }
        const requestBody = operation.requestBody ? compileBody(ajv, document, operation.requestBody, `${base}/requestBody`).validate : null;
        this.operations.set(operation.operationId, {
          operationId: operation.operationId,
          method: method.toUpperCase(),
          path,
          statuses: [...responses.keys()].sort((a, b) => a - b),
          responses,
          requestBody,
        });
      }
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
    const operation = this.operations.get(operationId);
    if (!operation) return [{ rule: `openapi.yaml has no operation '${operationId}'` }];
    const documented = operation.responses.get(status);
    if (!documented) {
      return [{ rule: `status ${status} is not documented for ${operationId} (documented: ${operation.statuses.join(', ')})` }];
    }
    if (!documented.validate) {
      return bodyText.length === 0 ? [] : [{ rule: `status ${status} of ${operationId} must have no body`, detail: `${bodyText.length} bytes`, joiner: ', got ' }];
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

  /** For a judge without bounds of its own (pact's engine): the body with arrays over maxItems cut to one past them. */
  boundedBody(operationId: string, status: number | 'request', body: unknown): unknown {
    const operation = this.operations.get(operationId);
    const validate = status === 'request' ? operation?.requestBody : operation?.responses.get(status)?.validate;
    return validate && body !== undefined ? validate.bounded(body) : body;
  }

  /** Whether the status is documented for the operation with an application/json body. */
  documentsBody(operationId: string, status: number): boolean {
    return Boolean(this.operations.get(operationId)?.responses.get(status)?.validate);
  }

  /**
   * The raw Ajv errors of a response body against its status's schema, for a caller that reads
   * them its own way (pact check: Pact bodies are partial, so it drops 'required'); [] when the
   * status documents no body (documentsBody tells).
   */
  responseBodyErrors(operationId: string, status: number, body: unknown): ErrorObject[] {
    return this.operations.get(operationId)?.responses.get(status)?.validate?.(body) ?? [];
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

/** A rule broken, and the evidence of this one answer (the offending value), if any. */
export interface Problem {
  rule: string;
  detail?: string;
  /** How the two read as one sentence: ' (got …)' by default. */
  joiner?: string;
  /** Set on a body's schema errors: the schema it fails. */
  schemaName?: string;
}

/** "body.createdAt must match format "date-time" (got "yesterday")" */
function problemText(problem: Problem): string {
  if (problem.detail === undefined) return problem.rule;
  return problem.joiner ? `${problem.rule}${problem.joiner}${problem.detail}` : `${problem.rule} (got ${problem.detail})`;
}

/** One Ajv error in words that name the field, e.g. rule "body.createdAt must match format "date-time"", detail '"yesterday"'. */
function describeError(error: ErrorObject, root = 'body'): Problem {
  const where = fieldPath(root, error.instancePath);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return { rule: `${where} is missing required field '${String(params['missingProperty'])}'` };
  if (error.keyword === 'additionalProperties') return { rule: `${where} has unexpected field '${String(params['additionalProperty'])}'` };
  return { rule: `${where} ${error.message ?? 'is invalid'}`, detail: error.keyword === 'maxItems' ? itemCount(error.data) : preview(error.data) };
}

/** The same with the rule general (indices `[]`, unexpected fields unnamed) and the concrete field in the evidence. */
function describeGeneral(error: ErrorObject): Problem {
  const problem = describeError(error);
  const where = fieldPath('body', error.instancePath);
  const general = where.replace(/\[\d+\]/g, '[]');
  if (error.keyword === 'additionalProperties') return { rule: `${general} has an unexpected field`, detail: `${where}.${String((error.params as Record<string, unknown>)['additionalProperty'])}`, joiner: ': ' };
  if (general === where) return problem;
  const rule = general + problem.rule.slice(where.length);
  return { rule, detail: problem.detail === undefined ? where : `${where}: ${problem.detail}` };
}

/** "/tags/17/id" under "body" → "body.tags[17].id" */
export function fieldPath(root: string, instancePath: string): string {
  return root + instancePath.split('/').slice(1).map((key) => (/^\d+$/.test(key) ? `[${key}]` : `.${key.replace(/~1/g, '/').replace(/~0/g, '~')}`)).join('');
}

/** A maxItems error's evidence: how many there were (the array itself would be previewed whole). */
export const itemCount = (data: unknown): string => (Array.isArray(data) ? `${data.length} items` : String(data));

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
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
