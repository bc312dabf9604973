// Which operation of openapi.yaml a method and path name, built from the contract itself. Used
// before the body is parsed, so that authentication comes first (D14) and unknown paths and
// methods get their 404/405 without touching the validator.
import type { OpenApiDocument } from '../core/contract-types.js';

export type OperationMatch =
  | { kind: 'operation'; operationId: string; takesBody: boolean }
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'unknown-path' };

interface OperationEntry {
  operationId: string;
  takesBody: boolean;
}

interface PathEntry {
  pattern: RegExp;
  operations: Map<string, OperationEntry>;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export class OperationTable {
  private readonly entries: PathEntry[];

  constructor(document: OpenApiDocument) {
    this.entries = Object.entries(document.paths).map(([template, item]) => ({
      pattern: templateToPattern(template),
      operations: new Map(
        HTTP_METHODS.filter((method) => item[method]).map((method) => {
          const operation = item[method] as { operationId?: string; requestBody?: unknown };
          const operationId = operation.operationId ?? `${method.toUpperCase()} ${template}`;
          return [method.toUpperCase(), { operationId, takesBody: operation.requestBody !== undefined }];
        }),
      ),
    }));
  }

  match(method: string, path: string): OperationMatch {
    const entry = this.entries.find((candidate) => candidate.pattern.test(path));
    if (!entry) return { kind: 'unknown-path' };
    const operation = entry.operations.get(method.toUpperCase());
    if (operation) return { kind: 'operation', ...operation };
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
