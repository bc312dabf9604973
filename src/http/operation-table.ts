// Which operation of openapi.yaml a method and path name, built from the contract itself. Used
// before the body is parsed, so that authentication comes first (D14) and unknown paths and
// methods get their 404/405 without touching the validator.

export interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

export type OperationMatch =
  | { kind: 'operation'; operationId: string }
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'unknown-path' };

interface PathEntry {
  pattern: RegExp;
  operations: Map<string, string>;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export class OperationTable {
  private readonly entries: PathEntry[];

  constructor(document: OpenApiDocument) {
    this.entries = Object.entries(document.paths).map(([template, item]) => ({
      pattern: templateToPattern(template),
      operations: new Map(
        HTTP_METHODS.filter((method) => item[method]).map((method) => {
          const operation = item[method] as { operationId?: string };
          return [method.toUpperCase(), operation.operationId ?? `${method.toUpperCase()} ${template}`];
        }),
      ),
    }));
  }

  match(method: string, path: string): OperationMatch {
    const entry = this.entries.find((candidate) => candidate.pattern.test(path));
    if (!entry) return { kind: 'unknown-path' };
    const operationId = entry.operations.get(method.toUpperCase());
    if (operationId) return { kind: 'operation', operationId };
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
