// The query parameters of a list operation a contract FILE adds (issue 38; pure, for the suite and
// for src/http/contract-handlers.ts): an integer one that
// bounds a page, a string one that says where it starts, and the answer's member that carries the
// next page's cursor, recognised by name as the mock recognises them (docs/next-contract.md, "A list").
import type { ServedOperation } from './contract-classes.js';
import type { OpenApiDocument } from './contract-types.js';
import { escapePointer, schemaAt } from './schema-pointer.js';

const LIMIT_NAME = /^(limit|page_?size|per_?page|size|count|max(_?results)?)$/i;
const CURSOR_NAME = /^(cursor|after|page_?token|next|starting_?after|continuation)$/i;
/** The answer's member that carries the next page's cursor (the mock names its own the same way). */
export const NEXT_CURSOR_NAME = /^(next_?cursor|next|next_?page_?token|cursor)$/i;

export interface ListQuery {
  limit?: { name: string; minimum?: number; maximum?: number };
  cursor?: string;
}

/**
 * The status FILE gives an operation for a request it refuses: 400 when it documents 400, `4XX` or
 * `default`, else 422 when it documents that, else none (FILE offers no way to refuse one: the
 * mock reads a cursor it did not give as the first page, docs/next-contract.md).
 */
export function refusalStatusOf(document: OpenApiDocument, operation: ServedOperation): 400 | 422 | undefined {
  const statuses = Object.keys((methodAt(document, operation).method['responses'] ?? {}) as Record<string, unknown>).map((status) => status.toUpperCase());
  if (statuses.includes('400') || statuses.includes('4XX') || statuses.includes('DEFAULT')) return 400;
  return statuses.includes('422') ? 422 : undefined;
}

/** FILE's path item of the operation and its method's node, with the pointer of the path item. */
export function methodAt(document: OpenApiDocument, operation: ServedOperation): { at: string; item: Record<string, unknown>; method: Record<string, unknown> } {
  const at = `/paths/${escapePointer(operation.path)}`;
  const item = schemaAt(document, { $ref: `#${at}` }, at)?.schema ?? {};
  return { at, item, method: (item[operation.method.toLowerCase()] ?? {}) as Record<string, unknown> };
}

export function listQueryOf(document: OpenApiDocument, operation: ServedOperation): ListQuery {
  const { at, item, method } = methodAt(document, operation);
  const parameters = [...((item['parameters'] as unknown[]) ?? []), ...((method['parameters'] as unknown[]) ?? [])]
    .map((parameter) => schemaAt(document, parameter, at)?.schema)
    .filter((parameter): parameter is Record<string, unknown> => parameter?.['in'] === 'query' && typeof parameter['name'] === 'string');
  const schemaOf = (parameter: Record<string, unknown>): Record<string, unknown> => schemaAt(document, parameter['schema'], at)?.schema ?? {};
  const limit = parameters.find((parameter) => LIMIT_NAME.test(parameter['name'] as string) && schemaOf(parameter)['type'] === 'integer');
  const cursor = parameters.find((parameter) => CURSOR_NAME.test(parameter['name'] as string) && schemaOf(parameter)['type'] === 'string');
  const maximum = limit && schemaOf(limit)['maximum'];
  const minimum = limit && schemaOf(limit)['minimum'];
  return {
    ...(limit ? { limit: { name: limit['name'] as string, ...(typeof minimum === 'number' ? { minimum } : {}), ...(typeof maximum === 'number' ? { maximum } : {}) } } : {}),
    ...(cursor ? { cursor: cursor['name'] as string } : {}),
  };
}

/** The member of a page that carries the next page's cursor, read from the answer itself. */
export function nextCursorOf(page: unknown, itemsField: string | undefined): string | undefined {
  if (typeof page !== 'object' || page === null || Array.isArray(page)) return undefined;
  const name = Object.keys(page).find((key) => key !== itemsField && NEXT_CURSOR_NAME.test(key));
  const value = name === undefined ? undefined : (page as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
