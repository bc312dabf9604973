// The banner's short table of how a contract FILE is served (--contract; D32): each kind of
// operation with its operationIds, and the fields FILE adds or removes. GET /__admin/contract has
// the same as JSON, with every field's pointer.
import type { ServedContract } from '../admin/contract-routes.js';

const OPERATION_KINDS = [
  ['rule', 'by rule'],
  ['store', 'from the store'],
  ['generated', 'generated from the schema'],
  ['gone', 'gone'],
] as const;

const FIELD_KINDS = [
  ['generated', 'generated and stored'],
  ['request', 'stored from the request'],
  ['ignored', 'validated, not stored'],
  ['gone', 'gone'],
] as const;

export function servedLines(served: ServedContract): string[] {
  const operations = OPERATION_KINDS.flatMap(([kind, label]) => {
    const names = served.operations.filter((operation) => operation.served === kind).map((operation) => operation.operationId);
    return names.length ? [`${label}: ${names.join(', ')}`] : [];
  });
  const fields = FIELD_KINDS.flatMap(([kind, label]) => {
    const names = served.fields.filter((field) => field.served === kind).map((field) => `${field.of}.${field.name}`);
    return names.length ? [`${label}: ${names.join(', ')}`] : [];
  });
  return [
    `  served     ${served.version ? `version ${served.version}; ` : ''}${operations.join('; ')} (GET /__admin/contract)`,
    ...(fields.length ? [`  fields     ${fields.join('; ')}`] : []),
  ];
}
