// One operation of a contract as evolve judges its requests and answers (contract-view.ts keeps one
// per operationId): what the request needs besides its body (the headers its security asks for, the
// path parameters' schemas, compiled by the contract's bounded Ajv), the media types and the node of
// its request body, and its responses as the document writes them.
import type { BodyErrors, BoundedAjv } from '../../contract/bounded-validation.js';
import type { OperationInfo } from '../../contract/response-checker.js';

export type Json = Record<string, unknown>;
export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
/** Where the bounded Ajv of evolve's contracts says a schema is (`evolve#/paths/…`). */
export const DOC = 'evolve';

interface PathParameter {
  name: string;
  schema: unknown;
  validate: BodyErrors;
}

export interface OperationView extends OperationInfo {
  /** Headers the operation's security asks for (every alternative's, when there is one: the first). */
  securityHeaders: string[];
  pathParameters: PathParameter[];
  /** Whether the request body is required. */
  bodyRequired: boolean;
  /** The media types its request body may be sent as, lower case; [] when it takes none. */
  requestMediaTypes: string[];
  /** Its request body as the document writes it (for sameSchema), undefined when it takes none. */
  requestBodyNode: unknown;
  /** Its responses as the document writes them, by status as written. */
  responseNodes: Json;
}

/** `operation` of the contract checker's list, read from `document`, its path parameters' schemas compiled by `ajv`. */
export function operationView(ajv: BoundedAjv, document: Json, operation: OperationInfo): OperationView {
  const item = (document['paths'] as Json)[operation.path] as Json;
  const node = item[operation.method.toLowerCase()] as Json;
  return {
    ...operation,
    securityHeaders: securityHeaders(document, node),
    pathParameters: pathParameters(ajv, document, operation.path, item, node),
    bodyRequired: resolve(document, node['requestBody'])?.['required'] === true,
    requestMediaTypes: mediaTypes(resolve(document, node['requestBody'])),
    requestBodyNode: node['requestBody'],
    responseNodes: isObject(node['responses']) ? node['responses'] : {},
  };
}

/** A node, its $ref followed (local references only: contract-file.ts, through the --contract loader, refuses others). */
export function resolve(document: Json, node: unknown, depth = 0): Json | undefined {
  if (!isObject(node)) return undefined;
  const ref = node['$ref'];
  if (typeof ref !== 'string' || depth > 20) return node;
  const target = ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((at, key) => (isObject(at) ? at[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), document);
  return resolve(document, target, depth + 1);
}

function mediaTypes(body: Json | undefined): string[] {
  return isObject(body?.['content']) ? Object.keys(body['content']).map((type) => type.toLowerCase()) : [];
}

function securityHeaders(document: Json, operation: Json): string[] {
  const requirements = Array.isArray(operation['security']) ? operation['security'] : Array.isArray(document['security']) ? document['security'] : [];
  const first = requirements[0];
  // An empty requirement ({}) or none at all: the operation is open.
  if (!isObject(first)) return [];
  const schemes = isObject(document['components']) && isObject(document['components']['securitySchemes']) ? document['components']['securitySchemes'] : {};
  return Object.keys(first).flatMap((name) => {
    const scheme = resolve(document, schemes[name]);
    if (scheme?.['type'] === 'apiKey' && scheme['in'] === 'header' && typeof scheme['name'] === 'string') return [scheme['name'].toLowerCase()];
    if (scheme?.['type'] === 'http') return ['authorization'];
    return [];
  });
}

function pathParameters(ajv: BoundedAjv, document: Json, template: string, item: Json, operation: Json): PathParameter[] {
  const escaped = template.replace(/~/g, '~0').replace(/\//g, '~1');
  const method = METHODS.find((name) => item[name] === operation) ?? 'get';
  const places: Array<[unknown, string]> = [
    ...(Array.isArray(item['parameters']) ? item['parameters'].map((node, index): [unknown, string] => [node, `#/paths/${escaped}/parameters/${index}`]) : []),
    ...(Array.isArray(operation['parameters']) ? operation['parameters'].map((node, index): [unknown, string] => [node, `#/paths/${escaped}/${method}/parameters/${index}`]) : []),
  ];
  const byName = new Map<string, PathParameter>();
  for (const [node, at] of places) {
    const ref = isObject(node) && typeof node['$ref'] === 'string' ? node['$ref'] : at;
    const parameter = resolve(document, node);
    if (parameter?.['in'] !== 'path' || typeof parameter['name'] !== 'string' || !isObject(parameter['schema'])) continue;
    byName.set(parameter['name'], { name: parameter['name'], schema: parameter['schema'], validate: ajv.compile(`${DOC}${ref}/schema`, parameter['schema']) });
  }
  return [...byName.values()];
}
