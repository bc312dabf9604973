// Facts the pact checks read from openapi.yaml rather than hard-code: the headers that carry the
// API key, where each Error code is answered (the statuses whose examples show it), and the query
// parameters each operation declares.
import type { OpenApiDocument } from '../core/contract-types.js';

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

function resolve(document: OpenApiDocument, node: unknown): unknown {
  const ref = isNode(node) ? node['$ref'] : undefined;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return node;
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>((at, key) => (isNode(at) ? at[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), document);
}

/** Lower-case names of the headers every operation's security requires (apiKey schemes in a header). */
export function keyHeaders(document: OpenApiDocument): string[] {
  const schemes = isNode(document['components']) && isNode(document['components']['securitySchemes']) ? document['components']['securitySchemes'] : {};
  const requirements = Array.isArray(document['security']) ? (document['security'] as unknown[]) : [];
  // With several alternative requirements, none of them alone is required: only one requirement counts.
  if (requirements.length !== 1 || !isNode(requirements[0])) return [];
  return Object.keys(requirements[0]).flatMap((name) => {
    const scheme = resolve(document, schemes[name]);
    return isNode(scheme) && scheme['type'] === 'apiKey' && scheme['in'] === 'header' && typeof scheme['name'] === 'string' ? [scheme['name'].toLowerCase()] : [];
  });
}

/** For each Error code the contract's examples show: the places, as 'createLink 400'. */
export function codePlaces(document: OpenApiDocument): Map<string, string[]> {
  const places = new Map<string, string[]>();
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) {
      if (!isNode(operation) || typeof operation['operationId'] !== 'string' || !isNode(operation['responses'])) continue;
      for (const [status, response] of Object.entries(operation['responses'])) {
        for (const code of exampleCodes(resolve(document, response))) {
          const list = places.get(code) ?? [];
          const place = `${operation['operationId']} ${status}`;
          if (!list.includes(place)) places.set(code, [...list, place]);
        }
      }
    }
  }
  return places;
}

function exampleCodes(response: unknown): string[] {
  const content = isNode(response) && isNode(response['content']) ? response['content']['application/json'] : undefined;
  if (!isNode(content)) return [];
  const named = isNode(content['examples']) ? Object.values(content['examples']).map((example) => (isNode(example) ? example['value'] : undefined)) : [];
  return [content['example'], ...named].flatMap((value) => (isNode(value) && typeof value['code'] === 'string' ? [value['code']] : []));
}

/** For each operation: the names of the query parameters it declares (its own and its path's). */
export function queryParameters(document: OpenApiDocument): Map<string, Set<string>> {
  const declared = new Map<string, Set<string>>();
  for (const item of Object.values(document.paths)) {
    const shared = isNode(item) && Array.isArray(item['parameters']) ? (item['parameters'] as unknown[]) : [];
    for (const operation of Object.values(item)) {
      if (!isNode(operation) || typeof operation['operationId'] !== 'string') continue;
      const own = Array.isArray(operation['parameters']) ? (operation['parameters'] as unknown[]) : [];
      const names = [...shared, ...own].map((parameter) => resolve(document, parameter)).flatMap((parameter) => (isNode(parameter) && parameter['in'] === 'query' && typeof parameter['name'] === 'string' ? [parameter['name']] : []));
      declared.set(operation['operationId'], new Set(names));
    }
  }
  return declared;
}
