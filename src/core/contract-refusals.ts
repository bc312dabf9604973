// Changes a contract FILE makes that the rules cannot honour: the start is refused, one line per
// change, naming where in FILE. createLink's rules need the three fields every create takes (D7);
// updateLink's and deleteLink's handlers read the link's id from the path parameter `id`. Whatever
// else FILE changes is served (src/core/contract-classes.ts).
import type { ContractClasses } from './contract-classes.js';
import { requestSchema } from './contract-classes.js';
import type { OpenApiDocument } from './contract-types.js';
import { escapePointer } from './schema-pointer.js';

/** The create request's fields the rules need (D7): without one, no create can be decided. */
const CREATE_NEEDS = ['destinationUrl', 'domain', 'tags'];
/** The operations whose link is named by the path parameter `id`. */
const BY_ID = ['updateLink', 'deleteLink'];

export function refusedChanges(next: OpenApiDocument, classes: ContractClasses): string[] {
  const refused: string[] = [];
  const rule = (operationId: string) => classes.operations.find((operation) => operation.operationId === operationId && operation.served === 'rule');
  if (rule('createLink')) {
    const request = requestSchema(next, 'createLink');
    const properties = (request?.schema['properties'] ?? {}) as Record<string, unknown>;
    for (const name of CREATE_NEEDS.filter((field) => !(field in properties))) {
      refused.push(`${request?.pointer ?? 'createLink'}/properties: createLink's request no longer has '${name}', which its rules need (D7)`);
    }
  }
  for (const operationId of BY_ID) {
    const operation = rule(operationId);
    if (operation && !operation.path.endsWith('/{id}')) {
      refused.push(`/paths/${escapePointer(operation.path)}/${operation.method.toLowerCase()}: ${operationId} names its link by another path parameter than 'id', which its rules read`);
    }
  }
  return refused;
}
