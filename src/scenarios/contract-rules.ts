// What openapi.yaml allows each operation to answer: its documented statuses and the schema of
// each JSON body. Scenario files are checked against this at load, so that no scenario, however
// written, can make the mock break the contract.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { OpenApiDocument } from '../core/contract-types.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];

interface OperationResponses {
  /**
   * status → its application/json body's validator, or null when it has no body. Validators are
   * compiled on first use: compiling every one at start cost ~60 ms of each cold start, and most
   * are never needed (only the statuses scenario files force are checked).
   */
  statuses: Map<number, (() => ValidateFunction) | null>;
  /** status → the error codes its examples show (LINK_LIMIT_REACHED on createLink's 400). */
  codes: Map<number, string[]>;
}

/**
 * With a contract FILE other than the shipped one (--contract): the operations a `*` rule covers
 * (those served by rule: the scenarios were written for them, and a new operation need not document
 * their statuses), and those FILE removed, which a rule may still name and then matches nothing.
 */
export interface ScenarioScope {
  every: readonly string[];
  gone: readonly string[];
}

export class ContractRules {
  private readonly operations = new Map<string, OperationResponses>();

  constructor(
    document: OpenApiDocument,
    private readonly scope?: ScenarioScope,
  ) {
    // No meta-schema check of the document: compiling Ajv's draft-07 meta-schema to check it was
    // ~70 ms of each cold start's CPU, and the document is always the package's openapi.yaml, which
    // test/process/meta-schema.test.ts checks against that meta-schema once, in the suite.
    const ajv = addFormats(new Ajv({ strict: false, allErrors: true, validateSchema: false }));
    ajv.addSchema(document as object, 'contract');
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of HTTP_METHODS) {
        const operation = item[method] as { operationId?: string; responses?: Record<string, unknown> } | undefined;
        if (!operation?.operationId) continue;
        const statuses = new Map<number, (() => ValidateFunction) | null>();
        const codes = new Map<number, string[]>();
        for (const status of Object.keys(operation.responses ?? {})) {
          const pointer = `contract#/paths/${escapePointer(path)}/${method}/responses/${status}`;
          statuses.set(Number(status), bodyValidator(ajv, document, operation.responses?.[status], pointer));
          codes.set(Number(status), exampleCodes(resolveRef(document, operation.responses?.[status])));
        }
        this.operations.set(operation.operationId, { statuses, codes });
      }
    }
  }

  operationIds(): string[] {
    return [...this.operations.keys()];
  }

  /** What a scenario rule's `operation: '*'` covers: '*' (every operation) unless a scope says which. */
  everyOperation(): '*' | readonly string[] {
    return this.scope?.every ?? '*';
  }

  /** Operations a rule may name without being served: FILE removed them (none for the shipped contract). */
  goneOperations(): readonly string[] {
    return this.scope?.gone ?? [];
  }

  documentedStatuses(operationId: string): number[] {
    return [...(this.operations.get(operationId)?.statuses.keys() ?? [])];
  }

  /** Every documented outcome: operation × status, and × error code where the examples show one. */
  documentedOutcomes(): { operationId: string; status: number; code: string | null }[] {
    return [...this.operations].flatMap(([operationId, operation]) =>
      [...operation.statuses.keys()].flatMap((status) => [
        { operationId, status, code: null },
        ...(operation.codes.get(status) ?? []).map((code) => ({ operationId, status, code })),
      ]),
    );
  }

  /** Why this status and body would break the contract for the operation, or [] when they would not. */
  problems(operationId: string, status: number, body: unknown): string[] {
    const operation = this.operations.get(operationId);
    if (!operation) return [`unknown operation '${operationId}'`];
    if (!operation.statuses.has(status)) {
      return [`status ${status} is not documented for ${operationId} (documented: ${this.documentedStatuses(operationId).join(', ')})`];
    }
    const validator = operation.statuses.get(status);
    if (!validator) return body === undefined ? [] : [`status ${status} of ${operationId} has no body`];
    const validate = validator();
    if (validate(body)) return [];
    return (validate.errors ?? []).map((error) => `body${error.instancePath} ${error.message ?? 'is invalid'}`);
  }
}

function bodyValidator(ajv: Ajv, document: OpenApiDocument, response: unknown, pointer: string): (() => ValidateFunction) | null {
  const resolved = resolveRef(document, response) as { content?: Record<string, unknown> } | undefined;
  if (!resolved?.content?.['application/json']) return null;
  const ref = (response as { $ref?: string }).$ref;
  const base = ref ? `contract${ref}` : pointer;
  let compiled: ValidateFunction | undefined;
  return () => (compiled ??= ajv.compile({ $ref: `${base}/content/application~1json/schema` }));
}

function exampleCodes(response: unknown): string[] {
  const content = (response as { content?: Record<string, { example?: unknown; examples?: Record<string, { value?: unknown }> }> } | undefined)?.content;
  const json = content?.['application/json'];
  const values = [json?.example, ...Object.values(json?.examples ?? {}).map((example) => example.value)];
  const codes = values.map((value) => (value as { code?: unknown } | undefined)?.code).filter((code): code is string => typeof code === 'string');
  return [...new Set(codes)];
}

function resolveRef(document: OpenApiDocument, value: unknown): unknown {
  const ref = (value as { $ref?: string } | undefined)?.$ref;
  if (!ref) return value;
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
