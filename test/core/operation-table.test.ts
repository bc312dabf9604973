// OperationTable built from the real openapi.yaml: method + path → operation, 405 with the allowed
// methods, or unknown path.
import { describe, expect, it } from 'vitest';
import { OperationTable, type OperationMatch } from '../../src/http/operation-table.js';
import { readContract } from '../../src/contract/package-files.js';

const contract = readContract();
const table = new OperationTable(contract.document);

/** Allowed lists compare as sets: the order of an Allow header carries no meaning. */
function normalise(match: OperationMatch): OperationMatch {
  return match.kind === 'method-not-allowed' ? { kind: match.kind, allowed: [...match.allowed].sort() } : match;
}

describe('OperationTable.match', () => {
  const operation = (operationId: string, takesBody: boolean): OperationMatch => ({ kind: 'operation', operationId, takesBody });
  const notAllowed = (...allowed: string[]): OperationMatch => ({ kind: 'method-not-allowed', allowed: allowed.sort() });
  const unknown: OperationMatch = { kind: 'unknown-path' };

  const rows: Array<[method: string, path: string, expected: OperationMatch]> = [
    ['POST', '/links', operation('createLink', true)],
    ['post', '/links', operation('createLink', true)],
    ['PUT', '/links/lnk_V2xq9TbL3mKz8RcA', operation('updateLink', true)],
    ['put', '/links/x', operation('updateLink', true)],
    ['DELETE', '/links/lnk_V2xq9TbL3mKz8RcA', operation('deleteLink', false)],
    ['DELETE', '/links/a%2Fb', operation('deleteLink', false)],
    ['GET', '/links', notAllowed('POST')],
    ['PUT', '/links', notAllowed('POST')],
    ['DELETE', '/links', notAllowed('POST')],
    ['PATCH', '/links', notAllowed('POST')],
    ['HEAD', '/links', notAllowed('POST')],
    ['OPTIONS', '/links', notAllowed('POST')],
    ['GET', '/links/abc', notAllowed('PUT', 'DELETE')],
    ['POST', '/links/abc', notAllowed('PUT', 'DELETE')],
    ['PATCH', '/links/abc', notAllowed('PUT', 'DELETE')],
    ['GET', '/', unknown],
    ['POST', '', unknown],
    ['POST', '/links/', unknown],
    ['PUT', '/links/', unknown],
    ['PUT', '/links/a/b', unknown],
    ['DELETE', '/links/a/', unknown],
    ['POST', '/linksx', unknown],
    ['POST', '/link', unknown],
    ['POST', '//links', unknown],
    ['POST', '/api/links', unknown],
    ['PUT', '/links/{id}', operation('updateLink', true)],
    ['GET', '/openapi.yaml', unknown],
    ['GET', '/__admin/health', unknown],
  ];

  it.each(rows)('%s %j', (method, path, expected) => {
    expect(normalise(table.match(method, path))).toEqual(normalise(expected));
  });

  it('knows every operation of the contract, and only those', () => {
    const found: string[] = [];
    for (const [template, item] of Object.entries(contract.document.paths)) {
      const path = template.replace(/\{[^}]+\}/g, 'some-id');
      for (const [method, op] of Object.entries(item)) {
        const { operationId, requestBody } = op as { operationId?: string; requestBody?: unknown };
        if (operationId === undefined) continue; // e.g. a path-level `parameters` list
        expect(table.match(method, path)).toEqual({ kind: 'operation', operationId, takesBody: requestBody !== undefined });
        found.push(operationId);
      }
    }
    expect(found.sort()).toEqual(['createLink', 'deleteLink', 'updateLink']);
  });
});
