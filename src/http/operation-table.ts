// Which operation of openapi.yaml a method and path name, built from the contract itself. Used
// before the body is parsed, so that authentication comes first (D14) and unknown paths and
// methods get their 404/405 without touching the validator.
import type { OpenApiDocument } from '../core/contract-types.js';

export type OperationMatch =
  | { kind: 'operation'; operationId: string; takesBody: boolean }
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'unknown-path' };

type OperationEntry = Extract<OperationMatch, { kind: 'operation' }>;

interface PathEntry {
  pattern: RegExp;
  operations: Map<string, OperationEntry>;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export class OperationTable {
  private readonly entries: PathEntry[];
  /** Each operation as `POST /links`, in the contract's order: what a 404 for another path names. */
  readonly operations: readonly string[];

  constructor(document: OpenApiDocument) {
    // An OpenAPI 3.1 document may have no paths (webhooks only).
    const paths = Object.entries(document.paths ?? {});
    this.operations = paths.flatMap(([template, item]) => HTTP_METHODS.filter((method) => item[method]).map((method) => `${method.toUpperCase()} ${template}`));
    this.entries = paths.map(([template, item]) => ({
      pattern: templateToPattern(template),
      operations: new Map(
        HTTP_METHODS.filter((method) => item[method]).map((method) => {
          const operation = item[method] as { operationId?: string; requestBody?: unknown };
          const operationId = operation.operationId ?? `${method.toUpperCase()} ${template}`;
          // The match itself, made once and handed to every request of it (read only).
          const match: OperationEntry = Object.freeze({ kind: 'operation', operationId, takesBody: operation.requestBody !== undefined });
          return [method.toUpperCase(), match];
        }),
      ),
    }));
  }

  /** Runs for every API request: a loop, no closure; an operation's match is the one made at build time, not a copy. */
  match(method: string, path: string): OperationMatch {
    let entry: PathEntry | undefined;
    for (const candidate of this.entries) {
      if (candidate.pattern.test(path)) {
        entry = candidate;
        break;
      }
    }
    if (!entry) return { kind: 'unknown-path' };
    // Node gives standard methods in capitals already: no new string for them.
    const operation = entry.operations.get(method) ?? entry.operations.get(method.toUpperCase());
    if (operation) return operation;
    return { kind: 'method-not-allowed', allowed: [...entry.operations.keys()] };
  }
}

/** `/links/{id}` → /^\/links\/[^/]+$/ */
function templateToPattern(template: string): RegExp {
  const source = template
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${source}$`);
}
